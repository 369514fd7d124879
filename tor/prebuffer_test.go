package tor

import (
	"strings"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// rdcnSchedule is the thesis's reconfigurable-network case study: 25 ToRs,
// one circuit switch cycling 24 matchings perm_k(i) = (i + k) mod 25, each
// a 225 µs day and a 20 µs night.
func rdcnSchedule() *rotor.Schedule {
	s := &rotor.Schedule{Kind: "rdcn", Nodes: 25, Switches: 1, Period: 24,
		Slot: 245 * rotor.Microsecond, Reconf: 20 * rotor.Microsecond}
	m := make([][]int, 24)
	for k := range m {
		m[k] = make([]int, 25)
		for i := range m[k] {
			m[k][i] = (i + k + 1) % 25
		}
	}
	s.Matchings = [][][]int{m}
	return s
}

// TestPrebufferReachesBigTauPreBeforeDay: for every ToR pair and τ_pre of
// 600 µs and 1800 µs (the thesis's two reTCP settings), the VOQ is small
// one picosecond before dayStart − τ_pre, big from exactly then until the
// day ends, and small again at the day's end; NextChange finds both edges.
// A second method checks every microsecond of two cycles: the capacity is
// big exactly when the schedule's next connection begins within τ_pre.
func TestPrebufferReachesBigTauPreBeforeDay(t *testing.T) {
	s := rdcnSchedule()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	us := rotor.Microsecond
	const small, big = 16 * 1500, 50 * 1500
	for _, lead := range []rotor.Time{600 * us, 1800 * us} {
		for u := 0; u < 25; u++ {
			for v := 0; v < 25; v++ {
				if u == v {
					continue
				}
				days, cycle, err := CircuitDays(s, u, v)
				if err != nil {
					t.Fatal(err)
				}
				if len(days) != 1 || days[0].End-days[0].Start != 225*us || cycle != 5880*us {
					t.Fatalf("pair %d→%d: days %v in cycle %v, want one 225 µs day in 5880 µs", u, v, days, cycle)
				}
				p, err := NewPrebuffer(small, big, lead, cycle, days)
				if err != nil {
					t.Fatal(err)
				}
				for n := rotor.Time(-1); n <= 2; n++ {
					d := Day{days[0].Start + n*cycle, days[0].End + n*cycle}
					grow := d.Start - lead
					for _, c := range []struct {
						at   rotor.Time
						want int64
					}{{grow - 1, small}, {grow, big}, {d.Start, big}, {d.End - 1, big}, {d.End, small}} {
						if got := p.Capacity(c.at); got != c.want {
							t.Fatalf("pair %d→%d, τ_pre %v, day %v: capacity at %v = %d, want %d", u, v, lead, d, c.at, got, c.want)
						}
					}
					if got := p.NextChange(grow - 1); got != grow {
						t.Fatalf("pair %d→%d: NextChange(%v) = %v, want %v", u, v, grow-1, got, grow)
					}
					if got := p.NextChange(grow); got != d.End {
						t.Fatalf("pair %d→%d: NextChange(%v) = %v, want the day's end %v", u, v, grow, got, d.End)
					}
				}
				if u == 0 || v == 0 { // the brute-force check on a cross of pairs
					for at := rotor.Time(0); at < 2*cycle; at += us {
						next, _, _, err := s.NextConnection(u, v, at)
						if err != nil {
							t.Fatal(err)
						}
						want := int64(small)
						if next-at <= lead {
							want = big
						}
						if got := p.Capacity(at); got != want {
							t.Fatalf("pair %d→%d, τ_pre %v: capacity at %v = %d, next day at %v", u, v, lead, at, got, next)
						}
					}
				}
			}
		}
	}
}

// TestPrebufferEdgeCases: a lead longer than the gap between days keeps
// the VOQ big; a zero lead grows it at the day's start; bad inputs are
// refused naming the field.
func TestPrebufferEdgeCases(t *testing.T) {
	us := rotor.Microsecond
	days := []Day{{Start: 100 * us, End: 200 * us}}
	p, _ := NewPrebuffer(1, 2, 900*us, 1000*us, days)
	for at := rotor.Time(0); at < 3000*us; at += 7 * us {
		if p.Capacity(at) != 2 {
			t.Fatalf("lead ≥ gap: capacity at %v is small", at)
		}
	}
	if p.NextChange(0) != rotor.MaxTime {
		t.Fatal("lead ≥ gap: NextChange is not MaxTime")
	}
	p, _ = NewPrebuffer(1, 2, 0, 1000*us, days)
	if p.Capacity(100*us-1) != 1 || p.Capacity(100*us) != 2 || p.Capacity(200*us) != 1 || p.Capacity(1100*us) != 2 {
		t.Fatal("zero lead: capacity does not follow the day")
	}
	for _, c := range []struct {
		small, big  int64
		lead, cycle rotor.Time
		days        []Day
		want        string
	}{
		{1, 2, -us, 1000 * us, days, "tau_pre"},
		{3, 2, us, 1000 * us, days, "big capacity"},
		{-1, 2, us, 1000 * us, days, "small capacity"},
		{1, 2, us, 0, days, "cycle"},
		{1, 2, us, 1000 * us, nil, "no circuit days"},
		{1, 2, us, 1000 * us, []Day{{5, 5}}, "day 0"},
	} {
		if _, err := NewPrebuffer(c.small, c.big, c.lead, c.cycle, c.days); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one naming %q", c, err, c.want)
		}
	}
}
