package cc

import (
	"github.com/rdcn/rdcn/rotor"
)

// UpdateMode says when an INT or RTT law changes its window.
type UpdateMode uint8

// Update modes.
const (
	// PerAck updates on every ACK from the window remembered once per RTT
	// (Algorithm 1 of the PowerTCP paper).
	PerAck UpdateMode = iota
	// FastReact recomputes the window on every ACK from a reference window
	// that is committed once per RTT (the chapter-2 evaluation's behaviour,
	// HPCC's fast reaction).
	FastReact
	// PerRTT updates once per RTT only (the RDCN case study).
	PerRTT
)

var modeNames = []string{"per-ack", "fast-react", "per-rtt"}

func (m UpdateMode) String() string { return modeNames[m] }

// powerWindow is what PowerTCP and θ-PowerTCP share: the smoothed
// normalised power, the window law w ← γ·(w_old/Γ_norm + β) + (1−γ)·w,
// its update mode, the bounds and the pacing rate w/τ.
type powerWindow struct {
	gamma, beta, tau float64 // β in bytes, τ in seconds
	minW, maxW       float64 // 1 MSS, HostBw·τ
	minRate, maxRate float64 // bytes/s
	mode             UpdateMode
	fullStep         float64 // Γ_smooth at or below which γ = 1 (0: never)

	cwnd   float64
	ref    float64 // FastReact: window committed at the last round
	slotW  float64 // PerAck: window remembered once per RTT …
	slotSn int64   // … and the send frontier when it was remembered
	slotOK bool
	round  perRTT

	smooth    float64 // Γ_smooth
	smoothOK  bool
	smoothOne bool // the smoothing starts at 1, not at the first sample
}

// newPowerWindow builds the window of a law with base RTT tau seconds.
func newPowerWindow(env Env, v Values, mode UpdateMode, tau float64) powerWindow {
	host := bytesPerSec(env.HostRate)
	w := powerWindow{gamma: v.F("gamma"), beta: bytesPerSec(v.R("ai")) * tau, tau: tau,
		minW: float64(env.MSS), maxW: max(host*tau, float64(env.MSS)),
		minRate: min(bytesPerSec(v.R("min_rate")), host), maxRate: host, mode: mode}
	w.cwnd = w.maxW // line rate in the first RTT
	w.ref = w.cwnd
	return w
}

// smoothen folds a normalised power sample taken over dt seconds into
// Γ_smooth (time-weighted over τ); reset restarts it at the sample. The
// first sample starts it, or with smoothOne is folded into 1.
func (w *powerWindow) smoothen(pn, dt float64, reset bool) {
	dt = min(dt, w.tau)
	if !w.smoothOK {
		w.smooth, w.smoothOK, reset = 1, true, reset || !w.smoothOne
	}
	if reset {
		w.smooth = pn
		return
	}
	w.smooth = (w.smooth*(w.tau-dt) + pn*dt) / w.tau
}

// update applies the window law to the smoothed power as the mode says.
// At or below full_step the step is taken whole (γ = 1), as the authors'
// TCP implementation does.
func (w *powerWindow) update(f *Feedback) {
	newRound := w.round.due(f)
	p := w.smooth
	g := w.gamma
	if p <= w.fullStep {
		g = 1
	}
	switch w.mode {
	case PerAck:
		old := w.cwnd
		if w.slotOK {
			old = w.slotW
		}
		w.cwnd = w.bound(g*(old/p+w.beta) + (1-g)*w.cwnd)
		if !w.slotOK || w.slotSn < f.Cum {
			w.slotW, w.slotSn, w.slotOK = w.cwnd, f.SndNxt, true
		}
	case FastReact:
		w.cwnd = w.bound(g*(w.ref/p+w.beta) + (1-g)*w.ref)
		if newRound {
			w.ref = w.cwnd
		}
	case PerRTT:
		if newRound {
			w.cwnd = w.bound(g*(w.cwnd/p+w.beta) + (1-g)*w.cwnd)
		}
	}
}

func (w *powerWindow) bound(x float64) float64 { return clamp(x, w.minW, w.maxW) }

// timeout halves the window and forgets the power history.
func (w *powerWindow) timeout() {
	w.cwnd = w.bound(w.cwnd / 2)
	w.ref, w.slotOK, w.smoothOK = w.cwnd, false, false
}

func (w *powerWindow) window() int64 { return int64(w.cwnd) }

func (w *powerWindow) rate() rotor.Rate {
	return rateOf(clamp(w.cwnd/w.tau, w.minRate, w.maxRate))
}

// PowerTCP is "PowerTCP: Pushing the Performance Limits of Datacenter
// Networks" with INT feedback (Algorithm 1): for every egress port on the
// path it measures the power Γ = (q̇ + μ)·(q + b·τ), normalises it by
// e = b²·τ (and the target utilisation η), takes the largest, smooths it
// over τ, and sets w ← γ·(w_old/Γ_norm + β) + (1−γ)·w.
type PowerTCP struct {
	powerWindow
	eta       float64 // target utilisation η
	minLambda float64 // floor of λ as a fraction of b
	bwReset   bool    // restart the smoothing when a hop's rate changes
	prev      intMemory
}

func (p *PowerTCP) OnAck(f *Feedback) {
	pn, dt, changed, ok := p.prev.scan(f.Hops, p.hopPower)
	if !ok {
		p.round.open(f)
		return
	}
	p.smoothen(pn, dt, p.bwReset && changed)
	p.update(f)
}

// hopPower is one hop's normalised power λ·(q + b·τ)/(η·b²·τ), with
// λ = q̇ + μ = (Δqlen + ΔtxBytes)/Δt floored at min_lambda·b while the
// hop's rate is unchanged. With bw_reset, a sample whose rate changed is
// not floored, as in the authors' TCP implementation (only the Linux
// module's guards, λ ≥ 0 and power ≥ 0.01, apply).
func (p *PowerTCP) hopPower(h, o *Hop, dt, b float64, changed bool) float64 {
	lambda := float64(h.Qlen-o.Qlen+h.TxBytes-o.TxBytes) / dt
	if changed && p.bwReset {
		return max(max(lambda, 0)*(float64(h.Qlen)+b*p.tau)/(b*b*p.tau)/p.eta, minChangedPower)
	}
	lambda = max(lambda, p.minLambda*b)
	return lambda * (float64(h.Qlen) + b*p.tau) / (b * b * p.tau) / p.eta
}

// minChangedPower floors the normalised power of a sample whose hop rate
// changed (the Linux PowerTCP module's floor).
const minChangedPower = 0.01

func (p *PowerTCP) OnLoss(rotor.Time) {}
func (p *PowerTCP) OnTimeout(rotor.Time) {
	p.timeout()
	p.prev.ok = false
}
func (p *PowerTCP) OnCircuit(rotor.Time, bool) {}
func (p *PowerTCP) Window() int64              { return p.window() }
func (p *PowerTCP) Rate() rotor.Rate           { return p.rate() }

// ThetaPowerTCP is θ-PowerTCP (Algorithm 2 of the PowerTCP paper): the
// power comes from RTTs alone, Γ_norm = (θ̇ + 1)·θ/τ, with θ the RTT and θ̇
// its gradient, smoothed on every ACK; the window changes as its mode
// says: once per RTT (Algorithm 2 as printed), or on every ACK (the
// authors' RDMA code: fast-react). τ is the flow's own path base RTT
// (Env.PathRTT), as the authors' RDMA code gives each queue pair its own.
type ThetaPowerTCP struct {
	powerWindow
	minGrad float64 // floor of θ̇ + 1
	prevRTT rotor.Time
	prevT   rotor.Time
	seen    bool
}

func (t *ThetaPowerTCP) OnAck(f *Feedback) {
	if f.RTT <= 0 {
		return
	}
	if !t.seen {
		t.prevRTT, t.prevT, t.seen = f.RTT, f.Now, true
		return
	}
	dt := (f.Now - t.prevT).Seconds()
	if dt <= 0 {
		return
	}
	grad := (f.RTT - t.prevRTT).Seconds() / dt
	pn := max(grad+1, t.minGrad) * f.RTT.Seconds() / t.tau
	t.prevRTT, t.prevT = f.RTT, f.Now
	t.smoothen(pn, dt, false)
	t.update(f)
}

func (t *ThetaPowerTCP) OnLoss(rotor.Time) {}
func (t *ThetaPowerTCP) OnTimeout(rotor.Time) {
	t.timeout()
	t.seen = false
}
func (t *ThetaPowerTCP) OnCircuit(rotor.Time, bool) {}
func (t *ThetaPowerTCP) Window() int64              { return t.window() }
func (t *ThetaPowerTCP) Rate() rotor.Rate           { return t.rate() }

// smoothStartParam is the INT laws' choice of where the smoothing of the
// power (utilisation) starts: at the first sample (the Linux PowerTCP
// module) or at 1, into which the first sample is folded (the authors'
// RDMA simulator, as in HPCC's).
func smoothStartParam() Param {
	return Param{Key: "smooth_start", Kind: Choice, Default: "sample", Choices: []string{"sample", "one"},
		Doc: "where the smoothing starts: at the first sample, or at 1 (the authors' RDMA simulator)"}
}

func powerParams(gamma string) []Param {
	return []Param{
		{Key: "gamma", Kind: Float, Default: gamma, Lo: 0, LoOpen: true, Hi: 1, Doc: "EWMA weight γ of the window update"},
		{Key: "ai", Kind: Rate, Default: "150Mbps", Lo: 0, Hi: inf, Doc: "additive increase as a rate; β = ai·τ bytes"},
		tauParam("base RTT τ (default: the network's maximum base RTT)"),
		minRateParam(),
	}
}

func init() {
	Register(Spec{Name: "powertcp", INT: true, Doc: "PowerTCP: INT power (q̇+μ)(q+bτ)/(b²τ) per hop, max over the path, w ← γ(w_old/Γ + β) + (1−γ)w",
		Params: append(powerParams("0.9"),
			Param{Key: "mode", Kind: Choice, Default: "fast-react", Choices: modeNames, Doc: "window updates: per-ack, fast-react or per-rtt"},
			Param{Key: "eta", Kind: Float, Default: "1", Lo: 0, LoOpen: true, Hi: 1, Doc: "target utilisation η: power is normalised by η·b²τ"},
			Param{Key: "min_lambda", Kind: Float, Default: "0.5", Lo: 0, Hi: 1, Doc: "floor of the measured arrival rate λ, as a fraction of b"},
			Param{Key: "bw_reset", Kind: Bool, Default: "true", Doc: "when a hop's rate b changes: restart the power smoothing at that sample and leave its λ unfloored"},
			Param{Key: "full_step", Kind: Float, Default: "0.5", Lo: 0, Hi: 1, Doc: "smoothed normalised power at or below which an update uses γ = 1 (the authors' TCP code); 0: never"},
			smoothStartParam()),
		New: func(e Env, v Values) Law {
			w := newPowerWindow(e, v, UpdateMode(v.I("mode")), v.T("tau").Seconds())
			w.fullStep = v.F("full_step")
			w.smoothOne = v.I("smooth_start") == 1
			return &PowerTCP{powerWindow: w, eta: v.F("eta"), minLambda: v.F("min_lambda"), bwReset: v.B("bw_reset")}
		}})
	Register(Spec{Name: "theta-powertcp", Doc: "θ-PowerTCP: power from RTT alone, (θ̇+1)θ/τ with τ the flow's path base RTT, window per RTT (Algorithm 2) or per ACK",
		Params: []Param{
			{Key: "gamma", Kind: Float, Default: "0.9", Lo: 0, LoOpen: true, Hi: 1, Doc: "EWMA weight γ of the window update"},
			{Key: "ai", Kind: Rate, Default: "150Mbps", Lo: 0, Hi: inf, Doc: "additive increase as a rate; β = ai·τ bytes"},
			{Key: "tau", Kind: Time, Default: "0", Lo: 0, Hi: float64(rotor.Second),
				Doc: "base RTT τ; 0: each flow's own path base RTT from the network (else its maximum)"},
			minRateParam(),
			{Key: "mode", Kind: Choice, Default: "per-rtt", Choices: modeNames,
				Doc: "window updates: per-rtt (Algorithm 2: once per RTT), fast-react (every ACK, from the window committed once per RTT: the authors' RDMA code) or per-ack"},
			{Key: "min_grad", Kind: Float, Default: "0.5", Lo: 0, Hi: 1, Doc: "floor of θ̇ + 1"}},
		New: func(e Env, v Values) Law {
			tau := v.T("tau")
			if tau == 0 {
				tau = e.PathRTT
			}
			if tau == 0 {
				tau = e.BaseRTT
			}
			return &ThetaPowerTCP{powerWindow: newPowerWindow(e, v, UpdateMode(v.I("mode")), tau.Seconds()), minGrad: v.F("min_grad")}
		}})
}
