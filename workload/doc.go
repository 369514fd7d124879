// Package workload makes the flows an emulated datacenter carries: flow-size
// distributions (the websearch, datamining and hadoop CDFs, CDF files,
// constant sizes), open-loop Poisson arrivals at a given load under a
// destination pattern, optional incast queries, and the htsim/opera-sim flow
// file format.
//
// A host offers Load × HostRate on average: it starts flows as a Poisson
// process of rate λ = Load·HostRate / (8·mean size) flows per second, each to
// a destination the Pattern picks. Generator streams the flows in start
// order with O(hosts) memory (a heap holding each host's next arrival) and
// no allocation per flow, so a run of millions of flows need not hold them
// all; Generate collects them into a slice.
//
//	sizes, _ := workload.Sizes("websearch")
//	g, err := workload.NewGenerator(workload.Config{
//		Hosts: 64, HostsPerTor: 4, HostRate: 100 * rotor.Gbps, Load: 0.4,
//		Sizes: sizes, Pattern: "all-to-all", Duration: 10 * rotor.Millisecond,
//	}, rand.New(rand.NewPCG(seed, 0)))
//	for f, ok := g.Next(); ok; f, ok = g.Next() { … }
//
// A CDF is read as piecewise linear: the first point is an atom, sizes are
// uniform between consecutive points, and Mean is that distribution's exact
// mean (see CDF). docs/workloads.md lists the decisions (intra-rack flows,
// hose normalisation of "matrix", incast) and measured performance.
//
// # Registering sizes and patterns
//
// RegisterSizes adds a named flow-size distribution (a SizeSpec whose New
// returns a SizeDist with a finite mean of at least one byte), and
// RegisterPattern a traffic pattern (a PatternSpec whose New returns, for
// the number of ToRs, a Pattern choosing each flow's destination ToR,
// never the source; it may draw from the workload's seeded *rand.Rand).
// Call them from init functions; workload.sizes and workload.pattern then
// accept the names. A duplicate name, or a registration after the
// registry has been read (a run has started), panics with the name.
package workload
