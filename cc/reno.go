package cc

import (
	"math"

	"github.com/rdcn/rdcn/rotor"
)

// maxWindow caps every window (2^40 B, about 1.1 TB: far above any
// bandwidth-delay product) so that no jump or growth overflows.
const maxWindow = 1 << 40

// reno is the NewReno window (RFC 5681 with byte counting, RFC 6582
// recovery): slow start to ssthresh, then one MSS per window; a loss sets
// ssthresh = cwnd = max(FlightSize/2, 2·MSS) once per window of data
// (RFC 5681 eq. 4); a timeout sets the same ssthresh, drops the window to
// one MSS and slow-starts again (RFC 5681 §3.1). NewReno, reTCP and DCTCP
// build on it.
type reno struct {
	mss      float64
	cwnd     float64
	ssthresh float64
	// recover is the highest byte sent when the last reduction began
	// (RFC 6582: SND.NXT − 1); no further reduction until the cumulative
	// ACK passes it.
	recover int64
	// hold: the window does not grow until the cumulative ACK passes
	// recover (after a loss or ECN reduction; not after a timeout).
	hold   bool
	cum    int64 // last cumulative ACK seen
	sndNxt int64 // last send frontier seen
	flight int64 // FlightSize (SND.NXT − SND.UNA) for the next reduction
}

func newReno(env Env, v Values) reno {
	return reno{mss: float64(env.MSS), cwnd: v.F("init_window"), ssthresh: math.Inf(1), recover: -1}
}

// see records the ACK's sequence state.
func (r *reno) see(f *Feedback) {
	r.cum, r.sndNxt, r.flight = f.Cum, f.SndNxt, f.SndNxt-f.Cum
}

// setFlight implements flightSetter: the sender's FlightSize at a loss or
// timeout (it may have sent since the last ACK).
func (r *reno) setFlight(bytes int64) { r.flight = bytes }

// inRecovery reports whether the window is held after a reduction for
// the current window of data.
func (r *reno) inRecovery() bool { return r.hold && r.cum <= r.recover }

// reduced reports whether a reduction (or a timeout) for the current
// window of data has already happened.
func (r *reno) reduced() bool { return r.cum <= r.recover }

// grow applies slow start or congestion avoidance for acked bytes.
func (r *reno) grow(acked float64) {
	if r.inRecovery() {
		return
	}
	if r.cwnd < r.ssthresh {
		ss := min(acked, r.ssthresh-r.cwnd)
		r.cwnd += ss
		acked -= ss
	}
	if acked > 0 {
		r.cwnd += r.mss * acked / r.cwnd
	}
	r.cwnd = min(r.cwnd, maxWindow)
}

// reduce sets ssthresh = cwnd = max(ssthresh, 2·MSS) and holds the window
// until the cumulative ACK passes recover; it does nothing inside a
// round.
func (r *reno) reduce(ssthresh float64, recover int64) {
	if r.reduced() {
		return
	}
	r.ssthresh = max(ssthresh, 2*r.mss)
	r.cwnd = r.ssthresh
	r.recover, r.hold = recover, true
}

// sentMax is the highest byte sent (SND.NXT − 1).
func (r *reno) sentMax() int64 { return r.cum + r.flight - 1 }

// cut is a loss reduction to factor·cwnd (CUBIC's β): the round ends
// with the full ACK of everything sent before it (RFC 6582: recover =
// SND.NXT − 1).
func (r *reno) cut(factor float64) { r.reduce(r.cwnd*factor, r.sentMax()) }

// lossCut is the loss reduction of RFC 5681 eq. 4: ssthresh = cwnd =
// max(FlightSize/2, 2·MSS), once per window of data.
func (r *reno) lossCut() { r.reduce(float64(r.flight)/2, r.sentMax()) }

// ecnCut is an ECN reduction to factor·cwnd: the next one waits for an
// ACK of data sent after it (RFC 3168 §6.1.2: recover = SND.NXT).
func (r *reno) ecnCut(factor float64) { r.reduce(r.cwnd*factor, r.sentMax()+1) }

// timeout: ssthresh = max(FlightSize/2, 2·MSS), cwnd = one MSS, and slow
// start from there; no loss reduction until everything sent is
// acknowledged.
func (r *reno) timeout() { r.timeoutTo(float64(r.flight) / 2) }

// timeoutTo is a timeout with ssthresh = max(ssthresh, 2·MSS).
func (r *reno) timeoutTo(ssthresh float64) {
	r.ssthresh = max(ssthresh, 2*r.mss)
	r.cwnd = r.mss
	r.recover, r.hold = r.sentMax(), false
}

func (r *reno) window() int64 { return int64(r.cwnd) }

// NewReno is TCP NewReno; it ignores ECE and circuit notices.
type NewReno struct{ reno }

func (n *NewReno) OnAck(f *Feedback) {
	n.see(f)
	n.grow(float64(f.Acked))
}
func (n *NewReno) OnLoss(rotor.Time)          { n.lossCut() }
func (n *NewReno) OnTimeout(rotor.Time)       { n.timeout() }
func (n *NewReno) OnCircuit(rotor.Time, bool) {}
func (n *NewReno) Window() int64              { return n.window() }
func (n *NewReno) Rate() rotor.Rate           { return 0 }

// ReTCP is NewReno with the circuit-state jump of "Adapting TCP for
// Reconfigurable Datacenter Networks": the ToR forwarding an ACK sets its
// ECE bit while the data direction has a circuit; on the first ACK with
// ECE the window is multiplied by Up, on the first without it divided by
// Down. ECE carries no congestion meaning here. With Notice set, the
// circuit state comes from OnCircuit instead of ECE, and the jump still
// happens on the next ACK. A loss or a timeout sets ssthresh =
// max(cwnd/2, 2·MSS), from the window as the authors' Linux module does
// (it uses Linux's Reno ssthresh), not from FlightSize: after the jump
// down, FlightSize still holds what the circuit-up window sent (about
// ten windows at a timeout in the RDCN case), and half of it sends the
// flow's slow start far past the VOQ (docs/cc.md, "reTCP after the
// loss-recovery merge").
type ReTCP struct {
	reno
	Up, Down float64
	Notice   bool
	jumped   bool
	circuit  bool // the last OnCircuit state (Notice)
}

func (r *ReTCP) OnAck(f *Feedback) {
	r.see(f)
	r.grow(float64(f.Acked))
	up := f.ECE
	if r.Notice {
		up = r.circuit
	}
	switch {
	case up && !r.jumped:
		r.cwnd = min(r.cwnd*r.Up, maxWindow)
		r.jumped = true
	case !up && r.jumped:
		r.cwnd = max(r.cwnd/r.Down, r.mss)
		r.jumped = false
	}
}
func (r *ReTCP) OnLoss(rotor.Time)               { r.cut(0.5) }
func (r *ReTCP) OnTimeout(rotor.Time)            { r.timeoutTo(r.cwnd / 2) }
func (r *ReTCP) OnCircuit(_ rotor.Time, up bool) { r.circuit = up }
func (r *ReTCP) Window() int64                   { return r.window() }
func (r *ReTCP) Rate() rotor.Rate                { return 0 }

// DCTCP is "Data Center TCP (DCTCP)": once per window of data the marked
// fraction F of acknowledged bytes updates α ← (1−g)·α + g·F; an ACK with
// ECE cuts the window to cwnd·(1 − α/2), at most once per window; losses
// act as in NewReno.
type DCTCP struct {
	reno
	G      float64
	Alpha  float64
	acked  int64
	marked int64
	round  perRTT
}

func (d *DCTCP) OnAck(f *Feedback) {
	d.see(f)
	d.acked += f.Acked
	if f.ECE {
		d.marked += f.Acked
	}
	if d.round.due(f) && d.acked > 0 {
		d.Alpha = (1-d.G)*d.Alpha + d.G*float64(d.marked)/float64(d.acked)
		d.acked, d.marked = 0, 0
	}
	if f.ECE {
		d.ecnCut(1 - d.Alpha/2)
		return
	}
	d.grow(float64(f.Acked))
}
func (d *DCTCP) OnLoss(rotor.Time)          { d.lossCut() }
func (d *DCTCP) OnTimeout(rotor.Time)       { d.timeout() }
func (d *DCTCP) OnCircuit(rotor.Time, bool) {}
func (d *DCTCP) Window() int64              { return d.window() }
func (d *DCTCP) Rate() rotor.Rate           { return 0 }

func init() {
	Register(Spec{Name: "newreno", Doc: "TCP NewReno: slow start, +1 MSS per RTT, halve once per window on loss",
		Params: []Param{initWindowParam()},
		New:    func(e Env, v Values) Law { return &NewReno{newReno(e, v)} }})
	Register(Spec{Name: "retcp", ECE: ECECircuit, Doc: "reTCP: NewReno whose window jumps ×up on the first ACK with ECE (circuit up) and ÷down when ECE clears",
		Params: []Param{initWindowParam(),
			{Key: "jump_up", Kind: Float, Default: "2", Lo: 1, Hi: 64, Doc: "window factor on circuit up"},
			{Key: "jump_down", Kind: Float, Default: "2", Lo: 1, Hi: 64, Doc: "window divisor on circuit down"},
			{Key: "signal", Kind: Choice, Default: "ece", Choices: []string{"ece", "notice"}, Doc: "circuit state from the ACKs' ECE bit or from OnCircuit notices"}},
		New: func(e Env, v Values) Law {
			return &ReTCP{reno: newReno(e, v), Up: v.F("jump_up"), Down: v.F("jump_down"), Notice: v.I("signal") == 1}
		}})
	Register(Spec{Name: "dctcp", ECE: ECECongestion, Doc: "DCTCP: α ← (1−g)α + g·F per window, cwnd·(1−α/2) on ECE; switches mark above K",
		Params: []Param{initWindowParam(),
			{Key: "g", Kind: Float, Default: "0.0625", Lo: 0, LoOpen: true, Hi: 1, Doc: "EWMA gain of α"},
			{Key: "alpha_init", Kind: Float, Default: "1", Lo: 0, Hi: 1, Doc: "initial α"}},
		New: func(e Env, v Values) Law {
			return &DCTCP{reno: newReno(e, v), G: v.F("g"), Alpha: v.F("alpha_init")}
		}})
}
