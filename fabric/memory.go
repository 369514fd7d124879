package fabric

import (
	"unsafe"

	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// Memory a run takes, by what it keeps (peak resident set of rdcn
// simulate, garbage collector's headroom included), fitted to RotorNet
// (`/usr/bin/time -f %M rdcn simulate --set topology.tors=N --set
// topology.uplinks=4 --set run.sim_time=T`, N = 512, 1024, T = 1 ms and
// 10 ms, and 2,048 ToRs of 1 host with 8 uplinks; docs/perf-history.md,
// issue 26). What a ToR keeps per other ToR (pull lists, relay stores,
// their byte counts, circuit pair statistics) is a flat table of n² items
// up to flatPairToRs ToRs, resident from the start on transparent huge
// pages (the first use of a pair makes 2 MiB of its table resident), else
// page by page as pairs are used; above, it exists only for the ToRs a
// ToR has used (pairTable's rows, and its VOQ ports above
// tor.DenseToRs), so it grows with the circuits a ToR has met, not n².
const (
	// memoryBase: the process, tables and event queue of a small run.
	memoryBase = 22 << 20
	// memoryPerToRPair: what is kept for every ordered pair of ToRs at
	// any size: the schedule's matchings (an int a ToR a slot).
	memoryPerToRPair = 8
	// memoryPerToRPairDirect: up to flatPairToRs ToRs, the direct table
	// of each ToR's VOQ index (des.IndexDirect ≥ flatPairToRs), 4 B a
	// pair; above, the indexes are hash tables of the keys in use.
	memoryPerToRPairDirect = 4
	// memoryPerMetPairFlat: up to flatPairToRs ToRs without transparent
	// huge pages, the 4 KiB pages of the flat per-pair tables that a pair
	// of a ToR and a ToR its circuits met makes resident (fitted to the
	// 1 ms runs: 1.1 kB; a page holds 64 pull lists of a row, and the
	// pairs used early are spread over it), at most the tables' whole
	// size (flatPairBytes a pair).
	memoryPerMetPairFlat = 1100
	// memoryPerMetPairHost: above flatPairToRs, per pair of a ToR and a
	// ToR its circuits met (uplinks × slots elapsed, at most n), per host
	// of the ToR: its VOQ port, pull lists and their rings, relay store
	// and pair statistics, which a ToR creates as its hosts' flows and
	// relayed packets use them (fitted: 56 B a met pair per host).
	memoryPerMetPairHost = 56
	// memoryPerFlow: a flow as read or generated, its result record and
	// its share of the sender state (172 B measured).
	memoryPerFlow = 180
	// memoryPerPacket: a packet in flight, on average: one on a wire or
	// in a queue is its pool slot and the queue entries pointing at it
	// (79–86 B measured), a relayed packet its relay store keeps is a
	// 32 B entry (storedPkt) in a ring grown by doubling; fitted to the
	// 512-ToR 10 ms run (peak RSS 156 → 133 MB when stores kept entries
	// instead of packets). The pull transport makes a flow's packets
	// when its ToR pulls them, so the packets alive are the offered
	// bytes not yet delivered.
	memoryPerPacket = 64
)

// flatPairBytes is the size of one pair's items in the flat per-pair
// tables (128 B).
const flatPairBytes = unsafe.Sizeof(pullDest{}) + unsafe.Sizeof(pullHop{}) +
	unsafe.Sizeof(pairStat{}) + unsafe.Sizeof(int64(0))

// memoryInFlight is the share of the offered packets alive at the end of a
// run of simTime: 17 % and 13 % measured after 1 ms, 55 % and 41 % after
// 10 ms (1,024 and 512 ToRs); the larger is used and held after 10 ms.
func memoryInFlight(simTime rotor.Time) float64 {
	return ramp(simTime, rotor.Millisecond, 10*rotor.Millisecond, 0.15, 0.55)
}

// metPairs is the number of (ToR, ToR its circuits met) pairs after
// simTime: U circuits a slot, at most n − 1 ToRs each.
func (c *Config) metPairs(n float64) float64 {
	if c.Schedule == nil || c.Schedule.Slot <= 0 {
		return n * n
	}
	met := float64(c.Schedule.Switches) * float64(c.SimTime) / float64(c.Schedule.Slot)
	return n * min(n-1, met)
}

// ramp is y0 up to x0, y1 from x1, linear in between.
func ramp(x, x0, x1 rotor.Time, y0, y1 float64) float64 {
	switch {
	case x <= x0:
		return y0
	case x >= x1:
		return y1
	}
	return y0 + (y1-y0)*float64(x-x0)/float64(x1-x0)
}

// MemoryEstimate is the memory, in bytes, that a run of c with flows needs
// at its peak, from its sizes alone (ToRs, hosts, uplinks, slot, flows and
// their bytes, run.sim_time), so that a front end can refuse a run the
// machine cannot hold before it starts. It is meant to be within about
// 30 % above the measured peak for the rotor fabric from 1 ms to 10 ms
// (TestSimulateMemoryEstimate); it is the same formula for a leaf-spine,
// whose per-pair state is smaller. Without flows (nil) it is the fabric's
// memory alone.
func (c *Config) MemoryEstimate(flows []workload.Flow) int64 {
	n := float64(c.Leaves())
	mtu := int64(max(c.MTU, 1))
	var packets int64
	for _, f := range flows {
		packets += (f.Bytes + mtu - 1) / mtu
	}
	perPair := float64(memoryPerToRPair)
	met := memoryPerMetPairHost * float64(max(c.HostsPerToR, 1)) * c.metPairs(n)
	if n <= flatPairToRs { // the flat tables hold what a met pair adds above
		perPair += memoryPerToRPairDirect
		met = float64(flatPairBytes) * n * n
		if !des.HugePagesOn() {
			met = min(memoryPerMetPairFlat*c.metPairs(n), met)
		}
	}
	est := memoryBase + perPair*n*n + met +
		memoryPerFlow*float64(len(flows)) + memoryPerPacket*memoryInFlight(c.SimTime)*float64(packets)
	return int64(est)
}
