package fabric_test

import (
	"testing"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
)

// TestCircuitTablesMatchPeers: up to circuitTableToRs ToRs upTo and nextTo
// are kept in tables per ToR pair, updated at every day and night; above,
// they are read from the uplinks' peers. The tables must agree with the
// peers for every pair, checked every few thousand events of a RotorNet
// and an Opera run (days, nights and slot changes on several switches).
func TestCircuitTablesMatchPeers(t *testing.T) {
	for _, kind := range []string{"rotornet", "opera"} {
		t.Run(kind, func(t *testing.T) {
			setup := buildSpec(t, "topology.tors=16", "topology.hosts_per_tor=2", "topology.uplinks=4",
				"schedule.kind="+kind, "schedule.slot=20us", "schedule.reconf=2us", "routing.mode=rotorlb",
				"transport.kind=pull", "workload.load=0.3", "run.sim_time=5ms", "workload.duration=5ms")
			cfg := setup.Config
			cfg.Flows = &fabric.SliceSource{Flows: setup.Flows}
			var sim *fabric.Sim
			checks := 0
			cfg.ProgressEvery = 101
			cfg.Progress = func(now rotor.Time, _ uint64) {
				checks++
				if a, b := sim.CircuitTablesAgree(); a >= 0 {
					t.Fatalf("at %v: the circuit tables of ToR pair %d→%d differ from the uplinks' peers", now, a, b)
				}
			}
			var err error
			if sim, err = fabric.NewSim(cfg); err != nil {
				t.Fatal(err)
			}
			if !sim.CircuitTables() {
				t.Fatal("a 16-ToR fabric keeps no circuit tables: nothing is compared")
			}
			if _, err := sim.Run(); err != nil {
				t.Fatal(err)
			}
			if checks < 100 {
				t.Fatalf("only %d checks", checks)
			}
		})
	}
}
