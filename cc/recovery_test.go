package cc

import (
	"container/heap"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// A hand-trace path: the sender's NIC serialises segments at rate C (its
// queue holds what the window lets go), each data packet and ACK takes
// the one-way delay D, the receiver ACKs every segment at once (or, with
// DelAck > 1, as its delayed-ACK rules say), and the first transmission
// of the segments in Drop is lost. ACKs take no serialisation time.
// Deterministic: ties keep insertion order.
type tracePath struct {
	C      rotor.Rate
	D      rotor.Time
	Drop   []int64 // segment indices lost on their first transmission
	End    rotor.Time
	DelAck int // the receiver's Flow.DelAck (timer: 100 µs)
}

type traceEvent struct {
	at       rotor.Time
	n        int
	ack      bool
	ackTimer bool  // the receiver's delayed-ACK timer
	seq, cum int64 // data: seq; ack: cum and the echoed seq
	size     int32
	sent     rotor.Time
	retx     bool
}

type traceQueue []traceEvent

func (q traceQueue) Len() int { return len(q) }
func (q traceQueue) Less(i, j int) bool {
	return q[i].at < q[j].at || q[i].at == q[j].at && q[i].n < q[j].n
}
func (q traceQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *traceQueue) Push(x any)   { *q = append(*q, x.(traceEvent)) }
func (q *traceQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// traceSend is one transmission: when it started on the NIC, its segment.
type traceSend struct {
	At  rotor.Time
	Seg int64
}

type traceResult struct {
	Retx     []traceSend          // retransmissions
	New      []traceSend          // first transmissions
	CumAt    map[int64]rotor.Time // first time the cumulative ACK reached each byte count
	Done     rotor.Time
	Timeouts int64
}

func (p tracePath) run(t *testing.T, s *Sender) traceResult {
	t.Helper()
	r := NewReceiver(s.Size, s.MSS)
	r.answer, r.DelAck, r.DelAckTimeout = answerAck, p.DelAck, 100*rotor.Microsecond
	mss := int64(s.MSS)
	var held *traceEvent // the ACK the receiver holds back
	dropped := map[int64]bool{}
	for _, seg := range p.Drop {
		dropped[seg] = true
	}
	res := traceResult{CumAt: map[int64]rotor.Time{}}
	var q traceQueue
	n := 0
	push := func(e traceEvent) {
		n++
		e.n = n
		heap.Push(&q, e)
	}
	var nicFree rotor.Time
	var f Feedback
	send := func(now rotor.Time) {
		for s.CanSend() {
			seq, size, retx, ok := s.Next(now)
			if !ok {
				break
			}
			start := max(now, nicFree)
			nicFree = start + p.C.TransmitTime(rotor.Bytes(size))
			if retx {
				res.Retx = append(res.Retx, traceSend{start, seq / mss})
			} else {
				res.New = append(res.New, traceSend{start, seq / mss})
			}
			if dropped[seq/mss] && !retx {
				continue
			}
			push(traceEvent{at: nicFree + p.D, seq: seq, size: size, sent: start, retx: retx})
		}
	}
	now := rotor.Time(0)
	send(now)
	for !s.Done() {
		if q.Len() == 0 && s.Deadline == 0 || now > p.End {
			t.Fatalf("stuck at %v: acked %d of %d", now, s.Acked(), s.Size)
		}
		if s.Deadline != 0 && (q.Len() == 0 || s.Deadline < q[0].at) {
			now = s.Deadline
			if s.OnTimeout(now) {
				res.Timeouts++
			}
			send(now)
			continue
		}
		e := heap.Pop(&q).(traceEvent)
		now = e.at
		if e.ackTimer {
			if r.OnAckTimer(now) && held != nil {
				held.at = now + p.D
				push(*held)
				held = nil
			}
			continue
		}
		if !e.ack && p.DelAck > 1 {
			d := packet.Packet{Kind: packet.Data, Seq: e.seq, Size: e.size, Sent: e.sent}
			if e.retx {
				d.Set(packet.Retx)
			}
			v := r.Receive(now, &d)
			a := traceEvent{at: now + p.D, ack: true, cum: d.Seq, seq: int64(d.EchoSeg) * mss, sent: d.Sent, retx: d.Has(packet.Retx)}
			if v&SendHeld != 0 && held != nil {
				held.at = now + p.D
				push(*held)
			}
			held = nil
			switch {
			case v&Hold != 0:
				held = &a
				if r.AckTimer() > 0 {
					push(traceEvent{at: r.AckTimer(), ackTimer: true})
				}
			case v&Reply != 0:
				push(a)
			}
			continue
		}
		if !e.ack {
			cum, _ := r.OnData(e.seq, e.size)
			push(traceEvent{at: now + p.D, ack: true, cum: cum, seq: e.seq, sent: e.sent, retx: e.retx})
			continue
		}
		s.OnAck(now, e.cum, e.seq, e.sent, e.retx, &f)
		if _, ok := res.CumAt[s.Acked()]; !ok {
			res.CumAt[s.Acked()] = now
		}
		send(now)
	}
	res.Done = now
	return res
}

// The trace tests' path: 10 Gb/s, 1000 B segments (T = 0.8 µs each), 10 µs
// each way: an idle RTT of T + 2D = 20.8 µs. Segment i of the first
// window leaves the NIC at (i+1)·T and its ACK is back at (i+1)·T + 2D.
var (
	traceT = 800 * rotor.Nanosecond
	traceD = 10 * rotor.Microsecond
	rtt    = traceT + 2*traceD
)

func tracePathWith(drop ...int64) tracePath {
	return tracePath{C: 10 * rotor.Gbps, D: traceD, Drop: drop, End: rotor.Second}
}

// ackOf is when the ACK of first-window segment i reaches the sender.
func ackOf(i int64) rotor.Time { return rotor.Time(i+1)*traceT + 2*traceD }

// TestFastRetransmitOneLoss: a fixed window of 10 segments, segment 2 of
// the first window lost. The third SACK above it (segment 5's ACK, at
// 6T + 2D) makes it lost (RFC 6675 IsLost with DupThresh 3); it is resent
// at once, and its ACK, carrying the cumulative point past everything
// sent before it (14 segments), is back one idle RTT later. No timeout.
//
// With delayed ACKs (an ACK per two segments) the times are the same:
// segments 3, 4 and 5 arrive out of order and are ACKed at once, and the
// retransmission fills the hole, which is ACKed at once too; the pair
// (0, 1) is ACKed at ackOf(1), and the new segments it and the SACKs
// release still reach the receiver before the retransmission does.
func TestFastRetransmitOneLoss(t *testing.T) {
	for _, delAck := range []int{1, 2} {
		s := NewSender(40_000, 1000, true, &Fixed{Bytes: 10_000}, rotor.Millisecond)
		s.DupThresh = 3
		path := tracePathWith(2)
		path.DelAck = delAck
		res := path.run(t, s)
		if diff := cmp.Diff([]traceSend{{ackOf(5), 2}}, res.Retx); diff != "" {
			t.Errorf("delayed ACK %d: retransmissions (-want +got):\n%s", delAck, diff)
		}
		if got, want := res.CumAt[14_000], ackOf(5)+rtt; got != want {
			t.Errorf("delayed ACK %d: cumulative ACK past the hole at %v, want %v (one RTT after the fast retransmit)", delAck, got, want)
		}
		if res.Timeouts != 0 || s.Timeouts != 0 {
			t.Errorf("delayed ACK %d: %d timeouts, want none", delAck, res.Timeouts)
		}
	}
}

// TestSACKRecoveryThreeLosses: the same window loses segments 2, 4 and 6.
// Each is lost once three segments above it are SACKed: segment 2 at the
// ACK of 7 (SACKed above: 3, 5, 7), 4 at the ACK of 8 (5, 7, 8), 6 at the
// ACK of 9 (7, 8, 9), and each is resent then, behind what the NIC holds:
// in recovery each of these ACKs frees two segments of pipe (one SACKed,
// one lost), so cwnd − pipe lets a new segment follow each retransmission
// (RFC 6675 (C)) and the NIC falls behind by T per ACK. One recovery
// episode (the law hears one loss), no timeout; the ACK of the last
// retransmission, one RTT after it starts, passes segment 6.
func TestSACKRecoveryThreeLosses(t *testing.T) {
	law := &lossCount{Fixed: Fixed{Bytes: 10_000}}
	s := NewSender(40_000, 1000, true, law, rotor.Millisecond)
	s.DupThresh = 3
	res := tracePathWith(2, 4, 6).run(t, s)
	want := []traceSend{{ackOf(7), 2}, {ackOf(8) + traceT, 4}, {ackOf(9) + 2*traceT, 6}}
	if diff := cmp.Diff(want, res.Retx); diff != "" {
		t.Errorf("retransmissions (-want +got):\n%s", diff)
	}
	if law.losses != 1 || res.Timeouts != 0 {
		t.Errorf("%d losses, %d timeouts; want one recovery, no timeout", law.losses, res.Timeouts)
	}
	var first rotor.Time
	for c, at := range res.CumAt {
		if c > 6000 && (first == 0 || at < first) {
			first = at
		}
	}
	if first != ackOf(9)+2*traceT+rtt {
		t.Errorf("cumulative ACK past segment 6 at %v, want %v", first, ackOf(9)+2*traceT+rtt)
	}
}

// TestRescueRetransmitTail: RFC 6675 NextSeg rule 4. A 10-segment flow
// in one window loses segments 2, 8 and 9. Segment 2 is lost at the ACK
// of 5 and resent at once; with no new data and nothing unSACKed below
// the highest SACK (rule 3 empty), the same ACK lets the one rescue
// retransmission go: segment 9, the highest unSACKed, behind 2 on the
// NIC. The partial ACK (cum 8000, at ackOf(5) + RTT) sends nothing: one
// rescue per recovery. The rescue's SACK (at 8T + 4D) puts segment 8
// below the highest SACK, and rule 3 resends it; its ACK completes the
// flow one RTT later. No timeout, where without rule 4 the tail waits
// for the RTO (1 ms).
func TestRescueRetransmitTail(t *testing.T) {
	law := &lossCount{Fixed: Fixed{Bytes: 10_000}}
	s := NewSender(10_000, 1000, true, law, rotor.Millisecond)
	s.DupThresh = 3
	res := tracePathWith(2, 8, 9).run(t, s)
	partialSACK := 8*traceT + 4*traceD // the rescued segment's ACK
	want := []traceSend{{ackOf(5), 2}, {ackOf(5) + traceT, 9}, {partialSACK, 8}}
	if diff := cmp.Diff(want, res.Retx); diff != "" {
		t.Errorf("retransmissions (-want +got):\n%s", diff)
	}
	if res.Timeouts != 0 || law.losses != 1 {
		t.Errorf("%d timeouts, %d losses; want none, one recovery", res.Timeouts, law.losses)
	}
	if want := partialSACK + rtt; res.Done != want {
		t.Errorf("done at %v, want %v", res.Done, want)
	}
}

// TestNewRenoPartialACKs: SACK off, segments 2, 4 and 6 lost. The third
// duplicate ACK (segment 7's, the ACKs of 3, 5 and 7 repeat cum = 2000)
// triggers the fast retransmit of segment 2 (RFC 6582). Its ACK is a
// partial ACK (cum = 4000): segment 4 is resent at once, one RTT later,
// then 6 the same way; the third retransmission's ACK is the full ACK. No
// timeout.
func TestNewRenoPartialACKs(t *testing.T) {
	law := &lossCount{Fixed: Fixed{Bytes: 10_000}}
	s := NewSender(40_000, 1000, true, law, rotor.Millisecond)
	s.DupThresh, s.SACK = 3, false
	res := tracePathWith(2, 4, 6).run(t, s)
	r0 := ackOf(7)
	want := []traceSend{{r0, 2}, {r0 + rtt, 4}, {r0 + 2*rtt, 6}}
	if diff := cmp.Diff(want, res.Retx); diff != "" {
		t.Errorf("retransmissions (-want +got):\n%s", diff)
	}
	if got := res.CumAt[4000]; got != r0+rtt {
		t.Errorf("partial ACK (cum 4000) at %v, want %v", got, r0+rtt)
	}
	if law.losses != 1 || res.Timeouts != 0 {
		t.Errorf("%d losses, %d timeouts; want one recovery, no timeout", law.losses, res.Timeouts)
	}
}

// TestRTOFollowsRFC6298: RTT samples 100, 200, 50 µs, worked by hand
// with α = 1/8, β = 1/4 (RFC 6298 (2.2), (2.3)):
//
//	R1 = 100: SRTT = 100, RTTVAR = 50, RTO = 100 + 4·50 = 300
//	R2 = 200: RTTVAR = ¾·50 + ¼·|100 − 200| = 62.5, SRTT = ⅞·100 + ⅛·200 = 112.5, RTO = 362.5
//	R3 = 50: RTTVAR = ¾·62.5 + ¼·|112.5 − 50| = 62.5, SRTT = ⅞·112.5 + ⅛·50 = 104.6875, RTO = 354.6875
//
// Before any sample the RTO is the floor (1 µs here, so the formula
// shows). Two timeouts double it twice, capped at MaxRTO = 1 ms: 709.375
// µs, then 1 ms. An ACK of a retransmitted segment gives no sample and
// keeps the backoff (Karn); a SACK-only ACK neither samples nor restarts
// the timer; the next valid sample (R4 = 104.6875, no change to SRTT,
// RTTVAR = ¾·62.5 = 46.875) resets the backoff: RTO = 104.6875 + 187.5.
func TestRTOFollowsRFC6298(t *testing.T) {
	us := float64(rotor.Microsecond)
	at := func(x float64) rotor.Time { return rotor.Time(x * us) }
	s := NewSender(100_000, 1000, true, &Fixed{Bytes: 100_000}, rotor.Microsecond)
	s.MaxRTO, s.Granularity = rotor.Millisecond, 10*rotor.Nanosecond
	for range 20 {
		s.Next(0)
	}
	if got := s.RTO(); got != rotor.Microsecond {
		t.Errorf("RTO before any sample %v, want the 1µs floor", got)
	}
	var f Feedback
	now := rotor.Time(0)
	ack := func(seg int64, r float64, retx bool) {
		now += rotor.Millisecond
		s.OnAck(now, (seg+1)*1000, seg*1000, now-at(r), retx, &f)
	}
	for k, c := range []struct{ r, rto float64 }{{100, 300}, {200, 362.5}, {50, 354.6875}} {
		ack(int64(k), c.r, false)
		if got := s.RTO(); got != at(c.rto) {
			t.Errorf("after R%d = %vµs: RTO %v, want %vµs", k+1, c.r, got, c.rto)
		}
		if s.Deadline != now+at(c.rto) {
			t.Errorf("after R%d: deadline %v, want now + RTO = %v", k+1, s.Deadline, now+at(c.rto))
		}
	}
	for k, want := range []float64{709.375, 1000} {
		if !s.OnTimeout(s.Deadline) {
			t.Fatal("timeout not taken")
		}
		now = max(now, s.Deadline)
		if got := s.RTO(); got != at(want) {
			t.Errorf("after timeout %d: RTO %v, want %vµs", k+1, got, want)
		}
		s.Next(now)
	}
	ack(3, 1, true) // the retransmission's ACK: no sample, backoff kept
	if got := s.RTO(); got != rotor.Millisecond {
		t.Errorf("after an ACK of a retransmission: RTO %v, want the backed-off 1ms", got)
	}
	d := s.Deadline
	now += rotor.Microsecond
	s.OnAck(now, 4000, 10_000, now-at(100), false, &f) // SACK of segment 10 only
	if s.Deadline != d || s.RTO() != rotor.Millisecond {
		t.Errorf("a SACK-only ACK: deadline %v → %v, RTO %v; want both unchanged", d, s.Deadline, s.RTO())
	}
	ack(4, 104.6875, false)
	if got, want := s.RTO(), at(104.6875+187.5); got != want {
		t.Errorf("after a valid sample: RTO %v, want %v (backoff reset)", got, want)
	}
}

// TestSlowStartAfterTimeoutTrace: NewReno with a 10-segment first
// window, segments 1–9 lost, losses found by the timeout only (DupThresh
// 0). Segment 0's ACK restarts the timer, which fires 1 ms later (t0);
// the window restarts at one segment with ssthresh = FlightSize/2 and
// slow-starts (RFC 5681 §3.1), also while the ACKs are below the send
// frontier of the timeout: segment 1 alone, one RTT later 2 and 3 (back
// to back, T apart), one RTT after that 4, 5, 6 and 7. The old law
// resent one segment per RTT until that frontier was acknowledged.
func TestSlowStartAfterTimeoutTrace(t *testing.T) {
	law, err := New("newreno", Env{MSS: 1000, HostRate: 10 * rotor.Gbps}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSender(100_000, 1000, true, law, rotor.Millisecond)
	res := tracePathWith(1, 2, 3, 4, 5, 6, 7, 8, 9).run(t, s)
	t0 := ackOf(0) + rotor.Millisecond
	want := []traceSend{{t0, 1}, {t0 + rtt, 2}, {t0 + rtt + traceT, 3},
		{t0 + 2*rtt, 4}, {t0 + 2*rtt + traceT, 5}, {t0 + 2*rtt + 2*traceT, 6}, {t0 + 2*rtt + 3*traceT, 7}}
	if len(res.Retx) < len(want) {
		t.Fatalf("retransmissions %v, want at least %v", res.Retx, want)
	}
	if diff := cmp.Diff(want, res.Retx[:len(want)]); diff != "" {
		t.Errorf("retransmissions after the timeout (-want +got):\n%s", diff)
	}
	if res.Timeouts != 1 {
		t.Errorf("%d timeouts, want 1", res.Timeouts)
	}
}

// TestRTOGranularity: with equal samples RTTVAR decays by ¾ per sample,
// and once 4·RTTVAR < G the clock granularity G sets the margin: RTO =
// SRTT + G (RFC 6298 (2.3)).
func TestRTOGranularity(t *testing.T) {
	s := NewSender(1_000_000, 1000, true, &Fixed{Bytes: 100_000}, rotor.Microsecond)
	s.Granularity = 50 * rotor.Microsecond
	for range 100 {
		s.Next(0)
	}
	var f Feedback
	now := rotor.Time(0)
	for seg := int64(0); seg < 60; seg++ {
		now += rotor.Millisecond
		s.OnAck(now, (seg+1)*1000, seg*1000, now-100*rotor.Microsecond, false, &f)
	}
	if got := s.RTO(); got != 150*rotor.Microsecond {
		t.Errorf("RTO %v, want SRTT + G = 150µs", got)
	}
}

// TestLimitedTransmit (RFC 3042): SACK off, a fixed window of 10
// segments, segment 2 lost. The ACKs of 0 and 1 release segments 10 and
// 11; the first two duplicate ACKs (of 3 and 4, at ackOf(3) and
// ackOf(4)) each send one new segment, 12 and 13, with the window
// unchanged; the third (of 5) starts fast retransmit of segment 2, as
// without limited transmit. Before, the duplicate ACKs sent nothing until
// recovery inflated the window.
func TestLimitedTransmit(t *testing.T) {
	law := &lossCount{Fixed: Fixed{Bytes: 10_000}}
	s := NewSender(40_000, 1000, true, law, rotor.Millisecond)
	s.DupThresh, s.SACK = 3, false
	res := tracePathWith(2).run(t, s)
	var got []traceSend
	for _, x := range res.New {
		if x.Seg >= 10 && x.Seg <= 13 {
			got = append(got, x)
		}
	}
	want := []traceSend{{ackOf(0), 10}, {ackOf(1), 11}, {ackOf(3), 12}, {ackOf(4), 13}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("first transmissions of segments 10–13 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]traceSend{{ackOf(5), 2}}, res.Retx); diff != "" {
		t.Errorf("retransmissions (-want +got):\n%s", diff)
	}
	if law.Window() != 10_000 || law.losses != 1 || res.Timeouts != 0 {
		t.Errorf("window %d, %d losses, %d timeouts; want 10000 unchanged, one recovery, none", law.Window(), law.losses, res.Timeouts)
	}
}
