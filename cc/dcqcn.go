package cc

import (
	"math"

	"github.com/rdcn/rdcn/rotor"
)

// DCQCN is the reaction point of "Congestion Control for Large-Scale RDMA
// Deployments" in its Mellanox form, rate-only. Congestion notifications
// arrive as ECE on ACKs. The first one sets α = 1 and the target rate to
// the current rate; every alpha_interval α decays, rising by g when a
// notification came in the interval; every decrease_interval with a
// notification the rate falls to R_C·(1 − α/2) (the target keeps the old
// rate); every increase_timer without a decrease the rate moves halfway to
// the target, which itself grows by ai (then hai) after fast_recovery
// quiet periods.
//
// The timers are evaluated lazily: each call first replays the timer ticks
// that fell due since the last call, in time order, so the law needs no
// events of its own and stays deterministic.
type DCQCN struct {
	g                      float64
	alphaInt, decInt, incT rotor.Time
	fastRecovery           int
	ai, hai                float64
	clampTarget            bool
	minRate, maxRate       float64

	rc, rt, alpha      float64
	started            bool
	stage              int
	cnpAlpha, cnpDec   bool
	tAlpha, tDec, tInc rotor.Time
	incArmed           bool
}

func (d *DCQCN) OnAck(f *Feedback) {
	d.advance(f.Now)
	if !f.ECE {
		return
	}
	d.cnpAlpha, d.cnpDec = true, true
	if !d.started {
		d.started, d.alpha, d.cnpAlpha = true, 1, false
		d.rt = d.rc
		d.tAlpha = f.Now + d.alphaInt
		d.tDec = f.Now
		d.advance(f.Now)
	}
}

// advance replays the timer ticks due at or before now.
func (d *DCQCN) advance(now rotor.Time) {
	if !d.started {
		return
	}
	for {
		if !d.cnpDec && d.tDec <= now { // quiet decrease checks change nothing
			d.tDec += (now-d.tDec)/d.decInt*d.decInt + d.decInt
		}
		t, dec := d.tDec, true
		if d.incArmed && d.tInc < t {
			t, dec = d.tInc, false
		}
		if t > now {
			break
		}
		d.alphaTo(t)
		if dec {
			d.tDec += d.decInt
			if d.clampTarget || d.stage != 0 {
				d.rt = d.rc
			}
			d.rc = max(d.minRate, d.rc*(1-d.alpha/2))
			d.stage, d.cnpDec = 0, false
			d.tInc, d.incArmed = t+d.incT, true
			continue
		}
		d.tInc += d.incT
		switch {
		case d.stage < d.fastRecovery:
		case d.stage == d.fastRecovery:
			d.rt = min(d.rt+d.ai, d.maxRate)
		default:
			d.rt = min(d.rt+d.hai, d.maxRate)
		}
		d.rc = (d.rc + d.rt) / 2
		d.stage++
	}
	d.alphaTo(now)
}

// alphaTo applies the α ticks due at or before t.
func (d *DCQCN) alphaTo(t rotor.Time) {
	if d.tAlpha > t {
		return
	}
	k := int64((t-d.tAlpha)/d.alphaInt) + 1
	d.alpha *= 1 - d.g
	if d.cnpAlpha {
		d.alpha += d.g
		d.cnpAlpha = false
	}
	if k > 1 {
		d.alpha *= math.Pow(1-d.g, float64(k-1))
	}
	d.tAlpha += rotor.Time(k) * d.alphaInt
}

func (d *DCQCN) OnLoss(rotor.Time) {}
func (d *DCQCN) OnTimeout(now rotor.Time) {
	d.advance(now)
	d.rc = max(d.rc/2, d.minRate)
}
func (d *DCQCN) OnCircuit(rotor.Time, bool) {}
func (d *DCQCN) Window() int64              { return 0 }
func (d *DCQCN) Rate() rotor.Rate           { return rateOf(d.rc) }

func init() {
	us := float64(rotor.Microsecond)
	Register(Spec{Name: "dcqcn", ECE: ECECongestion, Marking: MarkRED, Doc: "DCQCN (Mellanox reaction point): rate-only; ECE acts as a CNP; α-weighted decrease, fast recovery, additive and hyper increase",
		Params: []Param{
			{Key: "g", Kind: Float, Default: "0.00390625", Lo: 0, LoOpen: true, Hi: 1, Doc: "EWMA gain of α (1/256)"},
			{Key: "alpha_interval", Kind: Time, Default: "1us", Lo: 0, LoOpen: true, Hi: 1e6 * us, Doc: "α update period"},
			{Key: "decrease_interval", Kind: Time, Default: "4us", Lo: 0, LoOpen: true, Hi: 1e6 * us, Doc: "rate-decrease check period"},
			{Key: "increase_timer", Kind: Time, Default: "900us", Lo: 0, LoOpen: true, Hi: 1e6 * us, Doc: "rate-increase period"},
			{Key: "fast_recovery", Kind: Int, Default: "1", Lo: 0, Hi: 1000, Doc: "increase periods of fast recovery before additive increase"},
			{Key: "ai", Kind: Rate, Default: "50Mbps", Lo: 0, Hi: inf, Doc: "additive increase of the target rate"},
			{Key: "hai", Kind: Rate, Default: "100Mbps", Lo: 0, Hi: inf, Doc: "hyper increase of the target rate"},
			{Key: "clamp_target", Kind: Bool, Default: "false", Doc: "always reset the target rate to the current rate on a decrease"},
			minRateParam()},
		New: func(e Env, v Values) Law {
			host := bytesPerSec(e.HostRate)
			return &DCQCN{g: v.F("g"), alphaInt: v.T("alpha_interval"), decInt: v.T("decrease_interval"), incT: v.T("increase_timer"),
				fastRecovery: int(v.I("fast_recovery")), ai: bytesPerSec(v.R("ai")), hai: bytesPerSec(v.R("hai")),
				clampTarget: v.B("clamp_target"), minRate: min(bytesPerSec(v.R("min_rate")), host), maxRate: host,
				rc: host, rt: host}
		}})
}
