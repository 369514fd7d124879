// Package tor models a shared-buffer switch. A top-of-rack switch of a
// reconfigurable datacenter network has per-destination virtual output
// queues (VOQs) toward the circuit uplinks, queues toward the hosts and
// toward an optional electrical packet switch; a leaf or spine of a
// leaf-spine fabric has host and fabric ports, each with Classes queues
// served in strict priority or round robin (Pick). All queues of a switch share one buffer
// whose admission is decided by a Policy.
//
// Every port has an id unique in its switch (uplinks, hosts, packet
// switch, fabric ports, then one virtual output per VOQ next hop), and
// every queue's QueueState names its port and that port's rate, so
// per-port policies never lump two ports together. Packets and INT
// records are package packet's.
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
// on data packets (queue length, transmitted bytes, time, link rate) for telemetry-driven
// congestion control, and on enqueue it sets the ECN mark above a threshold.
package tor
