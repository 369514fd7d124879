package cc

import (
	"testing"

	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// TestNDPSender: a 5-segment flow (last segment 500 B) with a first
// window of 2: two sends, then nothing until a PULL; a NACKed segment goes
// before new data; a PULL with nothing to send is spent; a timeout
// re-queues exactly the sent, unacknowledged segments.
func TestNDPSender(t *testing.T) {
	n := NewNDP(6500, 1500, 2, rotor.Millisecond, 0)
	next := func(wantSeq int64, wantSize int32, wantRetx, wantOK bool) {
		t.Helper()
		seq, size, retx, ok := n.Next(0)
		if seq != wantSeq || size != wantSize || retx != wantRetx || ok != wantOK {
			t.Fatalf("Next = (%d, %d, %v, %v), want (%d, %d, %v, %v)", seq, size, retx, ok, wantSeq, wantSize, wantRetx, wantOK)
		}
	}
	next(0, 1500, false, true)
	next(1500, 1500, false, true)
	next(0, 0, false, false) // window spent
	n.OnAck(0, 10)
	n.OnNack(1, 10)
	n.OnPull(11)
	next(1500, 1500, true, true) // the retransmission first
	n.OnPull(12)
	n.OnPull(12)
	next(3000, 1500, false, true)
	next(4500, 1500, false, true)
	n.OnAck(1, 20)
	n.OnAck(2, 20)
	if n.Timeouts != 0 || n.OnTimeout(20) {
		t.Fatal("timeout before RTO")
	}
	if !n.OnTimeout(20 + rotor.Millisecond) {
		t.Fatal("no timeout after RTO of silence")
	}
	next(4500, 1500, true, true) // segment 3, then nothing: credit 1
	next(0, 0, false, false)
	n.OnPull(30)
	next(6000, 500, false, true)
	n.OnPull(31)
	next(0, 0, false, false) // nothing left to send: the PULL is spent
	if n.Credit != 0 {
		t.Errorf("credit %d after a PULL with nothing to send", n.Credit)
	}
	for seg := int64(3); seg < 5; seg++ {
		n.OnAck(seg, 40)
	}
	if !n.Done() || n.Retransmits != 2 {
		t.Errorf("done %v, %d retransmits; want true, 2", n.Done(), n.Retransmits)
	}
}

// TestNDPReturn: a returned header (its switch's header queue was full)
// re-queues its segment with the credit it spent, so the retransmission
// goes at once, before new data and without a PULL; a return for an
// acknowledged or never-sent segment changes nothing.
func TestNDPReturn(t *testing.T) {
	n := NewNDP(6000, 1500, 2, rotor.Millisecond, 0)
	n.Next(0)
	n.Next(0)
	if n.CanSend() {
		t.Fatal("credit left after the first window")
	}
	n.OnReturn(1, 5)
	if !n.CanSend() || n.Credit != 1 {
		t.Fatalf("after a return: CanSend %v, credit %d, want true, 1", n.CanSend(), n.Credit)
	}
	if seq, _, retx, ok := n.Next(0); seq != 1500 || !retx || !ok {
		t.Errorf("Next = (%d, retx %v, ok %v), want the returned segment 1500 as a retransmission", seq, retx, ok)
	}
	n.OnAck(0, 6)
	n.OnReturn(0, 7) // acknowledged
	n.OnReturn(3, 7) // not sent yet
	if n.Credit != 0 || n.CanSend() {
		t.Errorf("credit %d after returns of an acknowledged and an unsent segment, want 0", n.Credit)
	}
}

// TestNDPSwallowReturns: with SwallowReturns a returned header waits for
// a PULL while the sender expects one, as htsim's NdpSrc::processRTS
// decides (by hand, its _pull_window and _first_window_count): resend at
// once only if no PULL is expected and at most the returned packet of
// the first window is unanswered. A 10-segment flow, first window 3.
func TestNDPSwallowReturns(t *testing.T) {
	n := NewNDP(10*1500, 1500, 3, rotor.Second, 0)
	n.SwallowReturns = true
	for range 3 {
		n.Next(0)
	}
	var p packet.Packet
	reply := func(k packet.Kind, seg int32, bounced bool) bool {
		p.Reset(k)
		p.EchoSeg = seg
		if bounced {
			p.Set(packet.Bounced)
		}
		return n.OnReply(10, &p, nil)
	}
	// Segment 0 returns while segments 1 and 2 of the first window are
	// unanswered: swallowed (queued, no credit back).
	if reply(packet.Nack, 0, true) || n.Credit != 0 || !n.Retransmitting() {
		t.Fatalf("return with the first window out: credit %d, queued %v; want 0, true", n.Credit, n.Retransmitting())
	}
	// The ACK of segment 1 asks for a PULL (pull window 1); segment 2's
	// return is swallowed although the first window is answered.
	reply(packet.Ack, 1, false)
	if reply(packet.Nack, 2, true) || n.Credit != 0 {
		t.Fatalf("return with a PULL expected: credit %d, want 0", n.Credit)
	}
	// The PULL comes (pull window 0) and sends segment 0 again.
	if !reply(packet.Pull, 0, false) {
		t.Fatal("a PULL grants nothing")
	}
	if seq, _, retx, ok := n.Next(10); seq != 0 || !retx || !ok {
		t.Fatalf("Next = (%d, retx %v, ok %v), want segment 0 as a retransmission", seq, retx, ok)
	}
	// Now no PULL is expected: a return goes again at once.
	if !reply(packet.Nack, 0, true) || n.Credit != 1 {
		t.Fatalf("return with no PULL expected: credit %d, want 1", n.Credit)
	}
	n.Next(10) // segment 2 again
	// An ACK carrying PULL 1 leaves no PULL expected (processAck counts
	// it): the next return goes at once. A NACK carrying PULL 2 does not
	// (processNack does not count it): the return after it is swallowed.
	carried := func(k packet.Kind, seg, no int32) {
		p.Reset(k)
		p.EchoSeg = seg
		p.SetPullNo(no)
		n.OnReply(10, &p, nil)
	}
	carried(packet.Ack, 2, 1)
	if seq, _, _, _ := n.Next(10); seq != 0 {
		t.Fatalf("sent %d, want segment 0 again", seq)
	}
	if !reply(packet.Nack, 0, true) || n.Credit != 1 {
		t.Fatalf("return after an ACK carrying a PULL: credit %d, want 1", n.Credit)
	}
	n.Next(10) // segment 0 again
	carried(packet.Nack, 0, 2)
	n.Next(10) // and again
	if reply(packet.Nack, 0, true) || n.Credit != 0 {
		t.Fatalf("return after a NACK carrying a PULL: credit %d, want 0 (swallowed)", n.Credit)
	}
	// A one-packet flow's only packet returns: at once (its first window
	// of 3 left 2 credits unspent).
	one := NewNDP(1000, 1500, 3, rotor.Second, 0)
	one.SwallowReturns = true
	one.Next(0)
	p.Reset(packet.Nack)
	p.Set(packet.Bounced)
	if !one.OnReply(10, &p, nil) || one.Credit != 3 {
		t.Errorf("one-packet flow: credit %d after its return, want 3", one.Credit)
	}
	// Without SwallowReturns the first return already gives the credit back.
	r := NewNDP(10*1500, 1500, 3, rotor.Second, 0)
	for range 3 {
		r.Next(0)
	}
	p.Reset(packet.Nack)
	p.Set(packet.Bounced)
	if !r.OnReply(10, &p, nil) || r.Credit != 1 {
		t.Errorf("resend: credit %d after a return, want 1", r.Credit)
	}
}

// TestNDPNackWithCredit: OnReply reports whether more may be sent now
// (Source). A 3-segment flow with a first window of 5 sends its three
// segments and keeps 2 credits (nothing is left to send, so the engine
// does not call Next). A NACK of segment 1 then makes a retransmission
// sendable with credit in hand: OnReply must report true, or the engine
// never lists the flow and, with no timeout, it stalls. Next gives
// segment 1 at once. With no credit left, a NACK reports false: the
// retransmission waits for a PULL.
func TestNDPNackWithCredit(t *testing.T) {
	n := NewNDP(4500, 1500, 5, rotor.Second, 0)
	for range 3 {
		n.Next(0)
	}
	if n.CanSend() || n.Credit != 2 {
		t.Fatalf("after three sends: CanSend %v, credit %d, want false, 2", n.CanSend(), n.Credit)
	}
	var p packet.Packet
	p.Reset(packet.Nack)
	p.EchoSeg = 1
	if !n.OnReply(10, &p, nil) {
		t.Fatal("a NACK with credit in hand reports that nothing may be sent")
	}
	if seq, _, retx, ok := n.Next(10); seq != 1500 || !retx || !ok {
		t.Errorf("Next = (%d, retx %v, ok %v), want segment 1 (1500) as a retransmission", seq, retx, ok)
	}
	n.Credit = 0
	p.EchoSeg = 2
	if n.OnReply(20, &p, nil) {
		t.Error("a NACK with no credit reports that more may be sent")
	}
}

// TestNDPPullNumbers: cumulative PULL numbers as opera-sim's
// NdpSrc::pull_packets counts them, by hand. A sender with no credit
// hears PULL 2 (PULL 1 was lost): it may send 2 packets. PULL 1 arriving
// late grants nothing; PULL 5 grants 3 (3 and 4 lost). An ACK carrying
// PULL 6 grants one and reports it; an ACK carrying 6 again, nothing; a
// NACK carrying 7 queues its retransmission and grants one. A PULL
// without a number (transport.ndp_pulls = own) grants one, as before.
func TestNDPPullNumbers(t *testing.T) {
	n := NewNDP(20*1500, 1500, 0, rotor.Second, 0)
	var p packet.Packet
	reply := func(k packet.Kind, no int32, seg int32) bool {
		p.Reset(k)
		p.EchoSeg = seg
		p.SetPullNo(no)
		return n.OnReply(10, &p, nil)
	}
	if !reply(packet.Pull, 2, 0) || n.Credit != 2 {
		t.Fatalf("PULL 2 first: credit %d, want 2", n.Credit)
	}
	if reply(packet.Pull, 1, 0) || n.Credit != 2 {
		t.Errorf("late PULL 1: credit %d, want 2 (nothing granted)", n.Credit)
	}
	if !reply(packet.Pull, 5, 0) || n.Credit != 5 {
		t.Errorf("PULL 5 after 2: credit %d, want 5", n.Credit)
	}
	for range 5 {
		n.Next(10)
	}
	if !reply(packet.Ack, 6, 0) || n.Credit != 1 {
		t.Errorf("ACK carrying PULL 6: credit %d, want 1", n.Credit)
	}
	if reply(packet.Ack, 6, 1) || n.Credit != 1 {
		t.Errorf("ACK carrying PULL 6 again: credit %d, want 1", n.Credit)
	}
	if !reply(packet.Nack, 7, 2) || n.Credit != 2 || !n.Retransmitting() {
		t.Errorf("NACK carrying PULL 7: credit %d, retransmitting %v, want 2, true", n.Credit, n.Retransmitting())
	}
	if !reply(packet.Pull, 0, 0) || n.Credit != 3 {
		t.Errorf("PULL without a number: credit %d, want 3", n.Credit)
	}
}

// TestRepliesCarryNoPullNo: a relayed data packet keeps its relay host in
// the word PullNo shares; the ACK or NACK made from it in place must not
// read as a cumulative PULL (it would grant packets nobody pulled).
func TestRepliesCarryNoPullNo(t *testing.T) {
	for _, mk := range []func(*packet.Packet){
		func(p *packet.Packet) { MakeAck(p, 1500, 1500, 64) },
		func(p *packet.Packet) { MakeNack(p, 1500, 64) },
	} {
		var p packet.Packet
		p.Reset(packet.Data)
		p.Seq = 1500
		p.SetKeeper(7)
		mk(&p)
		if p.PullNo() != 0 {
			t.Errorf("%v made from a relayed packet carries PullNo %d", p.Kind, p.PullNo())
		}
	}
}

// TestNDPPacketTimer: a 10-segment flow, first window 4, RTO 1 ms. Segments
// 0–3 leave at t = 0, 10, 20, 30 µs; segment 1 is lost (no answer ever).
// The others are ACKed and PULLs keep the flow busy: segments 4–9 leave at
// 100, 200, …, 600 µs and are ACKed 50 µs later. By hand, with the flow's
// timer (rdcn's default) nothing is due while the
// sender keeps hearing: it fires at 650 + 1000 µs, and then re-queues
// segment 1 only. With PacketTimer (opera-sim's NdpSrc, which times each
// packet) segment 1 is due at 10 + 1000 µs: OnTimeout at 1 009 µs does
// nothing, at 1 010 µs it queues segment 1 with one credit and nothing
// else, and the next deadline is none (no segment unanswered). A NACKed
// or returned segment is no longer timed. Sent (StampAtSend) stamps at the
// given time, not at Next.
func TestNDPPacketTimer(t *testing.T) {
	us := rotor.Microsecond
	for _, packet := range []bool{false, true} {
		n := NewNDP(15000, 1500, 4, rotor.Millisecond, 0)
		n.PacketTimer = packet
		for i := range 4 {
			if _, _, _, ok := n.Next(rotor.Time(i) * 10 * us); !ok {
				t.Fatal("first window")
			}
		}
		n.OnAck(0, 40*us)
		n.OnAck(2, 60*us)
		n.OnAck(3, 70*us)
		for i := range 6 {
			at := rotor.Time(i+1) * 100 * us
			n.OnPull(at)
			if _, _, _, ok := n.Next(at); !ok {
				t.Fatal("pulled send")
			}
			n.OnAck(int64(4+i), at+50*us)
		}
		if !packet {
			if n.OnTimeout(1010*us) || n.Deadline() != 1650*us {
				t.Fatalf("flow timer: deadline %v, want 1.65 ms", n.Deadline())
			}
			continue
		}
		if n.Deadline() > 1010*us || n.OnTimeout(1009*us) {
			t.Fatalf("packet timer: deadline %v, want ≤ 1.01 ms and nothing due at 1.009 ms", n.Deadline())
		}
		if !n.OnTimeout(1010*us) || n.Credit != 1 || n.Timeouts != 1 || n.Deadline() != 0 {
			t.Fatalf("packet timer at 1.01 ms: credit %d, timeouts %d, next deadline %v (want 1, 1, none)", n.Credit, n.Timeouts, n.Deadline())
		}
		if seq, _, retx, ok := n.Next(1010 * us); seq != 1500 || !retx || !ok {
			t.Fatalf("after the timeout Next = (%d, %v, %v), want segment 1 resent", seq, retx, ok)
		}
		if n.Deadline() != 2010*us {
			t.Fatalf("the resent segment: deadline %v, want 2.01 ms", n.Deadline())
		}
		n.OnNack(1, 1100*us) // answered: no longer timed
		if n.OnTimeout(2010*us) || n.Deadline() != 0 {
			t.Fatalf("a NACKed segment timed out (deadline %v)", n.Deadline())
		}
	}
	n := NewNDP(3000, 1500, 2, rotor.Millisecond, 0)
	n.PacketTimer, n.StampAtSend = true, true
	n.Next(0)
	n.Next(0)
	if n.Deadline() != 0 {
		t.Fatal("StampAtSend: Next stamped")
	}
	n.Sent(1500, 300*us)
	n.Sent(0, 500*us)
	if n.OnTimeout(1299*us) || !n.OnTimeout(1300*us) || n.Credit != 1 || n.Deadline() != 1500*us {
		t.Fatalf("StampAtSend: credit %d, deadline %v (want segment 1 due at 1.3 ms, segment 0 at 1.5 ms)", n.Credit, n.Deadline())
	}
}
