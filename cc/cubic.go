package cc

import (
	"math"

	"github.com/rdcn/rdcn/rotor"
)

// Cubic is "CUBIC: A New TCP-Friendly High-Speed TCP Variant" as RFC 9438
// states it, with the slow start and the growth floor of ns-3.39's
// TcpCubic (which follows Linux's tcp_cubic):
//   - after a loss the window follows W(t) = C·(t − K)³ + Wmax (segments,
//     t in seconds since congestion avoidance began), K = ∛((Wmax −
//     cwnd_epoch)/C); each ACK adds (target − cwnd)/cwnd per segment, with
//     target = W(t + minRTT) held within [cwnd, 1.5·cwnd] (§4.2);
//   - the Reno-friendly region (§4.3): W_est starts at cwnd_epoch and
//     gains α·segments_acked/cwnd per ACK, α = 3(1−β)/(1+β) until W_est
//     reaches cwnd_prior and 1 afterwards; the window is never below it;
//   - a loss multiplies the window by β; with fast convergence (§4.7) Wmax
//     is lowered to cwnd·(1+β)/2 when the window had not regained Wmax;
//   - a timeout (§4.8) sets ssthresh to β·cwnd and forgets Wmax, so the
//     next congestion avoidance starts with K = 0 from its own window;
//   - HyStart ("Taming the elephants: New TCP slow start") ends slow
//     start when a round's ACK train outlasts the minimum RTT or the
//     round's RTT rises above the minimum by a clamped threshold;
//   - while no loss has set Wmax, a window grows at least one segment per
//     cnt_clamp ACKs (ns-3's CntClamp, Linux's 5 % per RTT).
type Cubic struct {
	reno
	C, Beta      float64
	FastConv     bool
	RenoFriendly bool
	CntClamp     float64    // 0: no floor
	Holdoff      rotor.Time // RTT samples ignored this long after an epoch starts
	hy           hyStart

	wmax     float64 // segments; 0 until a loss (and after a timeout)
	k        float64 // seconds
	epoch    rotor.Time
	inEpoch  bool
	origin   float64 // segments
	west     float64 // Reno-friendly estimate, segments
	prior    float64 // cwnd_prior: the window when ssthresh was last set, segments
	minRTT   rotor.Time
	friendly float64 // α_cubic = 3(1−β)/(1+β)
}

// HyStart detectors (a bit set).
const (
	hyTrain uint8 = 1 << iota
	hyDelay
)

// hyStart is hybrid slow start's configuration and per-round state.
type hyStart struct {
	on         bool
	detect     uint8
	lowWindow  float64 // bytes: HyStart runs from this window on
	minSamples int
	ackDelta   rotor.Time // ACKs closer than this continue a train
	delayMin   rotor.Time // the delay threshold is the minimum RTT clamped to [delayMin, delayMax]
	delayMax   rotor.Time

	found      uint8
	started    bool
	end        int64 // the round ends when the cumulative ACK passes it
	roundStart rotor.Time
	lastAck    rotor.Time
	currRTT    rotor.Time // smallest of the round's first minSamples RTTs
	samples    int
}

// reset starts a round at now that ends once sndNxt is acknowledged.
func (h *hyStart) reset(now rotor.Time, sndNxt int64) {
	h.started = true
	h.roundStart, h.lastAck = now, now
	h.end = sndNxt
	h.currRTT, h.samples = 0, 0
}

// threshold is the delay increase that ends slow start: the minimum RTT
// clamped to [delayMin, delayMax], as ns-3.39 does.
func (h *hyStart) threshold(minRTT rotor.Time) rotor.Time {
	if minRTT > h.delayMax {
		return h.delayMax
	}
	if minRTT < h.delayMin {
		return h.delayMin
	}
	return minRTT
}

func (c *Cubic) OnAck(f *Feedback) {
	c.see(f)
	if f.RTT > 0 && !(c.inEpoch && f.Now-c.epoch < c.Holdoff) {
		if c.minRTT == 0 || f.RTT < c.minRTT {
			c.minRTT = f.RTT
		}
		if c.hy.on && c.cwnd <= c.ssthresh && c.cwnd >= c.hy.lowWindow {
			c.hystart(f)
		}
	}
	if c.inRecovery() {
		return
	}
	if c.cwnd < c.ssthresh {
		if c.hy.on && (!c.hy.started || f.Cum > c.hy.end) {
			c.hy.reset(f.Now, f.SndNxt)
		}
		c.grow(float64(f.Acked))
		return
	}
	c.avoid(f)
}

// hystart runs both detectors on one RTT sample and ends slow start
// (ssthresh = cwnd) when an enabled one fires.
func (c *Cubic) hystart(f *Feedback) {
	h := &c.hy
	if h.found&h.detect != 0 {
		return
	}
	if h.started && f.Now-h.lastAck <= h.ackDelta {
		h.lastAck = f.Now
		if f.Now-h.roundStart > c.minRTT {
			h.found |= hyTrain
		}
	}
	if h.samples < h.minSamples {
		if h.currRTT == 0 || f.RTT < h.currRTT {
			h.currRTT = f.RTT
		}
		h.samples++
	} else if h.currRTT > c.minRTT+h.threshold(c.minRTT) {
		h.found |= hyDelay
	}
	if h.found&h.detect != 0 {
		c.ssthresh = c.cwnd
		c.prior = c.cwnd / c.mss
	}
}

// avoid is congestion avoidance: the cubic target, the growth floors and
// the Reno-friendly estimate.
func (c *Cubic) avoid(f *Feedback) {
	seg := c.cwnd / c.mss
	acked := float64(f.Acked) / c.mss
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
	target := clamp(c.origin+c.C*x*x*x, seg, 1.5*seg)
	// Per RFC 9438 §4.2, each acknowledged segment adds (target−cwnd)/cwnd.
	inc := (target - seg) / seg * acked
	if target <= seg {
		inc = acked / (100 * seg) // Linux's floor: one segment per 100 windows
	}
	if c.CntClamp > 0 && c.wmax == 0 {
		inc = min(max(inc, acked/c.CntClamp), acked/2)
	}
	next := seg + inc
	if c.RenoFriendly {
		alpha := c.friendly
		if c.west >= c.prior {
			alpha = 1
		}
		c.west += alpha * acked / seg
		next = max(next, c.west)
	}
	c.cwnd = min(next*c.mss, maxWindow)
}

// reduce applies the multiplicative decrease to Wmax and records
// cwnd_prior.
func (c *Cubic) reduce() {
	seg := c.cwnd / c.mss
	if c.FastConv && seg < c.wmax {
		c.wmax = seg * (1 + c.Beta) / 2
	} else {
		c.wmax = seg
	}
	c.prior = seg
	c.inEpoch = false
}

func (c *Cubic) OnLoss(rotor.Time) {
	if c.inRecovery() {
		return
	}
	c.reduce()
	c.cut(c.Beta)
}

// OnTimeout drops the window to one segment with ssthresh β·cwnd (RFC 9438
// §4.8) and restarts the law as ns-3 and Linux do on entering loss
// recovery: Wmax and the minimum RTT are forgotten, and HyStart starts a
// round that ends when the current send frontier is acknowledged.
func (c *Cubic) OnTimeout(now rotor.Time) {
	ss := max(c.cwnd*c.Beta, 2*c.mss)
	c.prior = c.cwnd / c.mss
	c.timeout()
	c.ssthresh = ss
	c.wmax, c.k, c.origin = 0, 0, 0
	c.inEpoch = false
	c.minRTT = 0
	c.hy.found = 0
	c.hy.reset(now, c.sndNxt)
}
func (c *Cubic) OnCircuit(rotor.Time, bool) {}
func (c *Cubic) Window() int64              { return c.window() }
func (c *Cubic) Rate() rotor.Rate           { return 0 }

// hystartDetect are the choices of hystart_detect, indexed as stored.
var hystartDetect = []uint8{hyTrain | hyDelay, hyTrain, hyDelay}

func init() {
	Register(Spec{Name: "cubic", Doc: "CUBIC (RFC 9438): cubic window growth around the last loss point, ×β on loss, HyStart slow start (ns-3.39's TcpCubic defaults)",
		Params: []Param{initWindowParam(),
			{Key: "c", Kind: Float, Default: "0.4", Lo: 0, LoOpen: true, Hi: 100, Doc: "cubic scaling constant C (segments/s³)"},
			{Key: "beta", Kind: Float, Default: "0.7", Lo: 0, LoOpen: true, Hi: 1, Doc: "multiplicative decrease factor β"},
			{Key: "fast_convergence", Kind: Bool, Default: "true", Doc: "lower Wmax when losses come before it is regained"},
			{Key: "reno_friendly", Kind: Bool, Default: "true", Doc: "never below the Reno estimate W_est (RFC 9438 §4.3, Linux; ns-3.39 has no such region: false)"},
			{Key: "cnt_clamp", Kind: Int, Default: "20", Lo: 0, Hi: 255, Doc: "until the first loss, at least one segment per this many ACKs in congestion avoidance (ns-3 CntClamp; 0: off)"},
			{Key: "rtt_holdoff", Kind: Time, Default: "10ms", Lo: 0, Hi: float64(rotor.Second), Doc: "RTT samples are ignored this long after congestion avoidance starts (ns-3 CubicDelta)"},
			{Key: "hystart", Kind: Bool, Default: "true", Doc: "hybrid slow start (ns-3 HyStart)"},
			{Key: "hystart_detect", Kind: Choice, Default: "both", Choices: []string{"both", "train", "delay"}, Doc: "HyStart detectors: ACK train, delay increase or both (ns-3 HyStartDetect)"},
			{Key: "hystart_low_window", Kind: Size, Default: "16pkt", Lo: 1, Hi: inf, Doc: "HyStart runs from this window on (ns-3 HyStartLowWindow)"},
			{Key: "hystart_min_samples", Kind: Int, Default: "8", Lo: 1, Hi: 255, Doc: "RTT samples per round before the delay detector decides (ns-3 HyStartMinSamples)"},
			{Key: "hystart_ack_delta", Kind: Time, Default: "2ms", Lo: 0, Hi: float64(rotor.Second), Doc: "ACKs at most this far apart continue a train (ns-3 HyStartAckDelta)"},
			{Key: "hystart_delay_min", Kind: Time, Default: "4ms", Lo: 0, Hi: float64(rotor.Second), Doc: "lower clamp of the delay threshold, which is the minimum RTT (ns-3 HyStartDelayMin)"},
			{Key: "hystart_delay_max", Kind: Time, Default: "1s", Lo: 0, Hi: 10 * float64(rotor.Second), Doc: "upper clamp of the delay threshold (ns-3 HyStartDelayMax)"}},
		New: func(e Env, v Values) Law {
			b := v.F("beta")
			return &Cubic{reno: newReno(e, v), C: v.F("c"), Beta: b, FastConv: v.B("fast_convergence"),
				RenoFriendly: v.B("reno_friendly"), CntClamp: v.F("cnt_clamp"), Holdoff: v.T("rtt_holdoff"),
				friendly: 3 * (1 - b) / (1 + b),
				hy: hyStart{on: v.B("hystart"), detect: hystartDetect[v.I("hystart_detect")],
					lowWindow: v.F("hystart_low_window"), minSamples: int(v.I("hystart_min_samples")),
					ackDelta: v.T("hystart_ack_delta"), delayMin: v.T("hystart_delay_min"), delayMax: v.T("hystart_delay_max")}}
		}})
}
