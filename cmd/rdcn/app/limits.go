package app

import (
	"fmt"
	"strconv"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/internal/limits"
	"github.com/rdcn/rdcn/internal/memlimit"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/scenario"
)

// maxTors caps --tors. The commands build dense n×n demand matrices,
// capacity matrices and schedules of about n² entries (8 bytes each: 512 MiB
// at n = 8192), so a larger n would exhaust memory rather than fail cleanly.
// The library packages take any n the machine can hold.
const maxTors = limits.MaxTors

// checkTors checks --tors: at least 2 and at most maxTors; 0 is accepted when
// zeroOK (the size then comes from a file).
func checkTors(n int, zeroOK bool) error {
	switch {
	case n == 0 && zeroOK:
		return nil
	case n < 2:
		return badInput("tors", "%d, want at least 2", n)
	case n > maxTors:
		return badInput("tors", "%d exceeds the CLI's limit of %d ToRs (dense n×n matrices)", n, maxTors)
	}
	return nil
}

// checkUplinks checks --uplinks: at least 1 and at most maxTors (a ToR has
// fewer uplinks than there are ToRs in every design this tool builds).
func checkUplinks(u int) error {
	if u < 1 || u > maxTors {
		return badInput("uplinks", "%d, want 1 to %d", u, maxTors)
	}
	return nil
}

// parseSize reads a buffer size; "pkt" counts DefaultMTU-byte packets.
func parseSize(s string) (rotor.Bytes, error) { return rotor.ParseSize(s, rotor.DefaultMTU) }

// availableMemory is the memory the process may still allocate (a test
// replaces it with a small fake limit).
var availableMemory = memlimit.Available

// checkMemory refuses, as bad input, a job whose estimated memory exceeds
// what the machine (or the cgroup) has left: one line with the estimate and
// the limit, instead of an out-of-memory crash halfway through. Without a
// known limit it passes.
func checkMemory(what string, estimate int64) error {
	limit, ok := availableMemory()
	if !ok || estimate <= limit.Bytes {
		return nil
	}
	return badInput("memory", "%s needs about %s (estimated from the sizes), more than the %s available (%s); use fewer ToRs, samples or workers",
		what, gigabytes(estimate), gigabytes(limit.Bytes), limit.Source)
}

// checkSpecMemory is checkSimulateMemory before the build, from the keys
// alone (ToRs or leaves and hosts per ToR, no flows yet): a run whose
// fabric alone exceeds the memory left is refused before its schedule and
// workload are built. A schedule file's size is known only once read.
func checkSpecMemory(spec *scenario.Spec, force bool) error {
	if force || spec.Get("schedule.file") != "" {
		return nil
	}
	key := "topology.tors"
	if spec.Get("topology.kind") == fabric.TopologyLeafSpine {
		key = "topology.leaves"
	}
	n, err1 := strconv.Atoi(spec.Get(key))
	h, err2 := strconv.Atoi(spec.Get("topology.hosts_per_tor"))
	if err1 != nil || err2 != nil || n < 1 || h < 1 || n > fabric.MaxToRs || h > fabric.MaxHosts || n*h > fabric.MaxHosts {
		return nil // Build names the key
	}
	cfg := fabric.Config{HostsPerToR: h, LeafSpine: &fabric.LeafSpine{Leaves: n}}
	return refuseMemory(cfg.MemoryEstimate(nil), fmt.Sprintf("%d ToRs and %d hosts, before the flows", n, n*h))
}

// checkSimulateMemory refuses, as bad input, a run whose memory estimate
// (fabric.Config.MemoryEstimate: ToRs, hosts, flows) exceeds what the
// process may still allocate, unless force (simulate --force).
func checkSimulateMemory(setup *scenario.Setup, force bool) error {
	if force {
		return nil
	}
	cfg := setup.Config
	return refuseMemory(cfg.MemoryEstimate(setup.Flows),
		fmt.Sprintf("%d ToRs, %d hosts and %d flows", cfg.Leaves(), cfg.Leaves()*cfg.HostsPerToR, len(setup.Flows)))
}

// refuseMemory is the refusal of a simulate run whose estimate (from
// what says) exceeds the memory left.
func refuseMemory(est int64, from string) error {
	limit, ok := availableMemory()
	if !ok || est <= limit.Bytes {
		return nil
	}
	return badInput("memory", "the run needs about %s (estimated from %s), more than the %s available (%s); use fewer ToRs or flows, or --force to run anyway",
		gigabytes(est), from, gigabytes(limit.Bytes), limit.Source)
}

// gigabytes prints a byte count in GB (10^9) with one decimal, or in MB
// below 1 GB.
func gigabytes(b int64) string {
	if b < 1e9 {
		return fmt.Sprintf("%.0f MB", float64(b)/1e6)
	}
	return fmt.Sprintf("%.1f GB", float64(b)/1e9)
}
