package main

import (
	"fmt"
	"math"
	"slices"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// Harmonic is the Harmonic policy of Kesselman and Mansour, "Harmonic
// buffer management policy for shared memory switches" (Theoretical
// Computer Science, 2004; INFOCOM 2002). With the N queues sorted by
// length, q(1) ≥ q(2) ≥ … ≥ q(N), and H_k = 1 + 1/2 + … + 1/k, a packet is
// admitted iff after it, for every i,
//
//	q(1) + … + q(i) ≤ B · H_i / H_N,
//
// so the longest queue holds at most B/H_N, the two longest 1.5·B/H_N,
// and all of them B. The paper proves it (ln N + 2)-competitive in
// throughput, a drop-tail policy between DT's O(N) and LQD's push-out
// 1.707.
type Harmonic struct {
	n     int       // N: the queues the series runs over
	bound []float64 // bound[i-1] = B·H_i/H_N for i ≤ N; B beyond
	after []int64   // scratch: queue lengths after the arrival
}

func (*Harmonic) Name() string { return "harmonic" }

// Admit checks the N prefix constraints on the lengths after the arrival.
// It sorts a scratch copy: O(Q log Q) for Q queues, no allocation.
func (h *Harmonic) Admit(_ rotor.Time, a *tor.Arrival, q int32, s *tor.State) bool {
	if s.Used+int64(a.Size) > s.B {
		return false
	}
	if len(h.after) != len(s.Queues) { // once: Build sized it ports × queues
		h.after = make([]int64, len(s.Queues))
	}
	for i := range s.Queues {
		h.after[i] = s.Queues[i].Bytes
	}
	h.after[q] += int64(a.Size)
	slices.Sort(h.after)
	sum := 0.0
	for i := len(h.after) - 1; i >= 0; i-- {
		k := len(h.after) - 1 - i // the (k+1)-th longest
		if h.after[i] == 0 {
			break
		}
		sum += float64(h.after[i])
		if sum > h.bound[min(k, len(h.bound)-1)] {
			return false
		}
	}
	return true
}

// harmonicBounds returns B·H_i/H_N for i = 1…n.
func harmonicBounds(b int64, n int) []float64 {
	hn := 0.0
	for j := 1; j <= n; j++ {
		hn += 1 / float64(j)
	}
	out := make([]float64, n)
	hi := 0.0
	for i := 1; i <= n; i++ {
		hi += 1 / float64(i)
		out[i-1] = float64(b) * hi / hn
	}
	out[n-1] = float64(b) // H_N/H_N, without rounding
	return out
}

func init() {
	tor.Register(tor.PolicySpec{
		Name: "harmonic",
		Doc:  "Harmonic (Kesselman–Mansour): the i longest queues hold at most B·H_i/H_N",
		Params: []tor.Param{{Name: "n", Positive: true,
			Derive: func(c *tor.SwitchConfig) float64 { return float64(c.Ports * c.Queues) },
			Doc:    "queues N the harmonic series runs over (ports × queues)"}},
		Build: func(v map[string]float64, e tor.Env) (tor.BufferPolicy, error) {
			n, queues := v["n"], e.Switch.Ports*e.Switch.Queues
			if n != math.Trunc(n) || n > float64(queues) {
				return nil, fmt.Errorf("n %v: must be a whole number of queues, at most %d", n, queues)
			}
			return &Harmonic{n: int(n), bound: harmonicBounds(e.Switch.Buffer, int(n)), after: make([]int64, queues)}, nil
		},
	})
}
