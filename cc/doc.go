// Package cc holds rdcn's host transports: both ends of every flow, the
// registry of transports, and the Law interface that congestion-control
// laws implement.
//
// # Flow ends
//
// A host drives every transport through two interfaces, one per flow end
// (ExampleSource). A Source is the sending end: the host asks it for
// segments (CanSend, Next, Rate for pacing), hands it each reply to the
// flow (OnReply: ACK, NACK or PULL, with the INT records the network kept
// for it in a Feedback), fires its Timer (OnTimeout) and tells it of
// circuit day and night (OnCircuit). A Sink is the receiving end: Receive
// takes a data packet (or an NDP trimmed header) and turns it into its
// reply in place — MakeAck and MakeNack are the only places ACKs and
// NACKs are made — and returns a Verdict: the flow completed, the packet
// is now a reply to route back, the receiver's host owes the flow a PULL.
// The engine only routes what it is handed back. An ACK keeps the data
// packet's INT records (packet.Packet.IntN), so the sender's law sees the
// data path; a NACK carries none.
//
// The registry (Transports, LookupTransport, RegisterTransport) holds one
// TransportSpec per transport: its name, a one-line doc, the
// configuration keys its flow ends read, whether its flows take a Law,
// and New, which makes a flow's two ends from a Flow. The built-in ones:
//
//   - window: Sender (with the flow's Law) and a Receiver that ACKs every
//     data packet, or with delayed ACKs (Flow.DelAck) every n-th in-order
//     one, holding the ACK back (Verdict Hold) until n wait or its timer
//     (Sink.AckTimer) fires; out-of-order, duplicate and hole-filling
//     segments and a change of CE mark (RFC 8257 §3.2) are ACKed at once;
//   - linerate: an unreliable Sender at line rate and a lossless Receiver
//     that answers nothing;
//   - pull: the host side of a host-buffered flow, PulledSource, whose
//     segments wait at the sending host and are handed out in order when
//     the network pulls one (the network reserves room for each, so
//     nothing is lost, acknowledged or resent), and a lossless Receiver;
//   - ndp: NDP and a Receiver that ACKs data, NACKs headers and asks for
//     a PULL per arrival until the flow is complete.
//
// Decisions where the engine issue was silent: the flow ends allocate
// once per flow (New) and never per packet; a reply leaves the Sink with
// no route and no destination ToR (packet.NoToR), which the engine fills
// in; PULLs are made by the receiving host's pacer (MakePull), not by the
// Sink, because pacing is per host, not per flow; a Sink answers a header
// of a flow it has completed with nothing.
//
// The Sender owns reliability (sequence numbers, cumulative and selective
// acknowledgements, retransmission timeouts); the Law owns the window and
// pacing rate and sees every ACK (with ECE and INT hop records), timeouts
// and circuit day/night notices. The registry holds every law, including
// "fixed" (a constant window, Env.Window) and "none" (no window, line
// rate).
//
// Loss recovery is TCP's with SACK: the receiver keeps out-of-order
// segments and each ACK carries the cumulative point and the segment it
// answers (one SACK block). With Sender.DupThresh > 0 the sender runs
// RFC 6675's fast retransmit and fast recovery (IsLost by the segments
// SACKed above, pipe, NextSeg, RecoveryPoint) or, with SACK off, RFC
// 6582's NewReno (duplicate ACKs, partial ACKs, window inflation) with
// limited transmit (RFC 3042: a new segment per duplicate ACK below
// DupThresh). Its
// timer is RFC 6298's (SRTT, RTTVAR, a floor, G, backoff with a cap,
// Karn's rule; restarted only by cumulative progress). On a timeout every
// unSACKed segment sent is resent from the cumulative point under the
// law's slow-start window. A law that embeds the NewReno window hears the
// FlightSize before OnLoss and OnTimeout (RFC 5681 eq. 4). The fabric
// turns fast retransmit off on rotor fabrics by default, because they
// reorder packets as a matter of course.
//
// Flows that are never acknowledged and never retransmit (the pull and
// linerate transports) have a lossless Receiver (as NewLosslessReceiver
// makes): every segment arrives at most once, so it counts bytes and
// reordering without the per-segment bitmap.
//
// The bitmaps of the others (the receiver's segments, the sender's SACKs)
// slide: they cover only the segments past the cumulative point, so their
// memory follows the window and the reordering, not the flow's size.
//
// NDP is the sender of the receiver-driven NDP transport ("Re-architecting
// datacenter networks and stacks for low latency and high performance"):
// a first window at line rate, then one packet per PULL, NACKed segments
// before new data, and a timeout that re-queues what is unacknowledged.
// It has no window to control and is not a Law; its Receiver turns
// headers into NACKs; the network trims packets and paces the receivers'
// PULLs.
//
// # Congestion-control laws
//
// A Law turns ACK feedback (Feedback: bytes acknowledged, snd_una and
// snd_nxt, an RTT sample, ECE, the circuit flag and the path's INT records
// as Hops) into a window and a pacing rate. Laws are registered by name
// with typed, range-checked parameters (New, Laws):
// newreno, cubic, dctcp, retcp, powertcp, theta-powertcp, hpcc, timely and
// dcqcn. Laws depend only on rotor's units and their own Feedback type;
// every OnAck costs O(hops) and allocates nothing (BenchmarkOnAck).
// docs/cc.md states each law, its parameters and the papers.
//
// # Decisions where the papers are silent
//
//   - PowerTCP ("PowerTCP: Pushing the Performance Limits of Datacenter
//     Networks"): η (eta) defaults to 1, the paper's e = b²τ, whose
//     equilibrium is a full link with an Nβ queue; the authors' simulator
//     divides by 0.95 (eta = 0.95). β is given as a rate, ai = 150 Mb/s
//     (β = ai·τ, the authors' evaluation value; the paper's HostRate·τ/N
//     with N = HostRate/ai). Algorithm 1 line 658 compares the raw power
//     with the normalised maximum; we take the maximum of the normalised
//     values, as every implementation does. The guards of the public
//     implementations are on: λ ≥ min_lambda·b (0.5), Δt ≤ τ, MSS ≤ w ≤
//     HostRate·τ, min_rate ≤ w/τ ≤ line rate, the smoothing restarts at the
//     sample when a hop's rate changes (bw_reset, which matters when a
//     circuit comes up), and a change in hop count or port ids discards the
//     stored INT records. A path change hides a rate change (a packet that
//     moves to a circuit takes another port), so the first comparable
//     sample after one compares each hop's rate with the old path's at the
//     same position; a changed hop restarts the smoothing and, with
//     bw_reset, its λ is not floored (the authors' TCP code floors λ only
//     while b is unchanged; the Linux guards λ ≥ 0 and power ≥ 0.01
//     remain). The first ACK only stores INT; the smoothed power
//     starts at the first sample, as in the Linux module (smooth_start =
//     one folds it into 1, as the authors' RDMA simulator does). Hops
//     whose timestamp did not advance are skipped. When the smoothed normalised power (η
//     included) is at most full_step = 0.5, the update takes γ = 1,
//     w ← w_old/Γ + β: the rule of the authors' TCP implementation, which
//     the thesis's reconfigurable-network study ran; it speeds up the
//     increase after a jump in available bandwidth (×2 instead of ×1.9 at
//     the λ floor) and never touches a decrease. Their RDMA code (the
//     fat-tree evaluation) lacks it; it is on in every mode because a
//     fat-tree flow starts at its largest window and rarely sees power
//     ≤ 0.5 (full_step = 0 turns it off). θ-PowerTCP does not have it.
//     The old window of per-ack
//     mode is a single slot refreshed once its send frontier is
//     acknowledged (the Linux module's bookkeeping). Default mode
//     fast-react (the chapter-2 evaluation); use per-rtt for the
//     reconfigurable-network study, as the thesis does.
//   - θ-PowerTCP: γ = 0.9 as the paper states (the authors' simulator
//     uses 0.7); the power is computed on every ACK with Δt the time
//     since the previous ACK (capped at τ), the window changes once per
//     RTT; θ̇ + 1 is floored at min_grad = 0.5 (the authors' simulator);
//     τ is configured, not tracked as a minimum RTT, and the power is
//     normalised by τ as in the paper (the authors' simulator uses 1.05·τ).
//   - A round (per-RTT updates of PowerTCP, θ-PowerTCP, HPCC, TIMELY and
//     DCTCP's α) ends when the cumulative ACK passes the send frontier
//     recorded at the round's start; the first ACK starts a round, so
//     DCTCP's first α update covers one ACK, as in Linux. For PowerTCP
//     and HPCC that first ACK only stores INT records, and the first
//     round's updates react from the initial line-rate reference and
//     commit nothing until the round ends, as the authors' code sets
//     lastUpdateSeq on that ACK.
//   - The INT and delay laws ignore OnLoss (their feedback already
//     carries congestion); a timeout halves the window (rate) and forgets
//     the INT/RTT history. The window laws drop to one MSS on a timeout.
//   - HPCC ("HPCC: High Precision Congestion Control"): the smoothed
//     utilisation starts at the first sample (smooth_start = one: at 1,
//     as in the authors' RDMA simulator); rates are clamped to
//     [min_rate, line rate]; the window is R·τ, at least one MSS.
//   - TIMELY ("TIMELY: RTT-based Congestion Control for the Datacenter"):
//     the first RTT sample only primes the gradient, which is then updated
//     once per round; the rate starts at line rate. T_low and T_high
//     default to the paper's 50 µs and 500 µs above Env.CircuitWait (the
//     wait for circuits every round trip includes on a pure rotor).
//   - DCQCN ("Congestion Control for Large-Scale RDMA Deployments"): ECE
//     on an ACK counts as a CNP (pacing CNPs to one per 50 µs is the
//     receiver's business); the first CNP cuts at once; the Mellanox
//     timers are replayed lazily at each call; clamp_target defaults to
//     false.
//   - reTCP ("Adapting TCP for Reconfigurable Datacenter Networks"): the
//     circuit state comes from ECE by default, as in the paper (signal =
//     notice takes it from OnCircuit instead); NewReno growth is applied
//     before the jump, as the Linux module does; the window never falls
//     below one MSS; a loss or timeout sets ssthresh from the window
//     (cwnd/2, the module's Reno ssthresh), not from FlightSize. The other laws ignore OnCircuit: PowerTCP and HPCC
//     learn of circuits only through the INT rate field.
//   - DCTCP ("Data Center TCP (DCTCP)"): α starts at 1; the window does
//     not grow in the round after a cut; a cut leaves at least two MSS.
//   - CUBIC (RFC 9438): when the cubic target is below the window, the
//     window grows by one segment per 100 windows (Linux's floor). Slow
//     start, the growth floor before the first loss (cnt_clamp) and the
//     restart after a timeout follow ns-3.39's TcpCubic, with its HyStart
//     constants (docs/cc.md says what they do at microsecond RTTs); the
//     Reno-friendly region, which ns-3.39 lacks, is RFC 9438's.
//   - The window laws cap their window at 2^40 bytes so that no growth or
//     jump overflows.
//   - PowerTCP's λ floor (min_lambda) clips the negative swings of
//     per-packet q̇ samples. A flow with more packets samples over shorter
//     intervals, sees larger swings and so a higher power: with the floor,
//     flows with β in ratio 1:3 share about 1:1.5 instead of 1:3 (Theorem
//     3 holds with min_lambda = 0; TestPowerTCPWeightedFairness). Equal-β
//     flows are unaffected. The floor stays on by default, as in the
//     authors' simulator: per-ack mode needs it to stay stable.
//
// # Registering a law
//
// Register adds a congestion-control law from outside this package, in
// an init function: a Spec with a unique Name, a one-line Doc, typed
// Params (Kind, a Default or an Env default, a range, a Doc; the registry
// parses, defaults and range-checks them, and a key the law does not
// declare is refused), what it reads in ECE and whether it needs INT
// records, and New, which builds the Law from the Env and the resolved
// Values. A Law's methods run per ACK: they must not allocate. The name
// becomes a value of transport.cc and its parameters transport.cc_params
// in rdcn simulate. A duplicate name, or a Register after the registry
// has been read (a run has started), panics with the name.
//
// # Registering a transport
//
// RegisterTransport adds an end-to-end transport, in an init function:
// a TransportSpec with a unique Name (a value of transport.kind), a
// one-line Doc, the keys its flow ends read (Params), whether its flows
// take a law (Law), and New, which makes a flow's Source and Sink from a
// Flow (ExampleRegisterTransport). The fabric runs it as it runs window
// and linerate at the switches, and gives it exactly this:
//
//   - Keys: Params may list only TransportKeys, the keys behind Flow's
//     fields (transport.mss and transport.incast_mss, ack_size, min_rto,
//     max_rto, rto_clock, dupthresh, sack, delayed_ack,
//     delayed_ack_timeout), and with Law must list LawKeys; any other key
//     panics at registration, named. The fabric fills every Flow field
//     for every flow (Window, NDP's first window, stays 0; MSS is the
//     flow's class's transport.mss or transport.incast_mss if Params
//     lists transport.mss, else topology.mtu). Params are the keys
//     transport.kind reads: a run that sets another transport key
//     (transport.acks, transport.handshake, pull's or ndp's, or a Flow
//     key not listed) is refused before it starts, naming the key. A
//     transport has no parameters of its own: a tunable belongs in a law.
//   - Law: each flow gets the law transport.cc names (Flow.Law), with
//     transport.cc_params and the initial windows, and the fabric provides
//     what the law reads (ECN marks, INT records, circuit ECE); a flow
//     between racks on a rotor hears Source.OnCircuit. Without Law, no law
//     is made and no flow hears OnCircuit.
//   - Packets: the sending host makes a data packet of each segment
//     Source.Next hands out, paced by Source.Rate, in turn with its other
//     flows and after its waiting replies. Data and replies (the packet
//     the Sink turned into its reply, Verdict Reply) are routed as
//     window's and pass every switch's buffer policy, which may drop them;
//     replies cross the fabric back (transport.acks = fabric) and reach
//     OnReply with their data packet's INT records.
//   - Timers: one event per flow at Source.Timer, re-read after each
//     Next, OnReply and OnTimeout; Sink.AckTimer for a reply held back
//     (Verdict Hold, SendHeld).
//   - Completion: the flow completes when its Sink returns Complete; its
//     ends are freed once the Source is Done as well.
//
// What stays engine-only: the ToRs pulling host-buffered flows (pull,
// and ndp's bulk flows under paths routing), NDP's trimming, header
// queues and pull pacers (a Sink's WantPull fails the run, naming the
// transport), the SYN/SYN-ACK handshake and ideal ACKs. Flow ends run
// per packet and must not allocate. A duplicate name, or a call after
// the registry has been read (a run has started), panics with the name.
//
// # Engine-facing names
//
// A few names are exported only because the fabric, in another package,
// drives the registry and the flow ends: Spec.Resolve and Spec.Has (it
// resolves each flow's law), DCTCPThreshold, REDMinTime, REDMaxTime and
// DefaultREDMaxP (the switches' marking thresholds), and MakePull,
// NDP.Sendable, NDP.Retransmitting and PulledSource.NextSize (NDP's pull
// pacers and the ToRs that pull host-buffered flows). A law or a
// transport needs none of them; they may change while rdcn is v0.
package cc
