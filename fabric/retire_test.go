package fabric

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// TestRetiredFlowsReuseEnds: a retired flow gives its transport state's
// slot to the next flow, so the slots a run holds are the most flows
// running at once, not the flows served. Rounds of `width` flows of
// 15 kB (about 20 µs each on 10 Gbps) start every 500 µs, each round long
// finished and acknowledged before the next: the slots must be exactly
// `width`, every flow done with its bytes received and the counts of its
// retired sender and receiver kept.
func TestRetiredFlowsReuseEnds(t *testing.T) {
	for _, width := range []int{1, 3} {
		const rounds = 20
		var fl []workload.Flow
		for r := range rounds {
			for k := range width {
				id := r*width + k
				fl = append(fl, workload.Flow{ID: id, Src: k, Dst: 4 + (k+r)%4, Bytes: 15_000, Start: rotor.Time(r) * 500 * rotor.Microsecond})
			}
		}
		cfg := lsConfig(2, 2, 4, 1, 10*rotor.Gbps, 10*rotor.Gbps, fl)
		s, err := newSimFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.run()
		if err != nil {
			t.Fatal(err)
		}
		if len(s.ends) != width || len(s.freeEnds) != width {
			t.Errorf("width %d: %d slots for the ends of %d flows (%d free), want %d", width, len(s.ends), len(fl), len(s.freeEnds), width)
		}
		for _, f := range r.Flows {
			if !f.Done || f.Received != f.Bytes || f.Timeouts != 0 {
				t.Errorf("width %d: flow %d done %v, received %d of %d B, %d timeouts", width, f.ID, f.Done, f.Received, f.Bytes, f.Timeouts)
			}
		}
		for i := range s.flows {
			if s.flows[i].ends != 0 {
				t.Errorf("width %d: flow %d did not retire", width, i)
			}
		}
	}
}
