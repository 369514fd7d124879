package rotor

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// TestTimetableMatchesSchedule cross-checks the index against the direct
// scan of Schedule, which TestQueriesBruteForce checks against a
// picosecond-by-picosecond walk.
func TestTimetableMatchesSchedule(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	schedules := []*Schedule{variableSlots(), threeNodes(), rotorSchedule(16, 3)}
	for range 300 {
		schedules = append(schedules, randomSchedule(rng))
	}
	for i, s := range schedules {
		tt, err := NewTimetable(s)
		if err != nil {
			t.Fatal(err)
		}
		c := s.CycleDuration()
		for range 40 {
			from := Time(rng.Int64N(int64(5*c))) - 2*c
			sw := rng.IntN(s.Switches)
			gs, gd := tt.SlotAt(sw, from)
			ws, wd := s.SlotAt(sw, from)
			if gs != ws || gd != wd {
				t.Fatalf("schedule %d: Timetable.SlotAt(%d, %d) = (%d, %d), Schedule (%d, %d)", i, sw, from, gs, gd, ws, wd)
			}
			u, v := rng.IntN(s.Nodes+1)-1+rng.IntN(2), rng.IntN(s.Nodes)
			at, gsw, gslot, gerr := tt.NextConnection(u, v, from)
			wat, wsw, wslot, werr := s.NextConnection(u, v, from)
			if at != wat || gsw != wsw || gslot != wslot || (gerr == nil) != (werr == nil) || errors.Is(gerr, ErrNeverConnected) != errors.Is(werr, ErrNeverConnected) {
				t.Fatalf("schedule %d: NextConnection(%d, %d, %d): index (%d, %d, %d, %v), scan (%d, %d, %d, %v)",
					i, u, v, from, at, gsw, gslot, gerr, wat, wsw, wslot, werr)
			}
		}
	}
	if _, err := NewTimetable(&Schedule{}); err == nil {
		t.Error("NewTimetable accepted an invalid schedule")
	}
}

func BenchmarkTimetableNextConnection(b *testing.B) {
	tt, err := NewTimetable(rotorSchedule(1024, 1))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var sum Time
	i := 0
	for b.Loop() {
		at, _, _, _ := tt.NextConnection(i%1024, (i*7+1)%1024, Time(i)*Microsecond)
		sum += at
		i++
	}
	_ = sum
}

func BenchmarkNewTimetable(b *testing.B) {
	s := rotorSchedule(1024, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewTimetable(s); err != nil {
			b.Fatal(err)
		}
	}
}
