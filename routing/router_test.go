package routing

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

// rotor4 is the four-ToR rotor of the hand-computed tests: one switch,
// slots of 10 µs with a 1 µs night; slot k connects i → i+k+1 (mod 4):
//
//	slot 0, day [0, 9) µs:   0→1 1→2 2→3 3→0 (a ring)
//	slot 1, day [10, 19) µs: 0→2 1→3 2→0 3→1 (two pairs)
//	slot 2, day [20, 29) µs: 0→3 1→0 2→1 3→2 (the ring backwards)
//
// and the cycle repeats every 30 µs.
func rotor4(t *testing.T) *rotor.Schedule {
	return cyclicSchedule(t, 4, 1, 1, 10*rotor.Microsecond, rotor.Microsecond)
}

func newPacket(dst int32) *packet.Packet {
	return &packet.Packet{Kind: packet.Data, DstToR: dst, Via: packet.NoToR, Route: packet.NoRoute}
}

// TestRotor4Tables checks the path and earliest-arrival tables on rotor4
// against next hops worked out by hand from the matchings above.
func TestRotor4Tables(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	sc := rotor4(t)
	ep := NewEpochs(sc)
	if want := []rotor.Time{0, 9 * us, 10 * us, 19 * us, 20 * us, 29 * us}; !slices.Equal(ep.Bounds, want) {
		t.Fatalf("epochs %v, want %v", ep.Bounds, want)
	}
	pt := NewPathTable(sc, 1)
	et := NewEarliestTable(t.Context(), sc)
	for _, c := range []struct {
		at               rotor.Time
		u, d             int
		next, pick, earl int
		why              string
	}{
		{5 * us, 0, 3, 1, 1, 1, "slot 0: around the ring 0→1→2→3"},
		{5 * us, 2, 0, 3, 3, 3, "slot 0: 2→3→0"},
		{9*us + 500*ns, 0, 2, -1, 2, 2, "night: wait for slot 1's 0→2"},
		{9*us + 500*ns, 0, 3, -1, 3, 3, "night; slot 1 cannot reach 3 from 0: wait for slot 2's 0→3"},
		{15 * us, 0, 2, 2, 2, 2, "slot 1: 0→2 direct"},
		{15 * us, 0, 3, -1, 3, 3, "slot 1 splits {0,2} from {1,3}: wait for slot 2's 0→3"},
		// paths waits for the shortest path of slot 2, 0→3→2→1; earliest
		// takes 0→2 now and 2→1 in slot 2: the same arrival, one hop fewer.
		{15 * us, 0, 1, -1, 3, 2, "slot 1 splits {0,2} from {1,3}"},
		{15 * us, 1, 3, 3, 3, 3, "slot 1: 1→3 direct"},
		{25 * us, 1, 3, 0, 0, 0, "slot 2: 1→0→3"},
		{25 * us, 3, 1, 2, 2, 2, "slot 2: 3→2→1"},
		{35 * us, 0, 3, 1, 1, 1, "the next cycle's slot 0"},
	} {
		if got := pt.Next(c.at, c.u, c.d); got != c.next {
			t.Errorf("paths Next(%v, %d→%d) = %d, want %d (%s)", c.at, c.u, c.d, got, c.next, c.why)
		}
		if got := pt.Pick(c.at, c.u, c.d, 7); got != c.pick {
			t.Errorf("paths Pick(%v, %d→%d) = %d, want %d (%s)", c.at, c.u, c.d, got, c.pick, c.why)
		}
		if got := et.Next(c.at, c.u, c.d); got != c.earl {
			t.Errorf("earliest Next(%v, %d→%d) = %d, want %d (%s)", c.at, c.u, c.d, got, c.earl, c.why)
		}
	}
}

// fakeCircuits is a circuit state set by hand: peer[t][sw].
type fakeCircuits struct{ peer [][]int32 }

func (f fakeCircuits) Peer(t, sw int) int32 { return f.peer[t][sw] }

func (f fakeCircuits) Up(t int, v int32) bool { return slices.Contains(f.peer[t], v) }

// TestRouters checks each mode's decision for one packet at a ToR, worked
// out by hand on rotor4 and a hand-set circuit state.
func TestRouters(t *testing.T) {
	us := rotor.Microsecond
	sc := rotor4(t)
	idle := int32(rotor.Idle)
	// Now: ToR 0's uplink reaches 1, ToR 2's is down (its switch idles it).
	circ := fakeCircuits{peer: [][]int32{{1}, {2}, {idle}, {0}}}
	build := func(mode string) Router {
		r, err := New(mode, Setup{Schedule: sc, Circuits: circ, Rand: rand.New(rand.NewPCG(1, 2)), PathsK: 1,
			Bulk: func(f int32) bool { return f == 99 }})
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		return r
	}
	for _, c := range []struct {
		mode   string
		at     rotor.Time
		tor    int
		dst    int32
		flow   int32
		source bool
		want   Hop
		via    int32
	}{
		{Direct, 5 * us, 0, 3, 0, true, Hop{To: 3}, -1},
		{RotorLB, 5 * us, 0, 3, 0, true, Hop{To: 3}, -1},
		{VLB, 5 * us, 0, 3, 0, true, Hop{To: 1}, 1},   // the ToR ToR 0's circuit reaches now
		{VLB, 5 * us, 0, 1, 0, true, Hop{To: 1}, -1},  // that is the destination: direct
		{VLB, 5 * us, 0, 3, 0, false, Hop{To: 3}, -1}, // relayed packets go direct
		{Hybrid, 5 * us, 0, 3, 0, true, Hop{To: 3, PacketSwitch: true}, -1},
		{Hybrid, 5 * us, 0, 1, 0, true, Hop{To: 1}, -1},
		{Paths, 5 * us, 0, 3, 0, true, Hop{To: 1, Transit: true}, -1}, // around the ring, high priority
		{Paths, 5 * us, 0, 3, 99, true, Hop{To: 3}, -1},               // bulk: direct (RotorLB)
		{Earliest, 15 * us, 0, 3, 0, true, Hop{To: 3}, -1},
	} {
		p := newPacket(c.dst)
		p.Flow = c.flow
		if got := build(c.mode).Next(c.at, c.tor, p, c.source); got != c.want || p.Via != c.via {
			t.Errorf("%s at %v, ToR %d → %d (source %v): %+v via %d, want %+v via %d", c.mode, c.at, c.tor, c.dst, c.source, got, p.Via, c.want, c.via)
		}
	}
	// VLB at a ToR with no circuit up: a random other ToR, never itself.
	r := build(VLB)
	seen := map[int32]bool{}
	for i := 0; i < 300; i++ {
		p := newPacket(0)
		h := r.Next(5*us, 2, p, true)
		if h.To == 2 || h.To < 0 || h.To > 3 || (h.To != 0 && p.Via != h.To) {
			t.Fatalf("VLB from ToR 2 without circuits: %+v via %d", h, p.Via)
		}
		seen[h.To] = true
	}
	if len(seen) != 3 {
		t.Errorf("VLB's random intermediates from ToR 2: %v, want all of 0, 1, 3", seen)
	}
	// vlb-paths: the intermediate is neither source nor destination, both
	// candidates occur, and the first hop leads to it.
	r = build(VLBPaths)
	count := map[int32]int{}
	for i := 0; i < 400; i++ {
		p := newPacket(3)
		h := r.Next(5*us, 0, p, true)
		if p.Via != 1 && p.Via != 2 || !h.Transit || h.To != 1 {
			t.Fatalf("vlb-paths 0→3 at 5 µs: %+v via %d; want via 1 or 2 over the ring (next 1)", h, p.Via)
		}
		count[p.Via]++
	}
	if count[1] < 150 || count[2] < 150 {
		t.Errorf("vlb-paths intermediates %v of 400: not near uniform", count)
	}
	for mode, want := range map[string]Reroute{Direct: RerouteNone, VLB: RerouteNone, RotorLB: RerouteNone, Hybrid: RerouteNone,
		Paths: RerouteTransit, VLBPaths: RerouteTransit, Earliest: RerouteAll} {
		if got := build(mode).Reroute(); got != want {
			t.Errorf("%s reroutes %d, want %d", mode, got, want)
		}
	}
}

// upAt reports whether a circuit u→v is up at time at, asked of rotor
// switch by switch (SlotAt, CircuitUp), not through the tables' epochs.
func upAt(sc *rotor.Schedule, at rotor.Time, u, v int) bool {
	for sw := 0; sw < sc.Switches; sw++ {
		slot, _ := sc.SlotAt(sw, at)
		if sc.CircuitUp(sw, at) && sc.Matchings[sw][slot][u] == v {
			return true
		}
	}
	return false
}

// TestPathsUseCircuitsUp is the tables' invariant: at any time, every path
// the shortest-path table (k = 1 and ECMP k = 8) and the
// k-shortest-path table return for a pair the current epoch connects uses
// only circuits up at that time, and reaches the destination; every next
// hop of the earliest-arrival table is a circuit the schedule provides
// from then on (rotor's NextConnection). Times: every epoch bound, the
// picosecond before it, and random times over two cycles.
func TestPathsUseCircuitsUp(t *testing.T) {
	us := rotor.Microsecond
	opera, err := schedules.Build("opera", schedules.Params{Nodes: 16, Uplinks: 4, Slot: 40 * us, Reconf: us, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		sc   *rotor.Schedule
	}{{"rotor n=4", rotor4(t)}, {"rotor n=7 U=2", cyclicSchedule(t, 7, 2, 1, 10*us, us)},
		{"opera n=16", opera}, {"random n=7 offsets", randomSchedule(t, 7, 3)}} {
		sc := c.sc
		pt, ecmp, kt := NewPathTable(sc, 1), NewPathTable(sc, MaxECMP), newKSPTable(sc, 4)
		et := NewEarliestTable(t.Context(), sc)
		rng := rand.New(rand.NewPCG(5, 6))
		var times []rotor.Time
		for _, b := range pt.Bounds {
			times = append(times, b, b+pt.Cycle, b+pt.Cycle-1)
		}
		for i := 0; i < 40; i++ {
			times = append(times, rotor.Time(rng.Int64N(int64(2*pt.Cycle))))
		}
		n := sc.Nodes
		checked := 0
		for _, at := range times {
			for u := 0; u < n; u++ {
				for d := 0; d < n; d++ {
					if u == d {
						continue
					}
					if v := et.Next(at, u, d); v >= 0 {
						if _, _, _, err := sc.NextConnection(u, v, at); err != nil {
							t.Fatalf("%s: earliest %d→%d at %v goes to %d, which the schedule never connects: %v", c.name, u, d, at, v, err)
						}
					}
					if pt.Next(at, u, d) < 0 {
						continue // not connected now: the packet waits
					}
					walk := func(table string, next func(x int) int) {
						x := u
						for hops := 0; x != d; hops++ {
							y := next(x)
							if hops == n || y < 0 || !upAt(sc, at, x, y) {
								t.Fatalf("%s: %s path %d→%d at %v: hop %d→%d is not a circuit up then", c.name, table, u, d, at, x, y)
							}
							x = y
							checked++
						}
					}
					walk("shortest", func(x int) int { return pt.Next(at, x, d) })
					for f := int32(0); f < 4; f++ {
						walk("ecmp", func(x int) int { return ecmp.Pick(at, x, d, f+int32(x)) })
						ref, _ := kt.Choose(at, u, d, f)
						path := kt.entry(kt.Index(at), u, d).path(int(ref) % kt.k)
						i := 0
						walk("k-shortest", func(x int) int {
							if int(path[i]) != x {
								return -1
							}
							i++
							return int(path[i])
						})
					}
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: no hop checked", c.name)
		}
	}
}

// TestNewRefusesIncompleteSetup: a mode built without what it reads is
// refused with an error naming it, not a nil dereference later.
func TestNewRefusesIncompleteSetup(t *testing.T) {
	sc := rotor4(t)
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		mode string
		s    Setup
	}{
		{VLB, Setup{Schedule: sc, Rand: rng}},
		{VLB, Setup{Schedule: sc, Circuits: fakeCircuits{}}},
		{Hybrid, Setup{Schedule: sc}},
		{Paths, Setup{Schedule: sc, PathsK: 1}},
		{VLBPaths, Setup{Schedule: sc, PathsK: 1}},
		{ECMP, Setup{}},
		{"bogus", Setup{Schedule: sc}},
	} {
		if _, err := New(c.mode, c.s); err == nil {
			t.Errorf("%s built from %+v", c.mode, c.s)
		} else if _, ok := err.(*SetupError); !ok {
			t.Errorf("%s: %v is not a *SetupError", c.mode, err)
		}
	}
	if _, err := New(Hybrid, Setup{Schedule: sc, Circuits: fakeCircuits{}}); err != nil {
		t.Errorf("hybrid with schedule and circuits: %v", err)
	}
	if _, err := New(Direct, Setup{}); err != nil {
		t.Errorf("direct reads nothing, yet: %v", err)
	}
}
