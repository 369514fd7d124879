package cc

import (
	"github.com/rdcn/rdcn/rotor"
)

// HPCC is "HPCC: High Precision Congestion Control": for each hop the
// utilisation u = txRate/b + min(q, q_prev)/(b·T), the largest smoothed
// over T, and k = U/η; the rate becomes R_c/k + R_AI when k ≥ 1 or after
// maxStage additive steps, else R_c + R_AI. R_c and the stage count are
// committed once per RTT; with fast reaction every ACK recomputes the rate
// from them. The window is R·T.
type HPCC struct {
	eta, tau float64 // τ = T in seconds
	ai       float64 // bytes/s
	maxStage int
	minRate  float64
	maxRate  float64
	fast     bool // FastReact; otherwise PerRTT
	uOne     bool // the smoothing starts at 1, not at the first sample

	rc, r float64 // reference and current rate, bytes/s
	stage int
	u     float64
	uOK   bool
	prev  intMemory
	round perRTT
	minW  float64
}

func (h *HPCC) OnAck(f *Feedback) {
	u, dt, _, ok := h.prev.scan(f.Hops, h.hopUtil)
	if !ok {
		h.round.open(f)
		return
	}
	dt = min(dt, h.tau)
	switch {
	case h.uOK || h.uOne:
		if !h.uOK {
			h.u, h.uOK = 1, true
		}
		h.u = (h.u*(h.tau-dt) + u*dt) / h.tau
	default:
		h.u, h.uOK = u, true
	}
	k := h.u / h.eta
	var r float64
	stage := h.stage + 1
	if k >= 1 || h.stage >= h.maxStage {
		r, stage = h.rc/k+h.ai, 0
	} else {
		r = h.rc + h.ai
	}
	r = clamp(r, h.minRate, h.maxRate)
	if h.round.due(f) {
		h.rc, h.stage, h.r = r, stage, r
	} else if h.fast {
		h.r = r
	}
}

// hopUtil is one hop's utilisation txRate/b + min(q, q_prev)/(b·T).
func (h *HPCC) hopUtil(x, o *Hop, dt, b float64, _ bool) float64 {
	return float64(x.TxBytes-o.TxBytes)/dt/b + float64(min(x.Qlen, o.Qlen))/(b*h.tau)
}

func (h *HPCC) OnLoss(rotor.Time) {}
func (h *HPCC) OnTimeout(rotor.Time) {
	h.rc = max(h.rc/2, h.minRate)
	h.r, h.stage, h.uOK, h.prev.ok = h.rc, 0, false, false
}
func (h *HPCC) OnCircuit(rotor.Time, bool) {}
func (h *HPCC) Window() int64              { return int64(max(h.r*h.tau, h.minW)) }
func (h *HPCC) Rate() rotor.Rate           { return rateOf(h.r) }

func init() {
	Register(Spec{Name: "hpcc", INT: true, Doc: "HPCC: INT utilisation per hop, multiplicative step to η plus additive increase, window = R·T",
		Params: []Param{
			{Key: "eta", Kind: Float, Default: "0.95", Lo: 0, LoOpen: true, Hi: 1, Doc: "target utilisation η"},
			{Key: "max_stage", Kind: Int, Default: "5", Lo: 0, Hi: 1000, Doc: "additive steps before a multiplicative one (maxStage)"},
			{Key: "ai", Kind: Rate, Default: "50Mbps", Lo: 0, Hi: inf, Doc: "additive increase R_AI per update"},
			{Key: "mode", Kind: Choice, Default: "fast-react", Choices: modeNames[1:], Doc: "fast-react or per-rtt"},
			tauParam("base RTT T (default: the network's maximum base RTT)"),
			minRateParam(), smoothStartParam()},
		New: func(e Env, v Values) Law {
			host := bytesPerSec(e.HostRate)
			return &HPCC{eta: v.F("eta"), tau: v.T("tau").Seconds(), ai: bytesPerSec(v.R("ai")),
				maxStage: int(v.I("max_stage")), minRate: min(bytesPerSec(v.R("min_rate")), host), maxRate: host,
				fast: v.I("mode") == 0, uOne: v.I("smooth_start") == 1, rc: host, r: host, minW: float64(e.MSS)}
		}})
}
