package cc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rdcn/rdcn/internal/registry"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// Source is the sending end of one flow as its host drives it, whatever
// the transport: the host asks it for segments when its NIC is free (or,
// for a pulled flow, when the ToR pulls), hands it every reply (ACK, NACK,
// PULL) and fires its timer. Every method costs O(1) amortised per
// segment (a law's OnAck: O(hops)) and allocates nothing once the flow's
// window has been reached (BenchmarkFlowEnds).
type Source interface {
	// CanSend reports whether Next would hand out a segment now (window,
	// credit, bytes left).
	CanSend() bool
	// Next hands out the segment to send now: its offset and size, and
	// whether it is a retransmission; ok is false if none may go.
	Next(now rotor.Time) (seq int64, size int32, retx bool, ok bool)
	// Pending is the number of bytes not yet handed out once.
	Pending() int64
	// Rate is the pacing rate; 0 (or the line rate): no pacing.
	Rate() rotor.Rate
	// OnReply takes the reply p (ACK, NACK or PULL) to this flow. The
	// engine puts the INT records it holds for p in fb (Hops, Truncated);
	// OnReply reads the rest from p. It reports whether more may be sent
	// now.
	OnReply(now rotor.Time, p *packet.Packet, fb *Feedback) bool
	// Timer is when the source wants its timer to fire; 0: no timer.
	Timer() rotor.Time
	// OnTimeout fires the timer at now; true: something may be sent now.
	// A stale timer (the deadline moved) reports false.
	OnTimeout(now rotor.Time) bool
	// OnCircuit tells the source that the circuit from its ToR towards
	// its destination's ToR came up (day) or went down (night); a windowed
	// source passes it on to its Law.
	OnCircuit(now rotor.Time, up bool)
	// Done reports whether the source has nothing left to do.
	Done() bool
	// Counts returns the retransmissions and timeouts so far.
	Counts() (retransmits, timeouts int64)
}

// Sink is the receiving end of one flow. Receive takes a data packet (or
// an NDP trimmed header) of the flow at its destination host and, if the
// transport answers it, turns it into its reply in place (ACK or NACK):
// the engine only routes the packet it is handed back. The reply keeps
// the data packet's INT records (packet.Packet.IntN); switches do not add
// to replies.
type Sink interface {
	// Receive takes p at now.
	Receive(now rotor.Time, p *packet.Packet) Verdict
	// AckTimer is when the sink wants to send the ACK it holds back
	// (delayed ACKs); 0: it holds none.
	AckTimer() rotor.Time
	// OnAckTimer fires that timer at now; true: send the held ACK now. A
	// stale timer (the deadline moved or was cleared) reports false.
	OnAckTimer(now rotor.Time) bool
	// Counts returns the distinct payload bytes received and the data
	// packets that arrived after one with a higher offset.
	Counts() (received, reordered int64)
}

// Verdict is what a Sink's Receive tells the engine, as bits.
type Verdict uint8

// Verdict bits.
const (
	// Complete: this packet completed the flow.
	Complete Verdict = 1 << iota
	// Reply: the packet is now the reply; route it back to the sender
	// (its DstHost). Without it the engine frees the packet.
	Reply
	// WantPull: ask the receiving host's pull pacer for one PULL for this
	// flow (NDP).
	WantPull
	// Hold: the packet is now an ACK the sink holds back (delayed ACKs):
	// keep it, and send it when the sink's AckTimer fires, unless a later
	// verdict sends it (SendHeld) or a later ACK supersedes it (Reply or
	// Hold without SendHeld: the later ACK's cumulative point covers it,
	// and the held one is freed).
	Hold
	// SendHeld: send the ACK held back before this packet's reply (RFC
	// 8257 §3.2: the CE state changed).
	SendHeld
)

// Flow is what a transport's flow ends know of their flow.
type Flow struct {
	Size      int64      // payload bytes
	MSS       int32      // payload bytes per segment
	AckSize   int32      // bytes of an ACK, NACK or PULL on the wire
	Line      rotor.Rate // the host NIC's line rate
	MinRTO    rotor.Time // the retransmission timeout's floor (NDP: the timeout)
	MaxRTO    rotor.Time // windowed: the backed-off RTO's cap; 0: none
	RTOClock  rotor.Time // windowed: RFC 6298's clock granularity G
	DupThresh int        // windowed: fast retransmit threshold, segments; 0: timeouts only
	SACK      bool       // windowed: SACK recovery (RFC 6675); false: NewReno (RFC 6582)
	Window    int        // NDP: the first window, packets (0 for other transports)
	// SwallowReturns: NDP's sender holds a returned header for the next
	// PULL (transport.ndp_returned = swallow; NDP.SwallowReturns).
	SwallowReturns bool
	// PacketTimer: NDP's sender times each packet from when it was sent
	// (transport.ndp_timeout = packet; NDP.PacketTimer); StampAtSend: the
	// engine tells it when a packet leaves the NIC (NDP.Sent).
	PacketTimer, StampAtSend bool
	// DelAck > 1: the receiver ACKs every DelAck-th in-order segment, or
	// DelAckTimeout after the first one it holds back (windowed flows;
	// RFC 1122 §4.2.3.2, RFC 5681 §4.2); ≤ 1: every segment at once.
	DelAck        int
	DelAckTimeout rotor.Time
	Law           Law        // windowed: the congestion-control law (TransportSpec.Law)
	Start         rotor.Time // when the flow starts
}

// TransportSpec is one registered transport: how one flow's two ends
// behave.
type TransportSpec struct {
	Name string
	Doc  string // one line
	// Params are the configuration keys the flow ends read (as the
	// engine names them), in the order the engine lists them. A
	// registered transport may list only keys behind Flow's fields
	// (TransportKeys); with Law it lists LawKeys too.
	Params []string
	// Law: the flows take a congestion-control law (Flow.Law).
	Law bool
	// New makes the two ends of flow f (f.Size > 0).
	New func(f Flow) (Source, Sink)
}

// Transport names.
const (
	TransportWindow   = "window"   // reliable: window (or law), SACK, retransmission
	TransportLineRate = "linerate" // unreliable: line rate, nothing acknowledged
	TransportPull     = "pull"     // host-buffered: segments handed out in order when pulled, lossless
	TransportNDP      = "ndp"      // receiver-driven NDP
)

// lawKeys are the keys of Flow.Law: the law (transport.cc), its
// parameters, and the fixed law's window.
var lawKeys = []string{"transport.cc", "transport.cc_params", "transport.window"}

// flowKeys are the keys behind the Flow fields the engine fills for
// every transport (Size, Line and Start come from the flow and the
// topology; Window, SwallowReturns and PacketTimer are NDP's, from its
// own keys).
var flowKeys = []string{"transport.mss", "transport.incast_mss", "transport.ack_size", "transport.min_rto", "transport.max_rto", "transport.rto_clock", "transport.dupthresh", "transport.sack", "transport.delayed_ack", "transport.delayed_ack_timeout"}

// TransportKeys lists the keys a registered transport may read (its
// Params): the keys behind Flow's fields (MSS: transport.mss and, for
// incast responses, transport.incast_mss; AckSize, MinRTO, MaxRTO,
// RTOClock, DupThresh, SACK, DelAck, DelAckTimeout) and, with Law,
// LawKeys.
func TransportKeys() []string { return slices.Concat(flowKeys, lawKeys) }

// LawKeys lists the keys a transport with Law reads for its flows' law
// (transport.cc, transport.cc_params, transport.window).
func LawKeys() []string { return slices.Clone(lawKeys) }

// windowParams are the keys the windowed flows read.
var windowParams = []string{"transport.cc", "transport.cc_params", "transport.dupthresh", "transport.sack", "transport.window", "transport.min_rto", "transport.max_rto", "transport.rto_clock", "transport.ack_size", "transport.delayed_ack", "transport.delayed_ack_timeout", "transport.mss", "transport.incast_mss"}

var transports = registry.New("cc", "transport", func(t TransportSpec) string { return t.Name },
	TransportSpec{Name: TransportWindow, Doc: "reliable: a window (or a congestion controller), ACKs, SACK (or NewReno) fast recovery, retransmission timeout",
		Params: windowParams, Law: true,
		New: func(f Flow) (Source, Sink) {
			s := NewSender(f.Size, f.MSS, true, f.Law, f.MinRTO)
			s.DupThresh, s.SACK, s.MaxRTO, s.Granularity = f.DupThresh, f.SACK, f.MaxRTO, f.RTOClock
			r := newSink(f, answerAck)
			r.DelAck, r.DelAckTimeout = f.DelAck, f.DelAckTimeout
			return s, r
		}},
	TransportSpec{Name: TransportLineRate, Doc: "unreliable: no window, no ACKs, sends at the NIC rate",
		New: func(f Flow) (Source, Sink) {
			return NewSender(f.Size, f.MSS, false, &Unlimited{Line: f.Line}, f.MinRTO), newSink(f, answerNone)
		}},
	TransportSpec{Name: TransportPull, Doc: "host-buffered: the flow's bytes wait at its host, which hands out the next segment in order whenever the network pulls one; lossless (room is reserved hop by hop), so nothing is acknowledged or resent",
		New: func(f Flow) (Source, Sink) { return NewPulledSource(f.Size, f.MSS), newSink(f, answerNone) }},
	TransportSpec{Name: TransportNDP, Doc: "NDP (Handley et al., SIGCOMM 2017): first window at line rate, then one packet per PULL the receiver paces at its line rate; full switch queues trim data to headers (high priority), NACKs trigger retransmission",
		Params: []string{"transport.ndp_window", "transport.ndp_returned", "transport.ndp_timeout", "transport.min_rto", "transport.ack_size"},
		New: func(f Flow) (Source, Sink) {
			n := NewNDP(f.Size, f.MSS, f.Window, f.MinRTO, f.Start)
			n.SwallowReturns = f.SwallowReturns
			n.PacketTimer, n.StampAtSend = f.PacketTimer, f.StampAtSend
			return n, newSink(f, answerNDP)
		}},
)

// RegisterTransport adds an end-to-end transport; call it from an init
// function. Its flows' ends are t.New's Source and Sink; the engine
// treats them at the switches as it treats the window transport's (the
// package doc, "Registering a transport", says what it provides). It
// panics, with the name, on a missing New; on a key in Params that is
// not in TransportKeys (naming the keys), or a law key without Law, or
// Law without every law key; on a name already taken; or on a call
// after the registry has been read (a run has started).
func RegisterTransport(t TransportSpec) {
	if t.New == nil {
		panic(fmt.Sprintf("cc: transport %q registered without New", t.Name))
	}
	keys := TransportKeys()
	var unknown, law []string
	for _, k := range t.Params {
		switch {
		case !slices.Contains(keys, k):
			unknown = append(unknown, k)
		case slices.Contains(lawKeys, k):
			law = append(law, k)
		}
	}
	if len(unknown) > 0 {
		panic(fmt.Sprintf("cc: transport %q reads %s, which no Flow field carries (a registered transport may read %s)", t.Name, strings.Join(unknown, ", "), strings.Join(keys, ", ")))
	}
	if !t.Law && len(law) > 0 {
		panic(fmt.Sprintf("cc: transport %q reads %s, the keys of a law, without Law", t.Name, strings.Join(law, ", ")))
	}
	if t.Law && len(law) < len(lawKeys) {
		var missing []string
		for _, k := range lawKeys {
			if !slices.Contains(law, k) {
				missing = append(missing, k)
			}
		}
		panic(fmt.Sprintf("cc: transport %q takes a law (Law) but does not list %s in Params", t.Name, strings.Join(missing, ", ")))
	}
	transports.Add(t)
}

// Transports lists the transports, the built-in ones first, then the
// registered ones in registration order. It freezes the registry.
func Transports() []TransportSpec { return transports.All() }

// LookupTransport returns the transport called name.
func LookupTransport(name string) (TransportSpec, bool) { return transports.Lookup(name) }

// answer is what a Receiver sends back for data.
type answer uint8

const (
	answerNone answer = iota // nothing (lossless or unreliable flows)
	answerAck                // an ACK per data packet
	answerNDP                // NDP: an ACK per data packet and a PULL until complete, a NACK per trimmed header
)

func newSink(f Flow, a answer) *Receiver {
	r := &Receiver{Size: f.Size, MSS: f.MSS, AckSize: f.AckSize, answer: a}
	r.lossless = a == answerNone // each segment arrives at most once
	return r
}

// Receive implements Sink.
func (r *Receiver) Receive(now rotor.Time, p *packet.Packet) Verdict {
	if p.Kind == packet.Trimmed { // NDP: NACK the header, pull its retransmission
		if r.received == r.Size {
			return 0
		}
		MakeNack(p, r.MSS, r.AckSize)
		return Reply | WantPull
	}
	cum0, dups := r.cum, r.Duplicates
	cum, complete := r.OnData(p.Seq, p.Size)
	var v Verdict
	if complete {
		v = Complete
	}
	send := Reply
	switch r.answer {
	case answerNone:
		return v
	case answerNDP:
		if !complete { // every arrival asks for the next packet
			v |= WantPull
		}
	case answerAck:
		if r.DelAck > 1 {
			send = r.delayAck(now, p, cum0, r.Duplicates > dups)
		}
	}
	MakeAck(p, cum, r.MSS, r.AckSize)
	return v | send
}

// delayAck decides whether the ACK of data packet p, which found the
// cumulative point at cum0, goes now (Reply) or is held back (Hold), and
// whether the ACK held so far goes first (SendHeld). An in-order segment
// that leaves no hole is held until DelAck of them wait or DelAckTimeout
// has passed since the first (RFC 1122 §4.2.3.2, RFC 5681 §4.2); a
// duplicate, an out-of-order segment and one that fills a hole are ACKed
// at once (RFC 5681 §4.2, §4.3). A segment whose CE mark differs from
// the held ones' first sends their ACK, so that every ACK's ECE covers
// segments of one CE state (RFC 8257 §3.2).
func (r *Receiver) delayAck(now rotor.Time, p *packet.Packet, cum0 int64, dup bool) Verdict {
	ce := p.Has(packet.ECN)
	var v Verdict
	if r.pending > 0 && ce != r.pendingCE {
		v, r.pending, r.ackAt = SendHeld, 0, 0
	}
	inOrder := !dup && p.Seq == cum0 && r.cum == p.Seq+int64(p.Size) && r.highest <= r.cum
	if !inOrder {
		r.pending, r.ackAt = 0, 0
		return v | Reply
	}
	r.pending++
	r.pendingCE = ce
	if r.pending >= r.DelAck {
		r.pending, r.ackAt = 0, 0
		return v | Reply
	}
	if r.pending == 1 {
		r.ackAt = now + r.DelAckTimeout
	}
	return v | Hold
}

// AckTimer implements Sink.
func (r *Receiver) AckTimer() rotor.Time { return r.ackAt }

// OnAckTimer implements Sink.
func (r *Receiver) OnAckTimer(now rotor.Time) bool {
	if r.ackAt == 0 || now < r.ackAt {
		return false
	}
	r.pending, r.ackAt = 0, 0
	return true
}

// Counts implements Sink.
func (r *Receiver) Counts() (received, reordered int64) { return r.received, r.Reordered }

// MakeAck turns data packet p into its acknowledgement in place: the
// cumulative point cum, the segment it answers (EchoSeg, offset/mss),
// the data's send time (Sent) for the RTT sample, ECE if p carried an ECN
// mark, and p's Retx and Circuit flags; size bytes, addressed back to
// the data's sender with no route yet (DstToR, Via, Route unset). It keeps
// the data packet's INT records (IntN).
func MakeAck(p *packet.Packet, cum int64, mss, size int32) {
	flags := p.Flags & (packet.Retx | packet.Circuit)
	if p.Has(packet.ECN) {
		flags |= packet.ECE
	}
	p.Kind, p.EchoSeg, p.Seq, p.Size, p.Flags = packet.Ack, int32(p.Seq/int64(mss)), cum, size, flags
	turn(p)
}

// MakeNack turns trimmed header p into its NACK in place (size bytes,
// the segment in EchoSeg, no INT records).
func MakeNack(p *packet.Packet, mss, size int32) {
	p.Kind, p.EchoSeg, p.Size, p.Flags, p.IntN = packet.Nack, int32(p.Seq/int64(mss)), size, p.Flags&packet.Retx, 0
	turn(p)
}

// turn addresses p back to its sender, unrouted, with no PullNo (the
// data packet's Keeper, if it was relayed, is not the reply's).
func turn(p *packet.Packet) {
	p.Hops, p.Via, p.Route, p.DstToR = 0, packet.NoToR, packet.NoRoute, packet.NoToR
	p.SetPullNo(0)
	p.SrcHost, p.DstHost = p.DstHost, p.SrcHost
}

// MakePull makes p (fresh from a pool) the PULL that receiving host from
// sends at now to host to, the sender of flow, size bytes on the wire.
func MakePull(p *packet.Packet, flow, from, to, size int32, now rotor.Time) {
	p.Reset(packet.Pull)
	p.Flow, p.Size, p.Sent = flow, size, now
	p.SrcHost, p.DstHost, p.DstToR = from, to, packet.NoToR
}

// The windowed (and line-rate) Sender as a Source.

// Pending implements Source.
func (s *Sender) Pending() int64 { return s.Size - s.next }

// Rate implements Source: the law's pacing rate.
func (s *Sender) Rate() rotor.Rate { return s.CC.Rate() }

// OnReply implements Source: p is an ACK. It reports whether a segment
// may go now (new data acknowledged, a loss found, a window inflated).
func (s *Sender) OnReply(now rotor.Time, p *packet.Packet, fb *Feedback) bool {
	fb.ECE, fb.Circuit = p.Has(packet.ECE), p.Has(packet.Circuit)
	pipe, inflate, dups := s.pipe, s.inflate, s.dupAcks
	newly := s.OnAck(now, p.Seq, int64(p.EchoSeg)*int64(s.MSS), p.Sent, p.Has(packet.Retx), fb)
	return newly > 0 || s.pipe < pipe || s.inflate > inflate || s.fastRetx || s.dupAcks > dups
}

// Timer implements Source: the retransmission deadline.
func (s *Sender) Timer() rotor.Time { return s.Deadline }

// OnCircuit implements Source: the law hears it.
func (s *Sender) OnCircuit(now rotor.Time, up bool) { s.CC.OnCircuit(now, up) }

// Counts implements Source.
func (s *Sender) Counts() (retransmits, timeouts int64) { return s.Retransmits, s.Timeouts }

// The NDP sender as a Source.

// Pending implements Source.
func (n *NDP) Pending() int64 { return n.Size - min(n.Size, n.next*int64(n.MSS)) }

// Rate implements Source: NDP does not pace its sends (PULLs clock them).
func (n *NDP) Rate() rotor.Rate { return 0 }

// OnReply implements Source: an ACK, a NACK, or a PULL (which lets one
// packet go: it reports true). A NACK reports true if the sender holds
// credit for the retransmission it queues (PULLs that came while nothing
// was left to send): it goes at once. A reply with a PullNo grants what
// OnPullNo grants (an ACK or NACK carrying a PULL reports true if it
// granted a packet).
func (n *NDP) OnReply(now rotor.Time, p *packet.Packet, _ *Feedback) bool {
	switch p.Kind {
	case packet.Ack:
		n.answered()
		n.OnAck(int64(p.EchoSeg), now)
		if no := p.PullNo(); no > 0 {
			n.pullWindow--
			return n.OnPullNo(no, now)
		}
	case packet.Nack:
		if p.Has(packet.Bounced) { // a switch returned the header
			gaveCredit := n.OnReturn(int64(p.EchoSeg), now)
			if n.SwallowReturns {
				return gaveCredit // swallowed: it waits for the next PULL
			}
			return true // resent at once
		}
		n.answered()
		n.OnNack(int64(p.EchoSeg), now)
		if no := p.PullNo(); no > 0 { // not counted in pullWindow, as NdpSrc::processNack does not
			n.OnPullNo(no, now)
		}
		return n.CanSend()
	case packet.Pull:
		n.pullWindow--
		if no := p.PullNo(); no > 0 {
			return n.OnPullNo(no, now)
		}
		n.OnPull(now)
		return true
	}
	return false
}

// answered counts an ACK or NACK: the receiver sends a PULL for it, and
// one more packet of the first window is answered.
func (n *NDP) answered() {
	n.pullWindow++
	n.firstUnheard--
}

// Timer implements Source: the timeout while segments are unacknowledged.
func (n *NDP) Timer() rotor.Time {
	if n.Done() {
		return 0
	}
	return n.Deadline()
}

// OnCircuit implements Source: NDP ignores circuits.
func (n *NDP) OnCircuit(rotor.Time, bool) {}

// Counts implements Source.
func (n *NDP) Counts() (retransmits, timeouts int64) { return n.Retransmits, n.Timeouts }

// PulledSource is the host side of a host-buffered (pulled) flow: its
// bytes wait at the sending host, which hands out the next segment, in
// order, whenever the network pulls one. The network reserves room for
// every pulled packet, so nothing is lost, acknowledged or resent.
type PulledSource struct {
	Size int64
	MSS  int32
	next int64 // next byte to hand out
}

// NewPulledSource prepares the host side of a pulled flow of size bytes
// in segments of mss bytes.
func NewPulledSource(size int64, mss int32) *PulledSource {
	return &PulledSource{Size: size, MSS: mss}
}

// CanSend implements Source: bytes are left.
func (p *PulledSource) CanSend() bool { return p.next < p.Size }

// Next implements Source: the next segment in order.
func (p *PulledSource) Next(rotor.Time) (seq int64, size int32, retx bool, ok bool) {
	if p.next >= p.Size {
		return 0, 0, false, false
	}
	seq, size = p.next, int32(min(p.Size-p.next, int64(p.MSS)))
	p.next += int64(size)
	return seq, size, false, true
}

// NextSize is the size of the segment Next hands out next (0: none).
func (p *PulledSource) NextSize() int32 { return int32(min(p.Size-p.next, int64(p.MSS))) }

// Pending implements Source.
func (p *PulledSource) Pending() int64 { return p.Size - p.next }

// Rate implements Source: the network's pulls pace it.
func (p *PulledSource) Rate() rotor.Rate { return 0 }

// OnReply implements Source: a pulled flow gets no replies.
func (p *PulledSource) OnReply(rotor.Time, *packet.Packet, *Feedback) bool { return false }

// Timer implements Source: none.
func (p *PulledSource) Timer() rotor.Time { return 0 }

// OnTimeout implements Source: never fires.
func (p *PulledSource) OnTimeout(rotor.Time) bool { return false }

// OnCircuit implements Source: the network decides when to pull.
func (p *PulledSource) OnCircuit(rotor.Time, bool) {}

// Done implements Source: every byte handed out.
func (p *PulledSource) Done() bool { return p.next >= p.Size }

// Counts implements Source: nothing is resent.
func (p *PulledSource) Counts() (retransmits, timeouts int64) { return 0, 0 }

var (
	_ Source = (*Sender)(nil)
	_ Source = (*NDP)(nil)
	_ Source = (*PulledSource)(nil)
	_ Sink   = (*Receiver)(nil)
)
