package cc

import (
	"math/rand/v2"
	"testing"

	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// delackSink is a windowed flow's receiver with delayed ACKs: every
// second segment, 100 µs timer.
func delackSink(size int64, count int) *Receiver {
	spec, _ := LookupTransport(TransportWindow)
	_, sink := spec.New(Flow{Size: size, MSS: 1000, AckSize: 64, Law: &Fixed{Bytes: 1}, MinRTO: rotor.Millisecond,
		DelAck: count, DelAckTimeout: 100 * rotor.Microsecond})
	return sink.(*Receiver)
}

func dataSeg(seg int64, ce bool) packet.Packet {
	p := packet.Packet{Kind: packet.Data, Seq: seg * 1000, Size: 1000, SrcHost: 0, DstHost: 1}
	if ce {
		p.Set(packet.ECN)
	}
	return p
}

// TestDelayedAckRules is a hand trace of RFC 5681 §4.2's receiver with
// DelAck 2 (each line one arrival, the verdict worked out from the
// rules): in-order segments alternate Hold and Reply (the Reply's
// cumulative point covers the held one); an out-of-order segment, the
// segment that fills the hole and a duplicate are ACKed at once; a
// change of CE mark sends the held ACK first (RFC 8257 §3.2); the timer
// runs from the first held segment.
func TestDelayedAckRules(t *testing.T) {
	r := delackSink(20_000, 2)
	us := rotor.Microsecond
	steps := []struct {
		at   rotor.Time
		seg  int64
		ce   bool
		want Verdict
		cum  int64
	}{
		{0, 0, false, Hold, 1000},
		{1 * us, 1, false, Reply, 2000},
		{2 * us, 2, false, Hold, 3000},
		{3 * us, 4, false, Reply, 3000},          // out of order: at once, covers the held 2
		{4 * us, 5, false, Reply, 3000},          // a hole remains below it
		{5 * us, 3, false, Reply, 6000},          // fills the hole
		{6 * us, 3, false, Reply, 6000},          // duplicate
		{7 * us, 6, false, Hold, 7000},           // in order again
		{8 * us, 7, true, SendHeld | Hold, 8000}, // CE changed: 6's ACK (no ECE) goes, 7 held
		{9 * us, 8, true, Reply, 9000},           // two CE segments: one ACK with ECE
		{10 * us, 9, false, Hold, 10000},
	}
	for i, s := range steps {
		p := dataSeg(s.seg, s.ce)
		v := r.Receive(s.at, &p)
		if v != s.want || p.Kind != packet.Ack || p.Seq != s.cum || p.Has(packet.ECE) != s.ce {
			t.Errorf("step %d (segment %d at %v): verdict %b cum %d ECE %v, want %b cum %d ECE %v",
				i, s.seg, s.at, v, p.Seq, p.Has(packet.ECE), s.want, s.cum, s.ce)
		}
	}
	// The timer runs from segment 9's arrival at 10 µs: 110 µs.
	if got := r.AckTimer(); got != 110*us {
		t.Errorf("ack timer %v, want 110µs", got)
	}
	if r.OnAckTimer(109*us) || !r.OnAckTimer(110*us) || r.AckTimer() != 0 {
		t.Errorf("the timer must fire at 110µs and then be cleared")
	}
	// Off (count 1): every segment at once.
	off := delackSink(3000, 1)
	for seg := range int64(3) {
		p := dataSeg(seg, false)
		if v := off.Receive(0, &p); v&Reply == 0 || v&Hold != 0 {
			t.Errorf("delayed ACKs off: segment %d verdict %b, want Reply", seg, v)
		}
	}
}

// TestDelayedAckECEExact: whatever the CE marks, the bytes a sender
// hears acknowledged with ECE are exactly the bytes that arrived CE
// marked, with one ACK per 2 or 3 segments (RFC 8257 §3.2's rule), so
// DCTCP's marked fraction F, and α = (1−g)α + g·F, are those of an ACK
// per segment. Without the rule an ACK's ECE would speak for segments
// of the other state (a mark on every third segment, ACKs per pair:
// half the pairs' ECE would be wrong).
func TestDelayedAckECEExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2))
	for _, count := range []int{2, 3} {
		for _, pMark := range []float64{0.05, 0.33, 0.5, 0.9} {
			const n = 4000
			r := delackSink(n*1000, count)
			var marked, eceBytes, acked int64
			var last int64 // cumulative point of the last ACK sent
			var held *packet.Packet
			send := func(a *packet.Packet) {
				if a.Seq > last {
					if a.Has(packet.ECE) {
						eceBytes += a.Seq - last
					}
					acked += a.Seq - last
					last = a.Seq
				}
			}
			for seg := range int64(n) {
				ce := rng.Float64() < pMark
				if ce {
					marked += 1000
				}
				p := dataSeg(seg, ce)
				v := r.Receive(rotor.Time(seg), &p)
				if v&SendHeld != 0 {
					send(held)
				}
				held = nil
				switch {
				case v&Hold != 0:
					q := p
					held = &q
				case v&Reply != 0:
					send(&p)
				}
			}
			if held != nil && r.OnAckTimer(r.AckTimer()) {
				send(held)
			}
			if acked != n*1000 || eceBytes != marked {
				t.Errorf("count %d, p %.2f: acked %d B, %d with ECE; want %d, %d marked", count, pMark, acked, eceBytes, n*1000, marked)
			}
		}
	}
}
