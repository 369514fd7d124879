package routing

import (
	"strings"
	"testing"

	"github.com/rdcn/rdcn/internal/testsched"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

// guardSchedule is testsched.DarkCircuit: four ToRs, two switches with
// 100 µs slots, B offset by 50 µs. In the first 100 µs of the cycle
// (reconf = 10 µs):
//
//	[0, 40)   A shift 1, B shift 3   0 → 1 direct (A), 0 → 3 direct (B)
//	[40, 50)  B's night: A only      0 → 3 over 0 → 1 → 2 → 3: next hop 1
//	[50, 90)  A shift 1, B shift 3   as [0, 40)
//	[90, 100) A's night: B only      0 → 1 over 0 → 3 → 2 → 1: next hop 3
func guardSchedule(t *testing.T, reconf rotor.Time) *rotor.Schedule {
	t.Helper()
	sc, err := testsched.DarkCircuit(reconf)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestPathGuard: with a 30 µs guard the lookups from 10 µs before B's
// night (at 40 µs) and from 60 µs before A's (at 90 µs) read the night's
// next hops (the table above); earlier in each day they read the day's,
// and without the guard always t's own epoch. The same holds one cycle
// later (1.2 ms).
func TestPathGuard(t *testing.T) {
	us := rotor.Microsecond
	sc := guardSchedule(t, 10*us)
	plain, guarded := NewPathTable(sc, 1), NewPathTable(sc, 1)
	if err := guarded.SetGuard(sc, 30*us); err != nil {
		t.Fatal(err)
	}
	cycle := sc.CycleDuration()
	for _, c := range []struct {
		at          rotor.Time
		dst         int
		plain, with int
	}{
		{5 * us, 3, 3, 3},  // day, before the guard
		{9 * us, 3, 3, 3},  // last µs before the guard
		{10 * us, 3, 3, 1}, // guard: B's night avoids B's 0 → 3
		{39 * us, 3, 3, 1},
		{45 * us, 3, 1, 1}, // B's night
		{55 * us, 1, 1, 1}, // day, before the guard
		{59 * us, 1, 1, 1},
		{60 * us, 1, 1, 3}, // guard: A's night avoids A's 0 → 1
		{89 * us, 1, 1, 3},
		{95 * us, 1, 3, 3}, // A's night
		{100 * us, 1, 3, 3},
	} {
		for _, at := range []rotor.Time{c.at, c.at + cycle} {
			if got := plain.Next(at, 0, c.dst); got != c.plain {
				t.Errorf("no guard, t = %v: next hop 0 → %d is %d, want %d", at, c.dst, got, c.plain)
			}
			if got := guarded.Next(at, 0, c.dst); got != c.with {
				t.Errorf("guard 30us, t = %v: next hop 0 → %d is %d, want %d", at, c.dst, got, c.with)
			}
			if got := guarded.Pick(at, 0, c.dst, 7); got != c.with {
				t.Errorf("guard 30us, t = %v: Pick 0 → %d is %d, want %d", at, c.dst, got, c.with)
			}
		}
	}
	if err := guarded.SetGuard(sc, 0); err != nil || guarded.Next(60*us, 0, 1) != 1 {
		t.Errorf("guard 0: %v, next hop %d; want none and the day's 1", err, guarded.Next(60*us, 0, 1))
	}
}

// TestPathGuardRefused: a guard as long as the 40 µs days, on a schedule
// without nights, or negative is refused.
func TestPathGuardRefused(t *testing.T) {
	us := rotor.Microsecond
	sc := guardSchedule(t, 10*us)
	pt := NewPathTable(sc, 1)
	if err := pt.SetGuard(sc, 39*us); err != nil {
		t.Errorf("guard 39us: %v", err)
	}
	for _, c := range []struct {
		sc    *rotor.Schedule
		guard rotor.Time
		want  string
	}{
		{sc, 40 * us, "shorter than the 40us day"},
		{sc, -us, "negative"},
		{guardSchedule(t, 0), us, "nights"},
	} {
		err := NewPathTable(c.sc, 1).SetGuard(c.sc, c.guard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("guard %v: error %v, want one saying %q", c.guard, err, c.want)
		}
	}
	// Through the router: ksp source routes do not read the table.
	_, err := New(Paths, Setup{Schedule: sc, Bulk: func(int32) bool { return false }, PathsK: 2, Multipath: MultipathKSP, Guard: us})
	if e, ok := err.(*SetupError); !ok || e.Param != "guard" {
		t.Errorf("ksp with a guard: %v, want a routing.guard error", err)
	}
}

// TestPathGuardOpera: on an Opera schedule (4 rotors, 400 µs slots,
// 10 µs nights: a 100 µs superslice, a 90 µs day) with opera-sim's
// guard of half the day, 45 µs, every lookup in the guard equals the
// night's, and every next hop it gives is over a circuit up at the time
// of the lookup.
func TestPathGuardOpera(t *testing.T) {
	us := rotor.Microsecond
	sc, err := schedules.Build("opera", schedules.Params{Nodes: 16, Uplinks: 4, Slot: 400 * us, Reconf: 10 * us, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	pt := NewPathTable(sc, 1)
	if err := pt.SetGuard(sc, 45*us); err != nil {
		t.Fatal(err)
	}
	if err := NewPathTable(sc, 1).SetGuard(sc, 90*us); err == nil {
		t.Error("guard 90us on a 90us day: accepted")
	}
	plain := NewPathTable(sc, 1)
	n, differ := sc.Nodes, 0
	for at := rotor.Time(0); at < 400*us; at += 5 * us {
		rel := at % (100 * us) // superslice: day [0, 90), night [90, 100)
		look := at
		if rel >= 45*us && rel < 90*us {
			look = at - rel + 95*us // the night's
		}
		up := map[[2]int]bool{}
		for _, c := range sc.CircuitsAt(at) {
			up[[2]int{c.Src, c.Dst}] = true
		}
		for u := 0; u < n; u++ {
			for d := 0; d < n; d++ {
				if u == d {
					continue
				}
				got, want := pt.Next(at, u, d), plain.Next(look, u, d)
				if got != want {
					t.Fatalf("t = %v: next hop %d → %d is %d, want the table's at %v, %d", at, u, d, got, look, want)
				}
				if got >= 0 && !up[[2]int{u, got}] {
					t.Fatalf("t = %v: next hop %d → %d is %d, not up now", at, u, d, got)
				}
				if got != plain.Next(at, u, d) {
					differ++
				}
			}
		}
	}
	if differ == 0 {
		t.Error("the guard changed no next hop")
	}
}
