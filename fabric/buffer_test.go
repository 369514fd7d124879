package fabric

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// circuitProbe is Complete Sharing that records the circuit days and
// nights it hears, and checks that the port's Night flag agrees.
type circuitProbe struct {
	tor.BufferPolicy
	t      *testing.T
	events *[]string
}

func (p circuitProbe) Circuit(now rotor.Time, port int32, up bool, s *tor.State) {
	if s.Ports[port].Night == up {
		p.t.Errorf("at %v port %d hears up=%v but Night=%v", now, port, up, s.Ports[port].Night)
	}
	*p.events = append(*p.events, fmt.Sprintf("%v %d %v", now, port, up))
}

// TestPoliciesHearCircuits: a circuit-aware policy in a rotor ToR hears,
// for the VOQ port toward each ToR v, day when a circuit toward v comes up
// and night when it goes down, exactly as the schedule says (a cyclic
// schedule whose consecutive slots never reach the same ToR).
func TestPoliciesHearCircuits(t *testing.T) {
	const n, slot, reconf = 5, 10 * rotor.Microsecond, rotor.Microsecond
	sc := cyclicSchedule(t, n, 2, 1, slot, reconf)
	cfg := baseConfig(sc, nil)
	cfg.SimTime = 45 * rotor.Microsecond
	got := make([][]string, n)
	cfg.NewPolicy = func(sw int) tor.PolicyMaker {
		return func(c *tor.SwitchConfig) (tor.BufferPolicy, error) {
			cs, err := tor.NewBufferPolicy("cs", nil, tor.Env{Switch: c})
			return circuitProbe{cs, t, &got[sw]}, err
		}
	}
	if _, err := Run(cfg); err != nil {
		t.Fatal(err)
	}
	for tr := 0; tr < n; tr++ {
		var want []string
		for k := 0; rotor.Time(k)*slot < cfg.SimTime; k++ {
			var vs []int
			for s := range sc.Switches {
				vs = append(vs, sc.Matchings[s][k%sc.Period][tr])
			}
			slices.Sort(vs)
			start, night := rotor.Time(k)*slot, rotor.Time(k)*slot+slot-reconf
			for _, v := range vs { // the VOQ port toward v is switch port hosts + v = 1 + v
				want = append(want, fmt.Sprintf("%v %d true", start, 1+v))
			}
			if night < cfg.SimTime {
				for _, v := range vs {
					want = append(want, fmt.Sprintf("%v %d false", night, 1+v))
				}
			}
		}
		g := slices.Clone(got[tr])
		slices.Sort(g)
		slices.Sort(want)
		if diff := cmp.Diff(want, g); diff != "" {
			t.Errorf("ToR %d circuit events (-want +got):\n%s", tr, diff)
		}
	}
}
