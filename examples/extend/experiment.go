package main

import (
	"github.com/rdcn/rdcn/experiment"
	"github.com/rdcn/rdcn/report"
)

// The experiment puts the three new components beside rdcn's own: the
// Harmonic policy against DT and LQD, Swift against DCTCP, the random
// rotor against RotorNet, websearch all-to-all on a rotor fabric with
// windowed flows.
func init() {
	experiment.Register(&experiment.Experiment{
		Name:  "extend-compare",
		Title: "Harmonic vs DT and LQD, Swift vs DCTCP, random-rotor vs RotorNet",
		Source: "examples/extend: Harmonic (\"Harmonic buffer management policy for shared memory switches\"), " +
			"Swift (\"Swift: Delay is Simple and Effective for Congestion Control in the Datacenter\") and random-permutation rotor matchings, " +
			"registered from outside rdcn; websearch all-to-all at 20 % load, windowed flows, rotorlb",
		Available: true,
		Spec: func(sc experiment.Scale) string {
			tors, simTime, seeds := "16", "20ms", "[1, 2, 3]"
			if sc.Quick {
				tors, simTime, seeds = "8", "20ms", "[1, 2]"
			}
			return `kind = "simulate"
seed = 1

[base]
"topology.tors" = ` + tors + `
"run.sim_time" = "` + simTime + `"
"workload.load" = 0.2
"transport.kind" = "window"
"routing.mode" = "rotorlb"

[axes]
seed = ` + seeds + `
"buffer.policy" = ["dt", "lqd", "harmonic"]
"transport.cc" = ["dctcp", "swift"]
"schedule.kind" = ["rotornet", "random-rotor"]
`
		},
		Plot: report.Info{Metrics: []string{"fct_p99_us.short", "fct_p99_us.long", "drop_rate"}},
	})
}
