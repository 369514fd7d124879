package fabric

// Memory a run takes, by what it keeps (peak resident set of rdcn
// simulate, garbage collector's headroom included), measured on RotorNet
// with 4 uplinks and 4 hosts per ToR for 1 ms
// (`/usr/bin/time -f %M rdcn simulate --set topology.tors=N --set
// topology.uplinks=4 --set run.sim_time=1ms`): 175 MB at 1024 ToRs, 538 MB
// at 2048, 1.77 GB at 4096 (issue 25); 16 hosts per ToR add 59 MB at 1024
// ToRs; a file of 10⁶ flows adds 172 MB.
const (
	// memoryBase: the process, tables and event queue of a small run.
	memoryBase = 30 << 20
	// memoryPerToRPair: state kept per ordered pair of ToRs: the VOQs
	// (a ring and its counters per destination at every ToR), the pull
	// and relay queues and counters, the pair's next circuit and the
	// schedule's matchings. 100–130 B measured; the larger is used.
	memoryPerToRPair = 128
	// memoryPerHost: a host's NIC port, its flows' send state and
	// reassembly, and its queues at the ToR (4.8 kB measured).
	memoryPerHost = 5 << 10
	// memoryPerFlow: a flow as read or generated, its result record and
	// its share of the sender state (172 B measured).
	memoryPerFlow = 180
)

// MemoryEstimate is the memory, in bytes, that a run of c with flows
// flows needs at its peak, from its sizes alone (ToRs, hosts, flows), so
// that a front end can refuse a run the machine cannot hold before it
// starts. It is meant to be an upper bound within about 25 % for the
// rotor fabric (tested against the measured peak) and is the same formula
// for a leaf-spine, whose per-pair state is smaller.
func (c *Config) MemoryEstimate(flows int) int64 {
	n := int64(c.Leaves())
	hosts := n * int64(max(c.HostsPerToR, 1))
	return memoryBase + memoryPerToRPair*n*n + memoryPerHost*hosts + memoryPerFlow*int64(flows)
}
