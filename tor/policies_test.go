package tor

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

func overload(ports []int32, class uint8, rate rotor.Rate) []*source {
	var src []*source
	for _, p := range ports {
		src = append(src, &source{port: p, class: class, rate: rate, stop: rotor.Second})
	}
	return src
}

// ABM isolates: however many queues of one priority congest, together they
// hold at most αB/(1+α) (ABM's Lemma 1 and Theorem 6); DT's total grows
// with their number, nα/(1+nα)·B.
func TestABMIsolation(t *testing.T) {
	const b = 1_000_000
	for _, n := range []int{1, 4, 8} {
		ports := make([]int32, n)
		for i := range ports {
			ports[i] = int32(i)
		}
		total := map[string]float64{}
		for _, pol := range []string{"abm", "dt"} {
			h := newHarness(t, cfgN(16, 1, b, rotor.Gbps), pol, map[string]float64{"alpha": 0.5}, overload(ports, 0, 2*rotor.Gbps)...)
			h.run(100 * rotor.Millisecond)
			total[pol] = float64(h.sw.State().Used)
		}
		if abm := total["abm"]; abm > b*0.5/1.5+1500 || abm < 0.9*b*0.5/1.5 {
			t.Errorf("n=%d: ABM holds %.0f B, want ≈ αB/(1+α) = %.0f", n, abm, b*0.5/1.5)
		}
		want := float64(n) * 0.5 / (1 + float64(n)*0.5) * b
		if dt := total["dt"]; math.Abs(dt-want) > float64(n)*1500 {
			t.Errorf("n=%d: DT holds %.0f B, want nα/(1+nα)·B = %.0f", n, dt, want)
		}
	}
}

// ABM's first-RTT packets use α_unsched = 64: a burst of them on an idle
// switch fills up to 64/65 of the buffer; scheduled packets stop at 1/3.
func TestABMUnscheduled(t *testing.T) {
	cfg := cfgN(4, 1, 1_000_000, rotor.Gbps)
	for _, tc := range []struct {
		unsched bool
		want    float64
	}{{false, 1.0 / 3}, {true, 64.0 / 65}} {
		p, _ := NewBufferPolicy("abm", nil, Env{Switch: &cfg})
		sw, _ := NewSwitch(cfg, p, nil)
		sw.Tick(cfg.RTT)
		for k := int32(0); k < 1000; k++ {
			sw.Enqueue(0, &Arrival{Size: 1500, Unsched: tc.unsched}, k)
		}
		if got := float64(sw.State().Used) / 1e6; math.Abs(got-tc.want) > 0.0015 {
			t.Errorf("unscheduled %v: burst holds %.4f of B, want %.4f", tc.unsched, got, tc.want)
		}
	}
}

// FBA reaches FB's steady state once its controller has run; CP never
// lets a queue pass B/(ports·queues).
func TestFBAAndCP(t *testing.T) {
	const pkt = 1500
	cfg := cfgN(4, 2, 60*pkt, rotor.Gbps)
	src := append(overload([]int32{3}, 0, 3*rotor.Gbps), overload([]int32{0, 1, 2}, 1, 3*rotor.Gbps)...)
	h := newHarness(t, cfg, "fba", map[string]float64{"alpha": 1, "alpha_hi": 2, "hi_queues": 1, "period_us": 100}, src...)
	h.run(20 * rotor.Millisecond)
	s := h.sw.State()
	got := [...]int64{s.Free() / pkt, s.Queues[6].Bytes / pkt, s.Queues[1].Bytes / pkt}
	if got[0] < 14 || got[0] > 16 || got[1] < 29 || got[1] > 31 || got[2] < 4 || got[2] > 6 {
		t.Errorf("fba: (free, high, low) = %v packets, want FB's (15, 30, 5) ± 1", got)
	}
	h = newHarness(t, cfg, "cp", nil, overload([]int32{0, 1}, 0, 3*rotor.Gbps)...)
	h.run(5 * rotor.Millisecond)
	for q := 0; q < 8; q++ {
		if b := h.sw.State().Queues[q].Bytes; b > 60*pkt/8 {
			t.Errorf("cp: queue %d holds %d B > B/8", q, b)
		}
	}
}

// FAB gives a flow's first packets (under 15 MTU) α_short: behind a
// congested queue, a new flow gets all 14 of them into a 40-packet buffer,
// where DT (α = 0.5) stops it at 9: q + 1 ≤ 0.5·(40 − 13 − q).
func TestFAB(t *testing.T) {
	cfg := cfgN(4, 1, 40*1500, rotor.Gbps)
	for pol, want := range map[string]int{"fab": 14, "dt": 9} {
		p, _ := NewBufferPolicy(pol, nil, Env{Switch: &cfg})
		sw, _ := NewSwitch(cfg, p, nil)
		for k := int32(0); k < 40; k++ { // a long flow congests port 1
			sw.Enqueue(0, &Arrival{Flow: 1, Size: 1500, Port: 1}, k)
		}
		admitted := 0
		for k := int32(0); k < 14; k++ {
			if ok, _ := sw.Enqueue(0, &Arrival{Flow: 7, Size: 1500}, 100+k); ok {
				admitted++
			}
		}
		if admitted != want {
			t.Errorf("%s admitted %d of a new flow's 14 packets, want %d", pol, admitted, want)
		}
	}
}

// IB's fair dropping holds a persistently long queue near min_queue, well
// below DT's threshold.
func TestIB(t *testing.T) {
	cfg := cfgN(4, 1, 2_000_000, rotor.Gbps)
	p, err := NewBufferPolicy("ib", nil, Env{Switch: &cfg, Rand: rand.New(rand.NewPCG(1, 1))})
	if err != nil {
		t.Fatal(err)
	}
	sw, _ := NewSwitch(cfg, p, nil)
	h := &harness{sw: sw, src: overload([]int32{0}, 0, 2*rotor.Gbps), busy: make([]rotor.Time, 4), dropped: make([]int64, 4)}
	h.run(100 * rotor.Millisecond)
	q := float64(sw.State().Queues[0].Bytes)
	if dt := 0.5 * 2e6 / 1.5; q > 0.5*dt || q < 100*1024 {
		t.Errorf("ib: queue %.0f B, want near min_queue 150 KiB, well below DT's %.0f", q, dt)
	}
}

// Protean: short-flow packets share completely; long-flow packets stop at
// DT's α_long.
func TestProtean(t *testing.T) {
	cfg := cfgN(2, 3, 90*1500, rotor.Gbps)
	for _, tc := range []struct {
		class uint8
		want  int64
	}{{0, 90}, {1, 30}} { // α_long = 0.5: q = 0.5(B − q) → B/3
		p, _ := NewBufferPolicy("protean", nil, Env{Switch: &cfg})
		sw, _ := NewSwitch(cfg, p, nil)
		for k := int32(0); k < 100; k++ {
			sw.Enqueue(0, &Arrival{Size: 1500, Class: tc.class}, k)
		}
		if got := sw.State().Used / 1500; got != tc.want {
			t.Errorf("class %d: %d packets admitted, want %d", tc.class, got, tc.want)
		}
	}
}

// Credence whose oracle never says drop, safeguard off, is FollowLQD:
// the same drops, packet for packet, in the packet switch.
func TestCredenceNeverDropIsFollowLQD(t *testing.T) {
	var drops [2][]int64
	for i, tc := range []struct {
		policy string
		set    map[string]float64
	}{{"followlqd", nil}, {"credence", map[string]float64{"safeguard": 0}}} {
		cfg := cfgN(8, 1, 100*1500, rotor.Gbps)
		p, err := NewBufferPolicy(tc.policy, tc.set, Env{Switch: &cfg, Oracle: PerfectOracle{}})
		if err != nil {
			t.Fatal(err)
		}
		sw, _ := NewSwitch(cfg, p, nil)
		h := &harness{sw: sw, busy: make([]rotor.Time, 8), dropped: make([]int64, 8),
			src: append(overload([]int32{0, 1, 2}, 0, 3*rotor.Gbps), &source{port: 3, rate: 8 * rotor.Gbps, start: 2 * rotor.Millisecond, stop: 3 * rotor.Millisecond})}
		h.run(6 * rotor.Millisecond)
		drops[i] = h.dropIDs
	}
	if len(drops[0]) == 0 || !slices.Equal(drops[0], drops[1]) {
		t.Errorf("followlqd dropped %d packets, credence %d, not the same ones", len(drops[0]), len(drops[1]))
	}
}

// LQD drops only when the buffer is full.
func TestLQDDropsOnlyWhenFull(t *testing.T) {
	cfg := cfgN(8, 1, 100*1500, rotor.Gbps)
	h := newHarness(t, cfg, "lqd", nil, append(overload([]int32{0, 1, 2}, 0, 3*rotor.Gbps),
		&source{port: 3, rate: 8 * rotor.Gbps, start: 2 * rotor.Millisecond, stop: 3 * rotor.Millisecond})...)
	h.onDrop = func(rotor.Time, *source) {
		if s := h.sw.State(); s.Used+1500 <= s.B {
			t.Fatalf("LQD dropped an arrival with %d of %d bytes used", s.Used, s.B)
		}
	}
	h.run(6 * rotor.Millisecond)
	if h.sw.PushedOut == 0 {
		t.Error("no push-out: the test did not congest")
	}
}

// abmBurst enqueues 1,500 B packets into queue q of port (q / queues)
// until one is refused and returns how many were admitted.
func abmBurst(sw *Switch, port int32, class uint8, first int32) int {
	n := 0
	for k := first; ; k++ {
		if ok, _ := sw.Enqueue(0, &Arrival{Size: 1500, Port: port, Class: class}, k); !ok {
			return n
		}
		n++
	}
}

// ABM's n_p with ns-3's rule (np_at_arrivals): two ports fill to the
// saturation level (21 packets: the last arrival finds 20 × 1,500 B =
// sat) and drain. rdcn's n_p at the next refresh counts the empty queues
// as 0, so n_p = 1, and a burst into a third port stops where k·1,500 ≤
// α·(B − (k−1)·1,500) with α = 0.5, B = 10^6: k = 222. ns-3's queues keep
// the saturation their last arrival found, 1 each: n_p = 2, and the burst
// stops where k·1,500 ≤ (α/2)·(B − (k−1)·1,500): k = 133.
func TestABMNPAtArrivals(t *testing.T) {
	cfg := cfgN(4, 1, 1_000_000, rotor.Gbps)
	for _, tc := range []struct {
		rule float64
		want int
	}{{0, 222}, {1, 133}} {
		p, err := NewBufferPolicy("abm", map[string]float64{"np_at_arrivals": tc.rule}, Env{Switch: &cfg})
		if err != nil {
			t.Fatal(err)
		}
		sw, _ := NewSwitch(cfg, p, nil)
		sw.Tick(cfg.RTT)
		h := int32(0)
		for port := int32(0); port < 2; port++ {
			for k := 0; k < 21; k++ {
				if ok, _ := sw.Enqueue(0, &Arrival{Size: 1500, Port: port}, h); !ok {
					t.Fatalf("rule %v: packet %d of port %d refused", tc.rule, k, port)
				}
				h++
			}
			for k := 0; k < 21; k++ {
				sw.dequeueQueue(0, port)
			}
		}
		sw.Tick(2 * cfg.RTT)
		if got := abmBurst(sw, 2, 0, h); got != tc.want {
			t.Errorf("np_at_arrivals %v: burst admitted %d packets, want %d", tc.rule, got, tc.want)
		}
	}
}

// ABM's γ with ns-3's rule (gamma_ns3): a queue of a two-queue port
// drains 3 packets (4,500 B) in a 120 µs period at 1 Gbps, γ = 0.3.
// rdcn clamps it to 1/2: a burst into that queue then stops where k·1,500
// ≤ 0.5·0.5·(B − (k−1)·1,500): k = 133. ns-3 sets a γ below 1/2 to 1: k =
// 222 (as TestABMNPAtArrivals: n_p is 1 in both, the queue having drained).
func TestABMGammaNS3(t *testing.T) {
	cfg := cfgN(4, 2, 1_000_000, rotor.Gbps)
	for _, tc := range []struct {
		rule float64
		want int
	}{{0, 133}, {1, 222}} {
		p, err := NewBufferPolicy("abm", map[string]float64{"gamma_ns3": tc.rule, "period_us": 120}, Env{Switch: &cfg})
		if err != nil {
			t.Fatal(err)
		}
		sw, _ := NewSwitch(cfg, p, nil)
		for k := int32(0); k < 3; k++ {
			sw.Enqueue(0, &Arrival{Size: 1500}, k)
		}
		for k := 0; k < 3; k++ {
			sw.dequeueQueue(0, 0)
		}
		sw.Tick(120 * rotor.Microsecond)
		if got := abmBurst(sw, 0, 0, 3); got != tc.want {
			t.Errorf("gamma_ns3 %v: burst admitted %d packets, want %d", tc.rule, got, tc.want)
		}
	}
	if _, err := NewBufferPolicy("abm", map[string]float64{"gamma_ns3": 0.5}, Env{Switch: &cfg}); err == nil {
		t.Error("gamma_ns3 0.5: no error")
	}
}
