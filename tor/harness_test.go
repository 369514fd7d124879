package tor

import (
	"math"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// A small packet-level harness: constant-rate sources feed a Switch whose
// ports send back to back at their rate (a packet leaves the buffer when
// its transmission starts).

type source struct {
	port        int32
	inPort      int32
	class       uint8
	paused      bool // by PFC
	rate        rotor.Rate
	start, stop rotor.Time
	next        rotor.Time
	sent        int64
}

type harness struct {
	sw      *Switch
	src     []*source
	busy    []rotor.Time // port busy until
	id      int64
	onDrop  func(now rotor.Time, s *source)
	onTick  rotor.Time
	dropped []int64 // per port
	dropIDs []int64 // arrivals dropped, by id
}

func newHarness(t testing.TB, cfg SwitchConfig, policy string, set map[string]float64, src ...*source) *harness {
	t.Helper()
	p, err := NewBufferPolicy(policy, set, Env{Switch: &cfg})
	if err != nil {
		t.Fatal(err)
	}
	sw, err := NewSwitch(cfg, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range src {
		s.next = s.start
	}
	h := &harness{sw: sw, src: src, busy: make([]rotor.Time, cfg.Ports), dropped: make([]int64, cfg.Ports)}
	sw.OnPFC = func(now rotor.Time, inPort int32, class int, pause bool) {
		for _, s := range h.src {
			if s.inPort == inPort && sw.classify(s.class) == class {
				s.paused = pause
				if !pause && s.next < now {
					s.next = now // an upstream that was stopped resumes now
				}
			}
		}
	}
	return h
}

// run advances to until.
func (h *harness) run(until rotor.Time) {
	mtu := h.sw.cfg.MTU
	for {
		// next arrival
		var s *source
		for _, c := range h.src {
			if !c.paused && c.next < c.stop && (s == nil || c.next < s.next) {
				s = c
			}
		}
		now := until
		if s != nil && s.next < now {
			now = s.next
		}
		if ev := h.sw.TickEvery(); ev > 0 {
			for h.onTick+ev <= now {
				h.onTick += ev
				h.drain(h.onTick)
				h.sw.Tick(h.onTick)
			}
		}
		h.drain(now)
		if s == nil || s.next >= until {
			return
		}
		a := Arrival{ID: h.id, Flow: int32(s.port), Size: mtu, Port: s.port, InPort: s.inPort, Class: s.class}
		h.id++
		if ok, _ := h.sw.Enqueue(now, &a, int32(h.id)); !ok {
			h.dropped[s.port]++
			h.dropIDs = append(h.dropIDs, a.ID)
			if h.onDrop != nil {
				h.onDrop(now, s)
			}
		}
		s.sent++
		s.next += s.rate.TransmitTime(rotor.Bytes(mtu))
		h.drain(now)
	}
}

// drain lets every port send the packets whose transmission starts by now.
func (h *harness) drain(now rotor.Time) {
	for p := range h.busy {
		for h.busy[p] <= now {
			q := h.sw.pick(p)
			if q < 0 {
				h.busy[p] = max(h.busy[p], now)
				break
			}
			at := h.busy[p]
			_, size, _ := h.sw.dequeueQueue(at, q)
			h.busy[p] = at + h.sw.st.Ports[p].Rate.TransmitTime(rotor.Bytes(size))
		}
	}
}

func cfgN(ports, queues int, buffer int64, rate rotor.Rate) SwitchConfig {
	return SwitchConfig{Ports: ports, Queues: queues, Buffer: buffer, MTU: 1500,
		Rates: []rotor.Rate{rate}, Sched: RoundRobin, RTT: 80 * rotor.Microsecond}
}

// DT's steady state: N overloaded queues of α each hold αB/(1+αN), within
// a packet.
func TestDTSteadyState(t *testing.T) {
	for _, tc := range []struct {
		alpha float64
		n     int
	}{{1, 1}, {0.5, 1}, {1, 4}, {0.5, 8}, {2, 3}, {8, 16}} {
		const b = 1_000_000
		cfg := cfgN(16, 1, b, rotor.Gbps)
		var src []*source
		for p := 0; p < tc.n; p++ {
			src = append(src, &source{port: int32(p), rate: 2 * rotor.Gbps, stop: rotor.Second})
		}
		h := newHarness(t, cfg, "dt", map[string]float64{"alpha": tc.alpha}, src...)
		h.run(50 * rotor.Millisecond)
		want := tc.alpha * b / (1 + tc.alpha*float64(tc.n))
		for p := 0; p < tc.n; p++ {
			got := float64(h.sw.st.Queues[p].Bytes)
			if math.Abs(got-want) > 1500 {
				t.Errorf("α=%v N=%d: queue %d holds %.0f B, want αB/(1+αN) = %.0f ± 1 packet", tc.alpha, tc.n, p, got, want)
			}
		}
	}
}

// The FB paper's worked example: a 60-packet buffer, three low-priority
// queues (α_L = 1) on three ports and one high-priority queue (α_H = 2):
// 15 packets stay free, the high queue holds 30 and each low queue 5.
// DT (one α per queue index) in the same setting: the DT paper's example
// of one α=2 queue and three α=1 queues keeps 10 free, 20 and 10 each.
func TestFBExample(t *testing.T) {
	const pkt = 1500
	for _, tc := range []struct {
		policy       string
		free, hi, lo int64
	}{{"fb", 15, 30, 5}, {"dt", 10, 20, 10}} {
		cfg := cfgN(4, 2, 60*pkt, rotor.Gbps)
		src := []*source{{port: 3, class: 0, rate: 3 * rotor.Gbps, stop: rotor.Second}}
		for p := 0; p < 3; p++ {
			src = append(src, &source{port: int32(p), class: 1, rate: 3 * rotor.Gbps, stop: rotor.Second})
		}
		h := newHarness(t, cfg, tc.policy, map[string]float64{"alpha": 1, "alpha_hi": 2, "hi_queues": 1}, src...)
		h.run(20 * rotor.Millisecond)
		s := h.sw.State()
		got := [...]int64{s.Free() / pkt, s.Queues[3*2].Bytes / pkt, s.Queues[0*2+1].Bytes / pkt}
		want := [...]int64{tc.free, tc.hi, tc.lo}
		for i := range got {
			if d := got[i] - want[i]; d < -1 || d > 1 {
				t.Errorf("%s: (free, high, low) = %v packets, want %v ± 1", tc.policy, got, want)
				break
			}
		}
	}
}

// The TDT paper's micro-benchmark: 16 ports, 1 MB, 1 Gbps, α = 1; ports
// 0 and 1 receive 2 Gbps, port 2 an 8 Gbps burst at 150 ms. The burst's
// first drop comes after the longest fully absorbed burst: DT 222 µs at
// 0.19 MB of queue, EDT 533 µs at 0.47 MB (the paper's closed forms, its
// eqs. 8 and 13). TDT has evacuated ports 0 and 1 to B/16 each by then,
// so the burst fills the rest: (B − 2B/16)/(R − C) = 1.0 ms; the paper's
// 1.14 ms = B/(R − C) neglects those two B/16.
func TestTDTMicroBenchmark(t *testing.T) {
	const b = 1_000_000
	for _, tc := range []struct {
		policy    string
		us, queue float64 // first drop: µs after burst start, port 2's MB
	}{
		{"dt", 222, 0.19},
		{"edt", 533, 0.47},
		{"tdt", 1000, 0.875},
	} {
		cfg := cfgN(16, 1, b, rotor.Gbps)
		start := 150 * rotor.Millisecond
		burst := &source{port: 2, rate: 8 * rotor.Gbps, start: start, stop: start + 2*rotor.Millisecond}
		h := newHarness(t, cfg, tc.policy, map[string]float64{"alpha": 1},
			&source{port: 0, rate: 2 * rotor.Gbps, stop: rotor.Second},
			&source{port: 1, rate: 2 * rotor.Gbps, stop: rotor.Second}, burst)
		first, q := rotor.Time(-1), int64(0)
		h.onDrop = func(now rotor.Time, s *source) {
			if s == burst && first < 0 {
				first, q = now-start, h.sw.st.Queues[2].Bytes
			}
		}
		h.run(start)
		if tdt, ok := h.sw.Policy().(*TDT); ok {
			// the long-lived ports have been evacuated; the burst is absorbed
			if tdt.State(0) != "evacuation" || tdt.State(1) != "evacuation" {
				t.Errorf("tdt before the burst: ports 0, 1 in %s, %s, want evacuation", tdt.State(0), tdt.State(1))
			}
			h.run(start + 100*rotor.Microsecond)
			if tdt.State(2) != "absorption" {
				t.Errorf("tdt 100 µs into the burst: port 2 in %s, want absorption", tdt.State(2))
			}
		}
		h.run(start + 2*rotor.Millisecond)
		gotUS, gotMB := first.Seconds()*1e6, float64(q)/1e6
		t.Logf("%s: first burst drop after %.0f µs at %.3f MB", tc.policy, gotUS, gotMB)
		if math.Abs(gotUS-tc.us) > 0.03*tc.us || math.Abs(gotMB-tc.queue) > 0.03*tc.queue+0.005 {
			t.Errorf("%s: first burst drop after %.0f µs at %.3f MB of queue, want %.0f µs at %.2f MB (±3%%)",
				tc.policy, gotUS, gotMB, tc.us, tc.queue)
		}
	}
}
