package cc

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/rotor"
)

// TestWindowAndSelectiveRetransmit walks a 5-segment flow (last segment
// 500 B) through a 3-segment window, a loss of segment 1 and a timeout.
func TestWindowAndSelectiveRetransmit(t *testing.T) {
	s := NewSender(4500, 1000, true, &Fixed{Bytes: 3000}, rotor.Millisecond)
	var sent []int64
	for {
		seq, _, _, ok := s.Next(0)
		if !ok {
			break
		}
		sent = append(sent, seq)
	}
	if diff := cmp.Diff([]int64{0, 1000, 2000}, sent); diff != "" {
		t.Fatalf("first window (-want +got):\n%s", diff)
	}
	var a Feedback
	// Segment 0 acked (cum 1000), segment 2 arrives out of order (cum stays 1000, SACK 2000).
	if n := s.OnAck(10, 1000, 0, 0, false, &a); n != 1000 || a.RTT != 10 {
		t.Errorf("ack of seg 0: newly %d rtt %v", n, a.RTT)
	}
	if n := s.OnAck(11, 1000, 2000, 0, false, &a); n != 1000 {
		t.Errorf("sack of seg 2: newly %d", n)
	}
	sent = sent[:0]
	for {
		seq, size, _, ok := s.Next(12)
		if !ok {
			break
		}
		sent = append(sent, seq, int64(size))
	}
	// inflight 1000 (seg 1): two more segments fit: 3000 and 4000 (500 B).
	if diff := cmp.Diff([]int64{3000, 1000, 4000, 500}, sent); diff != "" {
		t.Fatalf("after the acks (-want +got):\n%s", diff)
	}
	// Timeout: resend only seg 1, 3 and 4 (seg 2 was SACKed).
	if !s.OnTimeout(s.Deadline) {
		t.Fatal("timeout not taken")
	}
	sent = sent[:0]
	for {
		seq, _, retx, ok := s.Next(s.Deadline)
		if !ok {
			break
		}
		if !retx {
			t.Errorf("segment %d sent as new data after the timeout", seq)
		}
		sent = append(sent, seq)
	}
	if diff := cmp.Diff([]int64{1000, 3000, 4000}, sent); diff != "" {
		t.Errorf("retransmissions (-want +got):\n%s", diff)
	}
	s.OnAck(20, 4500, 1000, 0, true, &a)
	if !s.Done() || s.Deadline != 0 || s.Retransmits != 3 || s.Timeouts != 1 {
		t.Errorf("done %v deadline %v retx %d timeouts %d", s.Done(), s.Deadline, s.Retransmits, s.Timeouts)
	}
}

func TestReceiverReorder(t *testing.T) {
	r := NewReceiver(3500, 1000)
	type step struct {
		Cum      int64
		Complete bool
	}
	var got []step
	for _, seq := range []int64{0, 2000, 1000, 2000, 3000} {
		sz := int32(1000)
		if seq == 3000 {
			sz = 500
		}
		c, done := r.OnData(seq, sz)
		got = append(got, step{c, done})
	}
	want := []step{{1000, false}, {1000, false}, {3000, false}, {3000, false}, {3500, true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if r.Reordered != 1 || r.Duplicates != 1 || r.Received() != 3500 {
		t.Errorf("reordered %d duplicates %d received %d, want 1 1 3500", r.Reordered, r.Duplicates, r.Received())
	}
}

// TestFixedAndNone: "fixed" needs a positive Env.Window and reads no
// parameter; "none" has no window and paces at the line rate.
func TestFixedAndNone(t *testing.T) {
	for _, c := range []struct {
		name   string
		win    int64
		params map[string]string
		ok     bool
	}{{"fixed", 1500, nil, true}, {"fixed", 0, nil, false}, {"fixed", 1500, map[string]string{"gamma": "1"}, false},
		{"none", 0, nil, true}, {"cubic", 1, nil, true}, {"nope", 1, nil, false}} {
		env := testEnv
		env.Window = c.win
		l, err := New(c.name, env, c.params)
		if (err == nil) != c.ok {
			t.Errorf("New(%q, window %d): err %v, want ok=%v", c.name, c.win, err, c.ok)
		}
		if err == nil && c.name == "fixed" && l.Window() != c.win {
			t.Errorf("fixed window %d, want %d", l.Window(), c.win)
		}
		if err == nil && c.name == "none" && (l.Window() != 0 || l.Rate() != env.HostRate) {
			t.Errorf("none: window %d rate %v", l.Window(), l.Rate())
		}
	}
}

// TestLosslessReceiver: on any arrival order of distinct segments the
// bitmap-free receiver counts the same bytes, reordering and completion
// as the full one.
func TestLosslessReceiver(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 0))
	for trial := 0; trial < 200; trial++ {
		mss, size, segs := randomFlow(rng, 1500, 40)
		rng.Shuffle(len(segs), func(i, j int) { segs[i], segs[j] = segs[j], segs[i] })
		full, lossless := NewReceiver(size, mss), NewLosslessReceiver(size, mss)
		for k, seq := range segs {
			sz := int32(min(int64(mss), size-seq))
			_, doneFull := full.OnData(seq, sz)
			_, doneLossless := lossless.OnData(seq, sz)
			if doneFull != doneLossless || full.Received() != lossless.Received() || full.Reordered != lossless.Reordered {
				t.Fatalf("trial %d, arrival %d (seq %d): full %v/%d/%d, lossless %v/%d/%d (complete/received/reordered)",
					trial, k, seq, doneFull, full.Received(), full.Reordered, doneLossless, lossless.Received(), lossless.Reordered)
			}
		}
		if lossless.Received() != size {
			t.Fatalf("trial %d: received %d of %d", trial, lossless.Received(), size)
		}
	}
}

// lossCount counts OnLoss calls of a fixed window.
type lossCount struct {
	Fixed
	losses int
}

func (l *lossCount) OnLoss(rotor.Time) { l.losses++ }

// TestSACKLossDetection: with DupThresh 3, segment 1 of a 10-segment
// window is resent as soon as three segments above it are SACKed, without
// a timeout; the law hears one loss; the window counts the lost segment
// out of flight; nothing else is resent.
func TestSACKLossDetection(t *testing.T) {
	law := &lossCount{Fixed: Fixed{Bytes: 10_000}}
	s := NewSender(20_000, 1000, true, law, rotor.Millisecond)
	s.DupThresh = 3
	for range 10 {
		if _, _, _, ok := s.Next(0); !ok {
			t.Fatal("window not open")
		}
	}
	var f Feedback
	s.OnAck(10, 1000, 0, 0, false, &f) // segment 0
	for seg := int64(2); seg <= 4; seg++ {
		s.OnAck(10+rotor.Time(seg), 1000, seg*1000, 0, false, &f)
		if seg < 4 && law.losses != 0 {
			t.Fatalf("loss declared after SACK of segment %d", seg)
		}
	}
	if law.losses != 1 {
		t.Fatalf("%d losses, want 1", law.losses)
	}
	if got := s.Inflight(); got != 5000 {
		t.Errorf("in flight %d, want 5000 (segments 5–9)", got)
	}
	seq, _, retx, ok := s.Next(20)
	if !ok || !retx || seq != 1000 {
		t.Fatalf("next send %d retx %v ok %v, want a resend of 1000", seq, retx, ok)
	}
	seq, _, retx, _ = s.Next(20)
	if retx || seq != 10_000 {
		t.Errorf("then %d retx %v, want new data at 10000", seq, retx)
	}
	s.OnAck(30, 1000, 5000, 0, false, &f)
	if law.losses != 1 || s.Timeouts != 0 || s.Retransmits != 1 {
		t.Errorf("losses %d timeouts %d retransmits %d, want 1 0 1", law.losses, s.Timeouts, s.Retransmits)
	}
}
