package cc

import (
	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/rotor"
)

// NDP is the sender side of NDP (Handley et al., "Re-architecting
// datacenter networks and stacks for low latency and high performance",
// SIGCOMM 2017): a receiver-driven transport. The sender sends its first
// window at line rate; after that it sends one packet per PULL the
// receiver paces at its own line rate. A switch whose queue is full
// trims a data packet to its header instead of dropping it; the receiver
// answers a header with a NACK and a PULL, the NACK queues the segment
// for retransmission and the PULL lets it go. Retransmissions go before
// new data. A timeout (nothing heard for RTO) re-queues every segment
// sent and not acknowledged: it recovers lost headers, NACKs and PULLs,
// which switches drop only when even a header finds no room. With
// PacketTimer each segment times out on its own, RTO after it was sent,
// as opera-sim's NdpSrc times its packets.
//
// Per-flow state is a few words plus two sliding bitmaps (acknowledged,
// queued for retransmission) spanning the segments in flight and a FIFO
// of segments to retransmit: nothing is allocated per packet once they
// have grown to the flow's window.
type NDP struct {
	Size int64
	MSS  int32
	// Credit is the number of packets the sender may send now: the first
	// window, then one per PULL. A PULL that finds nothing to send is
	// spent (NDP's sender ignores it).
	Credit int
	// LastHeard is when the sender last heard from the receiver (ACK,
	// NACK or PULL); the timeout fires RTO after it.
	LastHeard rotor.Time
	RTO       rotor.Time
	// LastPull is the highest cumulative PULL number heard
	// (packet.PullNo; transport.ndp_pulls = operasim).
	LastPull int32

	segs   int64 // segments of the flow
	next   int64 // next new segment
	una    int64 // every segment below it is acknowledged
	nAcked int64
	acked  segBits
	queued segBits // in retx
	retx   des.FIFO

	// SwallowReturns: a header a switch returned waits for the next PULL
	// unless the sender expects none (pullWindow 0 and at most this
	// packet of the first window unheard of), as htsim's
	// NdpSrc::processRTS "swallows" it (transport.ndp_returned =
	// swallow); false: it goes at once with the credit it spent.
	SwallowReturns bool
	// pullWindow counts the PULLs expected as NdpSrc does: one per ACK
	// or NACK, less one per PULL packet or ACK carrying a PULL (not a
	// NACK carrying one); firstUnheard the first window's packets not
	// yet answered (ACK, NACK or return).
	pullWindow, firstUnheard int64

	// PacketTimer: each segment sent and not yet answered (ACK, NACK or
	// return) times out RTO after it was sent, whatever else the sender
	// hears; the due ones are queued for retransmission, each with a
	// credit (opera-sim's NdpSrc::retransmit_packet sends them at once).
	// false: the flow's timer, RTO after the sender last heard anything.
	// StampAtSend: the engine stamps a segment when it leaves the NIC
	// (Sent), not when Next hands it out.
	PacketTimer, StampAtSend bool
	sentAt                   segTimes
	oldest                   rotor.Time // no segment stamped before it; 0: none stamped

	Retransmits, Timeouts int64
}

// NewNDP prepares the sender of a flow of size bytes in segments of mss
// bytes, with a first window of iw packets and the timeout rto, starting
// at now.
func NewNDP(size int64, mss int32, iw int, rto, now rotor.Time) *NDP {
	segs := (size + int64(mss) - 1) / int64(mss)
	return &NDP{Size: size, MSS: mss, Credit: iw, RTO: rto, LastHeard: now,
		segs: segs, firstUnheard: min(int64(iw), segs)}
}

// Done reports whether every segment is acknowledged.
func (n *NDP) Done() bool { return n.nAcked == n.segs }

// CanSend reports whether Next would return a packet.
func (n *NDP) CanSend() bool {
	return n.Credit > 0 && (n.retx.Len() > 0 || n.next < n.segs)
}

// Sendable is the number of packets Next would hand out now, one after
// another: the credit, at most the queued retransmissions and new
// segments.
func (n *NDP) Sendable() int {
	return int(min(int64(max(n.Credit, 0)), int64(n.retx.Len())+n.segs-n.next))
}

// Retransmitting reports whether a retransmission is queued (Next hands
// it out before new data).
func (n *NDP) Retransmitting() bool { return n.retx.Len() > 0 }

// Deadline is when the timeout fires unless the sender hears from the
// receiver before (PacketTimer: at the earliest, RTO after the oldest
// stamp; 0 if no segment waits for an answer).
func (n *NDP) Deadline() rotor.Time {
	if n.PacketTimer {
		if n.oldest == 0 {
			return 0
		}
		return n.oldest + n.RTO
	}
	return n.LastHeard + n.RTO
}

// Sent stamps the segment at byte offset seq as sent at now (PacketTimer
// with StampAtSend: the engine calls it when the packet leaves the NIC).
func (n *NDP) Sent(seq int64, now rotor.Time) {
	n.stamp(seq/int64(n.MSS), now)
}

func (n *NDP) stamp(seg int64, now rotor.Time) {
	if !n.PacketTimer || seg < n.una || n.acked.get(seg) {
		return
	}
	n.sentAt.set(seg, now)
	if n.oldest == 0 {
		n.oldest = now
	}
}

// Next spends one credit on the next packet: a queued retransmission, else
// the next new segment. ok is false if there is no credit or nothing to
// send (then the credit is spent).
func (n *NDP) Next(now rotor.Time) (seq int64, size int32, retx bool, ok bool) {
	if n.Credit <= 0 {
		return 0, 0, false, false
	}
	for n.retx.Len() > 0 {
		seg := int64(n.retx.Pop())
		n.queued.clear(seg)
		if n.acked.get(seg) {
			continue
		}
		n.Credit--
		n.Retransmits++
		if !n.StampAtSend {
			n.stamp(seg, now)
		}
		return seg * int64(n.MSS), n.segLen(seg), true, true
	}
	if n.next < n.segs {
		seg := n.next
		n.next++
		n.Credit--
		if !n.StampAtSend {
			n.stamp(seg, now)
		}
		return seg * int64(n.MSS), n.segLen(seg), false, true
	}
	n.Credit = 0
	return 0, 0, false, false
}

func (n *NDP) segLen(seg int64) int32 {
	return int32(min(int64(n.MSS), n.Size-seg*int64(n.MSS)))
}

// OnAck records the acknowledgement of segment seg.
func (n *NDP) OnAck(seg int64, now rotor.Time) {
	n.LastHeard = now
	if seg < 0 || seg >= n.segs || n.acked.get(seg) {
		return
	}
	n.acked.set(seg)
	n.nAcked++
	n.sentAt.set(seg, 0)
	for n.una < n.segs && n.acked.get(n.una) {
		n.una++
	}
	n.acked.advance(n.una)
	n.queued.advance(n.una)
	n.sentAt.advance(n.una)
}

// OnNack queues segment seg, whose payload a switch trimmed, for
// retransmission.
func (n *NDP) OnNack(seg int64, now rotor.Time) {
	n.LastHeard = now
	if seg >= 0 && seg < n.next {
		n.sentAt.set(seg, 0)
		n.requeue(seg)
	}
}

// OnReturn handles segment seg's header, which a switch whose header
// queue was full returned (NDP's return to sender): the receiver never
// saw it and will send no PULL for it, so the segment is queued for
// retransmission with the credit it spent, and goes at once; with
// SwallowReturns, only if no PULL is expected (else it waits for one and
// the flow has one packet less in flight). It reports whether it gave
// the credit back.
func (n *NDP) OnReturn(seg int64, now rotor.Time) bool {
	n.LastHeard = now
	n.firstUnheard--
	if seg < 0 || seg >= n.next || n.acked.get(seg) {
		return false
	}
	n.sentAt.set(seg, 0)
	n.requeue(seg)
	if n.SwallowReturns && (n.pullWindow != 0 || n.firstUnheard > 1) {
		return false
	}
	n.Credit++
	return true
}

func (n *NDP) requeue(seg int64) {
	if n.acked.get(seg) || n.queued.get(seg) {
		return
	}
	n.queued.set(seg)
	n.retx.Push(int32(seg))
}

// OnPull grants one packet.
func (n *NDP) OnPull(now rotor.Time) {
	n.LastHeard = now
	n.Credit++
}

// OnPullNo handles cumulative PULL number no (an NDP PULL's, or one an
// ACK or NACK carries): it grants the packets by which no exceeds the
// highest number heard, so a PULL lost is made up by the next one and a
// PULL that arrives after a later one grants nothing (opera-sim's
// NdpSrc::pull_packets). It reports whether it granted any.
func (n *NDP) OnPullNo(no int32, now rotor.Time) bool {
	n.LastHeard = now
	if no <= n.LastPull {
		return false
	}
	n.Credit += int(no - n.LastPull)
	n.LastPull = no
	return true
}

// OnTimeout handles the timer at now. If nothing was heard for RTO and
// segments are unacknowledged, it queues every segment sent and not
// acknowledged for retransmission, grants one packet (the receiver's PULLs
// clock the rest) and reports true. Otherwise it reports false; the timer
// is re-armed at Deadline while the flow is not Done.
func (n *NDP) OnTimeout(now rotor.Time) bool {
	if n.PacketTimer {
		return n.onPacketTimeout(now)
	}
	if n.Done() || now < n.Deadline() {
		return false
	}
	n.Timeouts++
	for seg := n.una; seg < n.next; seg++ {
		n.requeue(seg)
	}
	n.Credit = max(n.Credit, 1)
	n.LastHeard = now
	return true
}

// onPacketTimeout is OnTimeout with PacketTimer: every segment stamped RTO
// ago or earlier is queued for retransmission with a credit of its own
// and unstamped (the retransmission is stamped when it is sent); the
// oldest stamp left sets the next deadline. It reports whether any was
// due. The scan covers the segments in flight, once per deadline.
func (n *NDP) onPacketTimeout(now rotor.Time) bool {
	if n.Done() || n.oldest == 0 || now < n.oldest+n.RTO {
		return false
	}
	due := 0
	n.oldest = 0
	for seg := max(n.una, n.sentAt.base); seg < n.next; seg++ {
		t := n.sentAt.get(seg)
		switch {
		case t == 0:
		case t+n.RTO <= now:
			n.sentAt.set(seg, 0)
			if !n.acked.get(seg) && !n.queued.get(seg) {
				n.requeue(seg)
				due++
			}
		case n.oldest == 0 || t < n.oldest:
			n.oldest = t
		}
	}
	if due == 0 {
		return false
	}
	n.Timeouts++
	n.Credit += due
	return true
}

// segTimes is a sliding array of times by segment, from segment base on
// (0: none); like segBits it keeps and reuses its array as the window
// slides, so it allocates only when the span outgrows every span before.
type segTimes struct {
	base int64 // the segment of arr[lo]
	lo   int
	arr  []rotor.Time
}

func (b *segTimes) get(seg int64) rotor.Time {
	i := seg - b.base
	if i < 0 || i >= int64(len(b.arr)-b.lo) {
		return 0
	}
	return b.arr[int64(b.lo)+i]
}

// set sets seg's time; a segment below base is ignored, and setting 0
// past the end grows nothing.
func (b *segTimes) set(seg int64, t rotor.Time) {
	i := seg - b.base
	if i < 0 {
		return
	}
	live := int64(len(b.arr) - b.lo)
	if i >= live {
		if t == 0 {
			return
		}
		b.arr, b.lo = growLive(b.arr, b.lo, i+1, 16)
	}
	b.arr[int64(b.lo)+i] = t
}

// advance forgets the segments below seg.
func (b *segTimes) advance(seg int64) {
	k := min(seg-b.base, int64(len(b.arr)-b.lo))
	if k <= 0 {
		if seg > b.base && len(b.arr) == b.lo {
			b.base = seg
		}
		return
	}
	b.lo += int(k)
	b.base += k
	if b.lo == len(b.arr) {
		b.arr, b.lo = b.arr[:0], 0
		b.base = seg
	}
}
