//go:build ignore

// gen writes tdt.flows, the TDT paper's homogeneous UDP test as a flow
// file (src dst bytes start_ns [query]; each burst is one query),
// deterministically:
//
//	go run scenario/testdata/buffers/tdt/gen.go > scenario/testdata/buffers/tdt/tdt.flows
//
// One switch of 16 ports at 1 Gbps (hosts 0–15 of one leaf). Ports 0–7
// receive Poisson background at 20 % of the port rate (15 KB flows) and
// on/off bursts at 8 Gbps: exponential on periods of mean 250 µs, off
// periods of mean 19.75 ms; a burst of length D is 8 senders each sending
// D × 1 Gbps at once. Ports 8 and 9 are overwhelmed: each receives two
// persistent 1 Gbps streams (2 Gbps) from hosts 12–15 for the whole run.
// Burst and background senders are drawn from hosts 0–11 other than the
// receiver. T = 0.5 s.
package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
)

type flow struct{ src, dst, bytes, start, query int64 }

func main() {
	const (
		T     = 500_000_000 // ns
		rate  = 1e9 / 8     // bytes per ns·1e9: 1 Gbps in bytes/s
		bgSz  = 15_000
		onNs  = 250_000
		offNs = 19_750_000
	)
	rng := rand.New(rand.NewPCG(18, 1))
	query := int64(0) // each burst is a query (fifth column): its 8 flows
	var fs []flow
	pick := func(not int64, k int) []int64 {
		var c []int64
		for h := int64(0); h < 12; h++ {
			if h != not {
				c = append(c, h)
			}
		}
		rng.Shuffle(len(c), func(i, j int) { c[i], c[j] = c[j], c[i] })
		return c[:k]
	}
	for dst := int64(0); dst < 8; dst++ {
		// background: Poisson, 20 % of 1 Gbps in 15 KB flows
		gap := float64(bgSz) / (0.2 * rate) * 1e9
		for t := rng.ExpFloat64() * gap; t < T; t += rng.ExpFloat64() * gap {
			fs = append(fs, flow{pick(dst, 1)[0], dst, bgSz, int64(t), 0})
		}
		// bursts: off, on, off, on, …
		for t := rng.ExpFloat64() * offNs; t < T; {
			d := rng.ExpFloat64() * onNs
			b := max(int64(d*rate/1e9), 1500)
			query++
			for _, s := range pick(dst, 8) {
				fs = append(fs, flow{s, dst, b, int64(t), query})
			}
			t += d + rng.ExpFloat64()*offNs
		}
	}
	for i, dst := range []int64{8, 8, 9, 9} {
		fs = append(fs, flow{int64(12 + i), dst, int64(T * rate / 1e9), 0, 0})
	}
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].start < fs[j].start })
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, f := range fs {
		if f.query > 0 {
			fmt.Fprintf(w, "%d %d %d %d %d\n", f.src, f.dst, f.bytes, f.start, f.query)
		} else {
			fmt.Fprintf(w, "%d %d %d %d\n", f.src, f.dst, f.bytes, f.start)
		}
	}
}
