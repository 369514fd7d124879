package cc_test

import (
	"fmt"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/rotor"
)

// A fixed window of two segments: the sender stops after two packets and
// continues when an ACK frees the window.
func Example() {
	s := cc.NewSender(3000, 1000, true, &cc.Fixed{Bytes: 2000}, rotor.Millisecond)
	for {
		seq, _, _, ok := s.Next(0)
		if !ok {
			break
		}
		fmt.Println("send", seq)
	}
	var a cc.Feedback
	s.OnAck(5*rotor.Microsecond, 1000, 0, 0, false, &a)
	seq, _, _, _ := s.Next(5 * rotor.Microsecond)
	fmt.Println("ack, rtt", a.RTT, "then send", seq)
	// Output:
	// send 0
	// send 1000
	// ack, rtt 5us then send 2000
}

// A lossless receiver (no ACKs, no retransmissions) counts bytes and
// reordering: the second segment arrives after the third.
func ExampleNewLosslessReceiver() {
	r := cc.NewLosslessReceiver(2500, 1000)
	for _, seq := range []int64{0, 2000, 1000} {
		size := int32(min(1000, 2500-seq))
		_, done := r.OnData(seq, size)
		fmt.Println("got", seq, "complete", done)
	}
	fmt.Println("received", r.Received(), "reordered", r.Reordered)
	// Output:
	// got 0 complete false
	// got 2000 complete false
	// got 1000 complete true
	// received 2500 reordered 1
}

// A PowerTCP law starts at the line rate (window HostRate·τ). Two ACKs
// then report a 25 Gbps hop sending at its full rate with 30 kB queued:
// the normalised power is λ(q + bτ)/(b²τ) = (30 + 75)/75 = 1.4, so the
// window becomes 0.9·(75000/1.4 + β) + 0.1·75000 with β = 1 Gb/s·24 µs.
func ExampleNew() {
	env := cc.Env{MSS: 1000, HostRate: 25 * rotor.Gbps, BaseRTT: 24 * rotor.Microsecond}
	law, err := cc.New("powertcp", env, map[string]string{"mode": "per-ack", "ai": "1Gbps"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("start:", law.Window(), "bytes at", law.Rate())
	hop := cc.Hop{Rate: 25 * rotor.Gbps}
	for i := 1; i <= 2; i++ {
		hop.Ts = rotor.Time(i) * rotor.Microsecond
		hop.TxBytes = int64(i) * 3125 // 3125 B per µs: 25 Gbps
		hop.Qlen = 30_000
		law.OnAck(&cc.Feedback{Now: hop.Ts, Acked: 1000, Cum: int64(i) * 1000, SndNxt: 75_000, Hops: []cc.Hop{hop}})
	}
	fmt.Println("after:", law.Window(), "bytes")
	_, err = cc.New("powertcp", env, map[string]string{"gamma": "1.5"})
	fmt.Println(err)
	// Output:
	// start: 75000 bytes at 25Gbps
	// after: 58414 bytes
	// powertcp: gamma = "1.5": must be in (0, 1]
}
