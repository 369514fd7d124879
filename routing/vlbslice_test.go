package routing

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

// circuitsAt is the circuit state of sc at time t worked out from the
// matchings with rotor's SlotAt and CircuitUp (not from the router's
// epoch tables): peer[u][sw], rotor.Idle for a dark or idle port.
func circuitsAt(sc *rotor.Schedule, t rotor.Time) fakeCircuits {
	peer := make([][]int32, sc.Nodes)
	for u := range peer {
		peer[u] = make([]int32, sc.Switches)
		for sw := range peer[u] {
			peer[u][sw] = rotor.Idle
			if !sc.CircuitUp(sw, t) {
				continue
			}
			k, _ := sc.SlotAt(sw, t)
			if v := sc.Matchings[sw][k][u]; v != rotor.Idle && v != u {
				peer[u][sw] = int32(v)
			}
		}
	}
	return fakeCircuits{peer}
}

// hopsTo is the BFS hop distance of every ToR to d over the circuits of c
// (−1: not connected).
func hopsTo(c fakeCircuits, d int) []int {
	n := len(c.peer)
	dist := make([]int, n)
	for i := range dist {
		dist[i] = -1
	}
	dist[d] = 0
	for changed := true; changed; {
		changed = false
		for u := range c.peer {
			for _, v := range c.peer[u] {
				if v != rotor.Idle && dist[v] >= 0 && (dist[u] < 0 || dist[v]+1 < dist[u]) {
					dist[u] = dist[v] + 1
					changed = true
				}
			}
		}
	}
	return dist
}

// TestVLBSlice checks vlb-slice on a Mars schedule (64 ToRs, 4 uplinks,
// deBruijn degree 8) against the circuits worked out independently at
// each time:
//   - at its source a packet's first hop is a ToR one of the circuits up
//     now reaches, each circuit drawn equally often (every count within
//     5σ of the binomial mean);
//   - in transit every next hop is on a shortest path of the current
//     slice (BFS distance to the destination one less), and every such
//     equal-cost next hop is drawn (spraying);
//   - during a night of every switch, the first hop is a circuit of the
//     next slice.
func TestVLBSlice(t *testing.T) {
	us := rotor.Microsecond
	sc, err := schedules.Build("mars", schedules.Params{Nodes: 64, Uplinks: 4, Degree: 8, Slot: 10 * us, Reconf: us, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []rotor.Time{4 * us, 15 * us, 27 * us} {
		c := circuitsAt(sc, at)
		r, err := New(VLBSlice, Setup{Schedule: sc, Circuits: c, Rand: rand.New(rand.NewPCG(1, 2))})
		if err != nil {
			t.Fatal(err)
		}
		for _, src := range []int{0, 17, 63} {
			const draws = 8000
			count := map[int32]int{}
			for range draws {
				p := newPacket(int32((src + 5) % 64))
				h := r.Next(at, src, p, true)
				count[h.To]++
				if !h.Transit {
					t.Fatalf("first hop %d→%d not in the transit class", src, h.To)
				}
			}
			circuits := map[int32]int{}
			for _, v := range c.peer[src] {
				if v != rotor.Idle {
					circuits[v]++
				}
			}
			up := 0
			for _, m := range circuits {
				up += m
			}
			if up == 0 {
				t.Fatalf("t=%v: ToR %d has no circuit up; the test needs one", at, src)
			}
			for v, got := range count {
				m, ok := circuits[v]
				if !ok {
					t.Errorf("t=%v: first hop %d→%d, which no circuit up now reaches (up: %v)", at, src, v, c.peer[src])
					continue
				}
				p := float64(m) / float64(up)
				mean, sd := draws*p, math.Sqrt(draws*p*(1-p))
				if math.Abs(float64(got)-mean) > 5*sd {
					t.Errorf("t=%v: first hop %d→%d drawn %d times of %d, want %.0f ± %.0f", at, src, v, got, draws, mean, 5*sd)
				}
			}
			if len(count) != len(circuits) {
				t.Errorf("t=%v: first hops from %d reach %d ToRs, the circuits up %d", at, src, len(count), len(circuits))
			}
		}
		// Transit: every hop on a shortest path of the slice, each
		// equal-cost next hop drawn.
		for _, d := range []int{1, 30, 62} {
			dist := hopsTo(c, d)
			for u := range 64 {
				if u == d || dist[u] < 0 {
					continue
				}
				want := map[int32]bool{}
				for _, v := range c.peer[u] {
					if v != rotor.Idle && dist[v] == dist[u]-1 {
						want[v] = true
					}
				}
				got := map[int32]bool{}
				for range 200 {
					p := newPacket(int32(d))
					p.Hops = 1
					got[r.Next(at, u, p, false).To] = true
				}
				for v := range got {
					if !want[v] {
						t.Errorf("t=%v: %d→%d: next hop %d is not on a shortest path of the slice (distance %d → %d)", at, u, d, v, dist[u], dist[v])
					}
				}
				if len(got) != len(want) {
					t.Errorf("t=%v: %d→%d: drew next hops %v, the equal-cost ones are %v", at, u, d, got, want)
				}
			}
		}
	}
	// The night: Mars's switches reconfigure together, so at 9.5 µs no
	// circuit is up; the first hop is one of slot 1's circuits.
	night := 9*us + 500*rotor.Nanosecond
	dark := circuitsAt(sc, night)
	next := circuitsAt(sc, 10*us+1)
	r, err := New(VLBSlice, Setup{Schedule: sc, Circuits: dark, Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		t.Fatal(err)
	}
	for src := range 64 {
		if slices.ContainsFunc(dark.peer[src], func(v int32) bool { return v != rotor.Idle }) {
			t.Fatalf("ToR %d has a circuit up at %v; the test expects a night", src, night)
		}
		h := r.Next(night, src, newPacket(int32((src+1)%64)), true)
		if !slices.Contains(next.peer[src], h.To) {
			t.Errorf("night: first hop %d→%d, not a circuit of the next slice %v", src, h.To, next.peer[src])
		}
	}
}

// TestSprayPaths: multipath spray draws, per packet, every equal-cost
// next hop that ecmp's flow hash spreads flows over, and only those; one
// flow under ecmp keeps one next hop.
func TestSprayPaths(t *testing.T) {
	us := rotor.Microsecond
	sc, err := schedules.Build("opera", schedules.Params{Nodes: 32, Uplinks: 4, Slot: 40 * us, Reconf: us, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	bulk := func(int32) bool { return false }
	spray, err := New(Paths, Setup{Schedule: sc, Bulk: bulk, PathsK: MaxECMP, Multipath: MultipathSpray, Rand: rand.New(rand.NewPCG(5, 6))})
	if err != nil {
		t.Fatal(err)
	}
	ecmp, err := New(Paths, Setup{Schedule: sc, Bulk: bulk, PathsK: MaxECMP, Multipath: MultipathECMP})
	if err != nil {
		t.Fatal(err)
	}
	at := 5 * us
	c := circuitsAt(sc, at)
	multi := 0
	for d := range 32 {
		dist := hopsTo(c, d)
		for u := range 32 {
			if u == d || dist[u] <= 0 {
				continue
			}
			want := map[int32]bool{}
			for _, v := range c.peer[u] {
				if v != rotor.Idle && dist[v] == dist[u]-1 {
					want[v] = true
				}
			}
			got, byFlow := map[int32]bool{}, map[int32]bool{}
			for f := range int32(300) {
				p := newPacket(int32(d))
				p.Flow = 7
				got[spray.Next(at, u, p, true).To] = true
				p.Flow = f
				byFlow[ecmp.Next(at, u, p, true).To] = true
			}
			if len(got) != len(want) || len(byFlow) != len(want) {
				t.Errorf("%d→%d: spray drew %v, ecmp's flows %v; the equal-cost next hops are %v", u, d, got, byFlow, want)
			}
			for v := range got {
				if !want[v] {
					t.Errorf("%d→%d: spray drew %d, off the shortest paths", u, d, v)
				}
			}
			if len(want) > 1 {
				multi++
			}
			one := map[int32]bool{}
			for range 50 {
				p := newPacket(int32(d))
				p.Flow = 7
				one[ecmp.Next(at, u, p, true).To] = true
			}
			if len(one) != 1 {
				t.Errorf("%d→%d: ecmp sent one flow to %v", u, d, one)
			}
		}
	}
	if multi == 0 {
		t.Fatal("no pair has two equal-cost next hops; the test checks nothing")
	}
}
