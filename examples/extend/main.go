// Command extend is rdcn with three components registered from outside
// its module: the Harmonic buffer policy (Kesselman and Mansour, "Harmonic
// buffer management policy for shared memory switches"), Swift's
// delay-target congestion-control law (Kumar et al., "Swift: Delay is
// Simple and Effective for Congestion Control in the Datacenter") and a
// schedule of random-permutation rotor matchings, plus the experiment
// extend-compare that runs them beside rdcn's own.
//
//	go run . simulate --set buffer.policy=harmonic --set transport.cc=swift
//	go run . experiment run --quick -o out extend-compare
//
// Each component registers itself in an init function (harmonic.go,
// swift.go, randrotor.go, experiment.go); main hands over to rdcn's
// command line, which then lists, validates, sweeps and reports them as
// its own.
package main

import (
	"os"

	"github.com/rdcn/rdcn/cmd/rdcn/app"
)

func main() { os.Exit(app.Main(os.Args)) }
