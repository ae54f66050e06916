package bot

import "fmt"

// Level is how well a Bot plays. The zero Level is Hard, the bot at full
// strength, so the zero Bot and New keep playing as well as they can.
type Level uint8

const (
	// Hard looks for a shot every tick, fires only sure shots and dodges
	// every bullet it can see.
	Hard Level = iota
	// Normal looks for a shot every few ticks, now and then fires a
	// little off, and dodges only bullets that have flown for a moment
	// (it sees them late).
	Normal
	// Easy reacts slowly (it looks for a shot a few times a second), often
	// misses on purpose and never dodges.
	Easy
)

// Levels lists the levels from weakest to strongest, as the command line
// names them.
var Levels = [...]Level{Easy, Normal, Hard}

// String returns the level's command-line name: "easy", "normal" or "hard".
func (l Level) String() string {
	switch l {
	case Hard:
		return "hard"
	case Normal:
		return "normal"
	case Easy:
		return "easy"
	}
	return fmt.Sprintf("Level(%d)", uint8(l))
}

// ParseLevel returns the level named s ("easy", "normal" or "hard").
func ParseLevel(s string) (Level, error) {
	for _, l := range Levels {
		if s == l.String() {
			return l, nil
		}
	}
	return Hard, fmt.Errorf("unknown bot level %q (want easy, normal or hard)", s)
}

// skill is what a level changes in the policy.
type skill struct {
	// lookEvery is the number of ticks between looks for a shot; between
	// them the bot only moves. 1 looks every tick.
	lookEvery uint32
	// missOneIn is the chance (1 in missOneIn) that a shot is fired 45°
	// off; 0 never misses on purpose.
	missOneIn uint64
	// dodge says whether the bot dodges bullets at all.
	dodge bool
	// seeAfter is the age in ticks a bullet must reach before the bot
	// sees it and dodges it.
	seeAfter int
}

// skills holds each level's skill, indexed by Level.
var skills = [...]skill{
	Hard:   {lookEvery: 1, dodge: true},
	Normal: {lookEvery: 4, missOneIn: 8, dodge: true, seeAfter: 8},
	Easy:   {lookEvery: 10, missOneIn: 3},
}

// skill returns the bot's skill; an unknown level plays as Hard.
func (b *Bot) skill() *skill {
	if int(b.level) < len(skills) {
		return &skills[b.level]
	}
	return &skills[Hard]
}
