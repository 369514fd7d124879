package rotor

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// threeNodes: one switch, two equal slots of 10 ps with 2 ps reconfiguration.
func threeNodes() *Schedule {
	return &Schedule{
		Nodes: 3, Switches: 1, Period: 2, Slot: 10, Reconf: 2,
		Matchings: [][][]int{{{1, 2, 0}, {2, 0, 1}}},
	}
}

// variableSlots: two switches, slots of 10 and 30 ps, switch 1 shifted by
// 15 ps. Switch 0: slot 0 day [0,8), slot 1 day [10,38). Switch 1: slot 0
// day [15,23), slot 1 day [25,53) = [25,40) ∪ [0,13) mod 40.
func variableSlots() *Schedule {
	return &Schedule{
		Nodes: 3, Switches: 2, Period: 2, Slot: 10, Reconf: 2,
		SlotDurations: []Time{10, 30},
		SwitchOffsets: []Time{0, 15},
		Matchings: [][][]int{
			{{1, 2, 0}, {2, 0, 1}},
			{{2, Idle, 1}, {1, Idle, Idle}},
		},
	}
}

func TestSlotAt(t *testing.T) {
	shifted := threeNodes()
	shifted.SwitchOffsets = []Time{3}
	tests := []struct {
		name      string
		s         *Schedule
		sw        int
		at        Time
		slot      int
		since     Time
		circuitUp bool
	}{
		{"start", threeNodes(), 0, 0, 0, 0, true},
		{"last day ps", threeNodes(), 0, 7, 0, 7, true},
		{"first night ps", threeNodes(), 0, 8, 0, 8, false},
		{"slot end", threeNodes(), 0, 9, 0, 9, false},
		{"second slot", threeNodes(), 0, 10, 1, 0, true},
		{"next cycle", threeNodes(), 0, 25, 0, 5, true},
		{"negative time", threeNodes(), 0, -1, 1, 9, false},
		{"offset: before slot 0", shifted, 0, 0, 1, 7, true},
		{"offset: night before slot 0", shifted, 0, 2, 1, 9, false},
		{"offset: slot 0 starts", shifted, 0, 3, 0, 0, true},
		{"variable: long slot", variableSlots(), 0, 37, 1, 27, true},
		{"variable: long slot night", variableSlots(), 0, 38, 1, 28, false},
		{"variable+offset: wraps", variableSlots(), 1, 12, 1, 27, true},
		{"variable+offset: night", variableSlots(), 1, 13, 1, 28, false},
		{"variable+offset: slot 0", variableSlots(), 1, 15, 0, 0, true},
		{"variable+offset: far future", variableSlots(), 1, 15 + 40*1000 + 24, 1, 14, true},
	}
	for _, tt := range tests {
		slot, since := tt.s.SlotAt(tt.sw, tt.at)
		if slot != tt.slot || since != tt.since {
			t.Errorf("%s: SlotAt(%d, %d) = (%d, %d), want (%d, %d)", tt.name, tt.sw, tt.at, slot, since, tt.slot, tt.since)
		}
		if up := tt.s.CircuitUp(tt.sw, tt.at); up != tt.circuitUp {
			t.Errorf("%s: CircuitUp(%d, %d) = %v, want %v", tt.name, tt.sw, tt.at, up, tt.circuitUp)
		}
	}
}

func TestCircuitsAt(t *testing.T) {
	s := variableSlots()
	tests := []struct {
		at   Time
		want []Circuit
	}{
		{0, []Circuit{{0, 0, 1}, {0, 1, 2}, {0, 2, 0}, {1, 0, 1}}},
		{8, []Circuit{{1, 0, 1}}},
		{14, []Circuit{{0, 0, 2}, {0, 1, 0}, {0, 2, 1}}},
		{15, []Circuit{{0, 0, 2}, {0, 1, 0}, {0, 2, 1}, {1, 0, 2}, {1, 2, 1}}},
		{39, []Circuit{{1, 0, 1}}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, s.CircuitsAt(tt.at)); diff != "" {
			t.Errorf("CircuitsAt(%d) (-want +got):\n%s", tt.at, diff)
		}
	}
	// Self-maps carry nothing and are left out.
	self := &Schedule{Nodes: 2, Switches: 1, Period: 1, Slot: 5, Matchings: [][][]int{{{0, 1}}}}
	if got := self.CircuitsAt(0); len(got) != 0 {
		t.Errorf("identity matching: CircuitsAt = %v, want none", got)
	}
	buf := make([]Circuit, 0, 16)
	if allocs := testing.AllocsPerRun(100, func() { buf = s.AppendCircuitsAt(buf[:0], 15) }); allocs != 0 {
		t.Errorf("AppendCircuitsAt allocates %.0f times", allocs)
	}
}

func TestNextConnection(t *testing.T) {
	shifted := threeNodes()
	shifted.SwitchOffsets = []Time{3}
	tests := []struct {
		name     string
		s        *Schedule
		u, v     int
		from     Time
		at       Time
		sw, slot int
	}{
		{"now", threeNodes(), 0, 1, 0, 0, 0, 0},
		{"still day", threeNodes(), 0, 1, 7, 7, 0, 0},
		{"night: next cycle", threeNodes(), 0, 1, 8, 20, 0, 0},
		{"later this cycle", threeNodes(), 0, 2, 0, 10, 0, 1},
		{"during reconf of slot 1", threeNodes(), 0, 2, 18, 30, 0, 1},
		{"negative from", threeNodes(), 2, 0, -5, 0, 0, 0},
		{"offset", shifted, 0, 1, 0, 3, 0, 0},
		{"offset: in day", shifted, 0, 2, 0, 0, 0, 1},
		{"offset: night", shifted, 0, 2, 1, 13, 0, 1},
		{"variable: other switch in day", variableSlots(), 0, 1, 8, 8, 1, 1},
		{"variable: other switch next", variableSlots(), 0, 1, 13, 25, 1, 1},
		{"variable: switch 0 sooner", variableSlots(), 0, 2, 0, 10, 0, 1},
		{"variable: tie goes to switch 0", variableSlots(), 0, 2, 15, 15, 0, 1},
		{"variable: night of both", variableSlots(), 2, 1, 78, 90, 0, 1},
		{"variable: switch 1 next cycle", variableSlots(), 0, 1, 53, 65, 1, 1},
	}
	for _, tt := range tests {
		at, sw, slot, err := tt.s.NextConnection(tt.u, tt.v, tt.from)
		if err != nil || at != tt.at || sw != tt.sw || slot != tt.slot {
			t.Errorf("%s: NextConnection(%d, %d, %d) = (%d, sw %d, slot %d, %v), want (%d, sw %d, slot %d)",
				tt.name, tt.u, tt.v, tt.from, at, sw, slot, err, tt.at, tt.sw, tt.slot)
		}
	}
	idle := variableSlots()
	idle.Matchings[0][0][1], idle.Matchings[0][1][1] = Idle, Idle
	if _, _, _, err := idle.NextConnection(1, 2, 0); !errors.Is(err, ErrNeverConnected) {
		t.Errorf("never connected: err = %v, want ErrNeverConnected", err)
	}
	for _, uv := range [][2]int{{1, 1}, {-1, 0}, {0, 3}} {
		if _, _, _, err := threeNodes().NextConnection(uv[0], uv[1], 0); err == nil || errors.Is(err, ErrNeverConnected) {
			t.Errorf("NextConnection(%d, %d): err = %v, want an argument error", uv[0], uv[1], err)
		}
	}
}

// naiveSlotAt walks the timeline slot by slot from a cycle start at or
// before t: an independent implementation to check SlotAt against.
func naiveSlotAt(s *Schedule, sw int, t Time) (int, Time) {
	start := Time(0)
	if s.SwitchOffsets != nil {
		start = s.SwitchOffsets[sw]
	}
	var c Time
	for i := range s.Period {
		c += s.SlotDuration(i)
	}
	for start > t {
		start -= c
	}
	for slot := 0; ; slot = (slot + 1) % s.Period {
		d := s.SlotDuration(slot)
		if t < start+d {
			return slot, t - start
		}
		start += d
	}
}

// TestQueriesBruteForce checks SlotAt and NextConnection against a
// picosecond-by-picosecond scan over random schedules.
func TestQueriesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for iter := range 300 {
		s := randomSchedule(rng)
		c := s.CycleDuration()
		for range 20 {
			from := Time(rng.IntN(400) - 100)
			for sw := range s.Switches {
				gs, gd := s.SlotAt(sw, from)
				ws, wd := naiveSlotAt(s, sw, from)
				if gs != ws || gd != wd {
					t.Fatalf("iter %d: SlotAt(%d, %d) = (%d, %d), naive (%d, %d)", iter, sw, from, gs, gd, ws, wd)
				}
			}
			u, v := rng.IntN(s.Nodes), rng.IntN(s.Nodes)
			if u == v {
				continue
			}
			wantAt, wantSw, wantSlot, found := Time(0), -1, -1, false
		scan:
			for at := from; at <= from+2*c; at++ {
				for sw := range s.Switches {
					slot, since := naiveSlotAt(s, sw, at)
					if since < s.SlotDuration(slot)-s.Reconf && s.Matchings[sw][slot][u] == v {
						wantAt, wantSw, wantSlot, found = at, sw, slot, true
						break scan
					}
				}
			}
			at, sw, slot, err := s.NextConnection(u, v, from)
			if !found {
				if !errors.Is(err, ErrNeverConnected) {
					t.Fatalf("iter %d: NextConnection(%d, %d, %d) = (%d, %d, %d, %v), scan finds none", iter, u, v, from, at, sw, slot, err)
				}
				continue
			}
			if err != nil || at != wantAt || sw != wantSw || slot != wantSlot {
				t.Fatalf("iter %d: NextConnection(%d, %d, %d) = (%d, %d, %d, %v), scan (%d, %d, %d)",
					iter, u, v, from, at, sw, slot, err, wantAt, wantSw, wantSlot)
			}
		}
	}
}

func BenchmarkNextConnection(b *testing.B) {
	s := rotorSchedule(1024, 1)
	b.ReportAllocs()
	var sum Time
	i := 0
	for b.Loop() {
		at, _, _, _ := s.NextConnection(i%1024, (i*7+1)%1024, Time(i)*Microsecond)
		sum += at
		i++
	}
	_ = sum
}
