package cc

import "github.com/rdcn/rdcn/rotor"

// Sender is the sending half of one flow. A reliable sender keeps a SACK
// scoreboard from the segment each ACK answers and recovers losses as
// RFC 6675 describes (SACK) or, with SACK off, as RFC 6582 does
// (NewReno: duplicate ACKs and partial ACKs); its retransmission timer
// follows RFC 6298. An unreliable one sends every byte once.
type Sender struct {
	Size     int64 // flow bytes
	MSS      int32
	Reliable bool // acknowledged and retransmitted; false: send once at line rate
	CC       Law

	// DupThresh > 0 turns on fast retransmit and fast recovery: with
	// SACK, a segment is lost when more than (DupThresh−1)·MSS bytes
	// above it are SACKed (RFC 6675's IsLost, which counts DupThresh
	// segments here); without, DupThresh duplicate ACKs start NewReno
	// recovery. 0: losses are found by the timeout only.
	DupThresh int
	// SACK: use the segment each ACK answers as its SACK block (RFC 2018);
	// false: cumulative ACKs only (NewReno, RFC 6582).
	SACK bool
	// The RTO (RFC 6298): max(MinRTO, SRTT + max(Granularity, 4·RTTVAR)),
	// MinRTO before the first sample, doubled per timeout up to MaxRTO
	// (0: no cap).
	MinRTO, MaxRTO, Granularity rotor.Time
	Deadline                    rotor.Time // retransmission deadline; 0: no timer armed

	next  int64 // SND.NXT: next new byte to send
	una   int64 // SND.UNA: cumulative acknowledged
	nextS int64 // segments sent: one past the last segment sent
	unaS  int64 // the segment at una
	// pipe is RFC 6675's estimate of the bytes in the network: every
	// unSACKed segment below next counts once unless it is lost, and once
	// more if it was retransmitted.
	pipe   int64
	sacked segBits // per segment, from una on
	rexmit segBits // retransmitted since the last timeout
	// Segments below lostSeg that are not SACKed are lost: IsLost is
	// monotone in the sequence number, so the lost segments form a prefix.
	lostSeg  int64
	dupSeg   int64 // RFC 6675: the DupThresh-th highest segment in sacked ∪ [0, una); −1: none
	above    int64 // segments of sacked ∪ [0, una) above dupSeg
	highSack int64 // one past the highest SACKed segment
	cursor   int64 // HighRxt: segments below it were resent or are SACKed; it rests on an unSACKed one or nextSeg
	// Recovery (RFC 6675 §5, RFC 6582): in fast recovery until una
	// reaches recoverNxt (RecoveryPoint + 1); no new one begins before.
	inRecovery bool
	recoverNxt int64
	rescueRxt  int64 // RFC 6675 RescueRxt: RecoveryPoint of the last rescue retransmission; −1: none yet
	fastRetx   bool  // one retransmission may go regardless of the window (fast retransmit, partial ACK)
	dupAcks    int   // NewReno: duplicate ACKs since una last moved
	inflate    int64 // NewReno: the window inflation of RFC 6582 (3 MSS, +1 MSS per duplicate ACK, deflated by partial ACKs)

	srtt    rotor.Time
	rttvar  rotor.Time
	backoff uint
	flight  flightSetter // CC, if it wants FlightSize before a reduction

	Retransmits int64
	Timeouts    int64
}

// flightSetter is a law that takes the sender's FlightSize (SND.NXT −
// SND.UNA) just before OnLoss and OnTimeout (RFC 5681 eq. 4).
type flightSetter interface{ setFlight(bytes int64) }

// NewSender prepares a sender for size bytes: SACK on, no fast
// retransmit (DupThresh 0), the RTO floored at minRTO and uncapped.
func NewSender(size int64, mss int32, reliable bool, c Law, minRTO rotor.Time) *Sender {
	s := &Sender{Size: size, MSS: mss, Reliable: reliable, CC: c, MinRTO: minRTO, SACK: true, dupSeg: -1, recoverNxt: -1, rescueRxt: -1}
	s.flight, _ = c.(flightSetter)
	return s
}

func (s *Sender) segLen(seq int64) int32 {
	if r := s.Size - seq; r < int64(s.MSS) {
		return int32(r)
	}
	return s.MSS
}

// segBytes is the length of segment seg.
func (s *Sender) segBytes(seg int64) int64 { return int64(s.segLen(seg * int64(s.MSS))) }

func (s *Sender) unaSeg() int64 { return s.unaS }

// nextSeg is one past the last segment sent.
func (s *Sender) nextSeg() int64 { return s.nextS }

func (s *Sender) isSacked(seg int64) bool { return s.sacked.get(seg) }

// isLost is RFC 6675's IsLost for a segment at or above una.
func (s *Sender) isLost(seg int64) bool { return seg < s.lostSeg && !s.isSacked(seg) }

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

// Inflight is the estimate of bytes in the network (RFC 6675's pipe).
func (s *Sender) Inflight() int64 { return s.pipe }

// InRecovery reports whether the sender is in fast recovery.
func (s *Sender) InRecovery() bool { return s.inRecovery }

// RTO is the retransmission timeout the timer would be set to now.
func (s *Sender) RTO() rotor.Time { return s.rto() }

// retxPending reports whether a lost segment waits for its
// retransmission (NextSeg rule 1 of RFC 6675).
func (s *Sender) retxPending() bool { return s.cursor < s.lostSeg }

// rule3Pending reports whether NextSeg's rule 3 applies: in SACK
// recovery with no new data, an unSACKed segment below the highest SACK.
func (s *Sender) rule3Pending() bool {
	return s.inRecovery && s.SACK && s.next >= s.Size && s.cursor < s.highSack
}

// rescueAllowed reports whether NextSeg's rule 4 may apply: in SACK
// recovery with no new data, one rescue retransmission per recovery
// (HighACK > RescueRxt), while unSACKed data is outstanding. The caller
// has found rules 1 to 3 empty.
func (s *Sender) rescueAllowed() bool {
	return s.inRecovery && s.SACK && s.next >= s.Size && s.una > s.rescueRxt && s.una < s.next
}

// CanSend reports whether the window allows sending a segment now.
func (s *Sender) CanSend() bool {
	if !s.Reliable {
		return s.next < s.Size && s.windowOpen()
	}
	retx := s.retxPending()
	if retx && s.fastRetx {
		return true
	}
	if !retx && s.next >= s.Size && !s.rule3Pending() && !s.rescueAllowed() {
		return false
	}
	return s.windowOpen()
}

// windowOpen: out of recovery, pipe < cwnd; in SACK recovery, cwnd − pipe
// ≥ one MSS (RFC 6675 (C)); in NewReno recovery, FlightSize < the
// inflated window (RFC 6582). Without SACK, each duplicate ACK below
// DupThresh lets one more new segment go, the window unchanged (limited
// transmit, RFC 3042); with SACK each SACKed segment leaves pipe, which
// lets as many go.
func (s *Sender) windowOpen() bool {
	w := s.CC.Window()
	switch {
	case w <= 0:
		return true
	case !s.inRecovery && !s.SACK && s.DupThresh > 0:
		return s.pipe < w+int64(min(s.dupAcks, s.DupThresh-1))*int64(s.MSS)
	case !s.inRecovery:
		return s.pipe < w
	case s.SACK:
		return w-s.pipe >= int64(s.MSS)
	default:
		return s.next-s.una < w+s.inflate
	}
}

// Next returns the segment to send now; ok is false if none may be sent.
// The caller transmits it and must call Next again only when the window or
// the pacing timer allows.
func (s *Sender) Next(now rotor.Time) (seq int64, size int32, retx bool, ok bool) {
	if !s.CanSend() {
		return 0, 0, false, false
	}
	if s.Reliable && !s.retxPending() && s.next >= s.Size && !s.rule3Pending() {
		return s.rescue(now)
	}
	if s.Reliable && (s.retxPending() || s.next >= s.Size) { // NextSeg rules 1 and 3
		seg := s.cursor
		s.fastRetx = false
		seq = seg * int64(s.MSS)
		size = s.segLen(seq)
		s.markRetx(seg, size)
		s.Retransmits++
		s.cursor++
		s.skipSacked()
		s.arm(now)
		return seq, size, true, true
	}
	seq = s.next
	size = s.segLen(seq)
	s.next += int64(size)
	s.nextS++
	s.pipe += int64(size)
	if s.Reliable {
		s.skipSacked()
		s.arm(now)
	}
	return seq, size, false, true
}

// rescue is NextSeg's rule 4 (RFC 6675): the segment holding the highest
// outstanding unSACKed byte, once per recovery (RescueRxt =
// RecoveryPoint); HighRxt (the cursor) stays. Found by a scan down from
// the last segment sent, at most once per recovery.
func (s *Sender) rescue(now rotor.Time) (seq int64, size int32, retx bool, ok bool) {
	seg := s.nextSeg() - 1
	for seg > s.unaSeg() && s.isSacked(seg) {
		seg--
	}
	s.rescueRxt = s.recoverNxt - 1
	seq = seg * int64(s.MSS)
	size = s.segLen(seq)
	s.markRetx(seg, size)
	s.Retransmits++
	s.arm(now)
	return seq, size, true, true
}

// markRetx counts segment seg's retransmission in pipe, once however
// often it is resent before its ACK (RFC 6675 SetPipe: once more if
// retransmitted).
func (s *Sender) markRetx(seg int64, size int32) {
	if !s.rexmit.get(seg) {
		s.rexmit.set(seg)
		s.pipe += int64(size)
	}
}

// skipSacked moves the retransmission cursor past SACKed segments, to
// the first unSACKed segment at or above una (or one past the last sent).
func (s *Sender) skipSacked() {
	s.cursor = max(s.cursor, s.unaSeg())
	for end := s.nextSeg(); s.cursor < end && s.isSacked(s.cursor); {
		s.cursor++
	}
}

// rto is RFC 6298's RTO with the backoff applied.
func (s *Sender) rto() rotor.Time {
	r := s.MinRTO
	if s.srtt > 0 {
		r = max(r, s.srtt+max(s.Granularity, 4*s.rttvar))
	}
	for range s.backoff {
		if s.MaxRTO > 0 && r >= s.MaxRTO || r > 1<<61 {
			break
		}
		r *= 2
	}
	if s.MaxRTO > 0 {
		r = min(r, s.MaxRTO)
	}
	return r
}

// arm starts the timer if it is not running (RFC 6298 (5.1)).
func (s *Sender) arm(now rotor.Time) {
	if s.Deadline == 0 {
		s.Deadline = now + s.rto()
	}
}

// sample takes an RTT measurement r into SRTT and RTTVAR (RFC 6298 (2.2),
// (2.3): α = 1/8, β = 1/4) and resets the backoff (Karn).
func (s *Sender) sample(r rotor.Time) {
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
	s.backoff = 0
}

// OnAck processes an acknowledgement: cumulative point cum, the answered
// segment at sackSeq, the data's send time (for an RTT sample unless it
// was a retransmission, Karn's rule). If it acknowledges new data it
// completes f (the caller fills ECE, Circuit, Hops and Truncated) with the
// sequence state and the RTT sample and calls the law; a loss it reveals
// reaches the law after that (OnLoss). It reports how many bytes were
// newly acknowledged (cumulatively or, with SACK, selectively).
func (s *Sender) OnAck(now rotor.Time, cum, sackSeq int64, sent rotor.Time, retx bool, f *Feedback) int64 {
	if !s.Reliable {
		return 0
	}
	var newly int64
	mss := int64(s.MSS)
	if s.SACK && sackSeq >= s.una && sackSeq < s.next {
		if seg := sackSeq / mss; !s.isSacked(seg) {
			newly += s.leave(seg)
			s.sacked.set(seg)
			s.highSack = max(s.highSack, seg+1)
			if seg > s.dupSeg {
				s.above++
			}
		}
	}
	cum = min(cum, s.next)
	advanced := cum > s.una
	cumBytes := int64(0)
	for s.una < cum {
		seg := s.unaS
		l := int64(s.segLen(s.una))
		if !s.isSacked(seg) {
			b := s.leave(seg)
			newly += b
			cumBytes += b
			if seg > s.dupSeg {
				s.above++
			}
		}
		s.una += l
		s.unaS++
	}
	dup := !advanced && cum == s.una && s.una < s.next // RFC 5681's duplicate ACK
	if advanced {
		s.sacked.advance(s.unaSeg())
		s.rexmit.advance(s.unaSeg())
		s.dupAcks = 0
	} else if dup {
		s.dupAcks++
	}
	if s.SACK && s.DupThresh > 0 {
		s.markLost()
	}
	s.skipSacked()
	if newly > 0 {
		f.Now, f.Cum, f.Acked, f.SndNxt, f.RTT = now, s.una, newly, s.next, 0
		if !retx {
			f.RTT = now - sent
		}
		s.CC.OnAck(f)
	}
	if advanced {
		if !retx {
			s.sample(now - sent)
		}
		if s.una >= s.next {
			s.Deadline = 0 // RFC 6298 (5.2)
		} else {
			s.Deadline = now + s.rto() // (5.3)
		}
	}
	if s.DupThresh > 0 {
		s.recover(now, advanced, dup, cumBytes)
	}
	if !s.retxPending() { // the segment it was for was SACKed meanwhile
		s.fastRetx = false
	}
	return newly
}

// leave accounts for segment seg (at or above una, not SACKed) leaving
// the network, SACKed or cumulatively acknowledged, and returns its
// length.
func (s *Sender) leave(seg int64) int64 {
	l := s.segBytes(seg)
	if !s.isLost(seg) {
		s.pipe -= l
	}
	if s.rexmit.get(seg) && seg >= s.unaSeg() {
		s.pipe -= l
	}
	s.pipe = max(s.pipe, 0)
	return l
}

// markLost moves dupSeg up to the DupThresh-th highest segment of sacked
// ∪ [0, una) and declares the unSACKed segments below it lost (RFC
// 6675's IsLost with segments of MSS bytes).
func (s *Sender) markLost() {
	d := int64(s.DupThresh)
	end := s.nextSeg()
	for s.above >= d {
		s.dupSeg++
		for s.dupSeg < end && s.dupSeg >= s.unaSeg() && !s.isSacked(s.dupSeg) {
			s.dupSeg++
		}
		s.above--
	}
	s.setLost(s.dupSeg)
}

// setLost declares the unSACKed segments below seg lost.
func (s *Sender) setLost(seg int64) {
	if seg <= s.lostSeg {
		return
	}
	for k := max(s.lostSeg, s.unaSeg()); k < seg; k++ {
		if !s.isSacked(k) {
			s.pipe -= s.segBytes(k)
		}
	}
	s.pipe = max(s.pipe, 0)
	s.lostSeg = seg
}

// recover runs fast retransmit and fast recovery after an ACK: RFC 6675
// with SACK, RFC 6582 without.
func (s *Sender) recover(now rotor.Time, advanced, dup bool, cumBytes int64) {
	if s.inRecovery && s.una >= s.recoverNxt { // a full ACK ends recovery
		s.inRecovery, s.inflate, s.fastRetx = false, 0, false
	}
	if s.inRecovery {
		if s.SACK {
			return
		}
		switch {
		case advanced: // a partial ACK: resend the next hole, deflate
			s.setLost(s.unaSeg() + 1)
			s.skipSacked()
			s.fastRetx = true
			s.inflate -= cumBytes
			if cumBytes >= int64(s.MSS) {
				s.inflate += int64(s.MSS)
			}
		case dup:
			s.inflate += int64(s.MSS)
		}
		return
	}
	if s.una < s.recoverNxt || s.una >= s.next { // RFC 6582's recover, RFC 6675 §5.1
		return
	}
	if s.SACK {
		if !s.isLost(s.unaSeg()) {
			return
		}
	} else {
		if s.dupAcks != s.DupThresh {
			return
		}
		s.setLost(s.unaSeg() + 1)
		s.inflate = int64(s.DupThresh) * int64(s.MSS)
	}
	s.inRecovery, s.recoverNxt, s.fastRetx = true, s.next, true
	s.skipSacked()
	if s.flight != nil {
		s.flight.setFlight(s.next - s.una)
	}
	s.CC.OnLoss(now)
}

// OnTimeout handles the retransmission timer firing at now (RFC 6298
// (5.4)–(5.7)): every unSACKed segment sent is lost and is resent from
// una on under the law's window after its timeout; the RTO doubles (up to
// MaxRTO). It returns false if the timer was stale (the deadline moved or
// was cleared).
func (s *Sender) OnTimeout(now rotor.Time) bool {
	if s.Deadline == 0 || now < s.Deadline || s.Done() {
		return false
	}
	s.Timeouts++
	if s.MaxRTO == 0 || s.rto() < s.MaxRTO {
		s.backoff++
	}
	s.rexmit.reset(s.unaSeg())
	s.lostSeg = max(s.lostSeg, s.nextSeg())
	s.pipe = 0
	s.cursor = s.unaSeg()
	s.skipSacked()
	s.inRecovery, s.recoverNxt, s.fastRetx, s.inflate, s.dupAcks = false, s.next, false, 0, 0
	s.Deadline = 0
	if s.flight != nil {
		s.flight.setFlight(s.next - s.una)
	}
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
	// Delayed ACKs (Flow.DelAck): pending in-order segments wait for
	// their ACK, whose timer fires at ackAt (0: none); pendingCE is their
	// CE state.
	DelAck        int
	DelAckTimeout rotor.Time
	pending       int
	pendingCE     bool
	ackAt         rotor.Time
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
