package cc

import (
	"math"

	"github.com/rdcn/rdcn/rotor"
)

// Cubic is "CUBIC: A New TCP-Friendly High-Speed TCP Variant" as RFC 9438
// states it: after a loss the window follows W(t) = C·(t − K)³ + Wmax (in
// segments, t in seconds since the loss), with K = ∛(Wmax·(1−β)/C), never
// below the Reno-friendly estimate; a loss multiplies the window by β and,
// with fast convergence, lowers Wmax further when the window had not
// regained the previous Wmax.
type Cubic struct {
	reno
	C, Beta  float64
	FastConv bool

	wmax     float64 // segments
	k        float64 // seconds
	epoch    rotor.Time
	inEpoch  bool
	origin   float64 // segments
	west     float64 // Reno-friendly estimate, segments
	minRTT   rotor.Time
	friendly float64 // α_cubic = 3(1−β)/(1+β)
}

func (c *Cubic) OnAck(f *Feedback) {
	c.see(f)
	if f.RTT > 0 && (c.minRTT == 0 || f.RTT < c.minRTT) {
		c.minRTT = f.RTT
	}
	if c.inRecovery() {
		return
	}
	acked := float64(f.Acked)
	if c.cwnd < c.ssthresh {
		c.grow(acked)
		return
	}
	seg := c.cwnd / c.mss
	if !c.inEpoch {
		c.inEpoch, c.epoch = true, f.Now
		if seg < c.wmax {
			c.k = math.Cbrt((c.wmax - seg) / c.C)
			c.origin = c.wmax
		} else {
			c.k, c.origin = 0, seg
		}
		c.west = seg
	}
	t := (f.Now - c.epoch + c.minRTT).Seconds()
	x := t - c.k
	target := c.origin + c.C*x*x*x
	target = clamp(target, seg, 1.5*seg)
	// Per RFC 9438 §4.2, each acknowledged segment adds (target−cwnd)/cwnd.
	inc := (target - seg) / seg * acked
	if target <= seg {
		inc = acked / (100 * seg) // Linux's floor: one segment per 100 windows
	}
	c.west += c.friendly * acked / c.mss / seg
	next := seg + inc/c.mss
	if c.west > next {
		next = c.west
	}
	c.cwnd = min(next*c.mss, maxWindow)
}

// reduce applies the multiplicative decrease to Wmax and ssthresh.
func (c *Cubic) reduce() {
	seg := c.cwnd / c.mss
	if c.FastConv && seg < c.wmax {
		c.wmax = seg * (1 + c.Beta) / 2
	} else {
		c.wmax = seg
	}
	c.inEpoch = false
}

func (c *Cubic) OnLoss(rotor.Time) {
	if c.inRecovery() {
		return
	}
	c.reduce()
	c.cut(c.Beta)
}

func (c *Cubic) OnTimeout(rotor.Time) {
	c.reduce()
	c.timeout()
	c.ssthresh = max(c.wmax*c.mss*c.Beta, 2*c.mss)
}
func (c *Cubic) OnCircuit(rotor.Time, bool) {}
func (c *Cubic) Window() int64              { return c.window() }
func (c *Cubic) Rate() rotor.Rate           { return 0 }

func init() {
	register(Spec{Name: "cubic", Doc: "CUBIC (RFC 9438): cubic window growth around the last loss point, ×β on loss",
		Params: []Param{initWindowParam(),
			{Key: "c", Kind: Float, Default: "0.4", Lo: 0, LoOpen: true, Hi: 100, Doc: "cubic scaling constant C (segments/s³)"},
			{Key: "beta", Kind: Float, Default: "0.7", Lo: 0, LoOpen: true, Hi: 1, Doc: "multiplicative decrease factor β"},
			{Key: "fast_convergence", Kind: Bool, Default: "true", Doc: "lower Wmax when losses come before it is regained"}},
		New: func(e Env, v Values) Law {
			b := v.F("beta")
			return &Cubic{reno: newReno(e, v), C: v.F("c"), Beta: b, FastConv: v.B("fast_convergence"),
				friendly: 3 * (1 - b) / (1 + b)}
		}})
}
