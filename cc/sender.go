package cc

import "github.com/rdcn/rdcn/rotor"

// Sender is the sending half of one flow.
type Sender struct {
	Size     int64 // flow bytes
	MSS      int32
	Reliable bool // retransmit on timeout; false: send once at line rate
	CC       Law

	next     int64 // next new byte to send
	una      int64 // cumulative acknowledged
	inflight int64
	sacked   segBits // per segment, from una on
	retx     int64   // next byte to consider for retransmission; ≥ min(next, retxEnd): none
	retxEnd  int64   // retransmissions stop here (a timeout: everything sent)

	// DupThresh > 0 turns on SACK loss detection (RFC 6675's IsLost): a
	// segment with DupThresh segments' worth of SACKed bytes above it
	// (measured to the highest SACKed byte) is lost, resent at once, and
	// the law hears OnLoss. 0: losses are found by the timeout only.
	DupThresh int
	highSack  int64 // end of the highest SACKed segment
	fastTo    int64 // segments below this were already declared lost

	MinRTO   rotor.Time
	srtt     rotor.Time
	rttvar   rotor.Time
	backoff  uint
	Deadline rotor.Time // retransmission deadline; 0: no timer armed

	Retransmits int64
	Timeouts    int64
}

// NewSender prepares a sender for size bytes.
func NewSender(size int64, mss int32, reliable bool, c Law, minRTO rotor.Time) *Sender {
	s := &Sender{Size: size, MSS: mss, Reliable: reliable, CC: c, MinRTO: minRTO}
	if reliable {
		s.retx, s.retxEnd = size, size
	}
	return s
}

func (s *Sender) segLen(seq int64) int32 {
	if r := s.Size - seq; r < int64(s.MSS) {
		return int32(r)
	}
	return s.MSS
}

func (s *Sender) isSacked(seg int64) bool { return s.sacked.get(seg) }

// Done reports whether the sender has nothing left to do: everything is
// acknowledged (reliable) or sent (unreliable).
func (s *Sender) Done() bool {
	if s.Reliable {
		return s.una >= s.Size
	}
	return s.next >= s.Size
}

// Acked is the cumulative acknowledged byte count.
func (s *Sender) Acked() int64 { return s.una }

// Inflight is the number of bytes sent and not yet acknowledged.
func (s *Sender) Inflight() int64 { return s.inflight }

// CanSend reports whether the window allows sending a segment now.
func (s *Sender) CanSend() bool {
	if s.Reliable && s.retx < min(s.next, s.retxEnd) {
		// retransmissions pending
	} else if s.next >= s.Size {
		return false
	}
	w := s.CC.Window()
	return w <= 0 || s.inflight < w
}

// Next returns the segment to send now; ok is false if none may be sent.
// The caller transmits it and must call Next again only when the window or
// the pacing timer allows.
func (s *Sender) Next(now rotor.Time) (seq int64, size int32, retx bool, ok bool) {
	if !s.CanSend() {
		return 0, 0, false, false
	}
	if s.Reliable {
		for s.retx < min(s.next, s.retxEnd) {
			seg := s.retx / int64(s.MSS)
			seq := seg * int64(s.MSS)
			s.retx = seq + int64(s.MSS)
			if seq >= s.una && !s.isSacked(seg) {
				size := s.segLen(seq)
				s.inflight += int64(size)
				s.Retransmits++
				s.arm(now)
				return seq, size, true, true
			}
		}
		if s.next >= s.Size {
			return 0, 0, false, false
		}
	}
	seq = s.next
	size = s.segLen(seq)
	s.next += int64(size)
	s.inflight += int64(size)
	if s.Reliable {
		s.retx, s.retxEnd = s.next, s.next
		s.arm(now)
	}
	return seq, size, false, true
}

func (s *Sender) rto() rotor.Time {
	r := s.MinRTO
	if s.srtt > 0 {
		if e := s.srtt + 4*s.rttvar; e > r {
			r = e
		}
	}
	return r << s.backoff
}

func (s *Sender) arm(now rotor.Time) {
	if s.Deadline == 0 {
		s.Deadline = now + s.rto()
	}
}

// OnAck processes an acknowledgement: cumulative point cum, the answered
// segment at sackSeq, the data's send time (for an RTT sample unless it
// was a retransmission). If it acknowledges new data it completes f (the
// caller fills ECE, Circuit, Hops and Truncated) with the sequence state
// and the RTT sample, calls the law, and reports how many bytes were newly
// acknowledged.
func (s *Sender) OnAck(now rotor.Time, cum, sackSeq int64, sent rotor.Time, retx bool, f *Feedback) int64 {
	var newly int64
	if sackSeq >= s.una && sackSeq < s.Size {
		seg := sackSeq / int64(s.MSS)
		if !s.isSacked(seg) {
			s.sacked.set(seg)
			newly += int64(s.segLen(sackSeq))
		}
	}
	for s.una < cum {
		seg := s.una / int64(s.MSS)
		l := int64(s.segLen(s.una))
		if !s.isSacked(seg) {
			newly += l
		}
		s.una += l
	}
	s.sacked.advance(s.una / int64(s.MSS))
	if newly == 0 {
		return 0
	}
	lost := false
	if s.DupThresh > 0 {
		lost = s.detectLoss(sackSeq)
	}
	s.inflight -= newly
	if s.inflight < 0 {
		s.inflight = 0
	}
	s.backoff = 0
	f.Now, f.Cum, f.Acked, f.SndNxt, f.RTT = now, s.una, newly, s.next, 0
	if !retx {
		r := now - sent
		f.RTT = r
		if s.srtt == 0 {
			s.srtt, s.rttvar = r, r/2
		} else {
			d := s.srtt - r
			if d < 0 {
				d = -d
			}
			s.rttvar = (3*s.rttvar + d) / 4
			s.srtt = (7*s.srtt + r) / 8
		}
	}
	s.CC.OnAck(f)
	if lost {
		s.CC.OnLoss(now)
	}
	if s.una >= s.Size {
		s.Deadline = 0
	} else {
		s.Deadline = now + s.rto()
	}
	return newly
}

// detectLoss applies the SACK loss rule after an ACK that SACKed the
// segment at sackSeq: the unSACKed segments from the last declared loss
// up to DupThresh segments below the highest SACKed byte are lost. They
// leave the bytes in flight and are queued for retransmission. It
// reports whether any segment was newly declared lost.
func (s *Sender) detectLoss(sackSeq int64) bool {
	if sackSeq < s.Size {
		s.highSack = max(s.highSack, sackSeq+int64(s.segLen(sackSeq)))
	}
	lostEnd := s.highSack - int64(s.DupThresh)*int64(s.MSS)
	from := max(s.una, s.fastTo)
	if lostEnd <= from {
		return false
	}
	mss := int64(s.MSS)
	lost := false
	for seq := from / mss * mss; seq < lostEnd; seq += mss {
		if !s.isSacked(seq / mss) {
			s.inflight -= int64(s.segLen(seq))
			lost = true
		}
	}
	s.inflight = max(s.inflight, 0)
	s.fastTo = lostEnd
	if !lost {
		return false
	}
	if s.retx < min(s.next, s.retxEnd) { // a walk is pending: widen it
		s.retx, s.retxEnd = min(s.retx, from), max(s.retxEnd, lostEnd)
	} else {
		s.retx, s.retxEnd = from, lostEnd
	}
	return true
}

// OnTimeout handles the retransmission timer firing at now. It returns
// false if the timer was stale (the deadline moved or was cleared).
func (s *Sender) OnTimeout(now rotor.Time) bool {
	if s.Deadline == 0 || now < s.Deadline || s.Done() {
		return false
	}
	s.Timeouts++
	if s.backoff < 6 {
		s.backoff++
	}
	s.inflight = 0
	s.retx, s.retxEnd, s.fastTo = s.una, s.Size, s.next
	s.Deadline = 0
	s.CC.OnTimeout(now)
	return true
}

// Receiver is the receiving half of one flow. As a Sink (Receive), it
// answers as its transport does; NewReceiver and NewLosslessReceiver make
// one that only counts (OnData).
type Receiver struct {
	Size     int64
	MSS      int32
	AckSize  int32 // bytes of its ACKs and NACKs (Receive)
	answer   answer
	lossless bool
	got      segBits // per segment, from cum on
	cum      int64
	received int64
	highest  int64 // highest segment end seen
	// Reordered counts data packets that arrived after a packet with a
	// higher sequence number.
	Reordered  int64
	Duplicates int64
}

// NewReceiver prepares a receiver for size bytes (mss > 0). It allocates
// nothing up front: the per-segment bitmap covers only the segments beyond
// the cumulative ack (see segBits), so any size up to math.MaxInt64 is safe.
func NewReceiver(size int64, mss int32) *Receiver {
	return &Receiver{Size: size, MSS: mss}
}

// NewLosslessReceiver prepares a receiver for a flow that is never
// acknowledged and whose segments each arrive at most once (no
// retransmissions: host-buffered pulled flows, line-rate senders). It
// counts bytes and reordering exactly as a Receiver does, without the
// per-segment bitmap; its cumulative ack stays 0.
func NewLosslessReceiver(size int64, mss int32) *Receiver {
	return &Receiver{Size: size, MSS: mss, lossless: true}
}

// OnData records the segment at seq with size payload bytes and returns the
// cumulative ack and whether this packet completed the flow.
func (r *Receiver) OnData(seq int64, size int32) (cum int64, complete bool) {
	if r.lossless { // every segment is new, no ack to compute
		r.note(seq, size)
		return 0, r.received == r.Size
	}
	seg := seq / int64(r.MSS)
	if r.got.get(seg) {
		r.Duplicates++
		return r.cum, false
	}
	r.got.set(seg)
	r.note(seq, size)
	for r.cum < r.Size {
		if !r.got.get(r.cum / int64(r.MSS)) {
			break
		}
		r.cum += int64(r.MSS)
		if r.cum > r.Size {
			r.cum = r.Size
		}
	}
	r.got.advance(r.cum / int64(r.MSS))
	return r.cum, r.received == r.Size
}

// note counts a new segment's bytes and whether it came after one with a
// higher sequence number.
func (r *Receiver) note(seq int64, size int32) {
	end := seq + int64(size)
	if end < r.highest {
		r.Reordered++
	} else {
		r.highest = end
	}
	r.received += int64(size)
}

// Received is the number of distinct payload bytes received.
func (r *Receiver) Received() int64 { return r.received }
