package routing

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/rdcn/rdcn/internal/testsched"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

func randomSchedule(t *testing.T, n int, seed uint64) *rotor.Schedule {
	us := rotor.Microsecond
	rng := rand.New(rand.NewPCG(seed, 1))
	m := make([][][]int, 2)
	for s := range m {
		m[s] = make([][]int, 3)
		for k := range m[s] {
			m[s][k] = rng.Perm(n)
		}
	}
	sc := &rotor.Schedule{Kind: "random", Nodes: n, Switches: 2, Period: 3, Slot: 10 * us, Reconf: us,
		SlotDurations: []rotor.Time{10 * us, 12 * us, 8 * us}, SwitchOffsets: []rotor.Time{0, 4 * us}, Matchings: m}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	return sc
}

func bruteEarliest(sc *rotor.Schedule, from rotor.Time, u, d int, horizon rotor.Time) (arr rotor.Time, hops int, ok bool) {
	us := rotor.Microsecond
	steps := int(horizon / us)
	n := sc.Nodes
	best := make([]int, (steps+1)*n) // hops at (step, node); −1 unseen
	for i := range best {
		best[i] = -1
	}
	adj := make([][]int, n)
	cur := []int{u}
	best[u] = 0
	for i := 0; i <= steps; i++ {
		at := from + rotor.Time(i)*us
		for v := range adj {
			adj[v] = adj[v][:0]
		}
		for _, c := range sc.CircuitsAt(at + us/2) {
			adj[c.Src] = append(adj[c.Src], c.Dst)
		}
		// BFS by hops within the step from every node reached so far.
		row := best[i*n : (i+1)*n]
		for len(cur) > 0 {
			var nxt []int
			for _, x := range cur {
				for _, y := range adj[x] {
					if row[y] < 0 || row[y] > row[x]+1 {
						row[y] = row[x] + 1
						nxt = append(nxt, y)
					}
				}
			}
			cur = nxt
		}
		if row[d] >= 0 {
			return at, row[d], true
		}
		if i < steps {
			nrow := best[(i+1)*n : (i+2)*n]
			cur = cur[:0]
			for x := 0; x < n; x++ {
				if row[x] >= 0 {
					nrow[x] = row[x]
					cur = append(cur, x)
				}
			}
		}
	}
	return 0, 0, false
}

func followEarliest(sc *rotor.Schedule, et *EarliestTable, from rotor.Time, u, d int, horizon rotor.Time) (arr rotor.Time, hops int, ok bool) {
	at := from
	for at < from+horizon {
		if u == d {
			return at, hops, true
		}
		nh := et.Next(at, u, d)
		if nh < 0 {
			return 0, 0, false
		}
		up := false
		for _, c := range sc.CircuitsAt(at + rotor.Microsecond/2) {
			up = up || c.Src == u && c.Dst == nh
		}
		if up {
			u = nh
			hops++
			if hops > 4*sc.Nodes {
				return 0, 0, false
			}
			continue
		}
		at = et.NextStart(at)
	}
	return 0, 0, false
}

func TestEarliestAgainstBruteForce(t *testing.T) {
	us := rotor.Microsecond
	opera, err := schedules.Build("opera", schedules.Params{Nodes: 8, Uplinks: 4, Slot: 40 * us, Reconf: us, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		sc   *rotor.Schedule
	}{
		{"rotor n=5", cyclicSchedule(t, 5, 1, 1, 10*us, us)},
		{"rotor n=7 U=2", cyclicSchedule(t, 7, 2, 1, 10*us, us)},
		{"opera n=8 U=4", opera},
		{"random n=6", randomSchedule(t, 6, 1)},
		{"random n=7", randomSchedule(t, 7, 2)},
	}
	totalWaits := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc := c.sc
			et := NewEarliestTable(context.Background(), sc)
			horizon := 3 * sc.CycleDuration()
			checked, waits, multi := 0, 0, 0
			for _, b := range et.Bounds {
				for _, start := range []rotor.Time{b, b + sc.CycleDuration()} {
					for u := 0; u < sc.Nodes; u++ {
						for d := 0; d < sc.Nodes; d++ {
							wa, wh, wok := bruteEarliest(sc, start, u, d, horizon)
							ga, gh, gok := followEarliest(sc, et, start, u, d, horizon)
							if wok != gok || wa != ga || wh != gh {
								t.Fatalf("from %d at %v to %d: table arrives %v in %d hops (ok=%v), brute force %v in %d hops (ok=%v)",
									u, start, d, ga, gh, gok, wa, wh, wok)
							}
							checked++
							if wa > start {
								waits++
							}
							if wh > 1 {
								multi++
							}
						}
					}
				}
			}
			if multi == 0 { // (Opera's slices are always connected: nothing waits there)
				t.Errorf("weak case: %d queries, none multi-hop", checked)
			}
			totalWaits += waits
			t.Logf("%d epochs, %d queries (%d wait, %d multi-hop)", len(et.Bounds), checked, waits, multi)
		})
	}
	if totalWaits == 0 {
		t.Errorf("no query had to wait: the cases do not exercise waiting")
	}
}

// cyclicSchedule is testsched.Cyclic (a RotorNet-style rotor: switch s
// in slot k maps i → i + first + s + k·u mod n), failing t on error.
func cyclicSchedule(t testing.TB, n, u, first int, slot, reconf rotor.Time) *rotor.Schedule {
	t.Helper()
	sc, err := testsched.Cyclic(n, u, first, slot, reconf)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}
