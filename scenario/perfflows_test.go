package scenario

import (
	"bytes"
	"os"
	"testing"

	"github.com/rdcn/rdcn/workload"
)

// TestPerfWorkloadFrozen checks that each performance configuration still
// generates the flows committed beside it (fabric/testdata/perf/a.flows and
// b.flows, in opera-sim/htsim's src dst bytes start_ns format): the
// benchmarked workload, exported so that other simulators can run it flow
// for flow, and fixed so that figures from different versions compare.
// A deliberate change to the generator must regenerate the files:
//
//	rdcn simulate --config fabric/testdata/perf/a-rotornet.toml -q -o /tmp/a && cp /tmp/a/workload.flows fabric/testdata/perf/a.flows
func TestPerfWorkloadFrozen(t *testing.T) {
	for _, c := range []struct{ config, flows string }{
		{"a-rotornet", "a"}, {"a-opera", "a"}, {"a-opera-operasim", "a"}, {"b-rotornet", "b"}, {"b-opera", "b"},
	} {
		setup := setupFromTOML(t, "../fabric/testdata/perf/"+c.config+".toml")
		var got bytes.Buffer
		if err := workload.WriteFlows(&got, setup.Flows); err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile("../fabric/testdata/perf/" + c.flows + ".flows")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: the generated workload (%d flows) differs from fabric/testdata/perf/%s.flows", c.config, len(setup.Flows), c.flows)
		}
	}
}
