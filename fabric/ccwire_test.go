package fabric

import (
	"errors"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// rdcnConfig is a small hybrid RDCN in the proportions of the PowerTCP
// thesis's case study: n ToRs × 2 hosts at 25 G, one 100 G circuit switch
// (day 225 µs, night 20 µs), a 25 G packet switch, 3 µs links; every host
// of ToR 0 sends one flow of size bytes to ToR 1.
func rdcnConfig(t testing.TB, n int, size int64, law string) Config {
	us := rotor.Microsecond
	var flows []workload.Flow
	for h := range 2 {
		flows = append(flows, workload.Flow{ID: h, Src: h, Dst: 2 + h, Bytes: size})
	}
	cfg := baseConfig(cyclicSchedule(t, n, 1, 1, 245*us, 20*us), flows)
	cfg.HostsPerToR = 2
	cfg.HostLink, cfg.CircuitLink, cfg.PacketSwitchLink = 25*rotor.Gbps, 100*rotor.Gbps, 25*rotor.Gbps
	cfg.HostDelay, cfg.LinkDelay, cfg.PacketSwitchDelay = 3*us, 3*us, 3*us
	cfg.Routing, cfg.CC, cfg.SimTime = Hybrid, law, 20*rotor.Millisecond
	cfg.ECNThreshold = 30_000
	return cfg
}

// TestEveryLawRuns: every law of cc's registry is selectable and runs the
// small RDCN to completion with every byte delivered once (run.check on).
func TestEveryLawRuns(t *testing.T) {
	for _, name := range cc.Names() {
		cfg := rdcnConfig(t, 5, 2_000_000, name)
		r, err := Run(cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.FlowsComplete != 2 {
			t.Errorf("%s: %d of 2 flows complete", name, r.FlowsComplete)
		}
		for _, f := range r.Flows {
			if f.Received != f.Bytes {
				t.Errorf("%s: flow %d received %d of %d B", name, f.ID, f.Received, f.Bytes)
			}
		}
	}
}

// lawTap wraps a registered law and records what its ACKs brought.
type lawTap struct {
	cc.Law
	acks, ece, hops, circuit int
	at                       []rotor.Time // ACK times with ECE
	all                      []rotor.Time
}

func (l *lawTap) OnAck(f *cc.Feedback) {
	l.acks++
	l.all = append(l.all, f.Now)
	if f.ECE {
		l.ece++
		l.at = append(l.at, f.Now)
	}
	if f.Circuit {
		l.circuit++
	}
	l.hops += len(f.Hops)
	l.Law.OnAck(f)
}

func tapRun(t *testing.T, cfg Config, params map[string]string) (*lawTap, *Result) {
	t.Helper()
	tap := &lawTap{}
	cfg.NewController = func(f workload.Flow, env cc.Env) (cc.Law, error) {
		l, err := cc.New(cfg.CC, env, params)
		tap.Law = l
		return tap, err
	}
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tap, r
}

// TestECNReachesDCTCP: one flow through a 25 G packet switch from a 25 G
// host fills no queue, but two flows into one host's port do: switches mark
// above buffer.ecn_threshold and DCTCP's ACKs echo it; with a threshold
// above the buffer nothing is marked; without one, the DCTCP rule's K
// (marking.go) marks some.
func TestECNReachesDCTCP(t *testing.T) {
	cfg := rdcnConfig(t, 5, 1_000_000, "dctcp")
	cfg.Flows = &SliceSource{Flows: []workload.Flow{{ID: 0, Src: 0, Dst: 9, Bytes: 1_000_000}, {ID: 1, Src: 2, Dst: 9, Bytes: 1_000_000}}}
	tap, _ := tapRun(t, cfg, nil)
	if tap.ece == 0 || tap.ece == tap.acks {
		t.Errorf("K = 30 KB: %d of %d ACKs with ECE, want some", tap.ece, tap.acks)
	}
	cfg.Flows = &SliceSource{Flows: []workload.Flow{{ID: 0, Src: 0, Dst: 9, Bytes: 1_000_000}, {ID: 1, Src: 2, Dst: 9, Bytes: 1_000_000}}}
	cfg.ECNThreshold = cfg.Buffer
	if tap, _ := tapRun(t, cfg, nil); tap.ece != 0 {
		t.Errorf("K = buffer: %d ACKs with ECE", tap.ece)
	}
	cfg.Flows = &SliceSource{Flows: []workload.Flow{{ID: 0, Src: 0, Dst: 9, Bytes: 1_000_000}, {ID: 1, Src: 2, Dst: 9, Bytes: 1_000_000}}}
	cfg.ECNThreshold = 0 // the DCTCP rule's K per port
	if tap, _ := tapRun(t, cfg, nil); tap.ece == 0 || tap.ece == tap.acks {
		t.Errorf("default K: %d of %d ACKs with ECE, want some", tap.ece, tap.acks)
	}
}

// TestReTCPECE: with reTCP the ToR that delivers an ACK sets ECE iff the
// circuit from it to the data's destination ToR is up. Flow 0→2 (ToR 0 →
// ToR 1) has its day in slot 0 of every 4-slot week ([0, 225 µs) +
// k·980 µs): an ACK with ECE arrives at the sender at most one host hop
// (3 µs + 64 B) after a day, an ACK without ECE never inside one.
func TestReTCPECE(t *testing.T) {
	us := rotor.Microsecond
	cfg := rdcnConfig(t, 5, 3_000_000, "retcp")
	cfg.Flows = &SliceSource{Flows: []workload.Flow{{ID: 0, Src: 0, Dst: 2, Bytes: 3_000_000}}}
	tap, _ := tapRun(t, cfg, nil)
	week, day, lag := 4*245*us, 225*us, 4*us
	if tap.ece == 0 || tap.ece == tap.acks {
		t.Fatalf("%d of %d ACKs with ECE", tap.ece, tap.acks)
	}
	ece := map[rotor.Time]bool{}
	for _, a := range tap.at {
		ece[a] = true
		if in := a % week; in > day+lag {
			t.Errorf("ACK with ECE at %v, %v into the week (day ends at %v)", a, in, day)
		}
	}
	for _, a := range tap.all {
		if in := a % week; !ece[a] && in >= lag && in < day {
			t.Errorf("ACK without ECE at %v, %v into the week (inside the day)", a, in)
		}
	}
}

// TestINTLawsGetRecords: PowerTCP's ACKs carry the data path's INT
// records (2 on a circuit, 3 through the packet switch) without
// transport.int, and the law is refused where paths can be longer than a
// packet's INT stack.
func TestINTLawsGetRecords(t *testing.T) {
	cfg := rdcnConfig(t, 5, 1_000_000, "powertcp")
	tap, _ := tapRun(t, cfg, map[string]string{"mode": "per-rtt"})
	if tap.acks == 0 || tap.hops < 2*tap.acks || tap.hops > 3*tap.acks {
		t.Errorf("%d ACKs brought %d INT records, want 2 or 3 each", tap.acks, tap.hops)
	}
	if tap.circuit == 0 {
		t.Errorf("no ACK of a circuit path")
	}
}

// TestCCConfigErrors: each bad congestion-control setting is refused
// before the run with an error naming its key.
func TestCCConfigErrors(t *testing.T) {
	for _, c := range []struct {
		law, key string
		params   map[string]string
		edit     func(*Config)
	}{
		{"vegas", "transport.cc", nil, nil},
		{"powertcp", "transport.cc_params", map[string]string{"g": "0.5"}, nil},
		{"powertcp", "transport.cc_params", map[string]string{"gamma": "1.5"}, nil},
		{"powertcp", "transport.cc_params", map[string]string{"gamma": "0"}, nil},
		{"fixed", "transport.cc_params", map[string]string{"gamma": "0.5"}, nil},
		{"powertcp", "transport.cc", nil, func(c *Config) { c.Routing = Paths; c.PacketSwitchLink = 0 }},
		{"hpcc", "transport.cc", nil, func(c *Config) { c.Routing = Earliest; c.PacketSwitchLink = 0 }},
		{"dctcp", "buffer.red_min", nil, func(c *Config) { c.ECNThreshold, c.REDMin, c.REDMax = 0, 1000, 2000 }},
		{"dcqcn", "buffer.red_min", nil, func(c *Config) { c.REDMin, c.REDMax = 1000, 2000 }}, // with ecn_threshold
		{"dcqcn", "buffer.red_min", nil, func(c *Config) { c.ECNThreshold, c.REDMin = 0, 1000 }},
		{"dcqcn", "buffer.red_max", nil, func(c *Config) { c.ECNThreshold, c.REDMin, c.REDMax = 0, 2000, 1000 }},
		{"dcqcn", "buffer.red_max_p", nil, func(c *Config) { c.ECNThreshold, c.REDMaxP = 0, 1.5 }},
		{"retcp", "transport.acks", nil, func(c *Config) { c.Acks = AcksIdeal }},
	} {
		cfg := rdcnConfig(t, 5, 1000, c.law)
		cfg.CCParams = c.params
		if c.edit != nil {
			c.edit(&cfg)
		}
		_, err := Run(cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != c.key || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %v: error %v, want one line naming %s", c.law, c.params, err, c.key)
		}
	}
}
