// Package routing decides where a packet goes next in a circuit fabric: at
// a ToR, at a given time, with the circuits the schedule has up then. The
// emulator (package fabric) asks a Router for every packet that reaches a
// ToR it is not destined to; the router answers with the ToR whose circuit
// the packet waits for (its VOQ), and may note in the packet an
// intermediate ToR (Via) or a source route (Route).
//
// # Epochs
//
// A rotor schedule repeats every cycle, and between two changes of any
// switch (a slot starts, a night starts) the set of circuits up is fixed.
// Those intervals are the epochs (Epochs, from rotor's SlotAt); every
// table here holds one entry per epoch and ToR pair, and learns an epoch's
// circuits once, from rotor's AppendCircuitsAt in its middle. A look-up
// at time t is a binary search for t's epoch and an array index: no
// allocation, no search of the schedule.
//
// With a guard δ (Setup.Guard, routing.guard; PathTable.SetGuard) the
// next-hop table is read one epoch early during the last δ before a
// night: new hops then avoid the circuit about to go dark, as Opera's
// guard does. The night's circuits are a subset of the day's, so those
// hops are up now.
//
// With Setup.Source = SourceNIC (routing.source = nic) the paths router
// is a Stamper: the engine stamps each packet as it leaves its NIC with
// the epoch it reads (Route; PathTable.Slice, guard included) and every
// ToR looks up that epoch's next hop (PickIn), as opera-sim's source
// routes fix a packet's path at its NIC. A packet with no stamp is
// stamped where it is first routed.
//
// # Modes
//
// Modes is the table of modes (the simulator's routing.mode registry):
//
//   - direct: wait at the source ToR for a circuit to the destination ToR.
//     One circuit hop; a pair the schedule never connects is never served.
//   - rotorlb: direct, plus RotorNet's RotorLB: an uplink with spare
//     capacity carries traffic for another destination to the ToR it
//     reaches now, which relays it on its own circuit later (two hops at
//     most). The router answers as direct; the relaying is the engine's,
//     because it is a decision about capacity taken when an uplink picks a
//     packet (and, with the pull transport, when a ToR pulls packets from
//     its hosts), not about paths: it stays with the transport in fabric.
//   - vlb: Valiant load balancing in time. At the source the packet goes to
//     the ToR one of the uplinks reaches now (rotating over the uplinks; a
//     random ToR if none is up), then directly to its destination.
//   - paths: Opera. Low-latency packets follow shortest paths over the
//     circuits up in the current epoch (an expander slice), in the
//     high-priority class; when the circuit a packet waits for goes down it
//     is routed again in the new epoch. If the current epoch does not
//     connect the pair, the packet waits for the first later epoch that
//     does. Bulk flows (at least routing.bulk) go direct (and RotorLB
//     relays them). With routing.paths_k = k > 1 a flow hash spreads flows
//     over up to k next hops on equal-cost shortest paths (multipath ecmp;
//     multipath spray draws them per packet instead),
//     or over the k shortest loopless paths of the epoch (multipath ksp,
//     Yen's algorithm; unequal cost; the packet is source-routed and keeps
//     its path while its next circuit stays up).
//   - vlb-paths: Valiant over paths: to a uniformly random intermediate
//     ToR (neither source nor destination) over shortest paths, then to the
//     destination. For static graphs, where shortest paths alone
//     concentrate load.
//   - vlb-slice: Valiant load balancing as RotorNet sprays it, on the
//     slices of a multi-hop schedule (Mars as the thesis routes it, §7.5):
//     at its source a packet takes any circuit up now (each circuit equally
//     likely; during a night of every switch, one of the next slice's),
//     then shortest paths of the current slice, each hop drawn uniformly
//     per packet among the equal-cost next hops. Packets wait in the
//     transit class and are routed again when their circuit goes down (at
//     the source: a new first hop).
//   - earliest: the temporal path that reaches the destination first,
//     waiting at ToRs for later circuits: a backward dynamic program over
//     the epochs (three cycles unrolled), ties to fewer hops, then the
//     smaller next-hop id. A packet waits in the VOQ of the circuit it
//     will take.
//   - hybrid: at the source, a circuit to the destination if one is up
//     now, else the electrical packet switch beside the circuits.
//   - ecmp: the leaf-spine's routing. The next hop is the destination leaf,
//     through any spine; ECMPRouter.Hash spreads flows over the equal-cost
//     links (splitmix64 of flow, switch and a seed drawn per run).
//
// # Decisions where the papers were silent
//
//   - Multipath choices hash (flow, ToR), so a flow keeps its next hop
//     within an epoch and packets of one flow stay in order there.
//   - The tables are bounded (MaxTableEntries: about 256 ToRs × 1000
//     epochs); a larger one is refused when the router is built, with the
//     key to change. The k-shortest-path table computes paths on first use
//     and keeps them in a bounded cache; a path reference names (epoch,
//     source, destination, index), so it survives eviction.
//   - A source-routed packet that has taken KSPHopLimit hops is dropped
//     (HopLimiter): a guard against loops across re-routings.
//
// Dependencies go one way: routing reads rotor (schedules) and packet (the
// packet's destination, Via and Route); the engine reads routing.
//
// # Registering a mode
//
// Register adds a routing mode from outside this package, in an init
// function: a Mode with a unique Name, a one-line Doc, the configuration
// keys it reads (Reads, already known keys such as routing.paths_k), what
// of the Setup it Needs (New refuses a Setup lacking it) and New, which
// builds the Router. Next runs per packet at every ToR: it must not
// allocate. The name becomes a value of routing.mode. The engine treats a
// registered mode as a plain hop-by-hop router: RotorLB's relaying and
// the bulk flows of paths stay with those modes, and the base RTT counts
// two circuit hops, as for vlb. A duplicate name, or a Register after the
// registry has been read (a run has started), panics with the name.
//
// # Engine-facing names
//
// ECMPRouter (the leaf-spine reads its Hash to pick a link), PathCacher
// and PathCacheStats (the k-shortest-path cache's counters in a run's
// summary) and MaxTableEntries (the fabric refuses a design whose tables
// would exceed it) are exported for the fabric. A registered mode needs
// none of them; they may change while rdcn is v0.
package routing
