package cc

import (
	"fmt"
	"math"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// TestPowerTCPFullStep checks the rule of the PowerTCP authors' TCP
// implementation (the one of the thesis's reconfigurable-network study):
// when the smoothed normalised power is at most 0.5 (full_step), the
// update takes the whole step, w ← w_old/Γ + β (γ = 1); above it, and with
// full_step = 0, it is w ← γ(w_old/Γ + β) + (1 − γ)w. One hop of 100 Gb/s
// with an empty queue carries λ = 0.4·b or 0.6·b, so Γ = λ/b exactly
// (min_lambda = 0, ai = 0); the first update of every mode is compared
// with the closed form.
func TestPowerTCPFullStep(t *testing.T) {
	const pkt = 1000
	for _, mode := range modeNames {
		for _, c := range []struct {
			frac     float64 // λ/b = Γ
			fullStep string
			want     float64 // w_new / w_old
		}{
			{0.4, "0.5", 1 / 0.4},
			{0.4, "0", 0.9/0.4 + 0.1},
			{0.6, "0.5", 0.9/0.6 + 0.1},
			{0.5, "0.5", 1 / 0.5}, // "at or below"
		} {
			name := fmt.Sprintf("%s/power=%g/full_step=%s", mode, c.frac, c.fullStep)
			env := Env{MSS: pkt, HostRate: 100 * rotor.Gbps, BaseRTT: 24 * rotor.Microsecond}
			l, err := New("powertcp", env, map[string]string{"mode": mode, "ai": "0", "min_lambda": "0", "full_step": c.fullStep})
			if err != nil {
				t.Fatal(err)
			}
			p := l.(*PowerTCP)
			for range 3 { // 300 KB → 37.5 KB: room to grow ×2.5
				p.OnTimeout(0)
			}
			w0 := float64(p.Window())
			gap := (100 * rotor.Gbps).TransmitTime(pkt) // one INT record per 100 G packet time
			sent := c.frac * pkt                        // bytes through the hop per gap
			// The first ACK stores INT; the first update follows (per-rtt:
			// once the round the first ACK opened has passed).
			for i := int64(1); i <= 2 || float64(p.Window()) == w0 && i < 1000; i++ {
				hop := []Hop{{Ts: rotor.Time(i) * gap, TxBytes: int64(math.Round(float64(i) * sent)), Rate: 100 * rotor.Gbps, Port: 1}}
				p.OnAck(&Feedback{Now: rotor.Time(i) * gap, Acked: pkt, Cum: i * pkt, SndNxt: i*pkt + p.Window(), Hops: hop})
			}
			if got := float64(p.Window()) / w0; math.Abs(got-c.want) > 1e-4*c.want {
				t.Errorf("%s: first update ×%.5f, want ×%.5f", name, got, c.want)
			}
		}
	}
}

// TestINTFirstRound: HPCC and PowerTCP (fast-react) commit their
// reference rate or window once per RTT, at the first ACK past the send
// frontier of the round's start, and the first round starts at the ACK
// that only stores INT records (the authors' lastUpdateSeq). Within it,
// every ACK reacts from the initial line-rate reference: with a constant
// sample (one hop, no queue, λ = 2·b), the fourth sample of the round
// gives the closed form of the first, HPCC R = C/(u/η) + R_AI and
// PowerTCP w = γ(W₀/Γ + β) + (1 − γ)W₀, not a compounded cut.
func TestINTFirstRound(t *testing.T) {
	const pkt = 1000
	env := Env{MSS: pkt, HostRate: 100 * rotor.Gbps, BaseRTT: 24 * rotor.Microsecond}
	line := bytesPerSec(env.HostRate)
	tau := env.BaseRTT.Seconds()
	ai := 50e6 / 8.0
	beta := 150e6 / 8 * tau
	for _, c := range []struct {
		law  string
		want float64 // bytes/s (HPCC) or bytes (PowerTCP)
		got  func(Law) float64
	}{
		{"hpcc", line/(2/0.95) + ai, func(l Law) float64 { return float64(l.(*HPCC).r) }},
		{"powertcp", 0.9*(line*tau/2+beta) + 0.1*line*tau, func(l Law) float64 { return l.(*PowerTCP).cwnd }},
	} {
		l, err := New(c.law, env, map[string]string{"mode": "fast-react"})
		if err != nil {
			t.Fatal(err)
		}
		gap := (100 * rotor.Gbps).TransmitTime(pkt)
		for i := int64(1); i <= 5; i++ { // the send frontier stays 100 packets ahead: one round
			hop := []Hop{{Ts: rotor.Time(i) * gap, TxBytes: 2 * i * pkt, Rate: 100 * rotor.Gbps, Port: 1}}
			l.OnAck(&Feedback{Now: rotor.Time(i) * gap, Acked: pkt, Cum: i * pkt, SndNxt: (i + 100) * pkt, Hops: hop})
		}
		if got := c.got(l); math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("%s: after four samples of the first round %.6g, want %.6g (the first sample's closed form)", c.law, got, c.want)
		}
	}
}

// TestSmoothStart: with smooth_start = one (the authors' RDMA simulator)
// the first sample of PowerTCP and HPCC is folded into a smoothed value
// of 1 with weight Δt/τ; with the default (sample, the Linux module) it
// is taken whole. One 100 G hop with λ = 2·b and no queue, the first
// sample Δt = one packet time after the INT-storing ACK: the window
// (rate) after it against the closed form.
func TestSmoothStart(t *testing.T) {
	const pkt = 1000
	env := Env{MSS: pkt, HostRate: 100 * rotor.Gbps, BaseRTT: 24 * rotor.Microsecond}
	line := bytesPerSec(env.HostRate)
	tau := env.BaseRTT.Seconds()
	gap := (100 * rotor.Gbps).TransmitTime(pkt)
	folded := (1*(tau-gap.Seconds()) + 2*gap.Seconds()) / tau
	ai, beta := 50e6/8.0, 150e6/8*tau
	for _, c := range []struct {
		law, start string
		want       float64
		got        func(Law) float64
	}{
		{"hpcc", "sample", line/(2/0.95) + ai, func(l Law) float64 { return l.(*HPCC).r }},
		{"hpcc", "one", line/(folded/0.95) + ai, func(l Law) float64 { return l.(*HPCC).r }},
		{"powertcp", "sample", 0.9*(line*tau/2+beta) + 0.1*line*tau, func(l Law) float64 { return l.(*PowerTCP).cwnd }},
		{"powertcp", "one", 0.9*(line*tau/folded+beta) + 0.1*line*tau, func(l Law) float64 { return l.(*PowerTCP).cwnd }},
	} {
		l, err := New(c.law, env, map[string]string{"mode": "fast-react", "smooth_start": c.start})
		if err != nil {
			t.Fatal(err)
		}
		for i := int64(1); i <= 2; i++ {
			hop := []Hop{{Ts: rotor.Time(i) * gap, TxBytes: 2 * i * pkt, Rate: 100 * rotor.Gbps, Port: 1}}
			l.OnAck(&Feedback{Now: rotor.Time(i) * gap, Acked: pkt, Cum: i * pkt, SndNxt: (i + 100) * pkt, Hops: hop})
		}
		if got := c.got(l); math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("%s, smooth_start %s: after the first sample %.6g, want %.6g", c.law, c.start, got, c.want)
		}
	}
}
