// Package fabric is rdcn's packet-level emulator of a reconfigurable
// datacenter network: n ToRs with H hosts each, U rotor circuit switches
// that play a rotor.Schedule (day: circuits carry packets; night:
// reconfiguration, nothing crosses), an optional electrical packet switch,
// hosts running the transports of package cc, and ToRs from package tor.
// Beside it runs a leaf-spine (Config.LeafSpine): leaves (the ToRs) and
// spines, all tor shared-buffer switches, joined by parallel links, with
// ECMP by flow hash (leafspine.go). Packets are package packet's.
//
// Files by component: run.go (the loop and its one dispatch), port.go
// (the port: every link — circuit uplink, ToR→host port, packet-switch
// port, leaf and spine port, host NIC — picks what it sends next,
// serialises and propagates to its peer; one global id per port, one
// event kind for all switch ports), circuits.go (days, nights, and how a circuit
// uplink picks: VOQs or pulled packets toward its slot's peer, by day
// only), switch.go (ToR queues, how a rotor ToR's host port picks: turns
// booked ahead), hosts.go (flows, timers, and how a NIC picks: replies
// first, then the flows' cc ends in round robin, paced), pull.go (the ToRs' side of host buffering), routing.go
// (asks package routing's Router for next hops), leafspine.go, buffer.go
// (every switch's tor.Switch and its buffer policy, NamedPolicy from
// package tor's registry, circuit day and night for the rotor ToRs' VOQ
// ports, run.check's recount of the switches), config.go (Config, its
// Default* constants, defaults and validation), registry.go (the
// registries of the choices a Config names), credence.go (Credence's built-in model, LQD traces and
// training: CredenceTraces, TrainCredence), ccwire.go (the
// congestion-control law of the windowed flows and what the fabric
// provides for it: INT, ECN marks, reTCP's circuit ECE), voq.go
// (hybrid-voq and reTCP's VOQ prebuffering), circuitstats.go (circuit
// utilisation on days with demand, queueing latency, the watched pair),
// ndp.go (the NDP transport's fabric side: trimming, pull pacing), pfc.go
// (priority flow control on the leaf-spine: Config.Lossless classes, pause
// and resume frames that cross links and stop the upstream port's class or
// the host's NIC, headroom, PFCStats), flowsetup.go (per-class initial
// windows, send jitter), handshake.go (how a windowed flow opens its
// connection: none, an idle round trip, or SYN packets in the queues).
//
// The base RTT is one number per fabric (Config.baseRTT), read by every
// consumer: the largest round trip, on an idle fabric, of a full-size data
// packet and its ACK,
//
//	RTT = Σ over the links l of the path (MTU/b_l + ACK/b_l + 2·d_l)
//
// for link rates b_l and propagation delays d_l; the path is host link,
// circuit (two circuits under vlb, rotorlb and the multi-hop modes; the
// packet switch's two links if longer), host link on a rotor fabric, and
// host, leaf–spine, spine–leaf, host on a leaf-spine. Waiting for a
// circuit is not part of it. It is what each consumer's paper means by
// the base RTT: the PowerTCP and HPCC τ (the network's largest base RTT;
// plus one schedule cycle where the routing waits for a pair's circuit on
// a rotor without a packet switch: Config.lawRTT),
// ABM's update period and first-RTT (unscheduled) bytes = host rate × RTT,
// Credence's feature averaging window, IB's AFD reference queue (one BDP),
// and NDP's first window, one BDP of the host link = ⌈host rate × RTT /
// MTU⌉ packets: the data the sender must have out before the first ACK or
// PULL can return. An MTU packet both ways over one circuit is not it:
// the ACK is transport.ack_size bytes, and two-hop routings' paths are
// longer. The Pull transport's staging depth reads a different quantity
// under its own name, the pull latency (a ToR's request down to a host and
// its packet back up), not the base RTT.
//
// Decisions where the congestion-control issue was silent (docs/cc.md has
// the user's view): τ defaults to the base RTT above; reTCP's ECE is set by the ToR
// delivering the ACK; hybrid-voq gives ACKs strict priority in VOQs and
// packet-switch ports; a circuit day carries demand if a flow of its pair
// is active when it starts; queueing latency is one-way delay minus the
// idle path's delay; fast retransmit (transport.dupthresh) is on by
// default on a leaf-spine and off with circuits, because rotor fabrics
// reorder.
//
// The core is htsim-like and allocation-free on the hot path: one event
// queue (internal/des) of plain values dispatched by kind, with the ports'
// wake-ups as timers beside it (des.Timers: the circuit uplinks' on the
// rotor fabric, every port's on the leaf-spine), packets as int32 indices into
// a pool, VOQs as int32 ring buffers. Circuits are driven by
// two events per switch per slot (day start, night start), each touching
// that switch's n ports. Ports free at one instant act in the order of
// their global ids: circuit uplinks, then the rotor ToRs' host ports,
// then the others (a decision the engine issue left open; port.go).
// The NICs' events (done, pacing wake-up) stay the hosts' queue events: one
// timer per host beside the ports' measured no faster on PowerTCP's
// leaf-spine run and 1 % slower on (a) RotorNet (a bigger timer tree).
//
// # Hosts and transports
//
// Every transport's flow ends are package cc's: a cc.Source (windowed
// cc.Sender with its law, line rate, cc.NDP, or the pulled flows'
// cc.PulledSource) and a cc.Sink (cc.Receiver), made by the cc transport
// registry's entry (cc.Transports) that transport.kind names; the
// Transports registry here is cc's, plus what the fabric adds (the pull
// and NDP ToR sides, transport.acks). A transport registered with
// cc.RegisterTransport runs as window and linerate do at the switches
// (no pulling, no trimming; package cc's doc, "Registering a
// transport"). The hosts drive the ends through
// these two interfaces only (hosts.go): a free NIC sends a waiting reply
// first, then asks the flows' sources for segments in turn (round robin,
// honouring each Source's Rate; NDP: the flows with credit); a data packet
// reaching its host goes to the flow's Sink, which counts it and turns it
// into its ACK (or an NDP header into its NACK) in place, and says whether
// the receiving host's pull pacer owes the flow a PULL; the fabric only
// routes what it is handed back (it sets the reply's DstToR). A reply goes
// to the Source with the INT records of its data packet (the ACK keeps the
// data path's records; switches do not stamp replies). Each flow has one
// timer event at its Source's Timer. Between calls into a Source, a NIC
// keeps whether it may send (CanSend) and whether it is done, so it can
// pass over window-limited flows without touching them: a Source, and
// the law of a windowed one, must change only when called (a law of its
// own per flow). Circuit day/night reaches the
// windowed flows' laws through Source.OnCircuit (notify.go). A pulled
// flow's host side (which segment goes next, what is left) is its
// PulledSource, asked by its ToR when it pulls (pull.go); its Sink is
// lossless and answers nothing.
//
// A packet is routed at its source ToR and forwarded hop by hop as circuits
// appear (package routing teaches each mode): Direct waits for a circuit
// to the destination; VLB sends it first
// to a ToR a circuit reaches now; RotorLB sends direct traffic first and
// relays other traffic over spare circuit capacity when the intermediate has
// room; Paths follows shortest paths over the circuits up now (Opera's
// expander slices), bulk flows using RotorLB, optionally spread over the
// k shortest loopless paths of each slice (Yen; unequal cost, the packet
// source-routed along its flow's path) or over equal-cost next hops
// (ECMP); VLBPaths sends it over shortest paths to a
// random intermediate first (static graphs, Mars); Earliest follows the
// temporal path that arrives first given the schedule, waiting at ToRs for
// later circuits; Hybrid uses the packet switch when no circuit reaches the
// destination. A packet is put on a circuit only if its serialisation ends
// before the night.
//
// With the Pull transport, circuit traffic waits at the hosts (RotorNet's
// host buffering): when a circuit is, or is about to be, up, its ToR pulls
// packets from its hosts for it — direct first, then RotorLB two-hop via
// the intermediate's hosts — reserving room hop by hop, so nothing pulled
// is ever dropped. The switch decides for them as for arriving packets
// (tor.ToR.AdmitHeld: the policy, the room, push-out of queued packets;
// its hooks hear them too): a ToR pulls only what it admits into the VOQ
// toward the circuit, and a pulled packet leaves only if the next ToR
// admits it into the host queue it will take. Pulled packets take one event per circuit crossing:
// they wait in per-circuit lists, and when one leaves it books the next
// ToR's host port, whose reserved room is settled lazily: before anyone
// reads that ToR's buffer, and by a room check only when the unsettled
// room is too small (settling only adds room). Windowed flows hear circuit
// changes through cc.Source.OnCircuit, which passes them to the law.
//
// With the NDP transport (ndp.go, cc.NDP) a switch that refuses a data
// packet trims it to a header and queues that in the port's first class;
// the receiver's Sink NACKs headers and ACKs data, and its host paces
// PULLs at its line rate, one per MTU time, each letting a sender send
// one packet. Under
// routing.mode paths the bulk flows are pulled over RotorLB as with the
// Pull transport: opera-sim's Opera mode. Decisions where the issue was
// silent: headers, NACKs and PULLs are transport.ack_size bytes; the
// first window defaults to one BDP of the host link at the base RTT;
// trimmed headers and control packets never enter the shared buffer: they
// wait in a header queue of transport.ndp_header_queue headers per switch
// port (opera-sim's 8 × 1 500 B by default; at a rotor ToR per next-hop
// ToR), in line with a rotor ToR's VOQ Transit class (served first), a
// leaf-spine port's class 0 (so ndp on a leaf-spine needs
// topology.queues_per_port ≥ 2), and the only queue of a host or
// packet-switch port; a header that finds it full returns to its sender
// (a NACK flagged Bounced, routed from that ToR or leaf; the sender
// resends at once with the credit it spent), a control packet that
// does, a header returned twice, and a header at the packet switch or a
// spine are dropped; packets a push-out policy evicts are dropped, not
// trimmed, and a push-out policy never pushes out a header; the sender re-sends what is unacknowledged after
// transport.min_rto without hearing from the receiver (lost headers and
// PULLs); run.check counts a trim as a refusal that is not a drop and its
// cut payload in the byte balance. When a circuit goes dark, the NDP
// packets queued for it that the router still sends there are cut to
// headers (data) or moved (headers and control packets) to the new
// slice's next hop, unless transport.ndp_dark = wait keeps them for the
// circuit's next day (a cut at a dark circuit is no refusal: it adds to
// the cut payload only); transport.ndp_pull_pacing = flow gives each flow
// a pull pacer of its own (opera-sim) instead of one per host;
// transport.ndp_ports = operasim makes every rotor ToR port opera-sim's
// CompositeQueue (a private data queue of buffer.per_port packets, the
// one on the wire included, outside the shared buffer, trimming the
// arrival or with probability ½ the last packet queued; a VOQ output's
// headers in a class of their own served 10 : 1 against its data; a
// control packet that finds a header queue full returns toward the host
// that sent it, which hands it to the flow's source, as opera-sim's last
// link does). A NACK lets its retransmission go at once if the sender
// holds credit (PULLs that found nothing to send).
//
// Run returns per-flow completion times (and incast query completion
// times, Result.Queries), utilisation, buffer occupancy, drops, reordering
// and hop counts; with Config.Check it verifies packet
// conservation, that no packet crosses a circuit at night or one the
// matching does not hold, that no buffer overflows, and that no packet of
// a lossless (PFC) class is dropped.
//
// Config is the typed Go API; this package parses no configuration text.
// Package scenario turns the key=value / TOML configuration of "rdcn
// simulate" into a Config, its schedule and its flows. A zero optional
// field of Config takes its default from the Default* constants, the one
// place each default lives: scenario's key table prints them. Resolve
// fills the defaults and validates a Config without running it. The
// choices a Config names (buffer.policy, routing.mode, transport.kind,
// transport.cc) each have a Registry: its entries' names, one-line docs
// and the configuration keys only they read; validate names the valid
// choices from it, and scenario's parser, "rdcn simulate --keys" and
// docs/simulate.md read the same tables.
//
// Defaults follow the schedule's design (DesignedFor): RotorNet and
// Sirius run rotorlb over the pull transport, Opera paths with its bulk
// flows pulled over RotorLB; any other schedule in which every ToR pair
// meets directly (Mars at degree n, Vermilion) runs like RotorNet, and
// the rest (static graphs, sparser Mars and BvN, schedule files)
// earliest-arrival routing with the windowed transport, which reaches
// every pair the circuits connect. With a packet switch the default is
// hybrid. CheckReach and CheckTable refuse, before the run (scenario's
// Build calls them), a routing that cannot reach a demanded ToR pair or
// whose next-hop table is too large.
// Both are decisions the issue left open: earliest (not paths, whose bulk
// flows go direct) is the multi-hop default because it needs no
// bulk-size threshold and is exact on any schedule; the reachability test
// for paths is necessary, not sufficient.
//
// Statistics are over measured flows: those starting in Config.Measure,
// run.warmup to workload.duration (the arrivals' end, by default 80 % of
// run.sim_time, after which the fabric drains). Summary reports offered
// and delivered load over that window (delivered: the measured flows'
// bytes received by the end of the run), and counts unfinished flows next
// to the percentiles, which cover completed flows only.
//
// Run stops when its context is done, in every phase: the reachability
// check, the earliest-arrival table's build and the event loop (every
// 4096 events); scenario's BuildContext also stops schedule generation.
package fabric
