package tor

import (
	"math/rand/v2"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// TestMoveHeadStaysInBuffer moves packets between queues of a switch
// under every registered policy (a rotor ToR re-routing at a slice
// change): the bytes never leave the buffer, so the buffer's occupancy,
// the drops, marks and push-outs, and the bytes the ports count as sent
// stay as they were, each queue's counters change by exactly the moved
// packet, and the queues keep their order. The policies whose hooks keep
// state derived from queue lengths must agree with a recount: LQD's
// longest-queue heap holds every queue's length, ABM's saturation sum is
// Σ min(q/sat, 1) and its drained bytes are unchanged, and FollowLQD's
// and Credence's virtual queues keep their total.
func TestMoveHeadStaysInBuffer(t *testing.T) {
	for _, spec := range Policies() {
		t.Run(spec.Name, func(t *testing.T) {
			cfg := cfgN(4, 2, 40*1500, rotor.Gbps)
			p, err := NewBufferPolicy(spec.Name, nil, Env{Switch: &cfg, Oracle: neverDrop{}, Rand: rand.New(rand.NewPCG(1, 1))})
			if err != nil {
				t.Skip(err) // a policy that needs more than this switch (lossless classes)
			}
			sw, err := NewSwitch(cfg, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			// 12 packets: queue 0 of port 0 gets six, queue 1 of port 1
			// four, queue 0 of port 2 two; handles 0…11 in that order.
			h := int32(0)
			for _, c := range []struct{ port, class, n int }{{0, 0, 6}, {1, 1, 4}, {2, 0, 2}} {
				for range c.n {
					a := Arrival{ID: int64(h), Size: 1000 + 10*h, Port: int32(c.port), Class: uint8(c.class)}
					if ok, _ := sw.Enqueue(0, &a, h); !ok {
						t.Fatalf("packet %d refused", h)
					}
					h++
				}
			}
			st := sw.State()
			used, drops, marks, pushed := st.Used, sw.Drops, sw.Marks, sw.PushedOut
			var sent [4]int64
			for i := range sent {
				sent[i] = st.Ports[i].TxBytes
			}
			var vsum int64
			if v, ok := p.(interface{ virtualSum() int64 }); ok {
				vsum = v.virtualSum()
			}
			abmDeq := int64(0)
			if m, ok := p.(*ABM); ok {
				for _, d := range m.deq {
					abmDeq += d
				}
			}
			from, to := int32(0), int32(3*2+1) // port 0 queue 0 → port 3 queue 1
			for k := range 4 {
				bf, bt := st.Queues[from].Bytes, st.Queues[to].Bytes
				got, ok := sw.moveHead(rotor.Time(k+1)*rotor.Microsecond, from, to)
				if !ok || got != int32(k) {
					t.Fatalf("move %d: handle %d (ok %v), want %d", k, got, ok, k)
				}
				size := int64(1000 + 10*k)
				if st.Queues[from].Bytes != bf-size || st.Queues[to].Bytes != bt+size {
					t.Fatalf("move %d: queue bytes %d → %d and %d → %d, want a change of %d", k, bf, st.Queues[from].Bytes, bt, st.Queues[to].Bytes, size)
				}
			}
			if st.Used != used || sw.Drops != drops || sw.Marks != marks || sw.PushedOut != pushed {
				t.Errorf("used %d → %d, drops %d → %d, marks %d → %d, pushed out %d → %d", used, st.Used, drops, sw.Drops, marks, sw.Marks, pushed, sw.PushedOut)
			}
			for i := range sent {
				if st.Ports[i].TxBytes != sent[i] {
					t.Errorf("port %d counts %d B sent, had %d", i, st.Ports[i].TxBytes, sent[i])
				}
			}
			for k := range 4 { // the moved packets, in order, then nothing else
				if got, _, _ := sw.dequeueQueue(10*rotor.Microsecond, to); got != int32(k) {
					t.Errorf("queue %d's packet %d is %d, want %d", to, k, got, k)
				}
				if m, ok := p.(*ABM); ok && k == 0 {
					var d int64
					for _, x := range m.deq {
						d += x
					}
					if want := abmDeq + 1000; d != want {
						t.Errorf("ABM counts %d B drained, want %d (only the dequeue)", d, want)
					}
				}
			}
			switch pol := p.(type) {
			case *LQD:
				for q := range int32(len(st.Queues)) {
					if pol.h.Get(q) != st.Queues[q].Bytes {
						t.Errorf("LQD's heap holds %d B for queue %d, which has %d", pol.h.Get(q), q, st.Queues[q].Bytes)
					}
				}
			case *ABM:
				for k := range cfg.Queues {
					var want float64
					for q := range len(st.Queues) {
						if st.Prio(int32(q)) == k {
							want += pol.satOf(st.Queues[q].Bytes)
						}
					}
					if d := pol.satSum[k] - want; d > 1e-9 || d < -1e-9 {
						t.Errorf("ABM's saturation sum of priority %d is %v, a recount %v", k, pol.satSum[k], want)
					}
				}
			}
			if v, ok := p.(interface{ virtualSum() int64 }); ok {
				if got, want := v.virtualSum(), vsum-4060; got != want { // the four dequeues took 4,060 B off
					t.Errorf("virtual LQD holds %d B, want %d: %d before the moves, less the four dequeues", got, want, vsum)
				}
			}
		})
	}
}

// virtualSum is the total of the virtual LQD's queues.
func (v *virtualLQD) virtualSum() int64 { return v.sum }
