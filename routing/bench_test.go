package routing

import (
	"math/rand/v2"
	"testing"

	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

// BenchmarkNext: one op is one next-hop decision for a packet at a ToR of
// the (a) Opera setting (64 ToRs, U = 4, 400 µs slots), pairs and times
// cycled: what the engine asks per packet per hop. It must not allocate.
func BenchmarkNext(b *testing.B) {
	sc, err := schedules.Build("opera", schedules.Params{Nodes: 64, Uplinks: 4, Slot: 400 * rotor.Microsecond, Reconf: 10 * rotor.Microsecond, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		mode string
		k    int
	}{{"direct", Direct, 1}, {"paths", Paths, 1}, {"paths-ecmp4", Paths, 4}, {"paths-ksp4", Paths, 4}, {"vlb-paths", VLBPaths, 1}, {"earliest", Earliest, 1}} {
		multipath := MultipathKSP
		if c.name == "paths-ecmp4" {
			multipath = MultipathECMP
		}
		r, err := New(c.mode, Setup{Schedule: sc, Rand: rand.New(rand.NewPCG(1, 1)), PathsK: c.k, Multipath: multipath,
			Bulk: func(int32) bool { return false }})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			p := &packet.Packet{Kind: packet.Data}
			cycle := sc.CycleDuration()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				u := i % 64
				p.DstToR, p.Via, p.Route, p.Flow = int32((u+1+i/64%63)%64), packet.NoToR, packet.NoRoute, int32(i)
				r.Next(rotor.Time(i*7919)%cycle, u, p, true)
			}
		})
	}
}
