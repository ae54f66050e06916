package game

// Buttons is a bit set of the buttons a player holds during one tick.
type Buttons uint8

const (
	// ButtonFire fires a bullet along the tank's aim when its cooldown allows.
	ButtonFire Buttons = 1 << 0
	// ButtonRematch votes for a rematch. It is ignored except in
	// PhaseMatchOver, where it sets the tank's Rematch flag for good.
	ButtonRematch Buttons = 1 << 1

	// ButtonMask holds every button bit the game defines. Any other bit is
	// invalid: the protocol rejects it and Step ignores it.
	ButtonMask = ButtonFire | ButtonRematch
)

// Input is one player's controls for one tick. MoveX and MoveY are each -1,
// 0 or 1 (x grows to the right, y grows downwards). The zero Input, apart
// from its Tick, is the neutral input.
type Input struct {
	Tick    Tick
	MoveX   int8
	MoveY   int8
	Buttons Buttons
}

// Valid reports whether the move values are in {-1, 0, 1} and no unknown
// button bit is set. The protocol rejects invalid inputs; Step clamps them.
func (in Input) Valid() bool {
	return in.MoveX >= -1 && in.MoveX <= 1 && in.MoveY >= -1 && in.MoveY <= 1 &&
		in.Buttons&^ButtonMask == 0
}

// Clamped returns in with move values clamped to {-1, 0, 1} and unknown
// button bits cleared.
func (in Input) Clamped() Input {
	in.MoveX = sign8(in.MoveX)
	in.MoveY = sign8(in.MoveY)
	in.Buttons &= ButtonMask
	return in
}

// Neutral returns the neutral input (no movement, no buttons) for tick t.
func Neutral(t Tick) Input { return Input{Tick: t} }

// Fire reports whether the fire button is held.
func (in Input) Fire() bool { return in.Buttons&ButtonFire != 0 }

// Rematch reports whether the rematch button is held.
func (in Input) Rematch() bool { return in.Buttons&ButtonRematch != 0 }

func sign8(v int8) int8 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
