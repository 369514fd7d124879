package cc

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// cubicRounds drives a Cubic law one RTT at a time: every round it
// acknowledges one window of MSS-sized segments at the same instant, each
// with the round's RTT sample (rtt(round) if set, else the fixed RTT), and
// calls after(round) once the round's ACKs are in.
type cubicRounds struct {
	cu     *Cubic
	now    rotor.Time
	cum    int64
	rtt    rotor.Time
	mss    int64
	spread rotor.Time // if > 0, a round's ACKs are this far apart instead of simultaneous
}

func (r *cubicRounds) round(rtt rotor.Time) {
	r.now += r.rtt
	segs := max(int64(r.cu.cwnd)/r.mss, 1)
	t := r.now
	for range segs {
		r.cum += r.mss
		r.cu.OnAck(&Feedback{Now: t, Acked: r.mss, Cum: r.cum, SndNxt: r.cum + segs*r.mss, RTT: rtt})
		t += r.spread
	}
}

// newCubic builds a Cubic from the registry with params over the defaults.
func newCubic(t *testing.T, params map[string]string) *Cubic {
	t.Helper()
	l, err := New("cubic", testEnv, params)
	if err != nil {
		t.Fatal(err)
	}
	return l.(*Cubic)
}

// startAfterLoss puts cu in congestion avoidance right after a loss at a
// window of wmax segments: one ACK records the send frontier, the loss
// cuts the window, and later ACKs lie past the recovery point.
func startAfterLoss(cu *Cubic, r *cubicRounds, wmax float64) {
	r.cum += r.mss
	cu.OnAck(&Feedback{Now: r.now, Acked: r.mss, Cum: r.cum, SndNxt: r.cum, RTT: r.rtt})
	cu.cwnd, cu.ssthresh = wmax*float64(r.mss), wmax*float64(r.mss)
	cu.OnLoss(r.now)
}

// TestCubicTrace: after a loss at Wmax = 1000 segments (fast convergence
// off), the window sampled every RTT follows the closed form
// W(t) = C·(t − K)³ + Wmax, K = ∛(Wmax(1−β)/C), through the concave and the
// convex region. The law aims one RTT ahead (target W(t + RTT)) and closes
// a fraction 1 − 1/e of the gap per window of ACKs (each ACK closes 1/cwnd
// of it), so after the ACKs at epoch + n·RTT its window lags W((n+1)·RTT)
// by ℓ with ℓ = (ℓ + W′·RTT)/e, ℓ = W′·RTT/(e − 1):
// |cwnd − W| ≤ 0.6·|W′|·RTT + 0.1 segment.
func TestCubicTrace(t *testing.T) {
	const wmax, c, beta = 1000.0, 0.4, 0.7
	rtt := 50 * rotor.Millisecond
	cu := newCubic(t, map[string]string{"fast_convergence": "false"})
	r := &cubicRounds{cu: cu, rtt: rtt, mss: 1000}
	startAfterLoss(cu, r, wmax)
	if got := cu.cwnd / 1000; math.Abs(got-beta*wmax) > 1e-9 {
		t.Fatalf("after loss: %.3f segments, want β·Wmax = %.1f", got, beta*wmax)
	}
	k := math.Cbrt(wmax * (1 - beta) / c)
	w := func(ts float64) float64 { return c*math.Pow(ts-k, 3) + wmax }
	dw := func(ts float64) float64 { return 3 * c * (ts - k) * (ts - k) }
	worst := 0.0
	n := int(2 * k / rtt.Seconds())
	for i := 0; i <= n; i++ {
		r.round(rtt)
		ts := float64(i+1) * rtt.Seconds() // the epoch began at the first round
		want := w(ts)
		tol := 0.6*dw(ts)*rtt.Seconds() + 0.1
		got := cu.cwnd / 1000
		if math.Abs(got-want) > tol {
			t.Fatalf("t = %.2f s (K = %.3f s): %.2f segments, want W(t) = %.2f ± %.2f", ts, k, got, want, tol)
		}
		worst = max(worst, math.Abs(got-want)/wmax)
	}
	if worst > 0.005 {
		t.Errorf("largest deviation %.3f %% of Wmax, want < 0.5 %%", 100*worst)
	}
}

// TestCubicRenoFriendly: with a small window and a short RTT the cubic
// curve is flat (K = 2.5 s against a 20 µs RTT), so the window follows the
// Reno estimate of RFC 9438 §4.3: from β·Wmax = 14 segments it gains
// α = 3(1−β)/(1+β) segments per RTT until it reaches cwnd_prior = 20, and
// one segment per RTT from there on. A round from window w acknowledges
// ⌊w⌋ segments, each adding α/cwnd with w ≤ cwnd < w + 1, so it adds
// between α·⌊w⌋/(w + 1) and α.
func TestCubicRenoFriendly(t *testing.T) {
	const wmax, beta = 20.0, 0.7
	alpha := 3 * (1 - beta) / (1 + beta)
	cu := newCubic(t, map[string]string{"fast_convergence": "false"})
	r := &cubicRounds{cu: cu, rtt: 20 * rotor.Microsecond, mss: 1000}
	startAfterLoss(cu, r, wmax)
	prev := cu.cwnd / 1000
	for i := range 40 {
		r.round(r.rtt)
		got := cu.cwnd / 1000
		lo, hi := alpha, alpha // W_est below cwnd_prior
		switch {
		case prev >= wmax:
			lo, hi = 1, 1
		case prev+alpha > wmax: // crosses cwnd_prior within the round
			hi = 1
		}
		if inc := got - prev; inc < lo*math.Floor(prev)/(prev+1)-1e-9 || inc > hi+1e-9 {
			t.Fatalf("round %d at %.2f segments (cwnd_prior %.0f): +%.4f segments, want %.4f·⌊w⌋/(w+1) … %.4f", i+1, prev, wmax, inc, lo, hi)
		}
		prev = got
	}
}

// TestCubicTimeout: a timeout sets ssthresh to β·cwnd (RFC 9438 §4.8,
// "same as" §4.6: fast convergence lowers Wmax, not ssthresh), and the
// first congestion avoidance after it starts with K = 0 and Wmax the
// window at its start.
func TestCubicTimeout(t *testing.T) {
	const beta = 0.7
	cu := newCubic(t, nil)
	r := &cubicRounds{cu: cu, rtt: 100 * rotor.Microsecond, mss: 1000}
	startAfterLoss(cu, r, 120) // Wmax = 120 segments
	cu.cwnd = 100 * 1000       // a later window below Wmax: fast convergence applies
	r.round(r.rtt)
	w := cu.cwnd
	cu.OnTimeout(r.now)
	if want := beta * w; math.Abs(cu.ssthresh-want) > 1e-6 {
		t.Fatalf("ssthresh after timeout %.1f B, want β·cwnd = %.1f B", cu.ssthresh, want)
	}
	if cu.cwnd != 1000 {
		t.Fatalf("window after timeout %.0f B, want one MSS", cu.cwnd)
	}
	r.cum = r.cum + 100*1000 // the ACKs after the timeout lie past the old frontier
	for range 20 {
		r.round(r.rtt)
		if cu.cwnd >= cu.ssthresh {
			break
		}
	}
	r.round(r.rtt)
	// The epoch began within the round that crossed ssthresh (70 segments).
	if ss := cu.ssthresh / 1000; cu.k != 0 || cu.origin < ss || cu.origin > ss+1 {
		t.Fatalf("first epoch after the timeout: K = %.3f s, origin %.2f segments; want K = 0 and the epoch's window (ssthresh %.1f + less than one segment)", cu.k, cu.origin, ss)
	}
}

// TestCubicCntClamp: until a loss sets Wmax (here: after HyStart-style
// exit at 100 segments), a window grows at least one segment per 20 ACKs,
// ns-3's CntClamp (Linux's 5 % per RTT): ×1.05 per round, to within the
// rounding of ⌊cwnd⌋ ACKs per round. With cnt_clamp = 0 only the
// Reno-friendly floor (α = 1 with no cwnd_prior) remains: +1 per round.
func TestCubicCntClamp(t *testing.T) {
	for _, c := range []struct {
		clamp string
		grow  func(w float64) (lo, hi float64)
	}{
		{"20", func(w float64) (float64, float64) { return w + math.Floor(w)/20 - 1e-9, w * 1.05 }},
		{"0", func(w float64) (float64, float64) { return w + math.Floor(w)/(w+1), w + 1 + 1e-9 }},
	} {
		cu := newCubic(t, map[string]string{"cnt_clamp": c.clamp})
		cu.cwnd, cu.ssthresh = 100*1000, 100*1000
		r := &cubicRounds{cu: cu, rtt: 100 * rotor.Microsecond, mss: 1000}
		for i := range 30 {
			w := cu.cwnd / 1000
			r.round(r.rtt)
			lo, hi := c.grow(w)
			if got := cu.cwnd / 1000; got < lo || got > hi {
				t.Fatalf("cnt_clamp %s, round %d: %.3f → %.3f segments, want [%.3f, %.3f]", c.clamp, i+1, w, got, lo, hi)
			}
		}
	}
}

// TestCubicHyStartDelay: the delay detector ends slow start once the
// round's smallest RTT of its first 8 samples exceeds the minimum RTT by
// the threshold, which ns-3.39 takes as the minimum RTT clamped to
// [4 ms, 1 s]: at a 20 µs minimum RTT the threshold is 4 ms (a rise of
// 3.9 ms keeps slow start, 4.1 ms ends it); at 10 ms it is 10 ms.
func TestCubicHyStartDelay(t *testing.T) {
	for _, c := range []struct {
		base, rise rotor.Time
		exit       bool
	}{
		{20 * rotor.Microsecond, 3900 * rotor.Microsecond, false},
		{20 * rotor.Microsecond, 4100 * rotor.Microsecond, true},
		{10 * rotor.Millisecond, 9900 * rotor.Microsecond, false},
		{10 * rotor.Millisecond, 10100 * rotor.Microsecond, true},
	} {
		cu := newCubic(t, map[string]string{"hystart_detect": "delay", "init_window": "16pkt"})
		r := &cubicRounds{cu: cu, rtt: c.base, mss: 1000}
		r.round(c.base)
		r.round(c.base)
		if !math.IsInf(cu.ssthresh, 1) {
			t.Fatalf("base %v: slow start ended without a delay increase", c.base)
		}
		for range 2 {
			r.round(c.base + c.rise)
		}
		if exited := !math.IsInf(cu.ssthresh, 1); exited != c.exit {
			t.Errorf("base RTT %v, rise %v: left slow start %v, want %v", c.base, c.rise, exited, c.exit)
		}
	}
}

// hyTrace wraps a Cubic on the bottleneck and records when its window
// first reaches bdp bytes, the HyStart rounds (start time, window), and
// when HyStart ends slow start.
type hyTrace struct {
	*Cubic
	bdp             float64
	atBDP, atExit   rotor.Time
	exitWindow      float64
	reached, exited bool
	rounds          []hyRound
}

type hyRound struct {
	start  rotor.Time
	window float64
}

func (h *hyTrace) OnAck(f *Feedback) {
	w, started, start := h.cwnd, h.hy.started, h.hy.roundStart
	h.Cubic.OnAck(f)
	if h.hy.started && (!started || h.hy.roundStart != start) {
		h.rounds = append(h.rounds, hyRound{f.Now, w})
	}
	if !h.reached && h.cwnd >= h.bdp {
		h.reached, h.atBDP = true, f.Now
	}
	if !h.exited && !math.IsInf(h.ssthresh, 1) {
		h.exited, h.atExit, h.exitWindow = true, f.Now, h.ssthresh
	}
}

// TestCubicHyStartBDP: one Cubic flow on a 25 Gb/s bottleneck (100 Gb/s
// NIC, 20 µs base RTT, no loss) leaves slow start through HyStart's ACK
// train in the first round that starts after its window reached the
// bottleneck's BDP, which begins within one RTT of that. Its ACKs return
// at the bottleneck's rate, so the train outlasts the minimum RTT
// (ns-3.39's test; Linux and the HyStart paper take half of it) after
// BDP ACKs: HyStart exits one minimum RTT into that round, with the
// round's first window plus one BDP (±2 segments). With HyStart off the
// flow never leaves slow start and its queue keeps growing.
func TestCubicHyStartBDP(t *testing.T) {
	const us = rotor.Microsecond
	run := func(hystart string) (*hyTrace, bnResult, *bottleneck) {
		b := &bottleneck{C: 25 * rotor.Gbps, H: 100 * rotor.Gbps, MSS: 1000, Fwd: 10 * us, Back: 10 * us,
			Starts: []rotor.Time{0}, End: 300 * us, Sample: 10 * us}
		bdp := b.BaseRTT().Seconds() * bytesPerSec(b.C)
		h := &hyTrace{Cubic: newCubic(t, map[string]string{"hystart": hystart}), bdp: bdp}
		b.Laws = []Law{h}
		return h, b.run(), b
	}
	h, res, b := run("true")
	rtt := b.BaseRTT()
	if !h.reached || !h.exited {
		t.Fatalf("window reached the BDP (%.0f B): %v; slow start ended: %v", h.bdp, h.reached, h.exited)
	}
	var exitRound hyRound
	for _, r := range h.rounds {
		if r.start <= h.atExit {
			exitRound = r
		}
	}
	var first hyRound
	for _, r := range h.rounds {
		if r.start > h.atBDP {
			first = r
			break
		}
	}
	if exitRound != first {
		t.Errorf("HyStart exited in the round starting at %v, want the first round after the window reached the BDP (at %v): %v", exitRound.start, h.atBDP, first.start)
	}
	if d := first.start - h.atBDP; d > rtt {
		t.Errorf("that round began %v after the window reached the BDP, want within one RTT (%v)", d, rtt)
	}
	pkt := b.C.TransmitTime(rotor.Bytes(b.MSS))
	if d := h.atExit - exitRound.start; d <= h.minRTT || d > h.minRTT+pkt {
		t.Errorf("exit %v into its round, want just past the minimum RTT %v", d, h.minRTT)
	}
	if want := exitRound.window + h.bdp; math.Abs(h.exitWindow-want) > 2000 {
		t.Errorf("exit window %.0f B, want the round's first window %.0f B + BDP %.0f B", h.exitWindow, exitRound.window, h.bdp)
	}
	t.Logf("BDP %.0f B reached at %v; exit round began at %v with window %.0f B; exit at %v with window %.0f B (%.2f BDP); max queue %d B",
		h.bdp, h.atBDP, exitRound.start, exitRound.window, h.atExit, h.exitWindow, h.exitWindow/h.bdp, res.MaxQueue)
	off, resOff, _ := run("false")
	if off.exited {
		t.Errorf("hystart = false left slow start at %v", off.atExit)
	}
	if resOff.MaxQueue <= 4*res.MaxQueue {
		t.Errorf("max queue without HyStart %d B, with %d B: want far larger without", resOff.MaxQueue, res.MaxQueue)
	}
}

// TestCubicParamRefusals: HyStart's keys are range-checked with one-line
// errors naming the key.
func TestCubicParamRefusals(t *testing.T) {
	for k, v := range map[string]string{"hystart_detect": "ack", "hystart_min_samples": "0", "cnt_clamp": "1.5",
		"hystart_low_window": "0pkt", "rtt_holdoff": "-1ms", "reno_friendly": "maybe"} {
		_, err := New("cubic", testEnv, map[string]string{k: v})
		if err == nil || !strings.Contains(err.Error(), k) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s = %s: error %v, want one line naming the key", k, v, err)
		}
	}
}

// TestCubicFastConvergence: RFC 9438 §4.7. A loss at a window below the
// previous Wmax sets Wmax = cwnd·(1 + β)/2 with fast convergence and
// cwnd without it; a loss at or above Wmax sets Wmax = cwnd either way.
// The next epoch's K is ∛((Wmax − β·cwnd)/C).
func TestCubicFastConvergence(t *testing.T) {
	const c, beta = 0.4, 0.7
	for _, fc := range []bool{true, false} {
		cu := newCubic(t, map[string]string{"fast_convergence": strconv.FormatBool(fc)})
		r := &cubicRounds{cu: cu, rtt: 100 * rotor.Microsecond, mss: 1000}
		startAfterLoss(cu, r, 100)
		if cu.wmax != 100 {
			t.Fatalf("fast convergence %v: first loss at 100 segments: Wmax %.2f, want 100", fc, cu.wmax)
		}
		r.round(r.rtt) // congestion avoidance begins
		cu.cwnd = 80 * 1000
		r.cum += 100 * 1000 // past the recovery point
		r.round(r.rtt)
		w := cu.cwnd / 1000
		cu.OnLoss(r.now)
		want := w
		if fc {
			want = w * (1 + beta) / 2
		}
		if math.Abs(cu.wmax-want) > 1e-9 {
			t.Fatalf("fast convergence %v: loss at %.2f < Wmax: Wmax %.4f, want %.4f", fc, w, cu.wmax, want)
		}
		r.cum += 100 * 1000
		r.round(r.rtt)
		if k := math.Cbrt((want - beta*w) / c); math.Abs(cu.k-k) > 1e-9 {
			t.Errorf("fast convergence %v: K = %.6f s, want ∛((Wmax − β·cwnd)/C) = %.6f", fc, cu.k, k)
		}
	}
}
