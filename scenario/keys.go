package scenario

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/tor"
	"github.com/rdcn/rdcn/workload"
)

// Key documents one run-configuration key.
type Key struct {
	Name, Default, Doc string
}

// Keys lists every key a run configuration (TOML file or key=value
// override) accepts, with its default and a one-line doc: the parser,
// rdcn simulate --keys and docs/simulate.md's table read it. The
// defaults of keys behind an optional Config field are fabric's
// Default* constants, formatted: one default, two views. The table is
// built on first use, after every init has registered its components
// (whose names and parameters it lists); the slice is shared: do not
// modify it.
func Keys() []Key { return keys() }

var keys = sync.OnceValue(func() []Key {
	return slices.Concat([]Key{
		{"topology.kind", fabric.TopologyRotor, "topology: " + Topologies.Choices() + " (see the registry table)"},
		{"topology.tors", "32", "number of ToRs n (with `schedule.file`: the file's node count; a value given must agree with it)"},
		{"topology.hosts_per_tor", "4", "hosts per ToR"},
		{"topology.uplinks", "4", "uplinks per ToR = rotor circuit switches U (with `schedule.file`: the file's; a value given must agree with it)"},
		{"topology.host_link", "10Gbps", "host↔ToR link rate"},
		{"topology.circuit_link", "10Gbps", "ToR uplink rate through a rotor switch"},
		{"topology.host_delay", "500ns", "host↔ToR propagation delay"},
		{"topology.link_delay", "500ns", "ToR↔ToR propagation delay through a circuit"},
		{"topology.packet_switch_link", "", "ToR↔electrical packet switch rate; empty: no packet switch"},
		{"topology.packet_switch_delay", "500ns", "ToR↔packet switch propagation delay (each way)"},
		{"topology.mtu", itoa(fabric.DefaultMTU), "data packet size in bytes, 64 to " + itoa(fabric.MaxMTU)},
	}, leafSpineKeys, []Key{
		{"schedule.kind", "rotornet", "schedule generator (rotornet, sirius, opera, static, … see rdcn schedule)"},
		{"schedule.file", "", "read the schedule from an rdcn.schedule/v1 JSON file instead (then `schedule.kind`, `schedule.slot`, `schedule.reconf`, `schedule.seed` and the generator parameters must stay at their defaults)"},
		{"schedule.slot", "", "slot duration Δ; empty: the generator's default (0 is an error); a day Δ − Δr must be long enough for one `topology.mtu` packet on `topology.circuit_link`"},
		{"schedule.reconf", "", "reconfiguration time Δr; empty: the generator's default if `schedule.slot` is empty too (static: 0, a static graph has no night), else 0 (instantaneous), as in `rdcn schedule`"},
		{"schedule.seed", "1", "seed of randomised generators (opera, static, mars, vermilion)"},
		{"schedule.self_slot", "false", "rotornet/sirius: add the idle self-matching"},
		{"schedule.tries", "0", "static: candidates drawn, best spectral gap kept"},
		{"schedule.degree", "0", "mars: emulated-graph degree d; 0: chosen from `schedule.buffer` and `schedule.delay` (neither: the largest multiple of U up to n)"},
		{"schedule.buffer", "", "mars with degree 0: buffer per ToR the degree is chosen for (Theorem 19, with `topology.circuit_link`), e.g. `20MB`; empty: no limit"},
		{"schedule.delay", "", "mars with degree 0: delay the degree is chosen for (Theorem 18), e.g. `850us`; empty: no limit"},
		{"schedule.demand", "", "vermilion, bvn: the (predicted) demand matrix they design from — a file (`rdcn demand`'s format) or `uniform`, `permutation`, `ring`, `chessboard`, `skew:ALPHA`, `skewring:ALPHA`, `random:SEED` (the same specs as `rdcn schedule --demand`)"},
		{"schedule.k", "0", "vermilion: emulated-graph degree k·n (0: 3); bvn: a cycle of ⌈k·n/U⌉ slots (0: the generator's default)"},
		{"schedule.l", "0", "vermilion: oblivious edges ℓ per node pair, trust γ = k/ℓ (0: from `schedule.gamma`, else 1)"},
		{"schedule.gamma", "0", "vermilion: trust factor γ = k/ℓ instead of `schedule.l` (0: unset)"},
		{"schedule.randomized", "false", "vermilion: randomised Vermilion (trust drawn uniformly from 1..k)"},
		{"schedule.stagger", "false", "rotornet: offset switch s by s·Δ/U (as Opera does), so only one switch reconfigures at a time"},
		{"buffer.size", "", "shared buffer per ToR (e.g. 4MB); empty: buffer.per_port × ports"},
		{"buffer.per_port", "20", "packets per port (hosts + uplinks [+ packet switch]) when buffer.size is empty"},
		{"buffer.policy", fabric.DefaultBufferPolicy, "buffer sharing policy: " + fabric.BufferPolicies().Choices() + " (see the registry table)"},
	}, bufferParamKeys(), []Key{
		{"buffer.ecn_threshold", "", "DCTCP step: mark a packet that finds more than this in its queue (e.g. 30KB); empty: a law reading ECE as congestion gets its default per port — dctcp K = the fewest packets above C·RTT/7 (port rate C, base RTT), dcqcn RED (`buffer.red_*`) — any other law no marking; the summary prints the K used"},
		{"buffer.red_min", "", "dcqcn without `buffer.ecn_threshold`: RED's Kmin; empty (with `buffer.red_max`): the bytes the port drains in " + cc.REDMinTime.String() + " (100 KB at 25 Gb/s)"},
		{"buffer.red_max", "", "dcqcn without `buffer.ecn_threshold`: RED's Kmax, always marked at or above; empty: the bytes the port drains in " + cc.REDMaxTime.String() + " (400 KB at 25 Gb/s)"},
		{"buffer.red_max_p", "", "dcqcn without `buffer.ecn_threshold`: RED's Pmax, the mark probability just below Kmax; empty: " + strconv.FormatFloat(cc.DefaultREDMaxP, 'g', -1, 64)},
		{"buffer.prebuffer", "", "reTCP's VOQ prebuffering τ_pre (e.g. 1800us; rotor only): every VOQ holds `buffer.prebuffer_small`, and `buffer.prebuffer_big` from τ_pre before each day of its circuit until the day ends; empty: off"},
		{"buffer.prebuffer_small", "16pkt", "with buffer.prebuffer: a VOQ's capacity outside its prebuffer window"},
		{"buffer.prebuffer_big", "50pkt", "with buffer.prebuffer: a VOQ's capacity from τ_pre before its day until the day ends"},
		{"buffer.packet_switch", "", "packet switch shared buffer; empty: 1 MB per port"},
		{"routing.mode", "", fabric.Routers().Choices() + "; empty: hybrid with a packet switch (topology.packet_switch_link), else the schedule's designed mode (rotornet, sirius: rotorlb; opera: paths; others: rotorlb if every ToR pair gets a direct circuit in the cycle, else vlb-slice for mars and earliest for the rest)"},
		{"routing.paths_k", itoa(fabric.DefaultPathsK), "paths, vlb-paths: spread flows over up to k paths by a flow hash (see routing.multipath), k ≤ 8; 1: one shortest path"},
		{"routing.multipath", fabric.DefaultMultipath, "paths, vlb-paths with paths_k > 1: ksp (k shortest loopless paths per epoch, unequal cost, source-routed; Opera), ecmp (equal-cost shortest-path next hops, by a flow hash) or spray (the same next hops, drawn per packet)"},
		{"routing.source", fabric.DefaultRoutingSource, "paths with the next-hop table (not ksp), NDP: where a packet's slice is fixed: hop (every ToR reads the table of the current slice) or nic (a packet, data or control, reads at every ToR the table of the slice it left its NIC in, guard δ included, as opera-sim source-routes at the NIC; a packet a ToR sends back or moves off a dark circuit takes that ToR's slice of now; one that reaches a ToR while its slice's next hop is dark follows transport.ndp_dark: with trim the slice of now, a data packet cut to its header)"},
		{"routing.guard", fabric.DefaultRoutingGuard.String(), "paths, vlb-paths with the next-hop table (not ksp), on a schedule with nights: Opera's guard δ: from this long before a night (a switch's reconfiguration) packets take the night's paths, which avoid the circuits about to go dark (opera-sim: the export's `--guard`, half the day by default); shorter than the day; 0: none"},
		{"routing.bulk", fabric.DefaultBulkBytes.String(), "paths: flows of at least this size are bulk and use direct + RotorLB"},
		{"routing.relay_limit", "", "rotorlb, paths (bulk flows): bytes an intermediate's circuit day to a destination carries; it accepts relayed bytes up to this minus its own backlog there and what it already relays there; empty: one circuit day"},
		{"routing.offer", fabric.DefaultRelayOffer, "rotorlb, paths (bulk flows) with pull: a ToR offers all its backlog for relaying (`all`, RotorLB) or only its backlog to a destination beyond `routing.relay_limit` (`excess`)"},
		{"transport.kind", "", fabric.Transports().Choices() + "; empty: the schedule's designed transport (pull where the designed mode is rotorlb or paths, ndp for mars below degree n, else window; window if routing.mode is one pull does not serve or no day fits a pulled packet)"},
		{"transport.pull_depth", "0", "pull, ndp (bulk flows with paths): packets a ToR stages per next hop; 0: enough to cover the pull round trip, plus 2"},
		{"transport.ndp_window", "0", "ndp: packets of a flow's first window, sent at line rate before any pull; 0: one bandwidth-delay product (host link × base RTT, rounded up)"},
		{"transport.ndp_header_queue", itoa(fabric.DefaultNDPHeaderQueue), "ndp: trimmed headers and control packets each switch port holds outside the shared buffer (per next-hop ToR at a rotor ToR); a header that finds it full returns to its sender. Default: opera-sim's 8 × 1 500 B in 64-B headers"},
		{"transport.ndp_dark", fabric.DefaultNDPDark, "ndp on a rotor fabric whose routing re-routes at slice changes (paths, vlb-paths, earliest): what a ToR does with the packets queued for a circuit that goes dark when the new slice has another next hop for them: trim (data cut to headers; headers and control packets take the new next hop; a circuit back within one slot after the night is waited for) or wait (for the circuit's next day)"},
		{"transport.ndp_pull_pacing", fabric.DefaultNDPPullPacing, "ndp: PULL pacing of a receiver: host (one pacer per host, its flows in turn: the senders together at its line rate, as in the NDP paper) or flow (one pacer per flow, each at line rate, as opera-sim)"},
		{"transport.ndp_nic", fabric.DefaultNDPNIC, "ndp: order of a sender's data packets at its NIC: turns (the host's flows with credit take turns, one packet each), fifo (each credit queues an entry at once, first come first served, retransmissions ahead of new data; the segment is picked when it leaves) or operasim (each credit makes its packet at once, a retransmission if one is queued, else new data, and queues it in that class, as opera-sim's NdpSrc and NIC)"},
		{"transport.ndp_bulk_nic", fabric.DefaultNDPBulkNIC, "ndp with paths (bulk flows): a pulled bulk packet at its host's NIC: fcfs (the ToR's pull takes the NIC first come, first served with the host's NDP packets) or last (the ToR pulls from a host only while no NDP packet, data or control, waits at its NIC, and again once they have left, as opera-sim's NIC serves RotorLB's queue last)"},
		{"transport.ndp_header", itoa(fabric.DefaultNDPHeader), "ndp: header bytes of each data packet: a packet of `topology.mtu` bytes carries mtu − this of its flow, and the pull pacers space PULLs by that payload's transmit time on the host link (opera-sim: DEFAULT_HEADER_SIZE 64, 1 436 B of payload, NdpPullPacer's drain time of 1 436 B); 0: a packet is its payload"},
		{"transport.ndp_pulls", fabric.DefaultNDPPulls, "ndp: how a receiver's PULLs travel and count: own (every PULL a packet of its own, each granting one packet) or operasim (an ACK or NACK carries the PULL when the flow's pacer has sent none for an MTU time and none waits, and PULLs carry cumulative numbers, so a lost PULL is made up by the next and a late one grants nothing, as opera-sim's NdpPullPacer and NdpSrc)"},
		{"transport.ndp_returned", fabric.DefaultNDPReturned, "ndp: what a sender does with its header that a full header queue returned: resend (it goes again at once, with the credit it spent) or swallow (it waits for the next PULL unless the sender expects none, so the flow has one packet less in flight, as htsim's NdpSrc::processRTS that opera-sim runs)"},
		{"transport.ndp_timeout", fabric.DefaultNDPTimeout, "ndp: what the timeout (transport.min_rto) measures: flow (the time since the sender last heard from the receiver; then everything unacknowledged goes again) or packet (each packet's time since it left the NIC, until it is answered; the due ones go again, each with a credit, as opera-sim's NdpSrc times its packets)"},
		{"transport.ndp_ports", fabric.DefaultNDPPorts, "ndp on a rotor fabric: the ToRs' port model: shared (data in the shared buffer under buffer.policy, a refused packet trimmed; headers in line with the Transit class, served first) or operasim (opera-sim's CompositeQueue at every ToR port, host ports and each next-hop ToR's output: a private data queue of buffer.per_port packets, the one on the wire included; a data packet that finds it full is trimmed, or with probability ½ the last packet queued is trimmed instead; headers and control packets in a queue of their own, served 10 for each data packet while both wait; buffer.policy must be cs or unset: the shared buffer holds the pulled bulk packets only)"},
		{"transport.cc", fabric.DefaultCC, "window, pull: congestion control of the windowed flows (with pull, the flows that are not pulled): " + fabric.CongestionControls().Choices() + "; checked before the run"},
		{"transport.cc_params", "", ccParamsDoc()},
		{"transport.window", itoa(fabric.DefaultWindowPackets) + "pkt", "window, pull: fixed window (bytes, or pkt)"},
		{"transport.dupthresh", "", "window, pull: fast retransmit and fast recovery: with SACK a segment with this many segments SACKed above it is lost (RFC 6675), without SACK this many duplicate ACKs (RFC 6582); the law hears a loss; 0: losses only by timeout; empty: " + itoa(fabric.DefaultDupThresh) + " on a leaf-spine, 0 with circuits (rotor fabrics reorder)"},
		{"transport.sack", "true", "window, pull: SACK loss recovery (RFC 6675; each ACK SACKs the segment it answers); false: NewReno partial-ACK recovery from cumulative ACKs (RFC 6582)"},
		{"transport.min_rto", fabric.DefaultMinRTO.String(), "window, pull, ndp: minimum retransmission timeout (ndp: nothing heard for this long re-sends what is unacknowledged)"},
		{"transport.max_rto", fabric.DefaultMaxRTO.String(), "window, pull: cap of the exponentially backed-off retransmission timeout (RFC 6298: at least 60s)"},
		{"transport.rto_clock", fabric.DefaultRTOClock.String(), "window, pull: clock granularity G of RFC 6298: RTO = max(min_rto, SRTT + max(G, 4·RTTVAR))"},
		{"transport.acks", fabric.DefaultAcks, "window, pull: fabric (ACKs are packets routed like data) or ideal (out of band, base delay)"},
		{"transport.ack_size", itoa(fabric.DefaultAckSize), "window, pull, ndp: ACK size in bytes, at most `topology.mtu` (ndp: also its NACKs, PULLs and trimmed headers)"},
		{"transport.delayed_ack", itoa(fabric.DefaultDelayedAck), "window, pull: delayed ACKs (RFC 1122, RFC 5681 §4.2): the receiver ACKs every n-th in-order segment, or `transport.delayed_ack_timeout` after the first it holds back; out-of-order segments, duplicates, segments that fill a hole and a change of CE mark (RFC 8257 §3.2) are ACKed at once; 1: every segment at once (the ABM, Credence and Reverie ns-3 scripts' DelAckCount 0)"},
		{"transport.delayed_ack_timeout", "", "window, pull with `transport.delayed_ack` > 1: the longest an ACK is held back; empty: " + fabric.DefaultDelayedAckTimeout.String() + " (ns-3.39's DelAckTimeout), at most `transport.min_rto`/" + itoa(fabric.DelayedAckRTODivisor) + " (Linux's TCP_DELACK_MIN : TCP_RTO_MIN), so that a held ACK goes before the sender's first timeout"},
		{"transport.int", "false", "stamp INT hop records on dequeue"},
		{"transport.mss", "", "window, pull (the flows not pulled): payload bytes per segment of the background flows, at most `topology.mtu`; a data packet is its payload on the wire (no header bytes, docs/model.md); empty: `topology.mtu`"},
		{"transport.incast_mss", "", "window, pull: payload bytes per segment of the incast responses, at most `topology.mtu`; empty: as `transport.mss`. Only with incast flows"},
		{"transport.init_window", cc.DefaultInitWindow, "window, pull: initial window of the background flows' law (laws with `init_window`; bytes, or pkt: segments of `transport.mss`); the law's `init_window`, which `transport.cc_params` then must not set"},
		{"transport.incast_init_window", "", "window, pull: initial window of the incast responses' law (bytes, or pkt: segments of `transport.incast_mss`), or `" + fabric.IncastWindowResponse + "`: the whole response (ns-3's ABM set-up); empty: as `transport.init_window` (the same bytes; its default: ten segments of `transport.incast_mss`). Only with incast flows"},
		{"transport.handshake", fabric.HandshakeNone, "window: how background flows open their connection before their first data (the FCT counts it): " + fabric.Handshakes.Choices() + "; true and false stand for idle and none"},
		{"transport.incast_handshake", "", "window: how the incast responses open theirs (as `transport.handshake`); empty: as `transport.handshake`. Only with incast flows"},
		{"transport.syn_timeout", fabric.DefaultSynTimeout.String(), "window with a queued handshake: a SYN without answer is sent again this long after it, and each further one after twice the wait before (ns-3.39's ConnTimeout backoff; the default is the ABM ns-3 example's ConnTimeout, ns-3's own is 3s)"},
		{"transport.syn_tries", itoa(fabric.DefaultSynTries), "window with a queued handshake: SYNs sent at most, the first included (ns-3.39's ConnCount); then the connection fails and its flow never completes"},
		{"transport.send_jitter", strconv.FormatFloat(fabric.DefaultSendJitter, 'g', -1, 64), "every packet a host sends reaches its ToR a random time later, uniform in [0, x × one `topology.mtu` packet's transmit time on `topology.host_link`), drawn from `run.seed`, but never before the packet sent before it (the NIC's rate and the link's order are kept): it breaks the lockstep ties in which one flow takes every drop (phase effects); 0: off"},
		{"workload.sizes", "websearch", "flow sizes: websearch, datamining, hadoop, a CDF file, or a constant like 1MB" + registered(workload.SizeNames(), 3)},
		{"workload.load", "0.2", "offered load per host as a fraction of topology.host_link"},
		{"workload.pattern", "all-to-all", "all-to-all, permutation (a random derangement of the ToRs, seeded), shift (ToR i → i+T/2), ring, or matrix (destination ToRs weighted by workload.matrix)" + registered(workload.Patterns(), 5)},
		{"workload.matrix", "", "pattern matrix: a demand matrix file (rdcn demand's format) or uniform, permutation, ring, chessboard, skew:ALPHA, skewring:ALPHA, random:SEED; hose-normalised, so the busiest ToR offers workload.load"},
		{"workload.incast_senders", "0", "incast fan-in: responders per query, on other ToRs; 0: no incast"},
		{"workload.incast_bytes", "", "incast: bytes each responder sends (e.g. 50KB)"},
		{"workload.incast_rate", "0", "incast: queries per second per host (Poisson), on top of the background load; `workload.load` may then be 0"},
		{"workload.flows_file", "", "read flows (src dst bytes start_ns) from this file instead of generating them (then the other `workload.*` keys must stay at their defaults); sorted by start (`sort -g -k4`), read up to run.sim_time"},
		{"workload.seed", "1", "workload seed"},
		{"workload.duration", "", "flows start in [0, duration), then the fabric drains until run.sim_time; empty: 80 % of run.sim_time"},
		{"workload.intra_rack", "false", "all-to-all may pick destinations in the sender's rack"},
		{"run.sim_time", "125ms", "simulated time (the default, with the default topology and workload: about 1,800 websearch flows, whose offered load is within 5 % of `workload.load`)"},
		{"run.warmup", "0", "flows that start before this run but are not measured (summary.json's FCTs, loads and flow counts cover flows starting in [run.warmup, workload.duration))"},
		{"run.check", "false", "verify invariants during the run (conservation, circuits, buffer sizes)"},
		{"run.watch_pair", "", "rotor: a ToR pair src,dst (e.g. 0,1) whose delivered and circuit throughput and VOQ bytes are kept as time series (pair_series.csv, and pair.png with --plot); empty: none"},
		{"run.sample_interval", fabric.DefaultSampleInterval.String(), "mean time between buffer occupancy samples (Poisson times, so they see time averages)"},
		{"run.series_interval", fabric.DefaultSeriesInterval.String(), "time-series bin width"},
		{"run.seed", "1", "seed of routing choices and of the send jitter"},
		{"run.slowdown", fabric.DefaultSlowdown, "definition of the ideal FCT a slowdown divides by: " + fabric.Slowdowns.Choices() + " (see the registry table); summary.json's `slowdown_definition` and the console name it"},
		{"run.fct_buckets", "100KB,1MB", "flow-size edges of the FCT buckets in `summary.json` and the console table, comma-separated sizes; the default keeps the names short, medium, long, other edges name their buckets (`<10KB`, `10KB-1MB`, `>=1MB`)"},
	})
})

// Keys of the buffer policies' extras: Credence's model file, the
// lossless (PFC) classes (fabric's BufferPolicies registry lists them).
const (
	keyCredenceModel = "buffer.credence_model"
	keyLossless      = "buffer.lossless"
)

func itoa[T ~int | ~int32](v T) string { return strconv.Itoa(int(v)) }

// defaultOf is key's default ("" for a key Keys lacks).
func defaultOf(key string) string {
	for _, k := range Keys() {
		if k.Name == key {
			return k.Default
		}
	}
	return ""
}

// Params returns the Keys entries (name, default, doc) of the keys e
// reads.
func Params(e fabric.Entry) []Key {
	out := make([]Key, 0, len(e.Reads))
	for _, name := range e.Reads {
		for _, k := range Keys() {
			if k.Name == name {
				out = append(out, k)
			}
		}
	}
	return out
}

// Registries lists every registry, in the order of their keys in Keys:
// the topologies (this package's: a Config has no topology name, only
// Config.LeafSpine set or not) and the engine's choices (package
// fabric's registries, which Config's validation reads).
func Registries() []fabric.Registry {
	return []fabric.Registry{Topologies, fabric.BufferPolicies(), fabric.Routers(), fabric.Transports(), fabric.CongestionControls(), fabric.Slowdowns}
}

// Topologies: how switches, ports and links are assembled.
var Topologies = fabric.Registry{Key: "topology.kind", What: "topology", Entries: []fabric.Entry{
	{Name: fabric.TopologyRotor, Doc: "n ToRs with H hosts each, U rotor circuit switches playing the schedule (day/night); with topology.packet_switch_link an electrical packet switch beside them (hybrid)",
		Reads: nil},
	{Name: fabric.TopologyLeafSpine, Doc: "a two-tier Clos: topology.leaves leaves (ToRs) of topology.hosts_per_tor hosts, topology.spines spines, topology.links_per_pair links per leaf–spine pair; ECMP by flow hash",
		Reads: leafSpineKeyNames()},
}}

// leafSpineKeyNames lists the keys only the leaf-spine reads.
func leafSpineKeyNames() []string {
	out := make([]string, len(leafSpineKeys))
	for i, k := range leafSpineKeys {
		out[i] = k.Name
	}
	return out
}

// bufferParamKeys are the keys of the policies' parameters, in registry
// order. Their default is empty: each policy's own, which the doc lists.
func bufferParamKeys() []Key {
	var out []Key
	seen := map[string]int{}
	for _, p := range tor.Policies() {
		for _, prm := range p.Params {
			name := "buffer." + prm.Name
			i, ok := seen[name]
			if !ok {
				i = len(out)
				seen[name] = i
				out = append(out, Key{Name: name, Doc: prm.Doc + "; empty: the policy's default ("})
			} else {
				out[i].Doc += ", "
			}
			def := strconv.FormatFloat(prm.Default, 'f', -1, 64)
			if prm.Derive != nil {
				def = "derived"
			}
			out[i].Doc += p.Name + " " + def
		}
	}
	for i := range out {
		out[i].Doc += ")"
	}
	return append(out,
		Key{keyCredenceModel, "", "credence: the oracle's random-forest model file (`rdcn credence train`); empty: the model built into rdcn"},
		Key{keyLossless, "", "lossless (PFC) classes of the leaf-spine's queues, e.g. 1 or 0,1 (queue 0 carries ACKs, the last queue data), for the policies with lossless classes (reverie, sonic, sonic-abm, dt): pause frames stop the upstream port's class instead of dropping; empty: none"})
}

// registered names the entries of names after rdcn's own builtin.
func registered(names []string, builtin int) string {
	if len(names) <= builtin {
		return ""
	}
	return "; registered: " + strings.Join(names[builtin:], ", ")
}

// ccParamLaws lists the laws that read parameters.
func ccParamLaws() []string {
	var out []string
	for _, s := range cc.Laws() {
		if len(s.Params) > 0 {
			out = append(out, s.Name)
		}
	}
	return out
}

// ccParamsDoc documents transport.cc_params.
func ccParamsDoc() string {
	return "window, pull: the law's parameters, key=value,… (e.g. gamma=0.9,mode=per-rtt); read by " +
		strings.Join(ccParamLaws(), ", ") + "; each law's keys, defaults and ranges are in docs/cc.md"
}
