// Package cc holds rdcn's host transports: a reliable windowed sender and
// its receiver, and the Controller interface that congestion-control laws
// implement.
//
// The Sender owns reliability (sequence numbers, cumulative and selective
// acknowledgements, retransmission timeouts); the Controller owns the
// window and pacing rate and sees every ACK (with ECN echo and INT hop
// records), a per-RTT tick, losses and circuit day/night notices. This
// package ships the Fixed window controller and Unlimited (line rate, used
// with an unreliable sender for throughput tests); DCTCP, PowerTCP, HPCC and
// reTCP plug in as further Controllers.
//
// Loss recovery is timeout-based selective repeat: the receiver keeps
// out-of-order segments and each ACK carries the cumulative point and the
// segment it answers (one SACK block); on a timeout the sender resends every
// unacknowledged segment from the cumulative point, skipping those already
// selectively acknowledged. There is no duplicate-ACK fast retransmit,
// because rotor fabrics reorder packets as a matter of course.
//
// Flows that are never acknowledged and never retransmit (the fabric's
// host-buffered pulled flows and line-rate senders) use
// NewLosslessReceiver: every segment arrives at most once, so it counts
// bytes and reordering without the per-segment bitmap.
//
// The bitmaps of the others (the receiver's segments, the sender's SACKs)
// slide: they cover only the segments past the cumulative point, so their
// memory follows the window and the reordering, not the flow's size.
package cc
