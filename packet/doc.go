// Package packet holds what travels through rdcn's emulated fabrics: the
// Packet, the Pool packets live in, and the in-band telemetry (INT) hop
// records switches stamp on data packets. Switches (package tor),
// transports (package cc) and the engine (package fabric) all import it;
// it imports only rotor's units and the event core's pool.
//
// A Packet is 64 bytes, one cache line, and is passed around as an int32
// index into a Pool, so the hot path allocates nothing. Each field means
// one thing: Seq is a byte offset, EchoSeg the segment an ACK answers,
// Ready a time, Via an intermediate ToR (or NoToR), Route a source-route
// reference (or NoRoute); yes/no properties are Flags bits. The rack of
// the source host is not stored: the engine keeps it per flow.
//
// INT: a switch stamps a record when a data packet leaves one of its
// queues (IntStore.Stamp); ACKs, pulls and pause frames are never stamped.
// An ACK made from a data packet keeps the data packet's records, so a
// sender's controller sees exactly the hops of its data path, in order.
// The store keeps MaxHops records per packet, sized by the fabric to its
// longest path; a packet that takes more hops still counts them (IntN),
// and IntStore.Truncated reports that its records are incomplete.
package packet
