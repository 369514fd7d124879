package operasim

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

const us = rotor.Microsecond

func opera(t testing.TB, n, u int, seed uint64) *rotor.Schedule {
	t.Helper()
	sc, err := schedules.Build("opera", schedules.Params{Nodes: n, Uplinks: u, Slot: 400 * us, Reconf: 10 * us, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// bfs is the hop distance from s to every ToR over adjacency row (an
// independent check of the exported paths' lengths).
func bfs(row []int, n, u, s int) []int {
	dist := make([]int, n)
	for i := range dist {
		dist[i] = -1
	}
	dist[s] = 0
	q := []int{s}
	for len(q) > 0 {
		a := q[0]
		q = q[1:]
		for k := 0; k < u; k++ {
			if b := row[a*u+k]; b >= 0 && dist[b] < 0 {
				dist[b] = dist[a] + 1
				q = append(q, b)
			}
		}
	}
	return dist
}

// TestFromScheduleOpera checks the exported Opera schedule against the
// schedule itself: each slice's adjacency is the schedule's circuits at
// every instant of the slice (sampled at its start, middle and last
// picosecond), the r slice of superslice j has exactly rotor (j+1) mod U
// dark, the paths are shortest in their slice (an independent BFS), δ's
// paths avoid the rotor about to go dark, and every pair the fresh rotor
// j mod U connects has its direct path on that rotor (RotorLB's path 0).
func TestFromScheduleOpera(t *testing.T) {
	for _, c := range []struct {
		n, u  int
		guard rotor.Time
	}{{16, 4, 0}, {16, 4, 20 * us}, {12, 4, 5 * us}} {
		sc := opera(t, c.n, c.u, 3)
		tp, err := FromSchedule(sc, c.guard)
		if err != nil {
			t.Fatal(err)
		}
		if err := tp.Check(); err != nil {
			t.Fatal(err)
		}
		n, u := c.n, c.u
		ss := sc.Slot / rotor.Time(u)
		if tp.Superslice() != ss || tp.R != sc.Reconf || tp.Delta != c.guard {
			t.Fatalf("slice times ε %v δ %v r %v, want superslice %v, δ %v, r %v", tp.Epsilon, tp.Delta, tp.R, ss, c.guard, sc.Reconf)
		}
		if got, want := tp.Slices(), 3*sc.Period*u; got != want || rotor.Time(got/3)*ss != sc.CycleDuration() {
			t.Fatalf("%d slices, want %d covering the cycle %v", got, want, sc.CycleDuration())
		}
		for i := range tp.Next {
			j, k := i/3, i%3
			start := rotor.Time(j)*ss + [3]rotor.Time{0, tp.Epsilon, tp.Epsilon + tp.Delta}[k]
			length := [3]rotor.Time{tp.Epsilon, tp.Delta, tp.R}[k]
			if length == 0 {
				continue
			}
			for _, at := range []rotor.Time{start, start + length/2, start + length - 1} {
				want := make([]int, n*u)
				for x := range want {
					want[x] = -1
				}
				for s := 0; s < u; s++ {
					if sc.CircuitUp(s, at) {
						slot, _ := sc.SlotAt(s, at)
						for v := 0; v < n; v++ {
							want[v*u+s] = v // idle or self
						}
						for v, w := range sc.Matchings[s][slot] {
							if w != rotor.Idle {
								want[v*u+s] = w
							}
						}
					}
				}
				if d := cmp.Diff(want, tp.Next[i]); d != "" {
					t.Fatalf("n=%d slice %d at %v: adjacency differs from the schedule (-want +got):\n%s", n, i, at, d)
				}
			}
			for s := 0; s < u; s++ {
				dark := tp.Next[i][s] == -1
				if wantDark := k == 2 && s == (j+1)%u; dark != wantDark {
					t.Fatalf("slice %d: rotor %d dark %v, want %v", i, s, dark, wantDark)
				}
			}
			route := tp.Next[i]
			if k == 1 { // δ routes over the night's circuits
				route = tp.Next[i+1]
			}
			for s := 0; s < n; s++ {
				dist := bfs(route, n, u, s)
				for d := 0; d < n; d++ {
					if d == s {
						continue
					}
					p := tp.Paths[i][s*n+d][0]
					if len(p) != dist[d] {
						t.Fatalf("slice %d: path %d→%d has %d hops, the shortest %d", i, s, d, len(p), dist[d])
					}
					if k >= 1 {
						for _, port := range p {
							if port-u == (j+1)%u {
								t.Fatalf("slice %d: path %d→%d uses rotor %d, which goes dark at the end of superslice %d", i, s, d, port-u, j)
							}
						}
					}
					if fresh := j % u; k == 0 && tp.Next[i][s*u+fresh] == d && (len(p) != 1 || p[0] != u+fresh) {
						t.Fatalf("slice %d: %d→%d has a circuit on the fresh rotor %d, path %v", i, s, d, fresh, p)
					}
				}
			}
		}
	}
}

// TestRoundTrip writes a topology, reads it back equal, and checks the
// file's shape: no final newline (opera-sim reads an empty last line as a
// path), the header, and identical bytes for the same schedule.
func TestRoundTrip(t *testing.T) {
	sc := opera(t, 16, 4, 5)
	tp, err := FromSchedule(sc, 10*us)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := Write(&a, tp); err != nil {
		t.Fatal(err)
	}
	tp2, _ := FromSchedule(opera(t, 16, 4, 5), 10*us)
	if err := Write(&b, tp2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("the same schedule gave different files")
	}
	out := a.String()
	if strings.HasSuffix(out, "\n") {
		t.Fatal("the file ends with a newline")
	}
	lines := strings.Split(out, "\n")
	if lines[0] != "64 4 4 16" || lines[1] != "48 80000000 10000000 10000000" {
		t.Fatalf("header %q %q", lines[0], lines[1])
	}
	// 48 adjacency lines, then per slice its number and 16·15 paths.
	if got, want := len(lines), 2+48+48*(1+16*15); got != want {
		t.Fatalf("%d lines, want %d", got, want)
	}
	back, err := Read(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(tp, back); d != "" {
		t.Fatalf("read back differs (-wrote +read):\n%s", d)
	}
	if _, err := Read(strings.NewReader(out + "\n")); err != nil {
		t.Fatalf("a final newline: %v", err)
	}
}

// TestFromScheduleRefuses: schedules opera-sim cannot play, each with the
// field at fault.
func TestFromScheduleRefuses(t *testing.T) {
	op := opera(t, 16, 4, 1)
	rn, err := schedules.Build("rotornet", schedules.Params{Nodes: 16, Uplinks: 4, SelfSlot: true})
	if err != nil {
		t.Fatal(err)
	}
	odd := *op
	odd.Slot = 400*us + 1 // ps
	for _, c := range []struct {
		name  string
		sc    *rotor.Schedule
		guard rotor.Time
		field string
	}{
		{"unstaggered rotornet", rn, 0, "switch_offsets"},
		{"slot not divisible by U", &odd, 0, "slot"},
		{"guard as long as the day", op, 90 * us, "guard"},
		{"negative guard", op, -1, "guard"},
	} {
		_, err := FromSchedule(c.sc, c.guard)
		var e *Error
		if !errors.As(err, &e) || e.Field != c.field {
			t.Errorf("%s: got %v, want an error on %s", c.name, err, c.field)
		}
	}
	// rotornet with Opera's stagger is playable: opera-sim's RotorNet mode.
	st, err := schedules.Build("rotornet", schedules.Params{Nodes: 16, Uplinks: 4, SelfSlot: true, Stagger: true, Slot: 400 * us, Reconf: 10 * us})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FromSchedule(st, 0); err != nil {
		t.Fatalf("staggered rotornet: %v", err)
	}
}

// TestCheckCatches: each broken invariant is found.
func TestCheckCatches(t *testing.T) {
	fresh := func() *Topology {
		tp, err := FromSchedule(opera(t, 8, 4, 2), 0)
		if err != nil {
			t.Fatal(err)
		}
		return tp
	}
	for _, c := range []struct {
		name   string
		break_ func(tp *Topology)
		want   string
	}{
		{"not a matching", func(tp *Topology) { tp.Next[0][0] = tp.Next[0][4] }, "not a matching"},
		{"half dark", func(tp *Topology) { tp.Next[0][0] = -1 }, "dark at some ToRs"},
		{"missing path", func(tp *Topology) { tp.Paths[3][1] = nil }, "no path"},
		{"wrong port", func(tp *Topology) { tp.Paths[0][1][0] = Path{0} }, "not an uplink"},
		{"dark rotor", func(tp *Topology) { tp.Paths[2][1][0] = Path{4 + 1} }, "dark"},
		{"wrong end", func(tp *Topology) { tp.Paths[0][1][0] = append(Path{}, tp.Paths[0][2][0]...) }, "ends at"},
	} {
		tp := fresh()
		c.break_(tp)
		err := tp.Check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v", c.name, err)
		}
	}
}
