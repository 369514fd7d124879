package cc

import (
	"fmt"

	"github.com/rdcn/rdcn/rotor"
)

// Timely is "TIMELY: RTT-based Congestion Control for the Datacenter",
// rate-only, updated once per RTT: below T_low the rate grows additively
// (hyper-additively after five increases in a row), above T_high it falls
// in proportion to the excess delay, and in between it follows the sign
// of the smoothed RTT gradient.
type Timely struct {
	alpha, beta       float64
	tLow, tHigh, minR float64 // seconds
	ai, hai           float64 // bytes/s
	haiAfter          int
	minRate, maxRate  float64

	rc      float64
	diff    float64
	prevRTT float64
	seen    bool
	stage   int
	round   perRTT
}

func (t *Timely) OnAck(f *Feedback) {
	if f.RTT <= 0 {
		return
	}
	rtt := f.RTT.Seconds()
	if !t.seen {
		t.prevRTT, t.seen = rtt, true
		t.round.due(f)
		return
	}
	if !t.round.due(f) {
		return
	}
	t.diff = (1-t.alpha)*t.diff + t.alpha*(rtt-t.prevRTT)
	t.prevRTT = rtt
	g := t.diff / t.minR
	r := t.rc
	switch {
	case rtt < t.tLow, rtt <= t.tHigh && g <= 0:
		r += t.step()
		t.stage++
	case rtt > t.tHigh:
		r *= 1 - t.beta*(1-t.tHigh/rtt)
		t.stage = 0
	default:
		r *= max(0, 1-t.beta*g)
		t.stage = 0
	}
	t.rc = clamp(r, t.minRate, t.maxRate)
}

func (t *Timely) step() float64 {
	if t.stage >= t.haiAfter {
		return t.hai
	}
	return t.ai
}

func (t *Timely) OnLoss(rotor.Time) {}
func (t *Timely) OnTimeout(rotor.Time) {
	t.rc = max(t.rc/2, t.minRate)
	t.stage = 0
}
func (t *Timely) OnCircuit(rotor.Time, bool) {}
func (t *Timely) Window() int64              { return 0 }
func (t *Timely) Rate() rotor.Rate           { return rateOf(t.rc) }

// timelyThreshold is a TIMELY delay threshold's default: the paper's
// value d above the network's wait for circuits (Env.CircuitWait). Where
// every packet waits for its pair's circuit, an idle round trip already
// takes up to a cycle more; the paper's thresholds, set for a packet
// network, would read that wait as queueing (docs/cc.md, "Window laws on
// a pure rotor").
func timelyThreshold(d rotor.Time) func(Env) string {
	return func(e Env) string { return fmt.Sprintf("%dps", int64(d+e.CircuitWait)) }
}

func timelyThresholdDoc(d string) string {
	return d + " + the wait for circuits (a cycle on a pure rotor, else 0)"
}

func init() {
	Register(Spec{Name: "timely", Doc: "TIMELY: rate-only, per-RTT; additive increase below T_low or on a falling RTT, decrease by the RTT gradient or the excess over T_high",
		Params: []Param{
			{Key: "alpha", Kind: Float, Default: "0.875", Lo: 0, LoOpen: true, Hi: 1, Doc: "EWMA weight of the RTT difference"},
			{Key: "beta", Kind: Float, Default: "0.8", Lo: 0, LoOpen: true, Hi: 1, Doc: "multiplicative decrease factor"},
			{Key: "t_low", Kind: Time, Env: timelyThreshold(50 * rotor.Microsecond), EnvDoc: timelyThresholdDoc("50 µs"), Lo: 0, Hi: float64(rotor.Second), Doc: "RTT below which the rate always increases"},
			{Key: "t_high", Kind: Time, Env: timelyThreshold(500 * rotor.Microsecond), EnvDoc: timelyThresholdDoc("500 µs"), Lo: 0, LoOpen: true, Hi: float64(rotor.Second), Doc: "RTT above which the rate always decreases"},
			{Key: "min_rtt", Kind: Time, Default: "20us", Lo: 0, LoOpen: true, Hi: float64(rotor.Second), Doc: "normalisation of the RTT gradient"},
			{Key: "ai", Kind: Rate, Default: "50Mbps", Lo: 0, Hi: inf, Doc: "additive increase δ per RTT"},
			{Key: "hai", Kind: Rate, Default: "100Mbps", Lo: 0, Hi: inf, Doc: "hyper-additive increase after hai_after increases in a row"},
			{Key: "hai_after", Kind: Int, Default: "5", Lo: 0, Hi: 1000, Doc: "increases in a row before the hyper-additive step"},
			minRateParam()},
		New: func(e Env, v Values) Law {
			host := bytesPerSec(e.HostRate)
			return &Timely{alpha: v.F("alpha"), beta: v.F("beta"), tLow: v.T("t_low").Seconds(), tHigh: v.T("t_high").Seconds(),
				minR: v.T("min_rtt").Seconds(), ai: bytesPerSec(v.R("ai")), hai: bytesPerSec(v.R("hai")), haiAfter: int(v.I("hai_after")),
				minRate: min(bytesPerSec(v.R("min_rate")), host), maxRate: host, rc: host}
		}})
}
