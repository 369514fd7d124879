package fabric

import (
	"errors"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// TestHybridVOQ: every packet leaves through its VOQ; the circuit and the
// packet switch both carry some, every byte arrives once (run.check), and
// no packet crosses a circuit at night (run.check).
func TestHybridVOQ(t *testing.T) {
	for _, law := range []string{"fixed", "powertcp", "retcp"} {
		cfg := rdcnConfig(t, 5, 3_000_000, law)
		cfg.Routing = HybridVOQ
		r, err := Run(cfg)
		if err != nil {
			t.Fatalf("%s: %v", law, err)
		}
		if r.FlowsComplete != 2 || r.CircuitBytes == 0 || r.PacketSwitchBytes == 0 {
			t.Errorf("%s: %d flows complete, %d B on circuits, %d B through the packet switch", law, r.FlowsComplete, r.CircuitBytes, r.PacketSwitchBytes)
		}
	}
}

// TestPrebufferWindows: the VOQ t→v of a prebuffered run has the big
// capacity exactly from τ_pre before each of its days until the day
// ends, the small one otherwise; a VOQ admits a packet only within its
// capacity, and packets queued before a shrink are all delivered (run
// with check: every byte arrives, only admissions drop).
func TestPrebufferWindows(t *testing.T) {
	us := rotor.Microsecond
	cfg := rdcnConfig(t, 5, 3_000_000, "retcp")
	cfg.Routing = HybridVOQ
	cfg.Prebuffer = &PrebufferConfig{Lead: 300 * us, Small: 16 * 1500, Big: 50 * 1500}
	cfg.defaults()
	if err := cfg.validate(); err != nil {
		t.Fatal(err)
	}
	s, err := newSim(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// ToR 0 → ToR 1: shift 1 is slot 0, the day [0, 225 µs) of each 980 µs week.
	week := 4 * 245 * us
	for _, c := range []struct {
		at   rotor.Time
		want int64
	}{{0, 50 * 1500}, {225*us - 1, 50 * 1500}, {225 * us, 16 * 1500}, {week - 300*us - 1, 16 * 1500}, {week - 300*us, 50 * 1500}, {week + 10*us, 50 * 1500}} {
		if got := s.voqCapacity(0, 1, c.at); got != c.want {
			t.Errorf("capacity at %v: %d, want %d", c.at, got, c.want)
		}
	}
	r, err := s.run()
	if err != nil {
		t.Fatal(err)
	}
	if r.FlowsComplete != 2 || r.PrebufferDropped == 0 || r.DroppedPackets != r.PrebufferDropped {
		t.Errorf("%d flows complete, %d dropped, %d at the prebuffer capacity", r.FlowsComplete, r.DroppedPackets, r.PrebufferDropped)
	}
}

// TestPrebufferErrors: a negative τ_pre, prebuffering without circuits,
// and inconsistent capacities are refused naming their key.
func TestPrebufferErrors(t *testing.T) {
	us := rotor.Microsecond
	for _, c := range []struct {
		key  string
		edit func(*Config)
	}{
		{"buffer.prebuffer", func(c *Config) { c.Prebuffer.Lead = -us }},
		{"buffer.prebuffer", func(c *Config) { c.Prebuffer.Lead = 10 * rotor.Millisecond }},
		{"buffer.prebuffer_big", func(c *Config) { c.Prebuffer.Big = 1500 }},
		{"buffer.prebuffer_small", func(c *Config) { c.Prebuffer.Small = 100 }},
		{"routing.mode", func(c *Config) { c.PacketSwitchLink = 0 }},
		{"buffer.prebuffer", func(c *Config) { c.Routing, c.Transport, c.PacketSwitchLink = Direct, Pull, 0 }},
	} {
		cfg := rdcnConfig(t, 5, 1000, "retcp")
		cfg.Routing = HybridVOQ
		cfg.Prebuffer = &PrebufferConfig{Lead: 600 * us, Small: 16 * 1500, Big: 50 * 1500}
		c.edit(&cfg)
		_, err := Run(cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != c.key {
			t.Errorf("want an error naming %s, got %v", c.key, err)
		}
	}
	ls := lsConfig(2, 2, 2, 1, 10*rotor.Gbps, 10*rotor.Gbps, []workload.Flow{{Src: 0, Dst: 2, Bytes: 1000}})
	ls.Prebuffer = &PrebufferConfig{Lead: 600 * us, Small: 16 * 1500, Big: 50 * 1500}
	_, err := Run(ls)
	if err == nil || !strings.HasPrefix(err.Error(), "buffer.prebuffer:") {
		t.Errorf("leaf-spine with prebuffering: %v", err)
	}
}

// TestHybridVOQACKPriority: ToR 1's packet-switch port carries ToR 1's
// data to three other ToRs (three VOQs) and the ACKs of a flow ToR 0 →
// ToR 1 whose circuits are down. With ACKs first, the flow's ACK clock is
// not held to one ACK per three data packets of the other VOQs (about
// 8 Gb/s of data): it finishes 2 MB within 10 % of its time at 25 Gb/s
// plus 100 µs.
func TestHybridVOQACKPriority(t *testing.T) {
	us := rotor.Microsecond
	cfg := rdcnConfig(t, 5, 2_000_000, "fixed")
	cfg.Routing = HybridVOQ
	cfg.Window = 64 * 1500
	// Slot 1 (shift 2) from 245 µs, slot 2 (shift 3) from 490 µs: neither
	// connects 0→1 or 1→0.
	cfg.Flows = &SliceSource{Flows: []workload.Flow{
		{ID: 0, Src: 0, Dst: 2, Bytes: 2_000_000, Start: 250 * us},
		{ID: 1, Src: 2, Dst: 4, Bytes: 20_000_000, Start: 250 * us},
		{ID: 2, Src: 3, Dst: 6, Bytes: 20_000_000, Start: 250 * us},
		{ID: 3, Src: 2, Dst: 8, Bytes: 20_000_000, Start: 250 * us},
	}}
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := r.Flows[0]
	want := (25 * rotor.Gbps).TransmitTime(2_000_000) + 100*us
	if !f.Done || f.FCT > want*11/10 {
		t.Errorf("flow 0 FCT %v (done %v), want at most %v", f.FCT, f.Done, want*11/10)
	}
}
