package fabric

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// policyRuns are small runs in which every kind of switch holds queues: a
// leaf-spine under incast (leaves and spines), RotorNet with RotorLB (rotor
// ToRs: VOQs, circuit day and night) and a hybrid (its packet switch).
var policyRuns = map[string][]string{
	"leafspine": {"topology.kind=leafspine", "topology.leaves=2", "topology.spines=2", "topology.links_per_pair=1",
		"topology.hosts_per_tor=4", "topology.queues_per_port=2", "buffer.size=60KB", "workload.incast_senders=4",
		"workload.incast_bytes=20KB", "workload.incast_rate=2000", "workload.load=0.3", "run.sim_time=3ms"},
	"rotornet": {"topology.tors=8", "topology.hosts_per_tor=2", "schedule.kind=rotornet", "routing.mode=rotorlb",
		"transport.kind=window", "buffer.per_port=4", "workload.load=0.5", "workload.incast_senders=4",
		"workload.incast_bytes=30KB", "workload.incast_rate=2000", "run.sim_time=3ms"},
	"hybrid": {"topology.tors=8", "topology.hosts_per_tor=2", "topology.packet_switch_link=10Gbps",
		"buffer.per_port=4", "buffer.packet_switch=20KB", "workload.load=0.5", "workload.incast_senders=4",
		"workload.incast_bytes=30KB", "workload.incast_rate=2000", "run.sim_time=3ms"},
}

// TestEveryPolicyEverySwitch runs every registered buffer policy in every
// kind of switch with run.check on, which fails the run if a switch's
// counters disagree with a recount of its queues, if the switches' drops
// (refused arrivals and pushed-out packets) are not all the run's drops,
// or if bytes are not conserved. The push-out policies must really push
// out packets somewhere, and every run must drop something (the buffers
// are small on purpose) and deliver data.
func TestEveryPolicyEverySwitch(t *testing.T) {
	for _, name := range tor.PolicyNames() {
		for topo, keys := range policyRuns {
			t.Run(name+"/"+topo, func(t *testing.T) {
				sp := specWith(t, append(keys, "buffer.policy="+name, "run.check=true")...)
				setup, err := sp.Build()
				if name == "protean" && topo == "hybrid" { // the packet switch's ports have one queue
					if ce, ok := err.(*ConfigError); !ok || ce.Field != "buffer.short_queue" {
						t.Errorf("protean with a one-queue packet switch: error %v, want one about buffer.short_queue", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				cfg := setup.Config
				s, err := newSimFor(cfg)
				if err != nil {
					t.Fatal(err)
				}
				r, err := s.run()
				if err != nil {
					t.Fatal(err)
				}
				var pushed int64
				for _, tr := range s.switches() {
					pushed += tr.Switch().PushedOut
					if tr.Switch().Policy().Name() != name {
						t.Fatalf("switch %d runs %s", tr.ID, tr.Switch().Policy().Name())
					}
				}
				if r.DeliveredData == 0 || r.DroppedPackets == 0 {
					t.Errorf("delivered %d B, dropped %d packets; want both", r.DeliveredData, r.DroppedPackets)
				}
				if name == "lqd" && pushed == 0 {
					t.Errorf("lqd pushed out nothing (%d drops)", r.DroppedPackets)
				}
				if name != "lqd" && pushed != 0 {
					t.Errorf("%s is drop-tail but pushed out %d packets", name, pushed)
				}
			})
		}
	}
}

// TestCredenceDefaultModel regenerates the model built into rdcn with the
// documented command's configuration and seed, byte for byte.
func TestCredenceDefaultModel(t *testing.T) {
	setup := setupFromTOML(t, "testdata/credence/train.toml")
	m, q, err := TrainCredence(setup.Config, 1)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), credenceDefault) {
		t.Errorf("the documented training run gives a different model than the built-in one (%d vs %d bytes)", b.Len(), len(credenceDefault))
	}
	if q.TP+q.FN == 0 || q.Recall() < 0.5 {
		t.Errorf("training scenario: %d LQD drops, recall %.3f; want drops and a useful model", q.TP+q.FN, q.Recall())
	}
}

// TestBufferBadInput: a bad buffer setting is refused by Spec.Build with
// a ConfigError naming its key.
func TestBufferBadInput(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.model")
	if err := os.WriteFile(bad, []byte("rdcn-forest 1\ntree\nleaf 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		keys []string
		key  string
	}{
		{[]string{"buffer.policy=harmonic"}, "buffer.policy"},
		{[]string{"buffer.alpha=0"}, "buffer.alpha"},
		{[]string{"buffer.alpha=-1"}, "buffer.alpha"},
		{[]string{"buffer.alpha=Inf"}, "buffer.alpha"},
		{[]string{"buffer.policy=tdt", "buffer.dec=0"}, "buffer.dec"},
		{[]string{"buffer.policy=lqd", "buffer.alpha=1"}, "buffer.alpha"},
		{[]string{"buffer.policy=dt", "buffer.gamma=0.5"}, "buffer.gamma"},
		{[]string{"buffer.policy=credence", "buffer.credence_model=/does/not/exist"}, "buffer.credence_model"},
		{[]string{"buffer.policy=credence", "buffer.credence_model=" + bad}, "buffer.credence_model"},
		{[]string{"buffer.policy=fb", "buffer.lossless=0"}, "buffer.lossless"},
		{[]string{"buffer.policy=sonic", "buffer.lossless=0"}, "buffer.lossless"},
	} {
		_, err := specWith(t, c.keys...).Build()
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != c.key || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error %v, want one line about %s", c.keys, err, c.key)
		}
	}
}

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

// TestBufferExperimentConfigs: every experiment of
// testdata/buffers/run.sh builds (its keys exist, its values are valid),
// with the flow file run.sh gives the TDT test.
func TestBufferExperimentConfigs(t *testing.T) {
	files, err := filepath.Glob("testdata/buffers/*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no configs: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			var keys []string
			if strings.HasPrefix(filepath.Base(f), "tdt") {
				keys = append(keys, "workload.flows_file=testdata/buffers/tdt/tdt.flows")
			}
			if s := setupFromTOML(t, f, keys...); len(s.Flows) == 0 {
				t.Errorf("no flows")
			}
		})
	}
}
