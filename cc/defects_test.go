package cc

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// newRenoFor is a NewReno law with MSS 1000, an initial window of init
// bytes and no ssthresh.
func newRenoFor(init float64) *NewReno {
	return &NewReno{reno{mss: 1000, cwnd: init, ssthresh: 1e18, recover: -1}}
}

// TestSlowStartAfterTimeout: after a timeout the window restarts at one
// segment and grows by slow start (RFC 5681 §3.1: +1 MSS per MSS acked
// while cwnd < ssthresh), also while the ACKs are below the send frontier
// of the timeout (RFC 6582's recover only blocks further fast
// retransmits). The old window laws held the window at one segment until
// the frontier was acknowledged.
func TestSlowStartAfterTimeout(t *testing.T) {
	for _, name := range []string{"newreno", "cubic", "dctcp", "retcp"} {
		l, err := New(name, Env{MSS: 1000, HostRate: 10 * rotor.Gbps}, map[string]string{"init_window": "40pkt"})
		if err != nil {
			t.Fatal(err)
		}
		l.OnAck(&Feedback{Acked: 1000, Cum: 1000, SndNxt: 40_000, RTT: 20 * rotor.Microsecond})
		flightHook(l, 39_000)
		l.OnTimeout(0)
		if w := l.Window(); w != 1000 {
			t.Fatalf("%s: window after the timeout %d, want one MSS", name, w)
		}
		// Three ACKs of one segment each, all below the old frontier 40 000.
		for k := int64(2); k <= 4; k++ {
			l.OnAck(&Feedback{Acked: 1000, Cum: k * 1000, SndNxt: 40_000, RTT: 20 * rotor.Microsecond})
		}
		if w := l.Window(); w != 4000 {
			t.Errorf("%s: window %d after 3 segments acked in slow start, want 4000", name, w)
		}
	}
}

// TestLossCutFromFlightSize: a loss sets ssthresh = cwnd = max(FlightSize/2,
// 2·SMSS) (RFC 5681 eq. 4), FlightSize = SND.NXT − SND.UNA, not cwnd/2.
func TestLossCutFromFlightSize(t *testing.T) {
	n := newRenoFor(100_000)
	f := Feedback{Acked: 1000, Cum: 50_000, SndNxt: 70_000} // 20 000 B outstanding
	n.OnAck(&f)
	flightHook(n, f.SndNxt-f.Cum)
	n.OnLoss(0)
	if w := n.Window(); w != 10_000 {
		t.Errorf("window after the loss %d, want FlightSize/2 = 10000", w)
	}
}

// TestRecoveryEndsAtFullACK: RFC 6582 sets recover to the highest
// sequence number sent (SND.NXT − 1); the ACK of everything sent before
// the loss (cum = SND.NXT at the loss) ends recovery, and that ACK grows
// the window. The old law waited for one more ACK.
func TestRecoveryEndsAtFullACK(t *testing.T) {
	n := newRenoFor(20_000)
	n.ssthresh = 10_000 // congestion avoidance from here on
	f := Feedback{Acked: 1000, Cum: 1000, SndNxt: 20_000}
	n.OnAck(&f)
	flightHook(n, f.SndNxt-f.Cum)
	n.OnLoss(0) // recover = 19 999; cwnd = ssthresh = 9500
	w0 := n.Window()
	n.OnAck(&Feedback{Acked: 19_000, Cum: 20_000, SndNxt: 30_000})
	if w := n.Window(); w <= w0 {
		t.Errorf("window %d after the full ACK, want growth above %d", w, w0)
	}
}

// TestOneSACKIsNoLoss: RFC 6675's IsLost needs DupThresh SACKed segments
// (more than (DupThresh−1)·SMSS bytes) above a segment. One SACK of
// segment 4 marks nothing lost; FACK (distance to the highest SACK)
// resent segments 0 and 1.
func TestOneSACKIsNoLoss(t *testing.T) {
	law := &lossCount{Fixed: Fixed{Bytes: 10_000}}
	s := NewSender(20_000, 1000, true, law, rotor.Millisecond)
	s.DupThresh = 3
	for range 10 {
		s.Next(0)
	}
	var f Feedback
	s.OnAck(10, 0, 4000, 0, false, &f)
	if law.losses != 0 || s.Retransmits != 0 {
		t.Fatalf("one SACK: %d losses, %d retransmits, want none", law.losses, s.Retransmits)
	}
	if seq, _, retx, ok := s.Next(11); !ok || retx || seq != 10_000 {
		t.Errorf("next send %d (retransmission %v), want new data at 10000", seq, retx)
	}
}

// TestSACKOnlyAckKeepsTimer: an ACK that SACKs data without advancing
// the cumulative point neither restarts the retransmission timer nor
// resets its backoff (RFC 6298 §5.3: restart on an ACK of new data; Karn:
// the backed-off RTO stays until a valid RTT sample).
func TestSACKOnlyAckKeepsTimer(t *testing.T) {
	s := NewSender(20_000, 1000, true, &Fixed{Bytes: 10_000}, rotor.Millisecond)
	s.DupThresh = 3
	for range 10 {
		s.Next(0)
	}
	if !s.OnTimeout(s.Deadline) {
		t.Fatal("timeout not taken")
	}
	now := s.Deadline + rotor.Millisecond
	if now == rotor.Millisecond { // the old sender clears the deadline on a timeout
		now = 2 * rotor.Millisecond
	}
	s.Next(now) // resend segment 0: the timer restarts at now + 2·RTO
	d := s.Deadline
	if d != now+2*rotor.Millisecond {
		t.Fatalf("deadline %v after the backed-off resend, want %v", d, now+2*rotor.Millisecond)
	}
	var f Feedback
	s.OnAck(now+rotor.Microsecond, 0, 5000, 0, false, &f) // SACK of segment 5
	if s.Deadline != d {
		t.Errorf("a SACK-only ACK moved the deadline from %v to %v", d, s.Deadline)
	}
}

// flightHook gives law l the sender's FlightSize, as the Sender does
// before OnLoss and OnTimeout.
func flightHook(l any, bytes int64) {
	if f, ok := l.(flightSetter); ok {
		f.setFlight(bytes)
	}
}

// TestReTCPSsthreshFromWindow: reTCP's loss and timeout set ssthresh =
// max(cwnd/2, 2·MSS) from its window (the reTCP authors' Linux module
// uses Linux's Reno ssthresh), not from FlightSize. Hand trace, MSS
// 1000, 40-segment first window: the circuit-up ACK grows it by slow
// start to 41 000 and doubles it (82 000); the next ACK, without ECE,
// grows it to 83 000 and halves it (41 500), while 81 000 B sent under
// the doubled window are still outstanding. FlightSize/2 would be
// 40 500, twice the window's half (20 750); in the RDCN case a timeout
// found ten windows outstanding and slow start overflowed the VOQ.
func TestReTCPSsthreshFromWindow(t *testing.T) {
	afterJumpDown := func() *ReTCP {
		l, err := New("retcp", Env{MSS: 1000, HostRate: 25 * rotor.Gbps}, map[string]string{"init_window": "40pkt"})
		if err != nil {
			t.Fatal(err)
		}
		r := l.(*ReTCP)
		r.OnAck(&Feedback{Acked: 1000, Cum: 1000, SndNxt: 41_000, ECE: true})
		r.OnAck(&Feedback{Acked: 1000, Cum: 2000, SndNxt: 83_000})
		if w := r.Window(); w != 41_500 {
			t.Fatalf("window after the jumps %d, want (41000·2 + 1000)/2 = 41500", w)
		}
		flightHook(r, 81_000)
		return r
	}
	r := afterJumpDown()
	r.OnTimeout(0)
	if r.ssthresh != 20_750 || r.Window() != 1000 {
		t.Errorf("after a timeout: ssthresh %.0f, window %d; want cwnd/2 = 20750 and one MSS", r.ssthresh, r.Window())
	}
	r = afterJumpDown()
	r.OnLoss(0)
	if r.ssthresh != 20_750 || r.Window() != 20_750 {
		t.Errorf("after a loss: ssthresh %.0f, window %d; want cwnd/2 = 20750 for both", r.ssthresh, r.Window())
	}
}

// TestReTCPJumpDuringRecovery: a circuit that comes up during SACK
// recovery raises the window at once and the sender uses it (RFC 6675
// (C): send while cwnd − pipe ≥ one MSS). Hand trace, MSS 1000, 10-segment
// first window, segment 0 lost: the SACKs of segments 1–3 grow the window
// by slow start to 13 000 and start recovery (ssthresh = cwnd = 13 000/2
// = 6 500); pipe is 6 000 (10 sent, 3 SACKed, 1 lost), segment 0 is
// resent (pipe 7 000). The SACK of segment 4 leaves pipe at 6 000; with
// ECE it doubles the window to 13 000 and 7 new segments may go (pipe
// 13 000); without ECE the window stays 6 500 and none may.
func TestReTCPJumpDuringRecovery(t *testing.T) {
	for _, tc := range []struct {
		ece     bool
		wantNew int
	}{{true, 7}, {false, 0}} {
		law, err := New("retcp", Env{MSS: 1000, HostRate: 25 * rotor.Gbps}, map[string]string{"init_window": "10pkt"})
		if err != nil {
			t.Fatal(err)
		}
		s := NewSender(1_000_000, 1000, true, law, rotor.Millisecond)
		s.DupThresh = 3
		for {
			if _, _, _, ok := s.Next(0); !ok {
				break
			}
		}
		now := 20 * rotor.Microsecond
		var f Feedback
		for seg := int64(1); seg <= 3; seg++ {
			s.OnAck(now, 0, seg*1000, 0, false, &f)
		}
		if !s.InRecovery() || law.Window() != 6500 {
			t.Fatalf("after three SACKs: in recovery %v, window %d; want true, 6500", s.InRecovery(), law.Window())
		}
		if seq, _, retx, ok := s.Next(now); !ok || !retx || seq != 0 {
			t.Fatalf("fast retransmit: seq %d retx %v ok %v, want segment 0", seq, retx, ok)
		}
		f = Feedback{ECE: tc.ece}
		s.OnAck(now, 0, 4000, 0, false, &f)
		sent := 0
		for {
			seq, _, retx, ok := s.Next(now)
			if !ok {
				break
			}
			if retx || seq < 10_000 {
				t.Fatalf("sent %d (retx %v), want new data only", seq, retx)
			}
			sent++
		}
		if sent != tc.wantNew || !s.InRecovery() {
			t.Errorf("ECE %v: %d new segments during recovery (window %d), want %d", tc.ece, sent, law.Window(), tc.wantNew)
		}
	}
}
