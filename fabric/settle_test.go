package fabric

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// settledProbe is Complete Sharing with every hook checking that the
// buffer it is shown is settled.
type settledProbe struct {
	tor.CompleteSharing
	check func(now rotor.Time)
}

func (p settledProbe) Admit(now rotor.Time, pk *tor.Packet, q tor.QueueID, s *tor.BufferState) tor.Verdict {
	p.check(now)
	return p.CompleteSharing.Admit(now, pk, q, s)
}
func (p settledProbe) OnEnqueue(now rotor.Time, _ *tor.Packet, _ tor.QueueID, _ *tor.BufferState) {
	p.check(now)
}
func (p settledProbe) OnDequeue(now rotor.Time, _ *tor.Packet, _ tor.QueueID, _ *tor.BufferState) {
	p.check(now)
}
func (p settledProbe) OnDrop(now rotor.Time, _ *tor.Packet, _ tor.QueueID, _ *tor.BufferState) {
	p.check(now)
}
func (p settledProbe) Tick(now rotor.Time, _ *tor.BufferState) { p.check(now) }
func (settledProbe) TickInterval() rotor.Time                  { return 5 * rotor.Microsecond }

// TestPolicySeesSettledBuffer runs host-buffered bulk traffic beside
// queued (windowed) traffic and checks that whenever the buffer policy
// looks at a ToR — admission, enqueue, dequeue, drop and tick hooks — the
// room that ToR's host ports have given back by then is released: no
// booking of a pulled packet has left unsettled (room checks of pulled
// traffic may settle late, since settling only adds room).
func TestPolicySeesSettledBuffer(t *testing.T) {
	sp := NewSpec()
	for _, kv := range []string{"topology.tors=8", "topology.hosts_per_tor=4", "topology.uplinks=4",
		"schedule.kind=opera", "routing.mode=paths", "transport.kind=pull", "routing.bulk=50KB",
		"buffer.per_port=4", "workload.load=0.4", "run.sim_time=8ms"} {
		if err := sp.SetArg(kv); err != nil {
			t.Fatal(err)
		}
	}
	setup, err := sp.Build()
	if err != nil {
		t.Fatal(err)
	}
	cfg := setup.Config
	var s *sim
	looks, failed := 0, false
	cfg.NewPolicy = func(id int) (tor.Policy, error) {
		return settledProbe{check: func(now rotor.Time) {
			looks++
			if at := s.pull.nextLeave[id]; at <= now && !failed {
				failed = true
				t.Errorf("at %v the policy of ToR %d sees a booking that left at %v unsettled", now, id, at)
			}
		}}, nil
	}
	cfg.defaults()
	if err := cfg.validate(); err != nil {
		t.Fatal(err)
	}
	if s, err = newSim(cfg); err != nil {
		t.Fatal(err)
	}
	r, err := s.run()
	if err != nil {
		t.Fatal(err)
	}
	if looks < 10000 || r.Hops[2] == 0 || r.DroppedPackets == 0 {
		t.Fatalf("too little exercised: %d looks, hops %v, %d drops", looks, r.Hops, r.DroppedPackets)
	}
}
