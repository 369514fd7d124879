package fabric

import (
	"errors"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// TestHandshake: a background flow with transport.handshake sends its
// first data one SYN/SYN-ACK round trip after its start, and its FCT
// counts it: across leaves with 1 µs links at 10 Gbps, a 64 B SYN takes
// 4 × 51.2 ns + 4 µs each way, so the FCT is its ideal + 8.4096 µs. An
// incast response without incast_handshake starts at once: FCT = ideal.
func TestHandshake(t *testing.T) {
	flows := []workload.Flow{
		{ID: 0, Src: 0, Dst: 2, Bytes: 2500},
		{ID: 1, Src: 1, Dst: 3, Bytes: 2500, Start: rotor.Millisecond, Query: 1},
	}
	cfg := lsConfig(2, 2, 2, 1, 10*rotor.Gbps, 10*rotor.Gbps, flows)
	cfg.Handshake = HandshakeIdle
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	syn := 8*rotor.Microsecond + 8*(10*rotor.Gbps).TransmitTime(64)
	if syn != 8409600*rotor.Picosecond {
		t.Fatalf("hand arithmetic: SYN round trip %v", syn)
	}
	for i, want := range []rotor.Time{r.Flows[0].Ideal + syn, r.Flows[1].Ideal} {
		if f := r.Flows[i]; !f.Done || f.FCT != want {
			t.Errorf("flow %d (query %d): FCT %v, want %v", i, f.Query, f.FCT, want)
		}
	}
}

// TestIncastResponseWindow: ns-3's ABM links (10 µs, 10 Gbps) make a
// base RTT of 85 µs, a 106 kB bandwidth-delay product. With
// incast_init_window = response a 100 kB incast response (67 packets)
// leaves in one flight at line rate, so alone it takes exactly its ideal
// FCT (TestIdleFlowSlowdownOne checks that against the engine). With
// NewReno's default 10-packet window it needs slow-start rounds of 10, 20
// and 40 packets: more than one base RTT beyond the ideal. The background
// flow keeps transport.init_window = 55 packets: the last 12 wait for the
// first ACK, less than one base RTT beyond the ideal.
func TestIncastResponseWindow(t *testing.T) {
	const size = 100_000
	run := func(initWindow, incastWindow int64) (background, incast FlowResult) {
		t.Helper()
		flows := []workload.Flow{
			{ID: 0, Src: 0, Dst: 2, Bytes: size},
			{ID: 1, Src: 1, Dst: 3, Bytes: size, Start: rotor.Millisecond, Query: 1},
		}
		cfg := lsConfig(2, 2, 2, 1, 10*rotor.Gbps, 10*rotor.Gbps, flows)
		cfg.HostDelay, cfg.LeafSpine.FabricDelay = 10*rotor.Microsecond, 10*rotor.Microsecond
		cfg.CC, cfg.InitWindow, cfg.IncastInitWindow = "newreno", initWindow, incastWindow
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return r.Flows[0], r.Flows[1]
	}
	bg, in := run(55*1500, InitWindowResponse)
	if in.FCT != in.Ideal {
		t.Errorf("response window: incast FCT %v, want its ideal %v", in.FCT, in.Ideal)
	}
	rtt := 80*rotor.Microsecond + 4*(10*rotor.Gbps).TransmitTime(1500) + 4*(10*rotor.Gbps).TransmitTime(64)
	if stall := rtt - 55*(10*rotor.Gbps).TransmitTime(1500); bg.FCT < bg.Ideal+stall || bg.FCT >= bg.Ideal+rtt {
		t.Errorf("init window 55 pkt: background FCT %v, want in [ideal %v + %v, ideal + one base RTT %v)", bg.FCT, bg.Ideal, stall, rtt)
	}
	_, in10 := run(0, 0)
	if in10.FCT <= in10.Ideal+rtt {
		t.Errorf("default 10-packet window: incast FCT %v, want more than ideal %v + one base RTT %v", in10.FCT, in10.Ideal, rtt)
	}
}

// TestFlowSetupRefused: impossible set-ups fail before the run, naming
// the key.
func TestFlowSetupRefused(t *testing.T) {
	cases := []struct {
		name, key string
		edit      func(*Config)
	}{
		{"init window of the fixed law", "transport.init_window", func(c *Config) { c.InitWindow = 15000 }},
		{"incast window of the fixed law", "transport.incast_init_window", func(c *Config) { c.IncastInitWindow = InitWindowResponse }},
		{"init window twice", "transport.cc_params", func(c *Config) {
			c.CC, c.InitWindow, c.CCParams = "newreno", 15000, map[string]string{"init_window": "20pkt"}
		}},
		{"init window of a law without one", "transport.init_window", func(c *Config) { c.CC, c.InitWindow = "hpcc", 15000 }},
		{"negative init window", "transport.init_window", func(c *Config) { c.CC, c.InitWindow = "newreno", -5 }},
		{"handshake at line rate", "transport.handshake", func(c *Config) { c.Transport, c.Handshake = LineRate, HandshakeIdle }},
		{"incast handshake with ndp", "transport.incast_handshake", func(c *Config) { c.Transport, c.IncastHandshake = NDP, HandshakeIdle }},
		{"negative jitter", "transport.send_jitter", func(c *Config) { c.SendJitter = -3 }},
		{"huge jitter", "transport.send_jitter", func(c *Config) { c.SendJitter = 1000 }},
		{"unknown slowdown", "run.slowdown", func(c *Config) { c.Slowdown = "fast" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := lsConfig(2, 2, 2, 1, 10*rotor.Gbps, 10*rotor.Gbps, []workload.Flow{{Src: 0, Dst: 2, Bytes: 1500}})
			cfg.LeafSpine.Classes = 2 // ndp needs a header queue
			c.edit(&cfg)
			err := cfg.Resolve()
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Field != c.key || strings.Contains(err.Error(), "\n") {
				t.Errorf("got %v, want one line naming %s", err, c.key)
			}
		})
	}
}
