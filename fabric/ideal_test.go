package fabric

import (
	"fmt"
	"math"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/workload"
)

// idleSizes are flow sizes around the MTU's multiples: a lone byte, a
// short last packet of every kind, whole packets.
var idleSizes = []int64{1, 64, 1000, 1499, 1500, 1501, 2500, 2999, 3000, 4000, 15001, 100_000, 1_000_000}

// TestIdleFlowSlowdownOne: a flow alone in the network takes exactly its
// ideal FCT (run.slowdown = ideal), whatever its size: the engine's
// store-and-forward pipeline is the independent method. Across leaves
// (4 links, fabric links as fast as the host links or 4× faster), within
// a leaf (2 links), and within a rotor ToR; line rate and a window that
// never binds. Before the fix a short last packet was assumed to overtake
// the full one ahead of it: an idle 2,500 B flow had slowdown 1.19.
func TestIdleFlowSlowdownOne(t *testing.T) {
	g := rotor.Gbps
	type fabricCase struct {
		name     string
		cfg      func([]workload.Flow) Config
		src, dst int
	}
	fabrics := []fabricCase{
		{"leaf-spine across", func(f []workload.Flow) Config { return lsConfig(2, 2, 2, 1, 10*g, 10*g, f) }, 0, 2},
		{"leaf-spine across, fast fabric", func(f []workload.Flow) Config { return lsConfig(2, 2, 2, 1, 10*g, 40*g, f) }, 1, 3},
		{"leaf-spine across, slow fabric", func(f []workload.Flow) Config { return lsConfig(2, 2, 2, 1, 10*g, 4*g, f) }, 1, 2},
		{"leaf-spine within a leaf", func(f []workload.Flow) Config { return lsConfig(2, 2, 2, 1, 10*g, 10*g, f) }, 0, 1},
		{"rotor within a ToR", func(f []workload.Flow) Config {
			c := baseConfig(cyclicSchedule(t, 4, 1, 1, 100*rotor.Microsecond, 0), f)
			c.HostsPerToR = 2
			return c
		}, 0, 1},
	}
	for _, fc := range fabrics {
		for _, transport := range []string{LineRate, Windowed} {
			for _, size := range idleSizes {
				t.Run(fmt.Sprintf("%s/%s/%dB", fc.name, transport, size), func(t *testing.T) {
					cfg := fc.cfg([]workload.Flow{{Src: fc.src, Dst: fc.dst, Bytes: size}})
					cfg.Transport, cfg.Window, cfg.SendJitter = transport, 10_000_000, NoSendJitter
					cfg.SimTime = 10 * rotor.Millisecond
					r, err := Run(cfg)
					if err != nil {
						t.Fatal(err)
					}
					f := r.Flows[0]
					if !f.Done {
						t.Fatal("flow did not complete")
					}
					if s := float64(f.FCT) / float64(f.Ideal); math.Abs(s-1) > 1e-9 {
						t.Errorf("idle flow: FCT %v, ideal %v: slowdown %.6f, want 1", f.FCT, f.Ideal, s)
					}
				})
			}
		}
	}
}

// TestSlowdownNS3: run.slowdown = ns3 divides by the base RTT (the
// path's propagation both ways) plus bytes / host link, as ns-3's ABM
// evaluation does: across leaves with 1 µs links, 8 µs + 0.8 ns per byte
// at 10 Gbps; within a leaf 4 µs + 0.8 ns per byte. The summary names it.
func TestSlowdownNS3(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	flows := []workload.Flow{
		{ID: 0, Src: 0, Dst: 2, Bytes: 2500},
		{ID: 1, Src: 1, Dst: 0, Bytes: 100_000, Start: rotor.Millisecond},
	}
	cfg := lsConfig(2, 2, 2, 1, 10*rotor.Gbps, 10*rotor.Gbps, flows)
	cfg.Slowdown = SlowdownNS3
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := []rotor.Time{8*us + 2500*8*ns/10, 4*us + 100_000*8*ns/10}
	for i, f := range r.Flows {
		if f.Ideal != want[i] {
			t.Errorf("flow %d: ns3 ideal %v, want %v", i, f.Ideal, want[i])
		}
	}
	sum, err := r.Summarize(stats.DefaultBuckets(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.SlowdownDefinition != SlowdownNS3 {
		t.Errorf("summary names slowdown %q, want %q", sum.SlowdownDefinition, SlowdownNS3)
	}
}
