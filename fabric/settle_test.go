package fabric_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// settledProbe is Complete Sharing with every hook checking that the
// buffer it is shown is settled.
type settledProbe struct {
	tor.BufferPolicy
	check func(now rotor.Time)
}

func (p settledProbe) Admit(now rotor.Time, a *tor.Arrival, q int32, s *tor.State) bool {
	p.check(now)
	return p.BufferPolicy.Admit(now, a, q, s)
}
func (p settledProbe) Enqueued(now rotor.Time, _ *tor.Arrival, _ int32, _ *tor.State) { p.check(now) }
func (p settledProbe) Dequeued(now rotor.Time, _ int32, _ int32, _ *tor.State)        { p.check(now) }
func (p settledProbe) Dropped(now rotor.Time, _ *tor.Arrival, _ int32, _ int32, _ bool, _ *tor.State) {
	p.check(now)
}
func (p settledProbe) Tick(now rotor.Time, _ *tor.State) { p.check(now) }
func (settledProbe) Every() rotor.Time                   { return 5 * rotor.Microsecond }

// TestPolicySeesSettledBuffer runs host-buffered bulk traffic beside
// queued (windowed) traffic and checks that whenever the buffer policy
// looks at a ToR — admission, enqueue, dequeue, drop and tick hooks — the
// room that ToR's host ports have given back by then is released: no
// booking of a pulled packet has left unsettled (room checks of pulled
// traffic may settle late, since settling only adds room).
func TestPolicySeesSettledBuffer(t *testing.T) {
	cfg := buildSpec(t, "topology.tors=8", "topology.hosts_per_tor=4", "topology.uplinks=4",
		"schedule.kind=opera", "routing.mode=paths", "transport.kind=pull", "routing.bulk=50KB",
		"buffer.per_port=4", "workload.load=0.4", "run.sim_time=8ms").Config
	var s *fabric.Sim
	looks, failed := 0, false
	cfg.NewPolicy = func(id int) tor.PolicyMaker {
		return func(c *tor.SwitchConfig) (tor.BufferPolicy, error) {
			cs, err := tor.NewBufferPolicy("cs", nil, tor.Env{Switch: c})
			return settledProbe{BufferPolicy: cs, check: func(now rotor.Time) {
				looks++
				if at := s.NextLeave(id); at <= now && !failed {
					failed = true
					t.Errorf("at %v the policy of ToR %d sees a booking that left at %v unsettled", now, id, at)
				}
			}}, err
		}
	}
	var err error
	if s, err = fabric.NewSim(cfg); err != nil {
		t.Fatal(err)
	}
	r, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if looks < 10000 || r.Hops[2] == 0 || r.DroppedPackets == 0 {
		t.Fatalf("too little exercised: %d looks, hops %v, %d drops", looks, r.Hops, r.DroppedPackets)
	}
}

// TestSkippedOffersFindNoCircuit runs RotorLB over host-buffered traffic
// with run.check on, which schedules the stored-packet offers that
// circuitMayBeUp skips and fails the run if one of them finds a circuit
// to its destination up; and without run.check, where skipping them must
// leave every result unchanged.
func TestSkippedOffersFindNoCircuit(t *testing.T) {
	run := func(check bool, extra ...string) (*fabric.Result, int64) {
		cfg := buildSpec(t, append([]string{"topology.tors=16", "topology.hosts_per_tor=4", "topology.uplinks=4",
			"schedule.kind=rotornet", "routing.mode=rotorlb", "transport.kind=pull",
			"workload.load=0.3", "run.sim_time=6ms"}, extra...)...).Config
		cfg.Check = check
		s, err := fabric.NewSim(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Run()
		if err != nil {
			t.Fatal(err)
		}
		return r, s.SkippedOffers()
	}
	for _, extra := range [][]string{nil, {"schedule.reconf=0"}, {"schedule.kind=opera"}} {
		checked, skipped := run(true, extra...)
		plain, _ := run(false, extra...)
		if skipped == 0 {
			t.Errorf("%v: no offer skipped", extra)
		}
		if plain.Events >= checked.Events {
			t.Errorf("%v: %d events without run.check, %d with: skipping saved none", extra, plain.Events, checked.Events)
		}
		if diff := cmp.Diff(checked, plain, cmpopts.IgnoreFields(fabric.Result{}, "Events", "Memory"), cmpopts.EquateNaNs()); diff != "" {
			t.Errorf("%v: results differ with and without the skipped offers (-checked +plain):\n%s", extra, diff)
		}
	}
}
