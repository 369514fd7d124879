package fabric_test

import (
	"testing"

	"github.com/rdcn/rdcn/fabric"
)

// TestPushOutGivesBackHostTurn runs the rotor incast of the buffer
// configurations with LQD, which pushes packets out of the ToRs' host
// queues: each such packet had booked its turn on the ToR→host port, and
// that turn must be given back, not held with nothing to send while later
// packets wait behind it (a "phantom turn"). Complete sharing, which
// never pushes out, is the baseline: no phantom turns either way.
func TestPushOutGivesBackHostTurn(t *testing.T) {
	for _, policy := range []string{"cs", "lqd"} {
		setup := setupFromTOML(t, "../scenario/testdata/buffers/rotor-incast.toml",
			"buffer.policy="+policy, "workload.incast_bytes=100KB", "workload.incast_rate=400", "run.sim_time=20ms", "workload.duration=15ms", "run.check=true")
		sim, err := fabric.NewSim(setup.Config)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sim.Run(); err != nil {
			t.Fatal(err)
		}
		var pushed int64
		for _, tr := range sim.Switches() {
			pushed += tr.Switch().PushedOut
		}
		if policy == "lqd" && pushed == 0 {
			t.Fatalf("lqd pushed nothing out: the run tests nothing")
		}
		t.Logf("%s: %d pushed out, %d of them from host queues, %d phantom turns", policy, pushed, sim.HostPushOuts(), sim.PhantomTurns())
		if n := sim.PhantomTurns(); n != 0 {
			t.Errorf("%s (%d packets pushed out): %d ToR→host turns held the port with nothing to send", policy, pushed, n)
		}
	}
}
