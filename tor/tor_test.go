package tor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

func newTestToR(t *testing.T, cfg Config) (*ToR, *Pool) {
	t.Helper()
	pool := &Pool{}
	tr, err := New(0, cfg, pool)
	if err != nil {
		t.Fatal(err)
	}
	return tr, pool
}

func pkt(pool *Pool, size int32) int32 {
	i := pool.Alloc()
	pool.At(i).Size = size
	return i
}

// TestSteadyStateThresholds fills N queues round-robin with unit packets
// until every queue is refused and compares the per-queue lengths with the
// closed forms: DT converges to q = αB/(1+Nα) (Choudhury–Hahne; worked
// examples with B = 60: one queue α=1 → 30, five queues → 10 each),
// Complete Sharing to B split by arrival order.
func TestSteadyStateThresholds(t *testing.T) {
	const B = 60
	cases := []struct {
		name   string
		policy PolicyMaker
		queues int
		want   int64 // packets per queue
	}{
		{"dt α=1 one queue", dt(1), 1, 30},
		{"dt α=1 two queues", dt(1), 2, 20},
		{"dt α=1 three queues", dt(1), 3, 15},
		{"dt α=1 five queues", dt(1), 5, 10},
		{"dt α=2 one queue", dt(2), 1, 40},
		{"dt α=2 two queues", dt(2), 2, 24},
		{"dt α=0.5 one queue", dt(0.5), 1, 20},
		{"cs one queue", nil, 1, 60},
		{"cs three queues", nil, 3, 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, pool := newTestToR(t, Config{ToRs: 8, Hosts: 1, Uplinks: 1, Buffer: B, Policy: c.policy})
			refused := 0
			for k := 0; refused < 10*c.queues && k < 10*B; k++ {
				q := tr.VOQ(k%c.queues, Local)
				if !tr.Enqueue(0, q, pkt(pool, 1)) {
					refused++
				}
			}
			var got, want []int64
			for i := 0; i < c.queues; i++ {
				got = append(got, tr.Bytes(tr.VOQ(i, Local)))
				want = append(want, c.want)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("queue lengths (-want +got):\n%s", diff)
			}
			if tr.Used() > B || tr.PeakUsed() > B {
				t.Errorf("buffer used %d (peak %d) exceeds %d", tr.Used(), tr.PeakUsed(), B)
			}
		})
	}
}

func dt(alpha float64) PolicyMaker { return Named("dt", map[string]float64{"alpha": alpha}, nil, nil) }

var lqd = Named("lqd", nil, nil, nil)

func TestPushOut(t *testing.T) {
	tr, pool := newTestToR(t, Config{ToRs: 4, Hosts: 1, Uplinks: 1, Buffer: 10, Policy: lqd})
	for k := 0; k < 10; k++ {
		if !tr.Enqueue(0, tr.VOQ(0, Local), pkt(pool, 1)) {
			t.Fatal("refused while the buffer had room")
		}
	}
	last := tr.sw.q[tr.VOQ(0, Local)].At(9).h
	if !tr.Enqueue(0, tr.VOQ(1, Local), pkt(pool, 1)) {
		t.Fatal("push-out arrival refused")
	}
	ev := tr.TakeEvicted()
	if diff := cmp.Diff([]int32{last}, ev); diff != "" {
		t.Errorf("evicted (-want +got):\n%s", diff)
	}
	if got := []int64{tr.Bytes(tr.VOQ(0, Local)), tr.Bytes(tr.VOQ(1, Local)), tr.Used(), tr.Drops}; !cmp.Equal(got, []int64{9, 1, 10, 1}) {
		t.Errorf("after push-out q0, q1, used, drops = %v, want [9 1 10 1]", got)
	}
}

func TestECNAndINT(t *testing.T) {
	ints, err := packet.NewIntStore(4)
	if err != nil {
		t.Fatal(err)
	}
	tr, pool := newTestToR(t, Config{ToRs: 2, Hosts: 2, Uplinks: 1, Buffer: 100000,
		Policy: nil, ECNThreshold: 3000, RecordINT: true, Ints: ints})
	q := tr.HostQueue(1)
	var idx []int32
	for k := 0; k < 4; k++ {
		i := pkt(pool, 1500)
		idx = append(idx, i)
		tr.Enqueue(rotor.Time(k), q, i)
	}
	var marks []bool
	for _, i := range idx {
		marks = append(marks, pool.At(i).Has(packet.ECN))
	}
	// the queue each finds: 0, 1500, 3000, 4500 bytes; mark when > 3000
	// (RFC 8257 §3.1: the queue exceeds K on arrival, the packet not counted)
	if diff := cmp.Diff([]bool{false, false, false, true}, marks); diff != "" {
		t.Errorf("ECN marks (-want +got):\n%s", diff)
	}
	got := tr.Dequeue(10, q, tr.HostPort(1), 25*rotor.Gbps)
	p := pool.At(got)
	want := IntHop{Ts: 10, Qlen: 4500, TxBytes: 1500, Rate: 25 * rotor.Gbps, Port: int32(tr.HostPort(1))}
	rec := tr.Config().Ints.Records(got, p)[0]
	if got != idx[0] || p.IntN != 1 || rec != want {
		t.Errorf("dequeued %d with INT %+v (n=%d), want %d with %+v", got, rec, p.IntN, idx[0], want)
	}
}

type acceptOnly struct{ dst int }

func (a acceptOnly) AcceptRelay(via, dst int, size int32) bool { return dst == a.dst }

func TestPickCircuit(t *testing.T) {
	tr, pool := newTestToR(t, Config{ToRs: 130, Hosts: 1, Uplinks: 1, Buffer: 1 << 20, Policy: nil})
	tr.ID = 5
	tr.Enqueue(0, tr.VOQ(3, Local), pkt(pool, 1500))
	tr.Enqueue(0, tr.VOQ(3, Transit), pkt(pool, 1500))
	tr.Enqueue(0, tr.VOQ(100, Local), pkt(pool, 64))
	tr.Enqueue(0, tr.VOQ(7, Local), pkt(pool, 1500))
	type pick struct {
		Q  QueueID
		OK bool
	}
	var got []pick
	for _, c := range []struct {
		v      int
		budget int64
		relay  Relay
	}{
		{3, 1500, nil},             // transit first
		{3, 1499, nil},             // nothing fits
		{9, 1500, nil},             // no VOQ for 9, no relay
		{9, 1500, acceptOnly{100}}, // relay picks dst 100
		{9, 1500, acceptOnly{7}},   // relay picks dst 7
		{9, 100, acceptOnly{7}},    // 7's packet does not fit
		{9, 100, acceptOnly{100}},  // 100's does
	} {
		q, ok := tr.PickCircuit(c.v, c.budget, c.relay, nil)
		got = append(got, pick{q, ok})
	}
	want := []pick{{tr.VOQ(3, Transit), true}, {0, false}, {0, false},
		{tr.VOQ(100, Local), true}, {tr.VOQ(7, Local), true}, {0, false}, {tr.VOQ(100, Local), true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("picks (-want +got):\n%s", diff)
	}
}

type holdSize struct{ size int32 }

func (h holdSize) Pass(v int, p *Packet) bool { return p.Size != h.size }

// TestReserve checks that reserved room is invisible to other arrivals
// (a DT or CS policy refuses what would eat into it), that a reserved
// packet gets in even when the policy would refuse it, and that Used
// counts only packets held.
func TestReserve(t *testing.T) {
	tr, pool := newTestToR(t, Config{ToRs: 4, Hosts: 1, Uplinks: 1, Buffer: 3000, Policy: dt(0.25)})
	tr.Reserve(1500)
	type state struct {
		Accepted       bool
		Used, Reserved int64
	}
	var got []state
	ok := tr.Enqueue(0, tr.VOQ(1, Local), pkt(pool, 1500)) // DT: T = 0.25·(3000−1500) < 1500
	got = append(got, state{ok, tr.Used(), tr.sw.reserved})
	p := pkt(pool, 1500)
	tr.enqueueReserved(0, tr.VOQ(2, Local), p) // gets in although DT would refuse it
	got = append(got, state{true, tr.Used(), tr.sw.reserved})
	got = append(got, state{tr.Room(1), tr.Used(), tr.sw.reserved})
	want := []state{{false, 0, 1500}, {true, 1500, 0}, {true, 1500, 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	if tr.Room(1501) {
		t.Errorf("Room(1501) with 1500 of 3000 B used: want false")
	}
	// The gate holds back the 1500 B head of VOQ(2); a 64 B packet for 2
	// queued behind it does not overtake it.
	tr.Enqueue(0, tr.VOQ(2, Local), pkt(pool, 64))
	if q, ok := tr.PickCircuit(2, 1<<20, nil, holdSize{1500}); ok {
		t.Errorf("gate ignored: picked %d", q)
	}
	if q, ok := tr.PickCircuit(2, 1<<20, nil, holdSize{64}); !ok || q != tr.VOQ(2, Local) {
		t.Errorf("PickCircuit = %d, %v; want VOQ(2, Local)", q, ok)
	}
}

// TestVOQPackets keeps the VOQ packet count equal to the sum of the VOQs'
// lengths through random enqueues (with push-out), dequeues, takes and
// host-queue traffic, which does not count.
func TestVOQPackets(t *testing.T) {
	tr, pool := newTestToR(t, Config{ToRs: 4, Hosts: 2, Uplinks: 1, Buffer: 20, Policy: lqd})
	rng := rand.New(rand.NewPCG(5, 0))
	for step := 0; step < 3000; step++ {
		q := QueueID(rng.IntN(tr.numQueues() - 1)) // VOQs and host queues
		switch k := rng.IntN(3); {
		case k == 0 && tr.Len(q) > 0:
			tr.Dequeue(0, q, 0, 0)
		case k == 1 && tr.Len(q) > 0:
			tr.Take(0, q)
		default:
			tr.Enqueue(0, q, pkt(pool, 1))
			tr.TakeEvicted()
		}
		want := 0
		for v := 0; v < 4; v++ {
			want += tr.Len(tr.VOQ(v, Transit)) + tr.Len(tr.VOQ(v, Local))
		}
		if got := tr.VOQPackets(); got != want {
			t.Fatalf("step %d: VOQPackets = %d, VOQs hold %d", step, got, want)
		}
	}
}

// TestPortIDsUnique: every queue's port id is unique in its switch: two
// queues share one iff they are the classes of one port (or the two VOQ
// classes toward one next hop). The case: with U = 4, host 1 and
// the VOQ toward ToR 5 used to share port 5.
func TestPortIDsUnique(t *testing.T) {
	cfgs := []Config{
		{ToRs: 8, Hosts: 2, Uplinks: 4},
		{ToRs: 8, Hosts: 2, Uplinks: 4, PacketSwitch: true, Classes: 2},
		{Ports: 8},                        // the rotor fabric's packet switch
		{Hosts: 32, Ports: 8, Classes: 2}, // a leaf
		{Ports: 8, Classes: 3},            // a spine
	}
	for _, cfg := range cfgs {
		cfg.Buffer, cfg.Policy = 1<<20, nil
		tr, _ := newTestToR(t, cfg)
		owner := map[int]string{}
		for q := QueueID(0); int(q) < tr.numQueues(); q++ {
			port := tr.QueuePort(q)
			key := ""
			if v := tr.NextHop(q); v >= 0 {
				key = fmt.Sprint("voq ", v)
			} else {
				key = fmt.Sprint("port ", port)
			}
			if o, ok := owner[port]; ok && o != key {
				t.Errorf("%+v: port id %d shared by %s and %s", cfg, port, o, key)
			}
			owner[port] = key
			if port < cfg.Uplinks || port >= tr.NumPorts() {
				t.Errorf("%+v: queue %d port %d outside [%d, %d)", cfg, q, port, cfg.Uplinks, tr.NumPorts())
			}
		}
		for h := 0; h < cfg.Hosts; h++ {
			if got := tr.QueuePort(tr.HostQueue(h)); got != tr.HostPort(h) {
				t.Errorf("%+v: host %d queue on port %d, want %d", cfg, h, got, tr.HostPort(h))
			}
		}
		for j := 0; j < cfg.Ports; j++ {
			for c := 0; c < tr.Classes(); c++ {
				if q := tr.PortQueue(tr.FabricPort(j), c); tr.QueuePort(q) != tr.FabricPort(j) || tr.queueClass(q) != c {
					t.Errorf("%+v: fabric port %d class %d queue has port %d class %d", cfg, j, c, tr.QueuePort(q), tr.queueClass(q))
				}
			}
		}
	}
	tr, _ := newTestToR(t, Config{ToRs: 8, Hosts: 2, Uplinks: 4, Buffer: 1, Policy: nil})
	if a, b := tr.QueuePort(tr.HostQueue(1)), tr.QueuePort(tr.VOQ(5, Local)); a == b {
		t.Errorf("host 1 and VOQ 5 share port %d", a)
	}
}

// TestPickStrictPriority: a port serves its lowest class first.
func TestPickStrictPriority(t *testing.T) {
	tr, pool := newTestToR(t, Config{Hosts: 1, Ports: 2, Classes: 2, Buffer: 1 << 20, Policy: nil})
	port := tr.FabricPort(1)
	if _, ok := tr.Pick(port); ok {
		t.Fatal("Pick on empty port: ok")
	}
	tr.Enqueue(0, tr.PortQueue(port, 1), pkt(pool, 1500))
	tr.Enqueue(0, tr.PortQueue(port, 0), pkt(pool, 64))
	tr.Enqueue(0, tr.PortQueue(tr.FabricPort(0), 0), pkt(pool, 64))
	var got []int32
	for {
		q, ok := tr.Pick(port)
		if !ok {
			break
		}
		got = append(got, pool.At(tr.Dequeue(0, q, port, 0)).Size)
	}
	if diff := cmp.Diff([]int32{64, 1500}, got); diff != "" {
		t.Errorf("service order (-want +got):\n%s", diff)
	}
}

// TestPickRoundRobin: with RoundRobin a port alternates between its
// non-empty classes, one packet each, and skips empty ones.
func TestPickRoundRobin(t *testing.T) {
	tr, pool := newTestToR(t, Config{Ports: 1, Classes: 3, RoundRobin: true, Buffer: 1 << 20, Policy: nil})
	port := tr.FabricPort(0)
	for _, c := range []struct {
		class int
		size  int32
	}{{0, 10}, {0, 11}, {0, 12}, {2, 30}, {2, 31}} {
		tr.Enqueue(0, tr.PortQueue(port, c.class), pkt(pool, c.size))
	}
	var got []int32
	for {
		q, ok := tr.Pick(port)
		if !ok {
			break
		}
		got = append(got, pool.At(tr.Dequeue(0, q, port, 0)).Size)
	}
	if diff := cmp.Diff([]int32{10, 30, 11, 31, 12}, got); diff != "" {
		t.Errorf("service order (-want +got):\n%s", diff)
	}
}

// TestECNSameRuleSwitchAndToR: a ToR (the fabric's switches) and a bare
// Switch (the buffer lab's) mark by one rule, ECN.Marks on the queue the
// arriving packet finds: on one random sequence of arrivals and
// departures of mixed sizes, with K = 4000 B, they mark the same packets,
// and each mark agrees with the queue found > K.
func TestECNSameRuleSwitchAndToR(t *testing.T) {
	const K = 4000
	tr, pool := newTestToR(t, Config{Hosts: 1, Buffer: 1e6, ECNThreshold: K})
	sw, err := NewSwitch(SwitchConfig{Ports: 1, Queues: 1, Buffer: 1e6, MTU: 1500, Rates: []rotor.Rate{rotor.Gbps},
		ECN: []ECN{{K: K}}}, CompleteSharingPolicy{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 2))
	q := tr.HostQueue(0)
	marks := 0
	for k := range 5000 {
		if rng.IntN(2) == 0 && tr.Bytes(q) > 0 {
			pool.Free(tr.Dequeue(rotor.Time(k), q, tr.HostPort(0), rotor.Gbps))
			sw.dequeueQueue(rotor.Time(k), 0)
			continue
		}
		size := int32(64 + rng.IntN(1437))
		found := tr.Bytes(q)
		i := pkt(pool, size)
		tr.Enqueue(rotor.Time(k), q, i)
		_, m := sw.Enqueue(rotor.Time(k), &Arrival{Size: size}, int32(k))
		if got := pool.At(i).Has(packet.ECN); got != m || m != (found > K) {
			t.Fatalf("arrival %d finding %d B: ToR marks %v, Switch %v, want %v", k, found, got, m, found > K)
		}
		if m {
			marks++
		}
	}
	if marks == 0 {
		t.Fatal("no marks: the sequence never crossed K")
	}
}

// TestECNPortsRED: with RED per port (ECNPorts: thresholds scaled to the
// port's rate), a packet that finds q bytes is marked with probability
// MaxP·(q − MinTh)/(MaxTh − MinTh) between the thresholds, never below
// MinTh and always at or above MaxTh. The queue is held at q while 20 000
// packets arrive; the marked fraction must be within 4σ of the ramp.
func TestECNPortsRED(t *testing.T) {
	red := func(r rotor.Rate) ECN { // 1 KB per Gb/s to 4 KB per Gb/s, max_p 0.2
		g := int64(r / rotor.Gbps)
		return ECN{MinTh: 1000 * g, MaxTh: 4000 * g, MaxP: 0.2}
	}
	tr, pool := newTestToR(t, Config{Hosts: 1, HostRate: 10 * rotor.Gbps, Buffer: 1e6, ECNPorts: red,
		ECNRand: rand.New(rand.NewPCG(7, 7))})
	q := tr.HostQueue(0)
	const n = 20000
	for _, found := range []int64{6000, 10000, 16000, 25000, 34000, 39000, 40000, 50000} {
		for tr.Bytes(q) > 0 {
			pool.Free(tr.Dequeue(0, q, tr.HostPort(0), rotor.Gbps))
		}
		for tr.Bytes(q) < found {
			tr.Enqueue(0, q, pkt(pool, int32(min(1000, found-tr.Bytes(q)))))
		}
		marked := 0
		for range n {
			i := pkt(pool, 1000)
			tr.Enqueue(0, q, i)
			if pool.At(i).Has(packet.ECN) {
				marked++
			}
			pool.Free(tr.Dequeue(0, q, tr.HostPort(0), rotor.Gbps)) // the queue finds q again
		}
		p := 0.2 * float64(found-10000) / 30000
		switch {
		case found < 10000:
			p = 0
		case found >= 40000:
			p = 1
		}
		sigma := math.Sqrt(p * (1 - p) / n)
		if got := float64(marked) / n; math.Abs(got-p) > 4*sigma+1e-12 {
			t.Errorf("queue %d B: marked %.4f, want %.4f ± %.4f", found, got, p, 4*sigma)
		}
	}
}
