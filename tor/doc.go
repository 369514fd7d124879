// Package tor models a shared-buffer switch. A top-of-rack switch of a
// reconfigurable datacenter network has per-destination virtual output
// queues (VOQs) toward the circuit uplinks, queues toward the hosts and
// toward an optional electrical packet switch; a leaf or spine of a
// leaf-spine fabric has host and fabric ports, each with Classes queues
// served in strict priority or round robin (Pick). All queues of a switch share one buffer
// whose admission is decided by a Policy.
//
// Every port has an id unique in its switch (uplinks, hosts, packet
// switch, fabric ports, then one virtual output per VOQ next hop). Packets
// and INT records are package packet's.
//
// A ToR keeps its queues in a Switch (below), which runs the buffer
// policy: the ToR maps its ports and VOQs onto the Switch's ports and
// queues, offers packets by index into a shared Pool (enqueue and dequeue
// allocate nothing), stamps INT hop records on dequeue and ECN marks on
// enqueue (a packet that finds its queue, itself included, above the
// threshold). A VOQ is keyed by the next-hop ToR: whichever uplink's
// circuit reaches that ToR serves it, so the VOQs toward v are the two
// queues of one virtual output port whose day and night are those of the
// circuits toward v (SetCircuit, heard by CircuitAware policies). Each
// VOQ has two classes: Transit (packets relayed for another ToR, served
// first, as RotorNet's RotorLB prescribes) and Local (packets from this
// rack's hosts). Packets of a flow's first Config.Unsched bytes count as
// unscheduled (ABM's first-RTT packets). Above DenseToRs ToRs a VOQ port
// exists only once its destination is used (SwitchConfig.OnDemand,
// Switch.addPort), so a ToR's memory grows with the destinations it uses,
// not with the fabric's n.
//
// # Shared-buffer switch and policies
//
// Switch is the general shared-buffer switch that every switch of the
// simulators runs (rotor ToRs, the hybrid's packet switch, leaves and
// spines, through ToR): ports of up to MaxQueues FIFO queues served
// by strict priority or round robin, a classifier from packet class to
// queue, per-queue ECN (DCTCP's K, RED min/max), and counters kept in O(1)
// per packet (State: per queue, per port with a bitmask of non-empty
// queues, per queue index over all ports). A BufferPolicy answers Admit;
// optional interfaces add push-out (PushOut), hooks on enqueue, dequeue and
// drop, periodic ticks (Ticker) and circuit day/night (CircuitAware). The
// switch applies the physical check Q + size ≤ B itself.
//
// Policies are registered by name with their parameters and the papers'
// defaults (Policies, NewBufferPolicy): cs, cp, dt, edt, fab, ib, fb, fba,
// abm, lqd, followlqd, credence, reverie, sonic, sonic-abm, tdt, protean.
// docs/buffers.md lists them with their rules and sources. Not here yet:
// harmonic (its rule is not in our sources, so we could not pin it to the
// original paper).
//
// PFC: SwitchConfig.Lossless marks lossless classes. A lossless packet is
// accounted to its ingress queue (InPort, class); a LosslessPolicy
// (reverie, sonic, sonic-abm, dt) decides whether it enters the shared pool; if not it goes
// to headroom and the ingress queue pauses (Switch.OnPFC). Pause frames
// crossing links are the engine's job (package fabric): the switch only
// reports pause and resume, a ToR built with Config.Lossless takes each
// arrival's ingress port (EnqueueFrom), and PickExcept serves a port's
// queues except the classes its downstream paused.
//
// Decisions where the papers are silent or disagree:
//
//   - Threshold checks use bytes: admit iff q + size ≤ T (the papers'
//     q < T in unit packets).
//
//   - Priority = queue index. "hi_queues" makes queue indices 0..k−1 high
//     priority with α_hi (FB's α_H = 20), the rest use α.
//
//   - FB: N_p counts the non-empty queues of the packet's queue index,
//     its own included; γ = 1/(non-empty queues of the port, its own
//     included) under round robin and 1 under strict priority. With this,
//     the FB paper's 60-packet example holds exactly (TestFBExample).
//
//   - ABM: n_p is the authors' artifact's fractional count
//     max(1, Σ min(q/sat, 1)), sat = 20 MTU (the thesis's "q ≥ 0.9·T" is
//     circular); n_p and γ are refreshed every base RTT; γ = bytes sent in
//     the last RTT over what the port could send, clamped to [1/queues, 1],
//     and 1/(non-empty queues of the port) for a queue that sent nothing.
//     α_unsched = 64 (the papers; the artifact uses 1024) for packets
//     marked Unsched by their sender (first RTT).
//
//   - FAB: α_short = 1024 while the flow sent < 15 MTU within 5 ms
//     (artifact values); flow state lives in a slice indexed by flow id.
//
//   - IB: AFD per queue as in the artifact (window 50 µs, a1 = 1.8,
//     a2 = 1.7, Qref = one BDP, fair drops only above 150 KiB). Its dynamic
//     packet prioritisation is classification: map short flows to queue 0.
//
//   - EDT: the transitions are ours (the original's are not in our
//     sources): uncontrolled after C2 = 8 packets of growth with no drop
//     since the queue was last empty or dropped, unless it left that state
//     within TM2 = 10 ms; back under control after C1 = 3 dequeues with no
//     arrival, after TM1 = 2.1 ms, or on a buffer overflow. This reproduces
//     the TDT paper's 533 µs / 0.47 MB (TestTDTMicroBenchmark).
//
//   - TDT: counters in packets; every arrival (admitted or not) resets DEC;
//     OC1 reaching B/n resets NEC and itself; a drop resets NEC and OC1;
//     DEC firing resets DC and returns any state to normal. The threshold
//     bounds the port's bytes over all its queues.
//
//   - LQD pushes out the tail of the longest queue (smallest index among
//     equals); when the arrival's own queue is the longest, the arrival is
//     dropped instead (same lengths afterwards).
//
//   - FollowLQD and Credence: a virtual LQD in bytes (while Γ + size > B
//     the largest threshold gives up the missing bytes). In a packet
//     switch a threshold drains with its queue's departures and resets to
//     0 when the queue empties (reset_empty = 1, as the artifact); the
//     buffer lab uses the paper's rule instead (drain every slot).
//     Credence's safeguard admits while the longest queue holds < B/N.
//
//   - Credence's features are fractions of B: the queue, its EWMA, the
//     shared occupancy, its EWMA; the EWMAs are the artifact's
//     time-weighted ones (weight min(Δt, RTT)/RTT), updated at departures.
//
//   - Protean: the short and long classes are queue indices (0 and 1 by
//     default), every other queue is an incast queue; the gradient is
//     normalised to the port rate (build-up threshold 2), updated on each
//     incast-queue dequeue; before a port's first such dequeue its incast
//     threshold is plain DT with α_incast.
//
//   - PFC: on departure a lossless packet leaves headroom first (the
//     thesis); a paused ingress queue resumes when its headroom is empty
//     and a full packet would pass the policy's test again (the artifact's
//     xon hysteresis is not modelled); queues that drained while the pool
//     was congested are re-checked one per departure, in turn. DT's
//     lossless classes apply DT to the ingress queue's bytes in the shared
//     pool — not the SONiC model's double accounting, which is sonic.
//
//   - SONiC: the ingress pool is b* (B minus the headroom pool), the
//     egress lossless pool B, the egress lossy pool 80 % of b* (the
//     thesis's evaluation); lossy ingress and lossless egress checks are
//     bypassed with α = 10000 (the artifact). A lossless packet failing
//     either of its checks goes to headroom and pauses its ingress queue.
//
//   - ABM with lossless classes (sonic-abm): Reverie's second baseline,
//     which the thesis describes only as ABM extended within the SONiC
//     model "by accounting for the drain rate as well as the number of
//     saturated queues in the ingress". We keep SONiC's pools and bypasses
//     and replace each DT threshold α·(pool free) by ABM's
//     α·(1/n_p)·γ·(pool free): lossless packets on their ingress queue,
//     with n_p and γ of ingress queues (n_p = Σ min(shared ÷ sat, 1) over the
//     class's ingress queues, γ = bytes the ingress queue released over
//     the period ÷ the ingress port's rate; an idle, empty ingress queue
//     has γ = 1, an idle, non-empty one the floor 1/queues), lossy
//     packets on their egress queue in the lossy pool with ABM's own n_p
//     and γ; α_unsched for first-RTT packets in both. n_p and γ refresh
//     once per period (an RTT). `abm` itself has no lossless classes: the
//     thesis's point is that ABM cannot be one pool for both, and the
//     baseline it evaluates is this one.
//
//   - Reverie: q̂ ← γ·q̂ + (1−γ)·q at each departure of the queue, clipped
//     to q, as the artifact; n_p counts fractionally from q̂ (20 MTU
//     saturate a queue); no dequeue-rate factor (the thesis leaves it out).
//
// Header queues (SwitchConfig.HeaderQueue, ToR.EnqueueHeader): NDP's
// switches keep trimmed headers and control packets out of the data
// buffer. Each port holds up to HeaderQueue of them; they wait in the FIFO
// of the queue they are given (the caller picks one served first), count
// in that queue's and port's lengths but not in State.Used, and the
// policy neither admits them nor hears of them. A push-out policy never
// pushes one out: when the victim queue's tail is a header, the arrival is
// refused instead. The limit counts headers, not bytes, as a header's
// size is fixed.
//
// Private data queues (Config.PortData, ToR.EnqueuePrivate; opera-sim's
// CompositeQueue): each port, a VOQ output per next-hop ToR included,
// holds up to PortData bytes of data outside the shared buffer, counted
// like headers (in the queue's and port's lengths, not in Used, unseen by
// the policy), the data packet on the wire included until its last bit
// has left, as htsim's queues count it (Dequeue at a rate notes it);
// PopLastPrivate takes the port's packet queued last (to be trimmed for
// an arrival). With Config.HeaderWeight a VOQ output's headers
// wait in a class of their own (HeaderVOQ) that PickCircuit serves
// against its data as opera-sim does: while both wait, a round of
// HeaderWeight headers' bytes, then up to one MTU of data, counted in
// bytes (TestCompositeServiceOrder works the order by hand).
//
// Credence's oracles: PerfectOracle (LQD's decisions replayed, for open-
// loop sequences), Flipped (each answer inverted with probability p) and
// Forest (a random forest evaluated from one flat node array without
// allocating). TrainForest is a small CART (Gini, bootstrap, 2 of the 4
// features tried per split, as scikit-learn's default). We did not use
// golearn, the Go library the issue suggests (available only as the 2022
// pseudo-version v0.0.0-20221228163002-74ae077eafb2): its RandomForest bags ID3 trees
// (trees.NewID3DecisionTree) that have no depth limit, while Credence's
// model is depth 4 with threshold splits on continuous features; CART is
// about 150 lines here. Models are text files (Forest.Write,
// ReadForest, fuzzed).
//
// # Registering a policy
//
// Register adds a buffer policy from outside this package, in an init
// function: a PolicySpec with a unique Name, a one-line Doc, its Params
// (each with a Default, or a Derive from the SwitchConfig, and a Doc; a
// Positive parameter must be > 0, the others ≥ 0) and Build, which
// receives every parameter's value and an Env (the switch, an Oracle, a
// seeded *rand.Rand) and returns the BufferPolicy or an error naming the
// parameter it refuses. Admit (and the optional PushOut, OnEnqueue,
// OnDequeue, OnMove hooks) run per packet: they must not allocate. The
// name becomes a value of buffer.policy and each parameter the key
// buffer.<name> in rdcn simulate, its sweeps and reports. A duplicate
// name, or a Register after the registry has been read (a run has
// started), panics with the name.
//
// # Engine-facing names
//
// The switch the engine drives is exported only because fabric and
// bufferlab drive it from another package: ToR, New, Config, Switch,
// NewSwitch, Prebuffer, NewPrebuffer, Day, CircuitDays, QueueID, the VOQ
// classes (Transit, Local, HeaderVOQ), Gate, Relay, Verdict, DenseToRs and
// MaxClasses. A policy needs none of them (it sees State, Arrival and,
// when it is built, SwitchConfig); they may change while rdcn is v0,
// methods included.
package tor
