package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/emulated"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

func main() {
	kind := flag.String("kind", "rotornet", "")
	n := flag.Int("n", 1024, "")
	u := flag.Int("u", 4, "")
	deg := flag.Int("d", 32, "")
	dem := flag.String("demand", "permutation", "")
	limit := flag.Duration("limit", 60*time.Second, "")
	prof := flag.String("prof", "", "")
	gap := flag.Float64("gap", 1e-2, "")
	flag.Parse()
	s, err := schedules.Build(*kind, schedules.Params{Nodes: *n, Uplinks: *u, SelfSlot: true, Degree: *deg, Seed: 1, Tries: 4, Slot: 100 * rotor.Microsecond})
	if err != nil {
		panic(err)
	}
	g, err := emulated.FromSchedule(s, 400*rotor.Gbps)
	if err != nil {
		panic(err)
	}
	var d demand.Matrix
	if *dem == "worst" {
		d, err = emulated.WorstCaseDemand(g)
	} else {
		d, err = demand.Parse(*dem, *n)
	}
	if err != nil {
		panic(err)
	}
	if *prof != "" {
		f, _ := os.Create(*prof)
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	ctx, cancel := context.WithTimeout(context.Background(), *limit)
	defer cancel()
	t0 := time.Now()
	r, err := emulated.Throughput(g, d, &emulated.Options{Gap: *gap, Context: ctx, Progress: func(p emulated.Progress) {
		fmt.Printf("%6.1fs it %d [%.6f %.6f] gap %.3e\n", time.Since(t0).Seconds(), p.Iteration, p.Lower, p.Upper, p.Gap)
	}})
	if err != nil {
		panic(err)
	}
	fmt.Printf("done %.1fs: [%v %v] gap %v iters %d interrupted %v\n", time.Since(t0).Seconds(), r.Lower, r.Upper, r.Gap, r.Iterations, r.Interrupted)
}
