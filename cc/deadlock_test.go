package cc

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// TestWindowedFlowNeverDeadlocks drives every law of the registry through
// a Sender fed the worst a pure rotor gives it: ACKs whose RTT samples
// include a week of waiting for a circuit (and grow), INT records of a
// queue far beyond b·τ, ECE on every ACK, and rounds in which everything
// is lost. Whatever the law does, a flow with data left must send again
// within a bounded time: either the window lets it send now and its
// pacing gap (MSS at Rate) is at most maxGap, or the retransmission timer
// is armed at most MaxRTO ahead (the backoff is capped), and when it
// fires the flow may send.
func TestWindowedFlowNeverDeadlocks(t *testing.T) {
	const mss = 1500
	us := rotor.Microsecond
	env := Env{MSS: mss, HostRate: 10 * rotor.Gbps, BaseRTT: 10 * us, Window: 20 * mss}
	minRTO := rotor.Millisecond
	maxGap := rotor.Millisecond // a pacing rate of at least 12 Mbps
	for _, spec := range Laws() {
		t.Run(spec.Name, func(t *testing.T) {
			law, err := New(spec.Name, env, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := NewSender(100_000*mss, mss, true, law, minRTO)
			s.MaxRTO = 64 * minRTO // the backoff's cap (transport.max_rto)
			now := rotor.Time(0)
			var txBytes int64
			type sent struct {
				seq int64
				at  rotor.Time
			}
			var out []sent
			check := func(when string) {
				t.Helper()
				if s.Done() {
					return
				}
				if s.CanSend() {
					if r := law.Rate(); r > 0 && r.TransmitTime(mss) > maxGap {
						t.Fatalf("%s at %v: pacing rate %v: the next packet waits %v", when, now, r, r.TransmitTime(mss))
					}
					return
				}
				// bound: the RTO's cap (RFC 6298 (2.5)); the backoff stops there
				bound := s.MaxRTO
				if s.Deadline == 0 || s.Deadline-now > bound {
					t.Fatalf("%s at %v: window %d B, %d B in flight, no send and timer at %v (bound %v)", when, now, law.Window(), s.Inflight(), s.Deadline, bound)
				}
			}
			for round := 0; round < 200 && !s.Done(); round++ {
				// send what the window and pacing allow, one packet time apart
				for k := 0; k < 1000 && s.CanSend(); k++ {
					seq, _, _, ok := s.Next(now)
					if !ok {
						break
					}
					out = append(out, sent{seq, now})
					gap := env.HostRate.TransmitTime(mss)
					if r := law.Rate(); r > 0 {
						gap = max(gap, r.TransmitTime(mss))
					}
					now += gap
				}
				check("after sending")
				if round%5 == 4 || round >= 100 && round < 110 { // everything in flight is lost (ten times in a row from round 100)
					out = out[:0]
					if s.Deadline == 0 {
						t.Fatalf("round %d: data in flight and no timer", round)
					}
					now = max(now, s.Deadline)
					if !s.OnTimeout(now) {
						t.Fatalf("round %d: the timer at %v did not fire", round, now)
					}
					check("after a timeout")
					if !s.CanSend() {
						t.Fatalf("round %d: after a timeout the flow may not send (window %d B)", round, law.Window())
					}
					continue
				}
				// ACK everything after a week of waiting, with a deep queue
				now += 400*us + rotor.Time(round)*10*us
				for _, p := range out {
					txBytes += mss
					f := Feedback{ECE: true, Circuit: true, Hops: []Hop{
						{Ts: now, Qlen: 2_000_000, TxBytes: txBytes, Rate: 10 * rotor.Gbps, Port: 1},
						{Ts: now, Qlen: 2_000_000, TxBytes: txBytes, Rate: 10 * rotor.Gbps, Port: 2}}}
					now += rotor.Nanosecond
					s.OnAck(now, p.seq+mss, p.seq, p.at, false, &f)
					check("after an ACK")
				}
				out = out[:0]
			}
		})
	}
}
