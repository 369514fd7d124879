package fabric

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// TestMSSPerClass: a windowed flow alone on an idle 10 Gb/s leaf-spine
// (1 µs links, 4 links across the leaves; 1500 B MTU) in segments of its
// class's MSS: a background flow with transport.mss = 1000 and an incast
// response with transport.incast_mss = 400. n segments of T each (T =
// 0.8 µs for 1000 B, 0.32 µs for 400 B) pipelined over 4 links take
// 4·(T + 1 µs) + (n − 1)·T; a short last segment of b bytes arrives
// b·0.8 ns after the full one before it. The flow sends ⌈size/MSS⌉ data
// packets and as many ACKs, receives every byte once, and its ideal FCT
// (store-and-forward in its own segments) is its FCT: slowdown 1.
func TestMSSPerClass(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	cases := []struct {
		name  string
		flow  workload.Flow
		pkts  int64
		want  rotor.Time
		check func(*Config)
	}{
		{"background 10 × 1000 B", workload.Flow{Src: 0, Dst: 1, Bytes: 10_000}, 10, 4*(800*ns+us) + 9*800*ns, nil},
		{"background 10 × 1000 + 500 B", workload.Flow{Src: 0, Dst: 1, Bytes: 10_500}, 11, 4*(800*ns+us) + 9*800*ns + 400*ns, nil},
		{"incast 25 × 400 B", workload.Flow{Src: 0, Dst: 1, Bytes: 10_000, Query: 1}, 25, 4*(320*ns+us) + 24*320*ns, nil},
		{"background at the MTU", workload.Flow{Src: 0, Dst: 1, Bytes: 10_500}, 7, 4*(1200*ns+us) + 6*1200*ns, func(c *Config) { c.MSS, c.IncastMSS = 0, 0 }},
	}
	for _, c := range cases {
		cfg := lsConfig(2, 1, 1, 1, 10*rotor.Gbps, 10*rotor.Gbps, []workload.Flow{c.flow})
		cfg.MSS, cfg.IncastMSS = 1000, 400
		if c.check != nil {
			c.check(&cfg)
		}
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		f := r.Flows[0]
		if !f.Done || f.FCT != c.want || f.Ideal != c.want || f.Received != c.flow.Bytes {
			t.Errorf("%s: done %v, FCT %v, ideal %v, received %d; want FCT = ideal = %v, %d B", c.name, f.Done, f.FCT, f.Ideal, f.Received, c.want, c.flow.Bytes)
		}
		if got := r.Counters.InjectedPackets; got != 2*c.pkts || r.Counters.InjectedData != c.flow.Bytes {
			t.Errorf("%s: %d packets injected, %d data bytes; want %d data packets and as many ACKs, %d B", c.name, got, r.Counters.InjectedData, c.pkts, c.flow.Bytes)
		}
	}
}
