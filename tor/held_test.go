package tor_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// TestAdmitHeldDecidesAsQueued: a packet whose queue holds k packets that
// wait outside the queues (held, AdmitHeld) is admitted or refused exactly
// as one whose queue holds them queued (Enqueue), for every policy of the
// registry without lossless classes in use and k up to a full buffer,
// with another queue empty or holding 6 queued packets; a push-out policy
// pushes out the same packets either way (LQD: the other queue's tail
// once the buffer is full and that queue is the longest); and the held
// bytes are back out of the counters after each decision. (Without the
// held bytes shown to the policy, 89 of its 208 decisions with the other
// queue empty differ; without push-out for held packets, LQD refuses
// the held packet that finds the buffer full and pushes nothing out.)
func TestAdmitHeldDecidesAsQueued(t *testing.T) {
	cfg := tor.SwitchConfig{Ports: 4, Queues: 2, Buffer: 12 * 1500, MTU: 1500, RTT: 10 * rotor.Microsecond,
		Rates: []rotor.Rate{10 * rotor.Gbps}}
	const q = 2*2 + 1 // port 2, queue 1
	const other = 0   // port 0, queue 0
	differ, pushed := 0, 0
	for _, name := range tor.PolicyNames() {
		for _, o := range []int{0, 6} {
			for k := 0; k <= 12-o; k++ {
				newSwitch := func() *tor.Switch {
					c := cfg
					p, err := tor.NewBufferPolicy(name, nil, tor.Env{Switch: &c, Rand: rand.New(rand.NewPCG(1, 2)), Oracle: tor.PerfectOracle{}}) // the same draws on both switches
					if err != nil {
						t.Fatal(err)
					}
					sw, err := tor.NewSwitch(c, p, nil)
					if err != nil {
						t.Fatal(err)
					}
					for i := 0; i < o; i++ { // the other queue's packets, queued on both switches
						sw.EnqueueQueue(0, &tor.Arrival{ID: int64(100 + i), Flow: 2, Size: 1500, Port: 0, Class: 0}, other, int32(100+i))
					}
					sw.Evicted, sw.EvictedFrom = sw.Evicted[:0], sw.EvictedFrom[:0]
					return sw
				}
				arrival := func(id int) *tor.Arrival {
					return &tor.Arrival{ID: int64(id), Flow: 1, Size: 1500, Port: 2, Class: 1}
				}
				queued := newSwitch()
				n := 0
				for ; n < k; n++ {
					if ok, _ := queued.EnqueueQueue(0, arrival(n), q, int32(n)); !ok || len(queued.Evicted) > 0 {
						break
					}
				}
				held := newSwitch()
				for i := 0; i < n; i++ {
					if v := held.AdmitHeld(0, arrival(i), q, int64(i*1500)); v != tor.Admitted {
						t.Fatalf("%s: held packet %d refused (%d) where the queued one was admitted", name, i, v)
					}
				}
				before := *held.State()
				before.Queues = append([]tor.QueueCounters(nil), before.Queues...)
				want, _ := queued.EnqueueQueue(0, arrival(n), q, int32(n))
				got := held.AdmitHeld(0, arrival(n), q, int64(n*1500)) == tor.Admitted
				if got != want {
					t.Errorf("%s with %d packets (other queue %d): held decides %v, queued %v", name, n, o, got, want)
					differ++
				}
				if !slices.Equal(held.Evicted, queued.Evicted) {
					t.Errorf("%s with %d packets (other queue %d): held pushed out %v, queued %v", name, n, o, held.Evicted, queued.Evicted)
				}
				pushed += len(held.Evicted)
				if after := held.State(); after.Queues[q] != before.Queues[q] || after.Ports[2].Bytes != before.Ports[2].Bytes {
					t.Errorf("%s: AdmitHeld left the held bytes in the counters", name)
				}
			}
		}
	}
	if pushed == 0 {
		t.Error("no policy pushed anything out: the push-out case tests nothing")
	}
	if differ > 0 {
		t.Logf("%d decisions differ", differ)
	}
}
