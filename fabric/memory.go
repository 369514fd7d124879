package fabric

import (
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// Memory a run takes, by what it keeps (peak resident set of rdcn
// simulate, garbage collector's headroom included), fitted to RotorNet with
// 4 uplinks and 4 hosts per ToR (`/usr/bin/time -f %M rdcn simulate --set
// topology.tors=N --set topology.uplinks=4 --set run.sim_time=T`, N = 256,
// 512, 1024, T = 1 ms and 10 ms; docs/perf-history.md, issue 26).
const (
	// memoryBase: the process, tables and event queue of a small run.
	memoryBase = 30 << 20
	// memoryPerToRPair*: state kept per ordered pair of ToRs: the VOQs
	// (a ring and its counters per destination at every ToR), the pull
	// and relay queues and counters, the pair's circuit statistics and
	// the schedule's matchings, about 350 B of heap a pair. It is
	// allocated at the start and its pages become resident as pairs are
	// used: 110–130 B a pair after 1 ms, about 215 B after 10 ms, all of it
	// after about 50 ms (1,024 ToRs).
	memoryPerToRPair1ms  = 128
	memoryPerToRPair10ms = 220
	memoryPerToRPairHeap = 350
	// memoryPerHost: a host's NIC port, its flows' send state and
	// reassembly, and its queues at the ToR (4.8 kB measured).
	memoryPerHost = 5 << 10
	// memoryPerFlow: a flow as read or generated, its result record and
	// its share of the sender state (172 B measured).
	memoryPerFlow = 180
	// memoryPerPacket: a packet in flight (its pool slot and the queue
	// entries pointing at it), 79–86 B measured; the pull transport makes
	// a flow's packets when its ToR pulls them, so the packets alive are
	// the offered bytes not yet delivered.
	memoryPerPacket = 80
)

// memoryInFlight is the share of the offered packets alive at the end of a
// run of simTime: 17 % and 13 % measured after 1 ms, 55 % and 41 % after
// 10 ms (1,024 and 512 ToRs); the larger is used and held after 10 ms.
func memoryInFlight(simTime rotor.Time) float64 {
	return ramp(simTime, rotor.Millisecond, 10*rotor.Millisecond, 0.15, 0.55)
}

// memoryPerPair is the resident bytes per ToR pair after simTime.
func memoryPerPair(simTime rotor.Time) float64 {
	if simTime <= 10*rotor.Millisecond {
		return ramp(simTime, rotor.Millisecond, 10*rotor.Millisecond, memoryPerToRPair1ms, memoryPerToRPair10ms)
	}
	return ramp(simTime, 10*rotor.Millisecond, 50*rotor.Millisecond, memoryPerToRPair10ms, memoryPerToRPairHeap)
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
// at its peak, from its sizes alone (ToRs, hosts, flows and their bytes,
// run.sim_time), so that a front end can refuse a run the machine cannot
// hold before it starts. It is meant to be within about 30 % above the
// measured peak for the rotor fabric from 1 ms to 10 ms
// (TestSimulateMemoryEstimate) and an upper bound for longer runs; it is
// the same formula for a leaf-spine, whose per-pair state is smaller.
// Without flows (nil) it is the fabric's memory alone.
func (c *Config) MemoryEstimate(flows []workload.Flow) int64 {
	n := float64(c.Leaves())
	hosts := n * float64(max(c.HostsPerToR, 1))
	mtu := int64(max(c.MTU, 1))
	var packets int64
	for _, f := range flows {
		packets += (f.Bytes + mtu - 1) / mtu
	}
	est := memoryBase + memoryPerPair(c.SimTime)*n*n + memoryPerHost*hosts +
		memoryPerFlow*float64(len(flows)) + memoryPerPacket*memoryInFlight(c.SimTime)*float64(packets)
	return int64(est)
}
