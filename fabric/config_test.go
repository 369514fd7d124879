package fabric

import (
	"errors"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// TestConfigValidateUpFront: a Config built by hand is checked before the
// run for the congestion control's name, the MTU's range and a schedule
// whose days carry no packet, while its zero fields still take their
// defaults (window, RTO, sample and series intervals, MTU, ACK size).
func TestConfigValidateUpFront(t *testing.T) {
	us := rotor.Microsecond
	flows := []workload.Flow{{Src: 0, Dst: 2, Bytes: 3000}}
	for _, c := range []struct {
		field string
		edit  func(*Config)
	}{
		{"transport.cc", func(c *Config) { c.CC = "bogus" }},
		{"topology.mtu", func(c *Config) { c.MTU = MaxMTU + 1 }},
		{"schedule.slot", func(c *Config) { c.Schedule = cyclicSchedule(t, 4, 1, 1, 2*us, us) }}, // 1 µs days, 1.2 µs packets
	} {
		cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, us), flows)
		c.edit(&cfg)
		_, err := Run(cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != c.field {
			t.Errorf("%s: got %v, want a *ConfigError on it", c.field, err)
		}
	}
	cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, us), flows)
	cfg.Transport = Windowed // Window, MinRTO, intervals, MTU, AckSize, CC left zero
	r, err := Run(cfg)
	if err != nil || len(r.Flows) != 1 || !r.Flows[0].Done {
		t.Fatalf("zero fields: %v, %+v", err, r)
	}
}
