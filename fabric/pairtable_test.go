package fabric

import (
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// TestPairRowsMatchFlat: the per-pair tables kept as rows of the pairs in
// use (above flatPairToRs ToRs) and as flat n² tables give the same run,
// every result field but the memory samples, on relaying pull runs with
// run.check (which reads the tables in its conservation walk), for a
// plain policy (cs) and one that sees the staged bytes per pair (abm:
// stagedTo). Only runs above 1,024 ToRs use the rows otherwise.
func TestPairRowsMatchFlat(t *testing.T) {
	flows := testFlows(t, "websearch", 0.4, 3*rotor.Millisecond, 5)
	for _, policy := range []string{"cs", "abm"} {
		t.Run(policy, func(t *testing.T) {
			run := func(rows bool) *Result {
				cfg := loadedConfig(t, RotorLB, flows)
				cfg.Transport = Pull
				cfg.NewPolicy = func(int) tor.PolicyMaker { return tor.Named(policy, nil, nil, nil) }
				cfg.Buffer = 200 * 1500
				cfg.SimTime = 5 * rotor.Millisecond
				cfg.Check = true
				cfg.pairRows = rows
				s, err := newSimFor(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if got := s.pull.dests.flat == nil; got != rows || (s.pull.stagedTo.flat == nil) != (rows || s.pull.plain) {
					t.Fatalf("rows = %v, but the tables are rows: %v (stagedTo: %v, plain %v)", rows, got, s.pull.stagedTo.flat == nil, s.pull.plain)
				}
				r, err := s.run()
				if err != nil {
					t.Fatal(err)
				}
				if len(r.Hops) < 3 || r.Hops[2] == 0 {
					t.Fatalf("no packet crossed two circuits (hops %v): the relay stores were not used", r.Hops)
				}
				return r
			}
			flat, rows := run(false), run(true)
			if diff := cmp.Diff(flat, rows, cmpopts.IgnoreFields(Result{}, "Memory"), cmpopts.EquateNaNs()); diff != "" {
				t.Errorf("results differ (-flat +rows):\n%s", diff)
			}
		})
	}
}

// TestPairItemsInOneLine: an item of a flat per-pair table never straddles
// two cache lines (the tables are page-aligned and each item's size
// divides 64 B), and a relay store shares its line with its byte counts
// and the list of pulled flows (pullDest: storeRelayed reads store and
// storeLast, a relayed packet's second hop store and relayed, a pick the
// list's head and then own, as one miss).
func TestPairItemsInOneLine(t *testing.T) {
	const line = 64
	for name, size := range map[string]uintptr{
		"flowList": unsafe.Sizeof(flowList{}), "pullDest": unsafe.Sizeof(pullDest{}),
		"pullHop": unsafe.Sizeof(pullHop{}), "pairStat": unsafe.Sizeof(pairStat{}), "stagedTo": unsafe.Sizeof(int64(0)),
	} {
		if name != "pairStat" && line%size != 0 {
			t.Errorf("%s takes %d B, which does not divide a %d B line", name, size, line)
		}
	}
	if size := unsafe.Sizeof(pullDest{}); size != line {
		t.Errorf("pullDest takes %d B, not one %d B line", size, line)
	}
	var pd pullDest
	if end := unsafe.Offsetof(pd.pend) + unsafe.Sizeof(pd.pend); end > line {
		t.Errorf("pullDest's list of pulled flows ends at byte %d, outside its %d B line", end, line)
	}
}
