package tor

import (
	"math/rand/v2"
	"testing"
)

// TestVOQPortsOnDemand: above DenseToRs a ToR creates the VOQ port toward
// a destination on its first use only. Checked against a model of what
// was enqueued: ports = destinations used, NextHop, VOQLen and VOQBytes
// per destination, readers that create nothing, and each port's night
// following the circuits toward it whether they came before or after the
// port.
func TestVOQPortsOnDemand(t *testing.T) {
	const n = 5000 // above DenseToRs and des.IndexDirect: hashed
	tr, pool := newTestToR(t, Config{ToRs: n, Hosts: 1, Uplinks: 2, Buffer: 1 << 30, Policy: dt(1)})
	if tr.VOQLen(7, Local) != 0 || tr.VOQBytes(7) != 0 || tr.voqPorts() != 0 {
		t.Fatal("readers created a port")
	}
	tr.SetCircuit(0, 42, true) // a circuit before 42's port exists
	rng := rand.New(rand.NewPCG(1, 2))
	type count struct {
		pkts  [2]int
		bytes int64
	}
	model := map[int]*count{}
	for range 3000 {
		d := 1 + rng.IntN(300)*13 // 300 destinations spread over n
		class := rng.IntN(2)
		size := int32(100 + rng.IntN(1400))
		q := tr.VOQ(d, class)
		if got := tr.NextHop(q); got != d {
			t.Fatalf("NextHop(VOQ(%d)) = %d", d, got)
		}
		if !tr.Enqueue(0, q, pkt(pool, size)) {
			t.Fatalf("packet to %d refused with a 1 GiB buffer", d)
		}
		c := model[d]
		if c == nil {
			c = &count{}
			model[d] = c
		}
		c.pkts[class]++
		c.bytes += int64(size)
	}
	if tr.voqPorts() != len(model) {
		t.Fatalf("%d VOQ ports for %d destinations used", tr.voqPorts(), len(model))
	}
	for d := 0; d < n; d++ {
		c := model[d]
		if c == nil {
			c = &count{}
		}
		if tr.VOQLen(d, Transit) != c.pkts[Transit] || tr.VOQLen(d, Local) != c.pkts[Local] || tr.VOQBytes(d) != c.bytes {
			t.Fatalf("destination %d: %d+%d packets, %d B; want %v", d, tr.VOQLen(d, Transit), tr.VOQLen(d, Local), tr.VOQBytes(d), *c)
		}
	}
	if tr.voqPorts() != len(model) {
		t.Fatal("readers created ports")
	}
	night := func(v int) bool {
		return tr.Switch().State().Ports[tr.QueuePort(tr.VOQ(v, Local))-tr.cfg.Uplinks].Night
	}
	if night(42) { // its circuit came up before the port existed
		t.Error("VOQ port toward 42 in its night with a circuit up")
	}
	if !night(43) {
		t.Error("VOQ port toward 43 in its day without a circuit")
	}
	tr.SetCircuit(0, 43, true)
	tr.SetCircuit(0, 42, false)
	if night(43) || !night(42) {
		t.Errorf("after the circuits changed: night(43) %v, night(42) %v", night(43), night(42))
	}
	// A held packet toward an unused destination under a stateless policy
	// is decided on the spare port: one port, not one per destination.
	ports := tr.voqPorts()
	for v := 4000; v < 4100; v++ {
		if tr.AdmitHeldVOQ(0, v, Local, 0, 1500, 0) != Admitted {
			t.Fatalf("held packet toward %d not admitted", v)
		}
		tr.Release(1500)
	}
	if tr.voqPorts() != ports+1 {
		t.Errorf("%d VOQ ports after held packets toward 100 new destinations, want %d (the spare)", tr.voqPorts(), ports+1)
	}
}
