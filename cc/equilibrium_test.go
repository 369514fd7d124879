package cc

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// fourFlows is the bottleneck of the equilibrium tests: 100 Gbps, base RTT
// about 20 µs, four flows starting 500 µs apart, measured over the last
// 2 ms of a run of end.
func fourFlows(t *testing.T, name string, params map[string]string, end rotor.Time) (*bottleneck, bnResult) {
	t.Helper()
	b := &bottleneck{C: 100 * rotor.Gbps, H: 100 * rotor.Gbps, MSS: 1000,
		Fwd: 10 * rotor.Microsecond, Back: 10 * rotor.Microsecond,
		End: end, Sample: rotor.Microsecond, MeasureAt: end - 2*rotor.Millisecond}
	env := Env{MSS: b.MSS, HostRate: b.H, BaseRTT: b.BaseRTT()}
	for i := 0; i < 4; i++ {
		l, err := New(name, env, params)
		if err != nil {
			t.Fatal(err)
		}
		b.Laws = append(b.Laws, l)
		b.Starts = append(b.Starts, rotor.Time(i)*500*rotor.Microsecond)
	}
	return b, b.run()
}

// TestPowerEquilibrium: N long flows of PowerTCP (each update mode) and of
// θ-PowerTCP on one bottleneck settle at the equilibrium of Theorem 1 of
// the PowerTCP paper: the aggregate window bτ + Nβ, so a queue of Nβ bytes
// (Eq. 2.1's small standing queue), each window (bτ + Nβ)/N, the link
// full, and Jain's index ≥ 0.99.
func TestPowerEquilibrium(t *testing.T) {
	for _, c := range []struct{ name, mode string }{
		{"powertcp", "per-ack"}, {"powertcp", "fast-react"}, {"powertcp", "per-rtt"}, {"theta-powertcp", ""},
	} {
		params := map[string]string{"ai": "2Gbps"}
		if c.mode != "" {
			params["mode"] = c.mode
		}
		b, r := fourFlows(t, c.name, params, 6*rotor.Millisecond)
		n := float64(len(b.Laws))
		tau := b.BaseRTT().Seconds()
		beta := 2e9 / 8 * tau
		bdp := bytesPerSec(b.C) * tau
		qe, we := n*beta, (bdp+n*beta)/n
		t.Logf("%s %s: busy %.4f qmean %.0f qmax %d qe %.0f we %.0f w %.0f jain %.5f", c.name, c.mode, r.Busy, r.QMean, r.QMax, qe, we, r.Windows, jain(r.Bytes))
		if r.Busy < 0.99 {
			t.Errorf("%s %s: link busy %.4f of the time, want ≥ 0.99", c.name, c.mode, r.Busy)
		}
		if math.Abs(r.QMean-qe) > 0.15*qe {
			t.Errorf("%s %s: mean queue %.0f B, want Nβ = %.0f ± 15%%", c.name, c.mode, r.QMean, qe)
		}
		if lim := qe + float64(4*len(b.Laws))*float64(b.MSS); float64(r.QMax) > lim {
			t.Errorf("%s %s: queue reached %d B, want ≤ Nβ + 4N·MSS = %.0f", c.name, c.mode, r.QMax, lim)
		}
		if qmin := slices.Min(r.Samples); qmin <= 0 {
			t.Errorf("%s %s: queue emptied (min %d B): the link idles", c.name, c.mode, qmin)
		}
		for i, w := range r.Windows {
			if math.Abs(w-we) > 0.05*we {
				t.Errorf("%s %s: flow %d window %.0f, want (bτ+Nβ)/N = %.0f ± 5%%", c.name, c.mode, i, w, we)
			}
		}
		if j := jain(r.Bytes); j < 0.99 {
			t.Errorf("%s %s: Jain index %.4f, want ≥ 0.99 (bytes %v)", c.name, c.mode, j, r.Bytes)
		}
	}
}

// TestHPCCUtilisation: HPCC holds the bottleneck near its target η with an
// empty queue. Per round each flow sets R = R_c/k + R_AI with k = U/η, so
// at the fixed point R_c·(1 − η/U) = R_AI for every flow: the flows are
// equal and the utilisation is U = η + N·R_AI/C.
func TestHPCCUtilisation(t *testing.T) {
	for _, ai := range []float64{150e6, 500e6} {
		params := map[string]string{"ai": rotor.Rate(ai).String()}
		b, r := fourFlows(t, "hpcc", params, 10*rotor.Millisecond)
		want := 0.95 + float64(len(b.Laws))*ai/float64(b.C)
		if math.Abs(r.Busy-want) > 0.005 {
			t.Errorf("ai %v: utilisation %.4f, want η + N·AI/C = %.4f ± 0.005", rotor.Rate(ai), r.Busy, want)
		}
		if r.QMean > float64(2*b.MSS) {
			t.Errorf("ai %v: mean queue %.0f B, want ≤ 2 MSS", rotor.Rate(ai), r.QMean)
		}
		if j := jain(r.Bytes); j < 0.99 {
			t.Errorf("ai %v: Jain index %.4f, want ≥ 0.99 (bytes %v)", rotor.Rate(ai), j, r.Bytes)
		}
		t.Logf("ai %v: utilisation %.4f (want %.4f), mean queue %.0f B", rotor.Rate(ai), r.Busy, want, r.QMean)
	}
}

// TestBottleneckModel checks the model itself against a closed form: two
// flows with fixed windows W and 2W, together more than the pipe holds,
// keep exactly 3W − C·τ bytes queued (within a packet per flow), keep the
// link busy, and share it 1:2.
func TestBottleneckModel(t *testing.T) {
	b := &bottleneck{C: 100 * rotor.Gbps, H: 100 * rotor.Gbps, MSS: 1000,
		Fwd: 10 * rotor.Microsecond, Back: 10 * rotor.Microsecond,
		End: 3 * rotor.Millisecond, Sample: rotor.Microsecond, MeasureAt: rotor.Millisecond,
		Starts: []rotor.Time{0, 100 * rotor.Microsecond}, FlowWindow: []int64{100_000, 200_000}}
	env := Env{MSS: b.MSS, HostRate: b.H, BaseRTT: b.BaseRTT()}
	for range 2 {
		l, err := New("newreno", env, nil)
		if err != nil {
			t.Fatal(err)
		}
		b.Laws = append(b.Laws, l)
	}
	r := b.run()
	want := 300_000 - bytesPerSec(b.C)*b.BaseRTT().Seconds()
	if math.Abs(r.QMean-want) > 2*float64(b.MSS) {
		t.Errorf("mean queue %.0f B, want 3W − Cτ = %.0f", r.QMean, want)
	}
	if r.Busy < 0.999 {
		t.Errorf("link busy %.4f, want 1", r.Busy)
	}
	if ratio := float64(r.Bytes[1]) / float64(r.Bytes[0]); math.Abs(ratio-2) > 0.02 {
		t.Errorf("throughput ratio %.3f, want 2", ratio)
	}
}

// TestBandwidthStep: the bottleneck's rate jumps from 25 to 100 Gbps, as
// when a circuit comes up in a reconfigurable network. PowerTCP (per-RTT
// updates, as in the RDCN study) sees b change in its INT records: its
// power drops to ¼ (floored at ½ by min_lambda), so each round at least
// doubles the window, and 4 RTTs after the step (one for the news, two
// doublings, one for the ACKs) it delivers ≥ 90% of the new rate. HPCC
// sees utilisation ¼ < η and by its rule multiplies only after maxStage =
// 5 additive rounds; how many of them remain at the step depends on the
// phase of its stage counter, and its first multiplicative step sees a
// utilisation still smoothed toward the old one, so it needs a second
// one: it reaches 85 % of the new rate no earlier than 6 RTTs after the
// step (PowerTCP: 4) and holds it from the 14th on.
func TestBandwidthStep(t *testing.T) {
	for _, name := range []string{"powertcp", "hpcc"} {
		b := &bottleneck{C: 25 * rotor.Gbps, C2: 100 * rotor.Gbps, Step: rotor.Millisecond, H: 100 * rotor.Gbps, MSS: 1000,
			Fwd: 10 * rotor.Microsecond, Back: 10 * rotor.Microsecond, End: 2 * rotor.Millisecond,
			Sample: rotor.Microsecond, MeasureAt: rotor.Millisecond, Starts: []rotor.Time{0}}
		tau := b.BaseRTT()
		b.Bin = tau
		l, err := New(name, Env{MSS: b.MSS, HostRate: b.H, BaseRTT: tau}, map[string]string{"mode": "per-rtt"})
		if err != nil {
			t.Fatal(err)
		}
		b.Laws = []Law{l}
		r := b.run()
		step := int(b.Step / tau)
		fr := binsFrac(r.Bins[step:step+16], bytesPerSec(b.C2)*tau.Seconds()) // per RTT after the step
		switch name {
		case "powertcp":
			if m := slices.Min(fr[4:]); m < 0.9 || slices.Max(fr) > 1.01 {
				t.Errorf("powertcp: throughput per RTT after the step %.2f, want ≥ 0.9 from the 4th RTT on", fr)
			}
		case "hpcc":
			if m := slices.Max(fr[:6]); m >= 0.85 {
				t.Errorf("hpcc: throughput per RTT after the step %.2f, want < 0.85 in the first 6 RTTs", fr)
			}
			if m := slices.Min(fr[14:]); m < 0.85 {
				t.Errorf("hpcc: throughput per RTT after the step %.2f, want ≥ 0.85 from the 14th RTT on", fr)
			}
			t.Logf("hpcc: throughput per RTT after the step %.2f", fr)
		}
	}
}

func binsFrac(bs []int64, full float64) []float64 {
	var out []float64
	for _, x := range bs {
		out = append(out, float64(x)/full)
	}
	return out
}

// TestPowerTCPWeightedFairness: Theorem 3 of the PowerTCP paper: flows
// share in proportion to their β_i. Two flows with additive increase 1
// and 3 Gb/s get throughputs 1:3, and the queue is β_1 + β_2.
//
// This holds with min_lambda = 0. The default floor λ ≥ b/2 clips the
// negative swings of per-packet q̇ samples, and the flow with more packets
// samples over shorter intervals, so its noise is larger and its power is
// biased upward: with the floor the shares come out about 1:1.5.
func TestPowerTCPWeightedFairness(t *testing.T) {
	b := &bottleneck{C: 100 * rotor.Gbps, H: 100 * rotor.Gbps, MSS: 1000,
		Fwd: 10 * rotor.Microsecond, Back: 10 * rotor.Microsecond,
		End: 6 * rotor.Millisecond, Sample: rotor.Microsecond, MeasureAt: 4 * rotor.Millisecond,
		Starts: []rotor.Time{0, 500 * rotor.Microsecond}}
	env := Env{MSS: b.MSS, HostRate: b.H, BaseRTT: b.BaseRTT()}
	for _, ai := range []string{"1Gbps", "3Gbps"} {
		l, err := New("powertcp", env, map[string]string{"ai": ai, "min_lambda": "0"})
		if err != nil {
			t.Fatal(err)
		}
		b.Laws = append(b.Laws, l)
	}
	r := b.run()
	if ratio := float64(r.Bytes[1]) / float64(r.Bytes[0]); math.Abs(ratio-3) > 0.15 {
		t.Errorf("throughput ratio %.3f, want β₂/β₁ = 3 ± 5%%", ratio)
	}
	qe := 4e9 / 8 * b.BaseRTT().Seconds()
	if math.Abs(r.QMean-qe) > 0.15*qe {
		t.Errorf("mean queue %.0f B, want β₁ + β₂ = %.0f ± 15%%", r.QMean, qe)
	}
	t.Logf("throughput 1:%.3f, mean queue %.0f B (want %.0f)", float64(r.Bytes[1])/float64(r.Bytes[0]), r.QMean, qe)
}

// TestDCTCPSawtooth: four DCTCP flows and a switch marking above K = 65
// packets, on a link whose base BDP is C·τ = 252 packets (so K > C·τ/7,
// the DCTCP paper's condition for full throughput). The paper's fluid
// analysis of N synchronised flows predicts a queue peaking at K + N
// packets, a sawtooth amplitude A = ½·√(2N(C·τ + K)) ≈ 25 packets (so the
// queue never empties), and α ≈ √(2/W*) with W* = (C·τ + K)/N. The model
// flows are not synchronised, so the checks allow a margin.
func TestDCTCPSawtooth(t *testing.T) {
	const k, n = 65, 4
	b := &bottleneck{C: 100 * rotor.Gbps, H: 100 * rotor.Gbps, MSS: 1000, K: k * 1000,
		Fwd: 10 * rotor.Microsecond, Back: 10 * rotor.Microsecond,
		End: 20 * rotor.Millisecond, Sample: rotor.Microsecond, MeasureAt: 10 * rotor.Millisecond}
	env := Env{MSS: b.MSS, HostRate: b.H, BaseRTT: b.BaseRTT()}
	for i := range n {
		l, err := New("dctcp", env, nil)
		if err != nil {
			t.Fatal(err)
		}
		b.Laws = append(b.Laws, l)
		b.Starts = append(b.Starts, rotor.Time(i)*100*rotor.Microsecond)
	}
	r := b.run()
	bdp := bytesPerSec(b.C) * b.BaseRTT().Seconds() / float64(b.MSS) // packets
	qmax := float64(k + n)
	amp := math.Sqrt(2*n*(bdp+k)) / 2
	alpha := math.Sqrt(2 / ((bdp + k) / n))
	if r.Busy < 0.99 {
		t.Errorf("link busy %.4f, want ≥ 0.99", r.Busy)
	}
	if got := float64(r.QMax) / float64(b.MSS); got > qmax+4 {
		t.Errorf("queue peaked at %.0f packets, want ≤ K + N (+4) = %.0f", got, qmax+4)
	}
	if got := float64(slices.Min(r.Samples)) / float64(b.MSS); got < 0.8*(qmax-amp) {
		t.Errorf("queue fell to %.0f packets, want ≥ 0.8·(K + N − A) = %.1f", got, 0.8*(qmax-amp))
	}
	for i, l := range b.Laws {
		if a := l.(*DCTCP).Alpha; math.Abs(a-alpha) > 0.3*alpha {
			t.Errorf("flow %d: α = %.3f, want √(2/W*) = %.3f ± 30%%", i, a, alpha)
		}
	}
	if j := jain(r.Bytes); j < 0.99 {
		t.Errorf("Jain index %.4f, want ≥ 0.99", j)
	}
}

// TestCircuitDays is a single-path idealisation of the thesis's
// reconfigurable-network case study: ten flows from 25 Gbps hosts share
// one bottleneck whose rate is 100 Gbps during the pair's circuit day
// (225 µs every 5880 µs week) and 25 Gbps (the packet network) otherwise;
// τ ≈ 24.6 µs, per-RTT updates. PowerTCP sees the new b in its INT
// records and at least doubles its window per RTT, so it fills the circuit
// two to three RTTs into a nine-RTT day: about 80 % circuit utilisation
// (the thesis reports 80–85 %). HPCC sees utilisation below η and first
// takes five additive rounds, so it fills little of the day.
func TestCircuitDays(t *testing.T) {
	us := rotor.Microsecond
	week, day := 5880*us, 225*us
	rateAt := func(t rotor.Time) rotor.Rate {
		if t%week < day {
			return 100 * rotor.Gbps
		}
		return 25 * rotor.Gbps
	}
	util := map[string]float64{}
	for _, name := range []string{"powertcp", "hpcc"} {
		b := &bottleneck{C: 25 * rotor.Gbps, H: 25 * rotor.Gbps, MSS: 1000, RateAt: rateAt,
			Fwd: 9 * us, Back: 15 * us, End: 10*week + 1, Sample: us, MeasureAt: 2 * week}
		env := Env{MSS: b.MSS, HostRate: b.H, BaseRTT: b.BaseRTT()}
		for i := range 10 {
			l, err := New(name, env, map[string]string{"mode": "per-rtt"})
			if err != nil {
				t.Fatal(err)
			}
			b.Laws = append(b.Laws, l)
			b.Starts = append(b.Starts, rotor.Time(i)*10*us)
		}
		r := b.run()
		days := (b.End - b.MeasureAt) / week
		util[name] = float64(r.ByRate[100*rotor.Gbps]) / (bytesPerSec(100*rotor.Gbps) * (rotor.Time(days) * day).Seconds())
		if j := jain(r.Bytes); j < 0.99 {
			t.Errorf("%s: Jain index %.4f, want ≥ 0.99", name, j)
		}
		t.Logf("%s: queue peak %d B", name, r.QMax)
	}
	if util["powertcp"] < 0.75 || util["hpcc"] > 0.65 || util["powertcp"] < util["hpcc"]+0.2 {
		t.Errorf("circuit utilisation: PowerTCP %.3f, HPCC %.3f; want PowerTCP ≥ 0.75, HPCC ≤ 0.65, and PowerTCP ahead by ≥ 0.2", util["powertcp"], util["hpcc"])
	}
	t.Logf("circuit utilisation: PowerTCP %.3f, HPCC %.3f", util["powertcp"], util["hpcc"])
}

// windowLog records a law's window each time an ACK changes it.
type windowLog struct {
	Law
	ws []float64
}

func (r *windowLog) OnAck(f *Feedback) {
	w := r.Law.Window()
	r.Law.OnAck(f)
	if nw := r.Law.Window(); nw != w {
		r.ws = append(r.ws, float64(nw))
	}
}

// TestPowerTCPConvergence: Theorem 2 of the PowerTCP paper. With power
// equal to b·w_old (Property 1), one update maps the error to
// w − w_e ← (1 − γ)(w − w_e): exponential convergence with a factor 1 − γ
// per update interval. One per-RTT flow starts with a window four times
// the bottleneck's BDP (a 100 G host on a 25 G link); the error shrinks by
// 1 − γ per round for γ = ¼ and ½, as long as it is above packet
// granularity (γ = 0.9 gets there within a round or two).
func TestPowerTCPConvergence(t *testing.T) {
	us := rotor.Microsecond
	for _, gamma := range []float64{0.25, 0.5} {
		b := &bottleneck{C: 25 * rotor.Gbps, H: 100 * rotor.Gbps, MSS: 1000,
			Fwd: 10 * us, Back: 10 * us, End: rotor.Millisecond, Sample: us, Starts: []rotor.Time{0}}
		env := Env{MSS: b.MSS, HostRate: b.H, BaseRTT: b.BaseRTT()}
		l, err := New("powertcp", env, map[string]string{"gamma": fmt.Sprint(gamma), "mode": "per-rtt", "ai": "2Gbps"})
		if err != nil {
			t.Fatal(err)
		}
		log := &windowLog{Law: l}
		b.Laws = []Law{log}
		b.run()
		tau := b.BaseRTT().Seconds()
		we := bytesPerSec(b.C)*tau + 2e9/8*tau
		if len(log.ws) < 6 {
			t.Fatalf("γ = %g: only %d window updates", gamma, len(log.ws))
		}
		// Compare rounds while the error is well above packet granularity
		// (ten packets).
		checked := 0
		for i := 1; i < len(log.ws) && math.Abs(log.ws[i]-we) > 10*float64(b.MSS); i++ {
			checked++
			ratio := (log.ws[i] - we) / (log.ws[i-1] - we)
			if math.Abs(ratio-(1-gamma)) > 0.06 {
				t.Errorf("γ = %g, round %d: error ratio %.3f, want 1 − γ = %.2f (windows %.0f, w_e %.0f)", gamma, i, ratio, 1-gamma, log.ws[:6], we)
			}
		}
		if checked < 3 {
			t.Errorf("γ = %g: only %d rounds above packet granularity (windows %.0f)", gamma, checked, log.ws[:6])
		}
	}
}

// TestThetaPowerTCPAdditiveOnly: the thesis notes that θ-PowerTCP, which
// sees only RTTs, "assumes the bottleneck is at maximum transmission rate"
// and fills spare bandwidth by additive increase alone. One flow from a
// 100 G host on a 25 G link starts at four times the BDP; the queue's
// delayed feedback drives its window below the BDP, and once the queue is
// empty the RTT is flat (θ̇ = 0, θ = τ, power 1), so each round adds
// exactly γ·β: w ← γ(w + β) + (1 − γ)w. PowerTCP, which sees the link's
// transmit rate in INT, recovers from the same undershoot within a few
// rounds.
func TestThetaPowerTCPAdditiveOnly(t *testing.T) {
	us := rotor.Microsecond
	run := func(name string, params map[string]string) []float64 {
		b := &bottleneck{C: 25 * rotor.Gbps, H: 100 * rotor.Gbps, MSS: 1000,
			Fwd: 10 * us, Back: 10 * us, End: rotor.Millisecond, Sample: us, Starts: []rotor.Time{0}}
		l, err := New(name, Env{MSS: b.MSS, HostRate: b.H, BaseRTT: b.BaseRTT()}, params)
		if err != nil {
			t.Fatal(err)
		}
		log := &windowLog{Law: l}
		b.Laws = []Law{log}
		b.run()
		return log.ws
	}
	tau := (&bottleneck{C: 25 * rotor.Gbps, H: 100 * rotor.Gbps, MSS: 1000, Fwd: 10 * us, Back: 10 * us}).BaseRTT().Seconds()
	bdp, gb := 25e9/8*tau, 0.9*150e6/8*tau
	th := run("theta-powertcp", nil)
	if len(th) < 40 || th[10] > 0.5*bdp {
		t.Fatalf("θ-PowerTCP windows %.0f: want an undershoot below half the BDP (%.0f) by round 10", th[:min(len(th), 12)], bdp)
	}
	for i := 11; i < 40; i++ {
		if inc := th[i] - th[i-1]; math.Abs(inc-gb) > 0.05*gb {
			t.Fatalf("θ-PowerTCP round %d: window grew %.1f B, want γ·β = %.1f", i, inc, gb)
		}
	}
	pt := run("powertcp", map[string]string{"mode": "per-rtt"})
	t.Logf("BDP %.0f B; θ-PowerTCP rounds 0–11: %.0f; PowerTCP: %.0f", bdp, th[:12], pt[:12])
	if len(pt) < 12 || slices.Min(pt[8:12]) < 0.9*bdp {
		t.Fatalf("PowerTCP windows %.0f: want ≥ 0.9·BDP (%.0f) by round 8", pt[:min(len(pt), 12)], bdp)
	}
}
