// Package bufferlab is the discrete-time shared-memory switch of the
// buffer-sharing theory (the model of the Credence paper, "Credence:
// Augmenting Datacenter Switch Buffer Sharing with ML Predictions", and of
// the competitive analyses it builds on): N output ports, a buffer of B
// unit packets, time slots. In each slot the arrivals come first, then
// every non-empty port sends one packet. A drop-tail policy may only
// accept or reject an arriving packet; a push-out policy (LQD) may also
// drop buffered ones. Throughput is the number of packets sent; a policy
// is c-competitive if OPT(σ) ≤ c·ALG(σ) for every arrival sequence σ.
//
// The lab drives the same tor.Switch and the same registered policies as
// the packet simulator, with one-byte packets and one-microsecond slots,
// so a policy is tested once for both.
//
// # Sequences
//
// CSAdversary, FollowLQDAdversary and DTAdversary are adversarial
// constructions; Bernoulli, OnOff, Bursts and BurstsPaced (a burst's
// packets per slot: N, or the whole burst in one slot) are random
// traffic; ReadTrace
// reads a trace file ("ports N", then "SLOT PORT [COUNT]" lines).
//
// # The offline optimum
//
// Opt computes OPT exactly. A transmitted packet that arrived in slot u
// and left in slot s occupies the buffer in slots u..s (counted after
// each slot's arrivals). Any schedule is therefore a set of pairs (u, s)
// per port — each arrival used at most once, each (port, slot) at most
// once, u ≤ s — whose intervals cover every slot at most B times; its
// throughput is the number of pairs (a pair is transmitted even if it does
// not depart in FIFO order: which packet of a port leaves first changes no
// count). Opt is the greedy: for s = 0, 1, …, every port offers the pair
// (latest unused arrival u ≤ s, s); offers are taken latest u first, each
// iff the coverage stays ≤ B on u..s.
//
// Proof that the greedy is optimal. Fix an optimal set O that agrees with
// the greedy's decisions G on every offer processed before some offer
// (i, u, s). Note first that the coverage of a set of pairs depends only on
// which arrivals and which slots it uses, not on how they are matched, so
// O may be rematched freely within a port.
//
//   - The greedy takes (i, u, s). If O uses slot s of port i with an
//     arrival u' ≠ u, then u' < u (u is the latest arrival not used
//     before s by G, hence by O); if O uses u for a later slot, swap the
//     two arrivals (same coverage), otherwise replace u' by u (coverage
//     shrinks). If O does not use slot s of port i, add (u, s) to O —
//     first moving u out of a later pair of O if it is used there, which
//     only shrinks that interval — and, where the coverage now exceeds B,
//     remove the pair of O not yet decided by the greedy whose interval
//     starts earliest: every overloaded slot t in u..s is covered by some
//     undecided pair of O ending at or after s (the decided ones are G's,
//     and G fits), so that earliest-starting pair covers all of them.
//     The result is feasible, as large as O, and agrees with G one offer
//     longer.
//   - The greedy rejects (i, u, s): some slot in u..s is covered B times
//     by decided pairs. If O used slot s of port i, with arrival u or
//     earlier (covering u..s at least), that slot would be covered B + 1
//     times: impossible, so O agrees.
//
// By induction the greedy's set is as large as an optimal one. Discarding
// a port's unused arrivals after a rejection is safe: an earlier arrival
// covers more, and a later slot covers more, so none of them can ever fit.
// The tests also check Opt against OptSearch, an exhaustive search over
// buffer states (exact by construction), on 5000 random small instances.
//
// OPT is not LateQD, the clairvoyant algorithm of Bochkov et al. ("New
// competitiveness bounds for the shared memory switch"): we did not have
// its rule, so we compute the same optimum another way.
//
// # Credence's predictions
//
// Fig14 runs on a named set-up (Fig14Setups): "spread" (bursts of B
// delivered N packets a slot at 30 % load) or "one-slot" (whole-buffer
// bursts in one slot at 0.2 % load, where LQD/Credence tends to
// 1/(1/N + (1−p)(1−1/N)), the paper's 2.9 at p = 0.7, N = 16).
//
// Compare and Fig14 give Credence the perfect oracle (tor.PerfectOracle:
// LQD's own drops on the same arrivals), each answer flipped with a
// probability (tor.Flipped). In the lab FollowLQD and Credence use the
// paper's threshold rule exactly: a virtual LQD queue drains one packet in
// every slot, whether or not the real queue sent (reset_empty = 0).
//
// Two findings, both tested: with the safeguard off, Credence with
// perfect predictions drops exactly LQD's packets; with the safeguard on
// (the default, as in the paper) it may admit a packet that LQD later
// pushes out while every queue is below B/N, so its drops can differ from
// LQD's by a few packets either way.
package bufferlab
