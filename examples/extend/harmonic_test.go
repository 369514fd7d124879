package main

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// TestHarmonicHandWorked: three queues (3 ports × 1 queue) sharing B = 11
// bytes. H_3 = 11/6, so the longest queue may hold B·H_1/H_3 = 6, the two
// longest B·H_2/H_3 = 9 and all three 11 — worked by hand, then each
// arrival below checked against those three numbers.
func TestHarmonicHandWorked(t *testing.T) {
	sw := &tor.SwitchConfig{Ports: 3, Queues: 1, Buffer: 11, MTU: 1, Rates: []rotor.Rate{rotor.Gbps}, RTT: rotor.Microsecond}
	p, err := tor.NewBufferPolicy("harmonic", nil, tor.Env{Switch: sw})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		queues [3]int64
		q      int32
		size   int32
		want   bool
		why    string
	}{
		{[3]int64{6, 0, 0}, 0, 1, false, "longest 7 > 6"},
		{[3]int64{6, 0, 0}, 1, 1, true, "6 ≤ 6, 7 ≤ 9"},
		{[3]int64{6, 3, 0}, 1, 1, false, "two longest 10 > 9"},
		{[3]int64{6, 3, 0}, 2, 1, true, "6, 9, 10 ≤ 6, 9, 11"},
		{[3]int64{4, 4, 2}, 2, 1, true, "4, 8, 11"},
		{[3]int64{4, 4, 2}, 0, 1, true, "5, 9, 11"},
		{[3]int64{4, 4, 2}, 0, 2, false, "two longest 10 > 9"},
		{[3]int64{5, 4, 2}, 2, 1, false, "buffer full: 12 > 11"},
		{[3]int64{0, 0, 0}, 2, 6, true, "6 ≤ 6"},
		{[3]int64{0, 0, 0}, 2, 7, false, "7 > 6"},
	} {
		s := &tor.State{B: 11, MTU: 1, NQ: 1, Queues: make([]tor.QueueCounters, 3)}
		for i, b := range c.queues {
			s.Queues[i] = tor.QueueCounters{Bytes: b, Port: int32(i)}
			s.Used += b
		}
		if got := p.Admit(0, &tor.Arrival{Size: c.size, Port: c.q}, c.q, s); got != c.want {
			t.Errorf("queues %v, %d bytes to queue %d: admit %v, want %v (%s)", c.queues, c.size, c.q, got, c.want, c.why)
		}
	}
}

// TestHarmonicParameter: n is derived from the switch and checked.
func TestHarmonicParameter(t *testing.T) {
	sw := &tor.SwitchConfig{Ports: 4, Queues: 2, Buffer: 1000, MTU: 100, Rates: []rotor.Rate{rotor.Gbps}, RTT: rotor.Microsecond}
	spec, err := tor.LookupPolicy("harmonic")
	if err != nil {
		t.Fatal(err)
	}
	v, err := spec.Values(nil, sw)
	if err != nil || v["n"] != 8 {
		t.Errorf("derived n = %v (%v), want ports × queues = 8", v["n"], err)
	}
	if _, err := tor.NewBufferPolicy("harmonic", map[string]float64{"n": 9}, tor.Env{Switch: sw}); err == nil {
		t.Error("n = 9 > 8 queues accepted")
	}
}
