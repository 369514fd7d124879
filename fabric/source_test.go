package fabric_test

import (
	"errors"
	"testing"

	"github.com/rdcn/rdcn/fabric"
)

// TestRoutingSourceRefused: routing.source = nic is read only with
// routing.mode = paths (its next-hop table) and NDP; elsewhere the run is
// refused naming the key.
func TestRoutingSourceRefused(t *testing.T) {
	for name, set := range map[string]func(*fabric.Config){
		"vlb-paths": func(c *fabric.Config) { c.Routing = fabric.VLBPaths },
		"window":    func(c *fabric.Config) { c.Transport = fabric.Windowed },
		"ksp":       func(c *fabric.Config) { c.PathsK, c.Multipath = 2, "ksp" },
	} {
		setup := setupFromTOML(t, "testdata/perf/a-opera-operasim.toml", "topology.tors=16",
			"run.sim_time=4ms", "workload.duration=3ms", "workload.load=0.4")
		cfg := setup.Config
		cfg.Flows = &fabric.SliceSource{Flows: setup.Flows}
		cfg.RoutingSource = fabric.RoutingSourceNIC
		set(&cfg)
		_, err := fabric.Run(cfg)
		var ce *fabric.ConfigError
		if !errors.As(err, &ce) || ce.Field != "routing.source" {
			t.Errorf("%s: error %v, want one naming routing.source", name, err)
		}
	}
}

// TestRoutingSourceNIC: Opera with NDP as opera-sim runs it, on 16 ToRs,
// with the packets' slices fixed at their NICs and opera-sim's guard:
// run.check verifies the byte balance (packets moved off dark circuits
// keep their bytes) and the flows finish.
func TestRoutingSourceNIC(t *testing.T) {
	run := func(keys ...string) *fabric.Result { return runOperaSim16(t, keys...) }
	done := func(r *fabric.Result) (n int) {
		for _, f := range r.Flows {
			if f.Done {
				n++
			}
		}
		return n
	}
	hop, nic := run(), run("routing.source=nic", "routing.guard=45us")
	t.Logf("hop: %d flows done, dark %+v; nic + guard: %d, dark %+v", done(hop), *hop.NDPDark, done(nic), *nic.NDPDark)
	if done(nic) < len(nic.Flows)/2 {
		t.Errorf("nic + guard: %d of %d flows done", done(nic), len(nic.Flows))
	}
}
