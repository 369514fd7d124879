package main

import (
	"math"
	"testing"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/rotor"
)

// TestSwiftHandTrace follows one flow through Swift's rules with the
// defaults (β 0.8, max_mdf 0.5, ai 1, retx_reset 5, min_cwnd 0.001): MSS
// 1000 B, base RTT 50 µs so the target is 75 µs, initial window 10
// packets. Each expected window was worked out by hand from Algorithm 1.
func TestSwiftHandTrace(t *testing.T) {
	law, err := cc.New("swift", cc.Env{MSS: 1000, HostRate: 10 * rotor.Gbps, BaseRTT: 50 * rotor.Microsecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	us := func(x float64) rotor.Time { return rotor.Time(x * float64(rotor.Microsecond)) }
	w1 := 10 + 1.0/10                   // below target: +ai/cwnd per packet
	w2 := w1 + 2/w1                     // two packets acknowledged
	w3 := w2 * (1 - 0.8*(150-75)/150.0) // 150 µs ≥ 75: ×max(1 − β·75/150, 0.5) = ×0.6
	w5 := w3 * 0.6                      // a decrease one RTT (150 µs) later
	w7 := w5 * 0.5                      // first timeout: ×(1 − max_mdf)
	w9 := w7 * 0.5 * 0.5                // third and fourth timeouts, an RTT apart
	const wMin = 0.001                  // fifth timeout in a row: min_cwnd
	steps := []struct {
		what string
		do   func()
		cwnd float64 // packets
	}{
		{"ACK, RTT 60 µs", func() { law.OnAck(&cc.Feedback{Now: us(100), Acked: 1000, RTT: us(60)}) }, w1},
		{"ACK of 2, RTT 60 µs", func() { law.OnAck(&cc.Feedback{Now: us(110), Acked: 2000, RTT: us(60)}) }, w2},
		{"ACK, RTT 150 µs", func() { law.OnAck(&cc.Feedback{Now: us(120), Acked: 1000, RTT: us(150)}) }, w3},
		{"ACK, RTT 150 µs, 80 µs later: no second decrease", func() { law.OnAck(&cc.Feedback{Now: us(200), Acked: 1000, RTT: us(150)}) }, w3},
		{"ACK, RTT 150 µs, 160 µs later", func() { law.OnAck(&cc.Feedback{Now: us(280), Acked: 1000, RTT: us(150)}) }, w5},
		{"loss 10 µs later: no decrease", func() { law.OnLoss(us(290)) }, w5},
		{"timeout 1", func() { law.OnTimeout(us(1000)) }, w7},
		{"timeout 2, 10 µs later", func() { law.OnTimeout(us(1010)) }, w7},
		{"timeouts 3 and 4", func() { law.OnTimeout(us(1200)); law.OnTimeout(us(1400)) }, w9},
		{"timeout 5: reset", func() { law.OnTimeout(us(1600)) }, wMin},
		{"ACK below one packet: +ai per packet", func() { law.OnAck(&cc.Feedback{Now: us(1700), Acked: 1000, RTT: us(60)}) }, wMin + 1},
	}
	for _, s := range steps {
		s.do()
		want := int64(math.Round(max(1, s.cwnd) * 1000))
		if got := law.Window(); got != want {
			t.Errorf("%s: window %d B, want %d (cwnd %.6g packets)", s.what, got, want, s.cwnd)
		}
	}
	// Below one packet the law paces cwnd·MSS per RTT.
	law.OnTimeout(us(2000))
	law.OnTimeout(us(2200))
	law.OnTimeout(us(2400))
	law.OnTimeout(us(2600))
	law.OnTimeout(us(2800)) // five in a row: min_cwnd again
	// 0.001 × 1000 B × 8 bit per 60 µs = 133 333.3 bit/s, rounded down.
	if got, want := law.Rate(), rotor.Rate(133333); got != want {
		t.Errorf("rate at min_cwnd: %v, want %v (0.001 × 1000 B per 60 µs)", got, want)
	}
}

// TestSwiftFlowScaling: with fs_range 50 µs (fs_min_cwnd 0.1, fs_max_cwnd
// 100) a 10-packet window adds α/√10 + β to the 75 µs target, with
// α = 50 µs/(1/√0.1 − 1/√100) = 16.33 µs and β = −α/√100: 3.53 µs. An RTT
// of 78 µs is then below the target (growth), 79 µs above it (decrease);
// without flow scaling both decrease.
func TestSwiftFlowScaling(t *testing.T) {
	us := func(x float64) rotor.Time { return rotor.Time(x * float64(rotor.Microsecond)) }
	env := cc.Env{MSS: 1000, HostRate: 10 * rotor.Gbps, BaseRTT: 50 * rotor.Microsecond}
	for _, c := range []struct {
		fs   string
		rtt  float64
		grow bool
	}{{"50us", 78, true}, {"50us", 79, false}, {"0", 78, false}} {
		law, err := cc.New("swift", env, map[string]string{"fs_range": c.fs})
		if err != nil {
			t.Fatal(err)
		}
		law.OnAck(&cc.Feedback{Now: us(100), Acked: 1000, RTT: us(c.rtt)})
		if grew := law.Window() > 10_000; grew != c.grow {
			t.Errorf("fs_range %s, RTT %v µs: window %d, want growth %v", c.fs, c.rtt, law.Window(), c.grow)
		}
	}
	if _, err := cc.New("swift", env, map[string]string{"fs_min_cwnd": "2"}); err == nil {
		t.Error("fs_min_cwnd 2 (above fs_max_cwnd's lowest value) accepted")
	}
}
