package operasim

import (
	"fmt"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/routing"
)

// Topology is opera-sim's dynamic-expander topology: ToRs with H hosts and
// U = H uplinks, one rotor per uplink, and a cycle of superslices, each
// split into three slices (ε, δ, r). Slice i = 3j+k is part k of
// superslice j.
type Topology struct {
	ToRs    int        // racks
	Uplinks int        // uplinks per ToR = hosts per ToR = rotors
	Epsilon rotor.Time // slice 3j: every rotor up, expander paths
	Delta   rotor.Time // slice 3j+1: every rotor up, paths avoid the rotor about to go dark
	R       rotor.Time // slice 3j+2: rotor (j+1) mod U dark
	// Next[i][t*Uplinks+k] is the ToR uplink k of ToR t reaches in slice i:
	// t itself when the port is idle, −1 when its rotor is dark.
	Next [][]int
	// Paths[i][s*ToRs+d] are the paths from ToR s to ToR d ≠ s in slice i;
	// a path lists the uplink ports (Uplinks…2·Uplinks−1, opera-sim's port
	// numbers: hosts' downlinks come first) it takes, ToR by ToR.
	Paths [][][]Path
}

// Path is the uplink ports of one path, hop by hop.
type Path []int

// Superslice is the length of one superslice, ε + δ + r.
func (tp *Topology) Superslice() rotor.Time { return tp.Epsilon + tp.Delta + tp.R }

// Slices is the number of slices per cycle (3 per superslice).
func (tp *Topology) Slices() int { return len(tp.Next) }

// Error is a schedule opera-sim cannot play, or a malformed topology file;
// Field names the schedule field, parameter or file line at fault.
type Error struct {
	Field   string
	Problem string
}

func (e *Error) Error() string { return e.Field + ": " + e.Problem }

func errorf(field, format string, args ...any) error {
	return &Error{Field: field, Problem: fmt.Sprintf(format, args...)}
}

// FromSchedule turns sc, with its per-slice shortest paths as rdcn's
// routing.mode = paths picks them (routing.PathTable, one path per pair),
// into opera-sim's topology.
//
// opera-sim hard-codes Opera's timing, so sc must have it: U switches
// with equal slots Δ, offset by s·Δ/U (Opera's stagger), Δ divisible by U,
// and a night r < Δ/U at the end of each slot. Then the cycle is Period·U
// superslices of Δ/U; superslice j starts as rotor j mod U takes a new
// matching (RotorLB's commit queue j mod U in opera-sim) and ends with
// rotor (j+1) mod U dark for r. guard is δ: during the last guard before
// each night new packets take the paths of the night (which avoid the
// rotor about to go dark), so that none is caught on it; 0 ≤ guard <
// Δ/U − r, and guard > 0 needs r > 0.
func FromSchedule(sc *rotor.Schedule, guard rotor.Time) (*Topology, error) {
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	u := sc.Switches
	if sc.SlotDurations != nil {
		return nil, errorf("slot_durations", "opera-sim needs equal slots")
	}
	if u < 2 {
		return nil, errorf("switches", "opera-sim's Opera needs at least 2 rotors, got %d", u)
	}
	if sc.Slot%rotor.Time(u) != 0 {
		return nil, errorf("slot", "%v is not divisible by the %d switches (superslices of Δ/U)", sc.Slot, u)
	}
	ss := sc.Slot / rotor.Time(u)
	for s := 0; s < u; s++ {
		off := rotor.Time(0)
		if sc.SwitchOffsets != nil {
			off = sc.SwitchOffsets[s]
		}
		if off != rotor.Time(s)*ss {
			return nil, errorf("switch_offsets", "switch %d is offset by %v, want %v: opera-sim staggers rotor s by s·Δ/U", s, off, rotor.Time(s)*ss)
		}
	}
	if sc.Reconf >= ss {
		return nil, errorf("reconf", "%v is not shorter than a superslice Δ/U = %v", sc.Reconf, ss)
	}
	if guard < 0 || guard >= ss-sc.Reconf {
		return nil, errorf("guard", "%v must be in [0, Δ/U − r = %v)", guard, ss-sc.Reconf)
	}
	if guard > 0 && sc.Reconf == 0 {
		return nil, errorf("guard", "%v: without a night (reconf 0) no rotor goes dark; use 0", guard)
	}
	n := sc.Nodes
	pt := routing.NewPathTable(sc, 1)
	if pt == nil {
		return nil, errorf("nodes", "the path table of %d ToRs is too large", n)
	}
	supers := sc.Period * u
	tp := &Topology{ToRs: n, Uplinks: u, Epsilon: ss - sc.Reconf - guard, Delta: guard, R: sc.Reconf,
		Next: make([][]int, 3*supers), Paths: make([][][]Path, 3*supers)}
	for j := 0; j < supers; j++ {
		start := rotor.Time(j) * ss
		night := start + ss - sc.Reconf
		if sc.Reconf == 0 {
			night = start
		}
		pathsAt := [3]rotor.Time{start, night, night}
		if guard == 0 {
			pathsAt[1] = start
		}
		adjAt := [3]rotor.Time{start, start, night}
		for k := 0; k < 3; k++ {
			i := 3*j + k
			tp.Next[i] = adjacency(sc, adjAt[k])
			via := tp.Next[i] // the circuits the paths were found on
			if pathsAt[k] != adjAt[k] {
				via = adjacency(sc, pathsAt[k])
			}
			ps, err := paths(sc, pt, pathsAt[k], via, j%u)
			if err != nil {
				return nil, errorf("matchings", "slice %d (at %v): %v", i, pathsAt[k], err)
			}
			tp.Paths[i] = ps
		}
	}
	return tp, nil
}

// DefaultGuard is δ when none is given: half of a superslice's day,
// (Δ/U − r)/2, and 0 without a night. A packet caught on a rotor as it
// goes dark is lost in opera-sim (it prints "clipped") and waits for
// NDP's 1 ms timeout; δ must cover the time packets spend between their
// NIC and their last uplink. With 8-packet ports at 10 Gb/s a hop can
// hold a packet 9.6 µs, so paths of up to 4 hops need 40 µs: on
// Opera (a), 10 ms of traffic loses 2 744 packets with δ = 10 µs, 107
// with 30 µs and 2 with 45 µs, this default.
func DefaultGuard(sc *rotor.Schedule) rotor.Time {
	if sc.Reconf == 0 || sc.Switches < 1 {
		return 0
	}
	return (sc.Slot/rotor.Time(sc.Switches) - sc.Reconf) / 2
}

// adjacency is the Next row of the slice holding time t.
func adjacency(sc *rotor.Schedule, t rotor.Time) []int {
	u := sc.Switches
	row := make([]int, sc.Nodes*u)
	for s := 0; s < u; s++ {
		slot, since := sc.SlotAt(s, t)
		up := since < sc.SlotDuration(slot)-sc.Reconf
		for v, w := range sc.Matchings[s][slot] {
			switch {
			case !up:
				row[v*u+s] = -1
			case w == rotor.Idle:
				row[v*u+s] = v
			default:
				row[v*u+s] = w
			}
		}
	}
	return row
}

// paths follows pt's next hops at time t from every s to every d ≠ s and
// names each hop's uplink in next (the adjacency at t). A one-hop path
// takes rotor fresh when it has the circuit: RotorLB sends on the path of
// index 0 through the rotor that just took its matching.
func paths(sc *rotor.Schedule, pt *routing.PathTable, t rotor.Time, next []int, fresh int) ([][]Path, error) {
	n, u := sc.Nodes, sc.Switches
	out := make([][]Path, n*n)
	port := func(a, b int) int {
		if next[a*u+fresh] == b {
			return u + fresh
		}
		for k := 0; k < u; k++ {
			if next[a*u+k] == b {
				return u + k
			}
		}
		return -1
	}
	for s := 0; s < n; s++ {
		for d := 0; d < n; d++ {
			if s == d {
				continue
			}
			var p Path
			for a := s; a != d; {
				b := pt.Next(t, a, d)
				if b < 0 || len(p) == n {
					return nil, fmt.Errorf("ToR %d cannot reach ToR %d: opera-sim needs every slice connected", s, d)
				}
				p = append(p, port(a, b))
				a = b
			}
			out[s*n+d] = []Path{p}
		}
	}
	return out, nil
}
