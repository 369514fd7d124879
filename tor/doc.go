// Package tor models a top-of-rack switch of a reconfigurable datacenter
// network: per-destination virtual output queues (VOQs) toward the circuit
// uplinks, queues toward the hosts and toward an optional electrical packet
// switch, all in one shared buffer whose admission is decided by a Policy.
//
// Queues hold packet indices (int32) into a shared Pool, so enqueue and
// dequeue allocate nothing. A VOQ is keyed by the next-hop ToR: whichever
// uplink's circuit reaches that ToR serves it. Each VOQ has two classes:
// Transit (packets relayed for another ToR, served first, as RotorNet's
// RotorLB prescribes) and Local (packets from this rack's hosts).
//
// Buffer policies implement the Policy interface (per-packet Admit with a
// Verdict that may name push-out victims, hooks on enqueue, dequeue and
// drop, and a periodic Tick) and see the buffer through BufferState. This
// package ships Complete Sharing and Dynamic Thresholds; more policies plug
// in without changes here. On dequeue the ToR stamps an INT hop record
// (queue length, transmitted bytes, time, link rate) for telemetry-driven
// congestion control, and on enqueue it sets the ECN mark above a threshold.
package tor
