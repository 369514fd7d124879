package fabric

import (
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/workload"
)

// How a windowed flow opens its connection (transport.handshake, per
// traffic class). Its FCT counts from its start either way, the
// handshake included, as ns-3's ABM evaluation counts it (its sink's
// clock starts with the application, before the SYN).
//
// idle: the SYN and the SYN-ACK on the flow's idle path, one ACK-sized
// packet each way, store-and-forward (handshakeTime): the first data
// leaves that long after the start. They are not queued or lost.
//
// queued: the SYN, the SYN-ACK and the ACK that completes the handshake
// are packets of SynSize, SynSize and transport.ack_size bytes that the
// hosts send first (before data, as ACKs) and the switches queue and may
// drop like ACKs (the control class, under the buffer policy), as ns-3's
// ABM example gives them priority 0, its ACKs' queue. The receiver
// answers every SYN with a SYN-ACK. The sender's first SYN-ACK makes it
// send the handshake's ACK and then its data (ns-3's SYN_SENT →
// ESTABLISHED); later ones are ignored. A SYN without an answer is sent
// again SynTimeout after it, and each further one after twice the wait
// before (ns-3.39's ConnTimeout backoff: 10, 20, 40 … ms); after
// SynTries SYNs the connection fails and the flow never completes. Not
// modelled: the receiver's own SYN-ACK timer (a lost SYN-ACK is
// repaired by the sender's next SYN), an RTT sample from the handshake,
// and ns-3's unscheduled-bytes tag on the SYN (ABM's α_unsched applies to
// data only).

// transport.handshake (and transport.incast_handshake) names.
const (
	HandshakeNone   = "none"
	HandshakeIdle   = "idle"
	HandshakeQueued = "queued"
)

// SynSize is a SYN's and a SYN-ACK's bytes on the wire: ns-3.39's, with
// the options the ABM example's sockets put on them (window scale 3 B,
// SACK permitted 2 B, timestamp 10 B, padded to 20 B) after a 20 B TCP
// header, plus 20 B of IPv4 and 2 B of PPP.
const SynSize = int32(62)

// Handshakes is the table of handshakes.
var Handshakes = Registry{Key: "transport.handshake", What: "handshake", Entries: []Entry{
	{Name: HandshakeNone, Doc: "the first data leaves at the flow's start"},
	{Name: HandshakeIdle, Doc: "one SYN/SYN-ACK round trip of ACK-sized packets on the idle path, not queued or lost, before the first data"},
	{Name: HandshakeQueued, Doc: "SYN, SYN-ACK (62 B each, ns-3's) and the handshake's ACK are packets in the fabric's queues (the ACKs' class, under the buffer policy) and can be dropped; a SYN without answer is sent again after `transport.syn_timeout`, doubling, at most `transport.syn_tries` SYNs (then the flow never completes)"},
}}

// validateHandshake checks the handshake names and the SYN timer keys.
func (c *Config) validateHandshake() error {
	queued := false
	for _, h := range []struct{ key, name string }{{"transport.handshake", c.Handshake}, {"transport.incast_handshake", c.IncastHandshake}} {
		r := Handshakes
		r.Key = h.key
		switch {
		case h.name == "":
			continue
		case r.Check(h.name) != nil:
			return r.Check(h.name)
		case h.name != HandshakeNone && !transportReads(c.Transport, "transport.handshake"):
			return cfgErr(h.key, "only the windowed transport opens connections (transport.kind window), not %s", c.Transport)
		}
		queued = queued || h.name == HandshakeQueued
	}
	switch {
	case c.SynTimeout < 0 || c.SynTimeout > DefaultMaxRTO:
		return cfgErr("transport.syn_timeout", "must be in (0, %v], got %v", DefaultMaxRTO, c.SynTimeout)
	case c.SynTries < 0:
		return cfgErr("transport.syn_tries", "must be at least 1, got %d", c.SynTries)
	case c.SynTries > MaxSynTries:
		return cfgErr("transport.syn_tries", "must be at most %d, got %d", MaxSynTries, c.SynTries)
	case !queued && c.SynTimeout != 0:
		return cfgErr("transport.syn_timeout", "is read only with a queued handshake (transport.handshake or transport.incast_handshake = queued)")
	case !queued && c.SynTries != 0:
		return cfgErr("transport.syn_tries", "is read only with a queued handshake (transport.handshake or transport.incast_handshake = queued)")
	}
	if queued {
		if c.SynTimeout == 0 {
			c.SynTimeout = DefaultSynTimeout
		}
		if c.SynTries == 0 {
			c.SynTries = DefaultSynTries
		}
	}
	return nil
}

// MaxSynTries bounds transport.syn_tries: the wait before the last
// doubles SynTries − 1 times (at most 2^15 × 60 s).
const MaxSynTries = 16

// handshakeOf is how flow f opens its connection.
func (s *sim) handshakeOf(f workload.Flow) string {
	if f.Query > 0 {
		return s.cfg.IncastHandshake
	}
	return s.cfg.Handshake
}

// synStats counts the queued handshakes' SYNs.
type synStats struct {
	syns, timeouts, failed int64
}

// sendSyn sends flow id's next SYN from its host, first in line like an
// ACK, and arms its timer.
func (s *sim) sendSyn(id int32) {
	fs := &s.flows[id]
	now := s.q.Now()
	idx := s.pool.Alloc()
	p := s.pool.At(idx)
	p.Reset(packet.Syn)
	p.Flow, p.Size, p.Sent = id, SynSize, now
	p.SrcHost, p.DstHost, p.DstToR = int32(fs.f.Src), int32(fs.f.Dst), fs.dstToR
	fs.syns++
	fs.synTimerAt = now + s.cfg.SynTimeout<<(fs.syns-1)
	s.q.Schedule(fs.synTimerAt, evSynTimer, id, 0)
	s.m.syn.syns++
	s.sendReply(p.SrcHost, idx)
}

// synTimer fires flow id's SYN timer: the SYN goes again, or after
// SynTries the connection fails. A timer the SYN-ACK disarmed does
// nothing.
func (s *sim) synTimer(id int32) {
	fs := &s.flows[id]
	if fs.src == nil || fs.synTimerAt != s.q.Now() { // retired, or disarmed
		return
	}
	fs.synTimerAt = 0
	s.m.syn.timeouts++
	if int(fs.syns) >= s.cfg.SynTries {
		s.m.syn.failed++
		return
	}
	s.sendSyn(id)
}

// handshakeArrive takes handshake packet idx at host h: the receiver
// answers a SYN, the sender opens its flow on its first SYN-ACK.
func (s *sim) handshakeArrive(h, idx int32, p *packet.Packet) {
	fs := &s.flows[p.Flow]
	switch {
	case p.Kind == packet.Syn && p.Seq == 0: // a SYN: answer it
		p.Kind, p.Size, p.Flags, p.IntN = packet.SynAck, SynSize, 0, 0
		s.turnHandshake(p, fs.srcToR)
		s.sendReply(h, idx)
	case p.Kind == packet.SynAck && fs.src != nil && fs.synTimerAt != 0: // the first SYN-ACK
		fs.synTimerAt = 0
		p.Kind, p.Seq, p.Size, p.Flags, p.IntN = packet.Syn, 1, s.cfg.AckSize, 0, 0
		s.turnHandshake(p, fs.dstToR)
		s.sendReply(h, idx)
		s.openFlow(p.Flow)
	default: // the handshake's ACK, or a SYN-ACK after the first
		s.pool.Free(idx)
	}
}

// turnHandshake addresses handshake packet p back to the host it came
// from, in rack dstToR, unrouted.
func (s *sim) turnHandshake(p *packet.Packet, dstToR int32) {
	p.Hops, p.Via, p.Route, p.DstToR = 0, packet.NoToR, packet.NoRoute, dstToR
	p.SrcHost, p.DstHost = p.DstHost, p.SrcHost
	p.Sent = s.q.Now()
}

// handshakeSummary is the summary's count of queued handshakes; nil
// without one.
func (s *sim) handshakeSummary() *HandshakeStats {
	if s.cfg.Handshake != HandshakeQueued && s.cfg.IncastHandshake != HandshakeQueued {
		return nil
	}
	m := s.m.syn
	return &HandshakeStats{Syns: m.syns, Timeouts: m.timeouts, Failed: m.failed}
}

// HandshakeStats counts the SYNs of queued handshakes: those sent, the
// SYN timeouts (each sends a SYN again, or fails the connection) and the
// connections that failed.
type HandshakeStats struct {
	Syns     int64 `json:"syns"`
	Timeouts int64 `json:"syn_timeouts"`
	Failed   int64 `json:"failed_connections"`
}
