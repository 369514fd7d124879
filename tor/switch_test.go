package tor

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// Bad input: each error is one line that names the key.
func TestPolicyBadInput(t *testing.T) {
	cfg := cfgN(4, 2, 1e6, rotor.Gbps)
	for _, tc := range []struct {
		name string
		set  map[string]float64
		env  Env
		want string
	}{
		{"dtt", nil, Env{}, `policy "dtt": unknown`},
		{"dt", map[string]float64{"alpah": 1}, Env{}, "alpah: policy dt takes no such parameter (takes: alpha, alpha_hi, hi_queues)"},
		{"cs", map[string]float64{"alpha": 1}, Env{}, "alpha: policy cs takes no such parameter (takes: none)"},
		{"dt", map[string]float64{"alpha": 0}, Env{}, "alpha 0: must be positive"},
		{"abm", map[string]float64{"alpha": -1}, Env{}, "alpha -1: must be positive"},
		{"dt", map[string]float64{"alpha": math.NaN()}, Env{}, "alpha NaN: must be finite"},
		{"dt", map[string]float64{"hi_queues": 3}, Env{}, "hi_queues 3: must be a whole number of queues, at most 2"},
		{"credence", nil, Env{}, "credence: needs an oracle (buffer.credence_model)"},
		{"credence", map[string]float64{"flip": 2}, Env{Oracle: PerfectOracle{}}, "flip 2: must be a probability"},
		{"ib", nil, Env{}, "ib: needs a random source"},
		{"protean", map[string]float64{"long_queue": 2}, Env{}, "short_queue 0, long_queue 2: must be queue indices below 2"},
	} {
		tc.env.Switch = &cfg
		_, err := NewBufferPolicy(tc.name, tc.set, tc.env)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %v: error %v, want one line starting %q", tc.name, tc.set, err, tc.want)
		}
	}
	bad := cfg
	bad.Queues = 9
	if _, err := NewBufferPolicy("dt", nil, Env{Switch: &bad}); err == nil || !strings.HasPrefix(err.Error(), "queues 9") {
		t.Errorf("9 queues: %v", err)
	}
}

// Every registered policy builds with its defaults and documents itself.
func TestRegistry(t *testing.T) {
	cfg := cfgN(4, 3, 1e6, rotor.Gbps)
	for _, p := range Policies() {
		if p.Doc == "" {
			t.Errorf("%s: no doc", p.Name)
		}
		for _, prm := range p.Params {
			if prm.Doc == "" {
				t.Errorf("%s.%s: no doc", p.Name, prm.Name)
			}
		}
		pol, err := NewBufferPolicy(p.Name, nil, Env{Switch: &cfg, Oracle: PerfectOracle{}, Rand: rand.New(rand.NewPCG(1, 1))})
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if pol.Name() != p.Name {
			t.Errorf("%s builds a policy named %s", p.Name, pol.Name())
		}
	}
}

// Scheduling: strict priority serves the lowest non-empty queue; round
// robin takes the non-empty queues in turn. Counters follow every change.
func TestSchedulers(t *testing.T) {
	for _, sched := range []Sched{StrictPriority, RoundRobin} {
		cfg := cfgN(2, 3, 1e6, rotor.Gbps)
		cfg.Sched = sched
		sw, err := NewSwitch(cfg, CompleteSharingPolicy{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, class := range []uint8{2, 0, 2, 1, 0, 7} { // class 7 → last queue
			sw.Enqueue(0, &Arrival{Size: 100, Port: 1, Class: class}, int32(k))
		}
		s := sw.State()
		if s.Used != 600 || s.Ports[1].Packets != 6 || s.Ports[1].Active != 0b111 || s.PrioActive[2] != 1 || s.Active != 3 {
			t.Fatalf("counters after enqueue: %+v %+v", s.Ports[1], s)
		}
		var got []int32
		for {
			h, _, ok := sw.Dequeue(0, 1)
			if !ok {
				break
			}
			got = append(got, h)
		}
		want := map[Sched][]int32{StrictPriority: {1, 4, 3, 0, 2, 5}, RoundRobin: {1, 3, 0, 4, 2, 5}}[sched]
		if !slices.Equal(got, want) {
			t.Errorf("sched %d: order %v, want %v", sched, got, want)
		}
		if s.Used != 0 || s.Active != 0 || s.Ports[1].Active != 0 || s.Ports[1].TxBytes != 600 {
			t.Errorf("counters after drain: %+v", s)
		}
	}
}

// pickExcept skips the queues a PFC pause holds: under strict priority
// the lowest non-empty queue not skipped, under round robin the next one
// in turn not skipped; with everything skipped, nothing.
func TestPickExcept(t *testing.T) {
	for _, sched := range []Sched{StrictPriority, RoundRobin} {
		cfg := cfgN(1, 3, 1e6, rotor.Gbps)
		cfg.Sched = sched
		sw, err := NewSwitch(cfg, CompleteSharingPolicy{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, class := range []uint8{0, 1, 2} {
			sw.Enqueue(0, &Arrival{Size: 100, Port: 0, Class: class}, int32(k))
		}
		for _, c := range []struct {
			skip uint8
			want int32
		}{{0, 0}, {0b001, 1}, {0b011, 2}, {0b101, 1}, {0b111, -1}} {
			if got := sw.pickExcept(0, c.skip); got != c.want {
				t.Errorf("sched %d, skip %03b: queue %d, want %d", sched, c.skip, got, c.want)
			}
		}
	}
}

// DCTCP marks a packet that finds more than K bytes; RED with
// min = max is the same step.
func TestECN(t *testing.T) {
	for _, e := range []ECN{{K: 3000}, {MinTh: 3001, MaxTh: 3001, MaxP: 1}} {
		cfg := cfgN(1, 1, 1e6, rotor.Gbps)
		cfg.ECN = []ECN{e}
		sw, err := NewSwitch(cfg, CompleteSharingPolicy{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var marks []bool
		for k := 0; k < 4; k++ {
			_, m := sw.Enqueue(0, &Arrival{Size: 1500}, int32(k))
			marks = append(marks, m)
		}
		if want := []bool{false, false, false, true}; marks[3] != want[3] || marks[2] != want[2] {
			t.Errorf("%+v: marks %v, want %v", e, marks, want)
		}
	}
}

// The heap's top is always the largest value, smallest index among ties.
func TestMaxHeap(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	h := newMaxHeap(37)
	v := make([]int64, 37)
	for k := 0; k < 20000; k++ {
		i := int32(rng.IntN(37))
		v[i] = int64(rng.IntN(6))
		h.Set(i, v[i])
		best := int32(0)
		for j := range v {
			if v[j] > v[best] {
				best = int32(j)
			}
		}
		if h.Top() != best {
			t.Fatalf("step %d: top %d, want %d", k, h.Top(), best)
		}
	}
}

// A forest survives the model file round trip, and training on a
// separable rule learns it.
func TestForest(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	var x []Features
	var y []bool
	for k := 0; k < 2000; k++ {
		f := Features{rng.Float64(), rng.Float64(), rng.Float64(), rng.Float64()}
		x = append(x, f)
		y = append(y, f[0] > 0.6 && f[2] > 0.3)
	}
	m, err := TrainForest(x, y, TrainConfig{}, rng)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Roots) != 4 {
		t.Fatalf("%d trees, want 4", len(m.Roots))
	}
	right := 0
	for i := range x {
		if m.Predict(&x[i]) == y[i] {
			right++
		}
	}
	if acc := float64(right) / float64(len(x)); acc < 0.95 {
		t.Errorf("training accuracy %.3f, want ≥ 0.95", acc)
	}
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	m2, err := ReadForest(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var buf2 bytes.Buffer
	m2.Write(&buf2)
	if buf.String() != buf2.String() {
		t.Errorf("round trip changed the model")
	}
	for i := range x {
		if m.Predict(&x[i]) != m2.Predict(&x[i]) {
			t.Fatalf("round trip changed prediction %d", i)
		}
	}
	if n := testing.AllocsPerRun(100, func() { m.Predict(&x[0]) }); n != 0 {
		t.Errorf("Predict allocates %v times", n)
	}
}

func TestReadForestErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "line 0: empty model file"},
		{"rdcn-forest 2\n", "line 1: want \"rdcn-forest 1\""},
		{"rdcn-forest 1\n", "line 1: no tree"},
		{"rdcn-forest 1\nleaf 0.5\n", "line 2: leaf before the first tree"},
		{"rdcn-forest 1\ntree\nleaf 2\n", "line 3: leaf value \"2\""},
		{"rdcn-forest 1\ntree\nsplit queue 0.5 1 2\nleaf 0\n", "tree 0 node 0: child 2 outside its tree"},
		{"rdcn-forest 1\ntree\nsplit queu 0.5 1 2\n", "line 3: feature \"queu\""},
		{"rdcn-forest 1\ntree\nsplit queue NaN 1 2\n", "line 3: threshold \"NaN\""},
		{"rdcn-forest 1\ntree\nsplit queue 0.5 0 2\n", "line 3: children"},
		{"rdcn-forest 1\ntree\nleaf 0\nleaf 1\n", "tree 0: node 1 is unreachable"},
		{"rdcn-forest 1\ntree\ntree\nleaf 1\n", "line 3: previous tree has no node"},
	} {
		_, err := ReadForest(strings.NewReader(tc.in))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want prefix %q", tc.in, err, tc.want)
		}
	}
}

func FuzzReadForest(f *testing.F) {
	f.Add("rdcn-forest 1\ntree\nsplit queue 0.5 1 2\nleaf 0\nleaf 1\ntree\nleaf 0.25\n")
	f.Add("rdcn-forest 1\n# c\ntree\nsplit shared_avg -1e300 1 2\nsplit queue_avg 0 3 4\nleaf 1\nleaf 0\nleaf 0.5\n")
	f.Add("rdcn-forest 1\ntree\nsplit queue 0.5 2 1\nleaf 0\nleaf 1\n")
	f.Fuzz(func(t *testing.T, in string) {
		m, err := ReadForest(strings.NewReader(in))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		x := Features{0.5, 0.5, 0.5, 0.5}
		m.Predict(&x) // must terminate without panicking
		var buf bytes.Buffer
		if err := m.Write(&buf); err != nil {
			t.Fatal(err)
		}
		m2, err := ReadForest(&buf)
		if err != nil {
			t.Fatalf("written model does not read back: %v", err)
		}
		if m2.Predict(&x) != m.Predict(&x) {
			t.Fatal("round trip changed the prediction")
		}
	})
}

type circuitSpy struct {
	CompleteSharingPolicy
	heard []string
}

func (c *circuitSpy) Circuit(_ rotor.Time, port int32, up bool, s *State) {
	c.heard = append(c.heard, fmt.Sprint(port, up, s.Ports[port].Night))
}

// Day and night reach the counters and a CircuitAware policy.
func TestCircuit(t *testing.T) {
	spy := &circuitSpy{}
	sw, err := NewSwitch(cfgN(3, 1, 1e6, rotor.Gbps), spy, nil)
	if err != nil {
		t.Fatal(err)
	}
	sw.setCircuit(0, 2, false)
	sw.setCircuit(5, 2, true)
	if got := strings.Join(spy.heard, ";"); got != "2 false true;2 true false" {
		t.Errorf("heard %q", got)
	}
}

// A default derived from the switch is checked like a given value: ABM
// without an RTT has no update period.
func TestDerivedDefaults(t *testing.T) {
	cfg := cfgN(4, 1, 1e6, rotor.Gbps)
	cfg.RTT = 0
	_, err := NewBufferPolicy("abm", nil, Env{Switch: &cfg})
	if err == nil || !strings.HasPrefix(err.Error(), "period_us 0: must be positive (its default: n_p and μ update period, µs (one base RTT))") {
		t.Errorf("abm without RTT: %v", err)
	}
	if _, err := NewBufferPolicy("abm", map[string]float64{"period_us": 80}, Env{Switch: &cfg}); err != nil {
		t.Errorf("abm with a period: %v", err)
	}
}
