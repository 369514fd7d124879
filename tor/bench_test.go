package tor

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// benchForest is a trained Credence model for the benchmark.
func benchForest(b *testing.B) *Forest {
	rng := rand.New(rand.NewPCG(4, 4))
	var x []Features
	var y []bool
	for k := 0; k < 4000; k++ {
		f := Features{rng.Float64(), rng.Float64(), rng.Float64(), rng.Float64()}
		x = append(x, f)
		y = append(y, f[0]+f[2] > 1.2)
	}
	m, err := TrainForest(x, y, TrainConfig{}, rng)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkPolicy: one admitted-or-dropped arrival plus one dequeue on a
// 64-port × 8-queue switch kept near full (10 Gbps ports, 80 µs RTT, a
// 5 MB buffer); periodic updates run every 4096 packets (about one RTT of
// the switch's capacity) and are included in the cost. The ports=512
// variant (8× the queues, same buffer per port) shows that no policy pays
// per packet for the number of queues.
func BenchmarkPolicy(b *testing.B) {
	for _, spec := range Policies() {
		for _, ports := range []int{64, 512} {
			b.Run(fmt.Sprintf("%s/ports=%d", spec.Name, ports), func(b *testing.B) { benchPolicy(b, spec, ports, false) })
		}
	}
	// with PFC: classes 0–3 lossless; paused upstreams send nothing
	for _, name := range []string{"dt", "reverie", "sonic", "sonic-abm"} {
		spec, _ := LookupPolicy(name)
		b.Run(name+"-pfc/ports=64", func(b *testing.B) { benchPolicy(b, spec, 64, true) })
	}
}

func benchPolicy(b *testing.B, spec PolicySpec, ports int, pfc bool) {
	{
		{
			cfg := SwitchConfig{Ports: ports, Queues: 8, Buffer: int64(ports) * 78_125, MTU: 1500,
				Rates: []rotor.Rate{10 * rotor.Gbps}, Sched: RoundRobin, RTT: 80 * rotor.Microsecond,
				ECN: []ECN{{K: 65 * 1500}}}
			if pfc {
				cfg.Lossless, cfg.Headroom = 0b1111, 4*1500
				cfg.HeadroomPool = int64(ports*4) * cfg.Headroom
			}
			rng := rand.New(rand.NewPCG(1, 2))
			env := Env{Switch: &cfg, Oracle: benchForest(b), Rand: rng}
			p, err := NewBufferPolicy(spec.Name, nil, env)
			if err != nil {
				b.Fatal(err)
			}
			sw, err := NewSwitch(cfg, p, rng)
			if err != nil {
				b.Fatal(err)
			}
			paused := make([]bool, ports*cfg.Queues)
			sw.OnPFC = func(_ rotor.Time, in int32, class int, pause bool) { paused[int(in)*cfg.Queues+class] = pause }
			const n = 1 << 16
			arr := make([]Arrival, n)
			for i := range arr {
				// a quarter of the ports are hot, as under incast
				port := int32(rng.IntN(ports))
				if rng.IntN(2) == 0 {
					port = int32(rng.IntN(ports / 4))
				}
				arr[i] = Arrival{ID: int64(i), Flow: int32(rng.IntN(1024)), Size: 1500, Port: port, InPort: int32(rng.IntN(ports)),
					Class: uint8(rng.IntN(8)), Unsched: rng.IntN(8) == 0}
			}
			every := int(sw.TickEvery())
			now := rotor.Time(0)
			step := func(i int) {
				now += 19 * rotor.Nanosecond // 64 ports × 10 Gbps ≈ one 1500 B packet per 18.75 ns
				a := &arr[i&(n-1)]
				if !paused[int(a.InPort)*cfg.Queues+sw.classify(a.Class)] {
					sw.Enqueue(now, a, int32(i))
				}
				sw.Evicted = sw.Evicted[:0]
				sw.Dequeue(now, i%ports)
				if every > 0 && i&4095 == 0 {
					sw.Tick(now)
				}
			}
			for i := 0; i < 16*n; i++ { // warm up: queues reach their working size
				step(i)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				step(i)
			}
		}
	}
}
