package fabric

import (
	"bytes"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/workload"
)

// twoFlowsOnePort: hosts 0 and 1 of a leaf each send a flow larger than
// the run can carry to host 2 of the same leaf from t = 0, under NewReno
// with SACK loss detection (dupthresh 3). Every link runs at 10 Gbps, so
// the leaf's port to host 2 is the bottleneck and each sender's NIC runs
// at its rate; the buffer holds 100 packets (DT).
func twoFlowsOnePort(jitter float64, seed uint64) Config {
	flows := []workload.Flow{{ID: 0, Src: 0, Dst: 2, Bytes: 1e9}, {ID: 1, Src: 1, Dst: 2, Bytes: 1e9}}
	cfg := lsConfig(1, 1, 3, 1, 10*rotor.Gbps, 10*rotor.Gbps, flows)
	cfg.Buffer = 100 * 1500
	cfg.CC, cfg.DupThresh = "newreno", 3
	cfg.SendJitter, cfg.Seed = jitter, seed
	cfg.SimTime = 20 * rotor.Millisecond
	return cfg
}

// jain is Jain's fairness index of x: (Σx)² / (n·Σx²); 1 for equal
// shares, 1/n when one takes everything.
func jain(x ...float64) float64 {
	var s, s2 float64
	for _, v := range x {
		s += v
		s2 += v * v
	}
	return s * s / (float64(len(x)) * s2)
}

// TestSendJitterFairness: two identical NewReno flows into one port
// share it: Jain's index of their delivered bytes is at least 0.9 on
// every seed of 1–10 with the default send jitter. Without jitter a
// sender whose NIC runs at the port's rate delivers its packets at the
// very instants the port frees a slot: the other flow's packets (its
// retransmissions included) always find the queue full, it takes every
// drop and starves (index near 0.5, its worst).
//
// The jitter's bound decides whether it removes the phase: once a flow's
// window exceeds the path's bandwidth-delay product plus the queue's
// limit, its NIC (at the port's rate) paces it, and its packets keep the
// port's queue at DT's limit (33 of 100 packets) without a loss of their
// own, each arriving at a fixed phase after a departure. With 0.1 of a
// packet time (the old default) another flow's packet arriving at a
// random time finds the queue below the limit about 5 % of the time: on
// seeds 2 and 3 the other flow lost its lone retransmission after each
// timeout (at 3.1, 7.1 and 15.1 ms on seed 2, RTO backed off to 2, 4 and
// 8 ms) and delivered 1.0 and 1.4 MB of 25 MB (Jain 0.54, 0.56; RFC 6298
// and RFC 6675 behave as they should: only the timer finds a lost
// retransmission). A bound of one packet time randomises the phase.
func TestSendJitterFairness(t *testing.T) {
	delivered := func(cfg Config) (a, b float64) {
		t.Helper()
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return float64(r.Flows[0].Received), float64(r.Flows[1].Received)
	}
	a, b := delivered(twoFlowsOnePort(NoSendJitter, 1))
	if j := jain(a, b); j >= 0.9 {
		t.Errorf("without jitter: delivered %.0f and %.0f B, Jain %.3f; want the lockstep starvation (< 0.9)", a, b, j)
	}
	for seed := uint64(1); seed <= 10; seed++ {
		a, b := delivered(twoFlowsOnePort(0, seed))
		if j := jain(a, b); j < 0.9 {
			t.Errorf("jitter, seed %d: delivered %.0f and %.0f B, Jain %.3f; want ≥ 0.9", seed, a, b, j)
		}
	}
}

// TestSendJitterDeterministic: the jitter is drawn from the run's seed:
// the same seed gives byte-identical flows.csv, another seed another one.
func TestSendJitterDeterministic(t *testing.T) {
	csv := func(seed uint64) []byte {
		t.Helper()
		cfg := twoFlowsOnePort(0, seed)
		cfg.SimTime = 2 * rotor.Millisecond
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		h, rows := r.FlowsCSV()
		if err := stats.WriteCSV(&b, h, rows); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	if !bytes.Equal(csv(7), csv(7)) {
		t.Error("the same seed gave different flows.csv")
	}
	if bytes.Equal(csv(7), csv(8)) {
		t.Error("seeds 7 and 8 gave the same flows.csv: is the jitter drawn at all?")
	}
}

// TestSendJitterBound: with jitter a lone flow's FCT exceeds its ideal
// by at most the jitter's bound per round trip of its window's growth,
// and by nothing without it; a 2,500 B flow (one window) by less than
// one bound.
func TestSendJitterBound(t *testing.T) {
	for _, size := range []int64{2500, 1_000_000} {
		cfg := lsConfig(2, 2, 2, 1, 10*rotor.Gbps, 10*rotor.Gbps, []workload.Flow{{Src: 0, Dst: 2, Bytes: size}})
		cfg.Window = 10_000_000 // the fixed law: the whole flow in one window
		cfg.SendJitter = 0      // the default
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		f := r.Flows[0]
		bound := rotor.Time(DefaultSendJitter * float64((10 * rotor.Gbps).TransmitTime(1500)))
		if f.FCT < f.Ideal || f.FCT >= f.Ideal+bound {
			t.Errorf("%d B alone with jitter: FCT %v, ideal %v; want within [ideal, ideal + %v)", size, f.FCT, f.Ideal, bound)
		}
	}
}
