package cc

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// BenchmarkOnAck measures each law's cost per ACK (one op = one ACK) on a
// stream of ACKs carrying three INT hops whose queues rise and fall, with
// one ACK in eight ECN-marked.
func BenchmarkOnAck(b *testing.B) {
	for _, s := range Laws() {
		b.Run(s.Name, func(b *testing.B) {
			l, err := New(s.Name, testEnv, nil)
			if err != nil {
				b.Fatal(err)
			}
			var hops [3]Hop
			for i := range hops {
				hops[i] = Hop{Rate: 25 * rotor.Gbps, Port: int32(i)}
			}
			f := Feedback{Acked: 1000, RTT: 24 * rotor.Microsecond, Hops: hops[:]}
			l.OnLoss(0) // the window laws leave slow start
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				f.Now += 320 * rotor.Nanosecond
				f.Cum += 1000
				f.SndNxt = f.Cum + 60_000
				f.ECE = i&7 == 0
				f.RTT = 24*rotor.Microsecond + rotor.Time(i&63)*100*rotor.Nanosecond
				for j := range hops {
					hops[j].Ts = f.Now
					hops[j].TxBytes += 1000
					hops[j].Qlen = int64(i&63) * 1000
				}
				l.OnAck(&f)
			}
		})
	}
}
