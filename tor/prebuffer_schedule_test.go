package tor_test

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
	"github.com/rdcn/rdcn/tor"
)

// TestPrebufferOnGeneratedSchedules: on Opera (four rotors with staggered
// slot boundaries) and RotorNet
// schedules, the prebuffer built from CircuitDays is big exactly when the
// schedule's next connection for the pair begins within τ_pre, checked
// at 500 points per cycle (at least 1.3 µs apart) over three cycles for every pair.
func TestPrebufferOnGeneratedSchedules(t *testing.T) {
	for _, kind := range []string{"opera", "rotornet"} {
		s, err := schedules.Build(kind, schedules.Params{Nodes: 8, Uplinks: 4, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		slot := s.SlotDuration(0)
		for _, lead := range []rotor.Time{0, slot / 3, 2 * slot} {
			for u := 0; u < 8; u++ {
				for v := 0; v < 8; v++ {
					if u == v {
						continue
					}
					days, cycle, err := tor.CircuitDays(s, u, v)
					if err != nil {
						t.Fatal(err)
					}
					p, err := tor.NewPrebuffer(1, 2, lead, cycle, days)
					if err != nil {
						t.Fatal(err)
					}
					step := max(cycle/500, 1300*rotor.Nanosecond)
					for at := -cycle; at < 2*cycle; at += step {
						next, _, _, err := s.NextConnection(u, v, at)
						if err != nil {
							t.Fatal(err)
						}
						want := int64(1)
						if next-at <= lead {
							want = 2
						}
						if got := p.Capacity(at); got != want {
							t.Fatalf("%s %d→%d τ_pre %v: capacity at %v = %d, next day at %v (days %v, cycle %v)", kind, u, v, lead, at, got, next, days, cycle)
						}
					}
				}
			}
		}
	}
}

// FuzzPrebuffer: for any valid schedule the capacity is Small or Big,
// NextChange(t) is after t, the capacity just before it is still the one
// at t, and at it the capacity differs.
func FuzzPrebuffer(f *testing.F) {
	f.Add(int64(1000), int64(100), int64(50), int64(600), int64(80), int64(300), int64(7))
	f.Add(int64(5880), int64(0), int64(225), int64(0), int64(0), int64(1800), int64(-5000))
	f.Fuzz(func(t *testing.T, cycle, s1, l1, s2, l2, lead, at int64) {
		if cycle <= 0 || cycle > 1e9 || l1 <= 0 || l1 > cycle || l2 < 0 || l2 > cycle || lead < 0 || lead > 1e10 ||
			s1 < -1e12 || s1 > 1e12 || s2 < -1e12 || s2 > 1e12 || at < -1e12 || at > 1e12 {
			return
		}
		days := []tor.Day{{Start: rotor.Time(s1), End: rotor.Time(s1 + l1)}}
		if l2 > 0 {
			days = append(days, tor.Day{Start: rotor.Time(s2), End: rotor.Time(s2 + l2)})
		}
		p, err := tor.NewPrebuffer(3, 5, rotor.Time(lead), rotor.Time(cycle), days)
		if err != nil {
			t.Fatal(err)
		}
		now := rotor.Time(at)
		c := p.Capacity(now)
		if c != 3 && c != 5 {
			t.Fatalf("capacity %d", c)
		}
		next := p.NextChange(now)
		if next == rotor.MaxTime {
			for k := rotor.Time(0); k < 50; k++ {
				if p.Capacity(now+k*rotor.Time(cycle)/50) != c {
					t.Fatalf("NextChange says never, but the capacity changes by %v", now+k*rotor.Time(cycle)/50)
				}
			}
			return
		}
		if next <= now || next > now+rotor.Time(cycle) || p.Capacity(next-1) != c || p.Capacity(next) == c {
			t.Fatalf("at %v (capacity %d): NextChange %v, capacity before %d, at %d", now, c, next, p.Capacity(next-1), p.Capacity(next))
		}
	})
}
