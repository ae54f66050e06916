package netcode

import (
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// inputRing is the capacity, in ticks, of a seat's input buffer: inputs
// may arrive up to MaxInputAhead ticks early.
const inputRing = 256

// inputBuffer is one seat's upstream: the inputs received for ticks the
// server has yet to step, what it uses when one is missing (the last
// input held for HoldTicks, then neutral), and the figures the seat's Acks
// report back (arrival margin, RTT echo, distinct datagrams received). It
// belongs to a seat for the server's whole life and is reset, never
// reallocated, when the seat changes hands or a match starts.
type inputBuffer struct {
	ring    *Ring[game.Input]
	last    game.Input
	held    int
	newest  game.Tick // newest input tick received
	haveNew bool
	margin  int16     // arrival margin of the newest datagram, ms
	echo    uint16    // its ClientTime
	echoAt  time.Time // when it arrived
	seqs    seqWindow
	recv    uint16 // distinct Input datagrams received, wrapping
	// base is the newest State the player holds, as its newest Input
	// datagram by sequence number says (hasBase false: none): the
	// baseline its delta States may be sent against.
	base    game.Tick
	hasBase bool
	// Ticks stepped with the player's input, with a held one, with
	// neutral; Input datagrams whose every input came too late.
	real, heldN, neutral, late uint64
}

func newInputBuffer() inputBuffer { return inputBuffer{ring: NewRing[game.Input](inputRing)} }

// reset empties the buffer for a new holder or a new match. The counters
// restart too: they describe one player in one match.
func (b *inputBuffer) reset() {
	ring := b.ring
	ring.Clear()
	*b = inputBuffer{ring: ring}
}

// seen reports whether an Input datagram with this sequence number was
// already taken: a duplicate or a replay, neither news nor a sign of life.
func (b *inputBuffer) seen(seq uint32) bool { return b.seqs.has(seq) }

// accept takes a new Input datagram that passed the identity checks, at
// now. clock is the tick the server steps next and tickAt when that step
// is due. It reports whether the datagram is dropped, and why. Only a
// datagram whose inputs can still be used counts as received (for the loss
// figure the Acks report: to clock sync, a late input is a lost one), is
// remembered by its sequence number and is a sign of life. The newest
// datagram by sequence number, late or not, sets the arrival margin and
// the RTT echo: a late one is exactly what clock sync must see, and a
// replayed old one cannot pose as news.
func (b *inputBuffer) accept(in *proto.Input, now, tickAt time.Time, clock game.Tick) (drop DropReason, dropped bool) {
	newest := in.Inputs[in.N-1].Tick
	if newest.Diff(clock) > MaxInputAhead {
		return DropFuture, true
	}
	if b.seqs.newer(in.Seq) {
		b.echo, b.echoAt = in.ClientTime, now
		b.base, b.hasBase = in.Base, in.HasBase
		due := tickAt.Add(time.Duration(newest.Diff(clock)) * TickDuration)
		b.margin = int16(min(max(due.Sub(now).Milliseconds(), -30000), 30000))
	}
	if newest.Before(clock) {
		b.late++
		return DropStale, true
	}
	b.seqs.fresh(in.Seq)
	b.recv++
	if !b.haveNew || newest.After(b.newest) {
		b.haveNew, b.newest = true, newest
	}
	for k := 0; k < int(in.N); k++ {
		if t := in.Inputs[k].Tick; !t.Before(clock) && !b.ring.Has(t) {
			b.ring.Put(t, in.Inputs[k])
		}
	}
	return 0, false
}

// keepAlive takes a lobby keep-alive's sequence number; it reports whether
// it is new.
func (b *inputBuffer) keepAlive(seq uint32) bool { return b.seqs.fresh(seq) }

// restart empties the inputs for a match that starts; the link figures
// (sequence numbers, receive count) and the counters carry on. No State
// of the new match is held yet.
func (b *inputBuffer) restart() {
	b.ring.Clear()
	b.last, b.held, b.haveNew, b.newest = game.Input{}, 0, false, 0
	b.base, b.hasBase = 0, false
}

// baseline returns the newest State the player says it holds, if any.
func (b *inputBuffer) baseline() (game.Tick, bool) { return b.base, b.hasBase }

// take returns the input for tick t: the player's own, else the last one
// held for at most HoldTicks (moving, never firing), else neutral. It
// reports which it was.
func (b *inputBuffer) take(t game.Tick) (game.Input, inputKind) {
	if in, ok := b.ring.Get(t); ok {
		b.last, b.held = in, 0
		b.real++
		return in, inputReal
	}
	if b.held < HoldTicks {
		b.held++
		b.heldN++
		in := b.last // keep moving, but never fire a shot the player did not send
		in.Tick, in.Buttons = t, in.Buttons&^game.ButtonFire
		return in, inputHeld
	}
	b.neutral++
	return game.Neutral(t), inputNeutral
}

// inputKind says where a stepped input came from.
type inputKind uint8

const (
	inputReal    inputKind = iota // the player's own
	inputHeld                     // the last one, held
	inputNeutral                  // neutral, after HoldTicks
	inputNone                     // not a player's: a bot's or an empty seat's
)

// guessed returns the ticks stepped with a guess, wrapping as the Ack
// carries it.
func (b *inputBuffer) guessed() uint16 { return uint16(b.heldN + b.neutral) }

// counts returns the ticks stepped with the player's input, a held one
// and neutral, and the datagrams that came too late.
func (b *inputBuffer) counts() (real, held, neutral, late uint64) {
	return b.real, b.heldN, b.neutral, b.late
}

// marginMs returns the arrival margin of the newest datagram, in ms.
func (b *inputBuffer) marginMs() int { return int(b.margin) }

// ackInfo fills the seat's part of an Ack or State at now.
func (b *inputBuffer) ackInfo(now time.Time, serverTick game.Tick) proto.AckInfo {
	ai := proto.AckInfo{ServerTick: serverTick, NewestInput: b.newest, MarginMs: b.margin,
		EchoTime: b.echo, Received: b.recv}
	if b.echoAt.IsZero() {
		ai.EchoDelay = 0xffff // nothing to echo yet: a saturated hold tells the client so
	} else {
		ai.EchoDelay = uint16(min(max(now.Sub(b.echoAt), 0)/(10*time.Microsecond), 0xffff))
	}
	return ai
}
