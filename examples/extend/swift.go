package main

import (
	"fmt"
	"math"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/rotor"
)

// Swift is the delay-target law of Kumar et al., "Swift: Delay is Simple
// and Effective for Congestion Control in the Datacenter" (SIGCOMM 2020),
// Algorithm 1, with the window in packets:
//
//   - an ACK whose RTT is below the target grows the window by ai/cwnd per
//     acknowledged packet (ai per RTT; ai per packet while cwnd < 1);
//   - an RTT at or above the target shrinks it, at most once per RTT, by
//     max(1 − β·(rtt − target)/rtt, 1 − max_mdf);
//   - a fast-recovery loss shrinks it by 1 − max_mdf (once per RTT); a
//     timeout too, and retx_reset timeouts in a row set it to min_cwnd;
//   - the target is the base target plus flow scaling: fs_range·(1/√cwnd −
//     1/√fs_max_cwnd)/(1/√fs_min_cwnd − 1/√fs_max_cwnd), clamped to
//     [0, fs_range] (fs_range 0: none).
//
// Below one packet the window stays one packet and the law paces at
// cwnd·MSS per RTT, as the paper does.
type Swift struct {
	mss              float64
	target, fsRange  float64 // seconds
	fsA, fsB         float64 // flow scaling α, β (seconds)
	ai, beta, maxMDF float64
	minCwnd, maxCwnd float64
	retxReset        int
	cwnd             float64 // packets
	rtt              float64 // last RTT sample, seconds
	lastDecrease     rotor.Time
	decreased        bool
	retx             int
}

// targetDelay is the base target plus flow scaling at the current window.
func (s *Swift) targetDelay() float64 {
	if s.fsRange == 0 {
		return s.target
	}
	return s.target + max(0, min(s.fsA/math.Sqrt(s.cwnd)+s.fsB, s.fsRange))
}

// canDecrease: the last decrease is at least one RTT old.
func (s *Swift) canDecrease(now rotor.Time) bool {
	return !s.decreased || (now-s.lastDecrease).Seconds() >= s.rtt
}

func (s *Swift) decrease(now rotor.Time, factor float64) {
	s.cwnd *= factor
	s.lastDecrease, s.decreased = now, true
	s.clamp()
}

func (s *Swift) clamp() { s.cwnd = max(s.minCwnd, min(s.cwnd, s.maxCwnd)) }

func (s *Swift) OnAck(f *cc.Feedback) {
	s.retx = 0
	if f.RTT <= 0 {
		return
	}
	s.rtt = f.RTT.Seconds()
	acked := float64(f.Acked) / s.mss
	if t := s.targetDelay(); s.rtt < t {
		if s.cwnd >= 1 {
			s.cwnd += s.ai / s.cwnd * acked
		} else {
			s.cwnd += s.ai * acked
		}
		s.clamp()
	} else if s.canDecrease(f.Now) {
		s.decrease(f.Now, max(1-s.beta*(s.rtt-t)/s.rtt, 1-s.maxMDF))
	}
}

func (s *Swift) OnLoss(now rotor.Time) {
	s.retx = 0
	if s.canDecrease(now) {
		s.decrease(now, 1-s.maxMDF)
	}
}

func (s *Swift) OnTimeout(now rotor.Time) {
	s.retx++
	if s.retx >= s.retxReset {
		s.cwnd = s.minCwnd
		s.lastDecrease, s.decreased = now, true
	} else if s.canDecrease(now) {
		s.decrease(now, 1-s.maxMDF)
	}
}

func (s *Swift) OnCircuit(rotor.Time, bool) {}

// Window is cwnd packets, at least one.
func (s *Swift) Window() int64 { return int64(math.Round(max(1, s.cwnd) * s.mss)) }

// Rate paces below one packet per RTT; else the line rate.
func (s *Swift) Rate() rotor.Rate {
	if s.cwnd >= 1 || s.rtt == 0 {
		return 0
	}
	return rotor.Rate(s.cwnd * s.mss * 8 / s.rtt)
}

func init() {
	inf := math.Inf(1)
	cc.Register(cc.Spec{
		Name: "swift",
		Doc:  "Swift (Kumar et al., SIGCOMM 2020): delay target, +ai/cwnd per ACK below it, ×max(1−β(rtt−t)/rtt, 1−max_mdf) once per RTT above it",
		Params: []cc.Param{
			{Key: "target", Kind: cc.Time, Env: func(e cc.Env) string { return fmt.Sprintf("%dps", int64(e.BaseRTT+25*rotor.Microsecond)) },
				EnvDoc: "base RTT + 25 µs", Lo: 0, LoOpen: true, Hi: float64(rotor.Second), Doc: "base target delay (an RTT)"},
			{Key: "ai", Kind: cc.Float, Default: "1", Lo: 0, LoOpen: true, Hi: inf, Doc: "additive increase, packets per RTT"},
			{Key: "beta", Kind: cc.Float, Default: "0.8", Lo: 0, LoOpen: true, Hi: 1, Doc: "multiplicative decrease per unit of excess delay"},
			{Key: "max_mdf", Kind: cc.Float, Default: "0.5", Lo: 0, LoOpen: true, Hi: 1, Doc: "largest decrease, a fraction of the window"},
			{Key: "fs_range", Kind: cc.Time, Default: "0", Lo: 0, Hi: float64(rotor.Second), Doc: "flow scaling: most delay added to the target for small windows (0: off)"},
			{Key: "fs_min_cwnd", Kind: cc.Float, Default: "0.1", Lo: 0, LoOpen: true, Hi: 1, Doc: "flow scaling: window (packets) that gets fs_range"},
			{Key: "fs_max_cwnd", Kind: cc.Float, Default: "100", Lo: 2, Hi: inf, Doc: "flow scaling: window (packets) that gets none"},
			{Key: "min_cwnd", Kind: cc.Float, Default: "0.001", Lo: 0, LoOpen: true, Hi: inf, Doc: "smallest window, packets"},
			{Key: "max_cwnd", Kind: cc.Float, Default: "100000", Lo: 0, LoOpen: true, Hi: inf, Doc: "largest window, packets"},
			{Key: "retx_reset", Kind: cc.Int, Default: "5", Lo: 1, Hi: 1000, Doc: "timeouts in a row that reset the window to min_cwnd"},
			{Key: cc.InitWindowKey, Kind: cc.Size, Default: cc.DefaultInitWindow, Lo: 1, Hi: inf, Doc: "initial window (in rdcn simulate: transport.init_window)"},
		},
		New: func(e cc.Env, v cc.Values) cc.Law {
			mss := float64(e.MSS)
			s := &Swift{mss: mss, target: v.T("target").Seconds(), fsRange: v.T("fs_range").Seconds(),
				ai: v.F("ai"), beta: v.F("beta"), maxMDF: v.F("max_mdf"), minCwnd: v.F("min_cwnd"), maxCwnd: v.F("max_cwnd"),
				retxReset: int(v.I("retx_reset")), cwnd: v.F(cc.InitWindowKey) / mss}
			// fs_min_cwnd ≤ 1 < 2 ≤ fs_max_cwnd (their ranges), so α is finite.
			if lo, hi := v.F("fs_min_cwnd"), v.F("fs_max_cwnd"); s.fsRange > 0 {
				s.fsA = s.fsRange / (1/math.Sqrt(lo) - 1/math.Sqrt(hi))
				s.fsB = -s.fsA / math.Sqrt(hi)
			}
			s.clamp()
			return s
		},
	})
}
