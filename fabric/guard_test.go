package fabric_test

import (
	"testing"

	"github.com/rdcn/rdcn/fabric"
)

// TestRoutingGuardNoDarkTrims: Opera with NDP as opera-sim runs it, on 16
// ToRs. Without routing.guard packets are still queued for a circuit when
// its rotor goes dark, and the ToRs trim or move them (ndp_dark). With
// opera-sim's guard of 45 µs (half the 90 µs day) packets take the
// night's paths 45 µs before it, while a port's queue (8 packets of
// 1 500 B at 10 Gb/s: 9.6 µs, plus headers) drains long before that: no
// packet is queued for a dark circuit. run.check verifies the byte balance.
func TestRoutingGuardNoDarkTrims(t *testing.T) {
	run := func(keys ...string) *fabric.Result { return runOperaSim16(t, keys...) }
	plain, guarded := run(), run("routing.guard=45us")
	if d := plain.NDPDark; d == nil || d.Trimmed+d.Moved == 0 {
		t.Fatalf("no guard: dark stats %+v: want packets trimmed or moved at dark circuits (the run tests nothing)", d)
	}
	if d := guarded.NDPDark; d == nil || d.Trimmed != 0 || d.Moved != 0 || d.Parked != 0 {
		t.Errorf("guard 45us: dark stats %+v: want no packet at a dark circuit", d)
	}
	done := func(r *fabric.Result) (n int) {
		for _, f := range r.Flows {
			if f.Done {
				n++
			}
		}
		return n
	}
	t.Logf("no guard: %+v, %d flows done; guard 45us: %+v, %d flows done", *plain.NDPDark, done(plain), *guarded.NDPDark, done(guarded))
	if done(guarded) == 0 {
		t.Error("guard 45us: no flow done")
	}
}

// runOperaSim16 runs the opera-sim NDP comparison file shrunk to 16 ToRs
// and 4 ms (3 ms of arrivals at 40 % load) under run.check, with keys set.
func runOperaSim16(t *testing.T, keys ...string) *fabric.Result {
	t.Helper()
	r, err := fabric.Run(configFromTOML(t, "testdata/perf/a-opera-operasim.toml", append([]string{"topology.tors=16",
		"run.sim_time=4ms", "workload.duration=3ms", "workload.load=0.4", "run.check=true"}, keys...)...))
	if err != nil {
		t.Fatal(err)
	}
	return r
}
