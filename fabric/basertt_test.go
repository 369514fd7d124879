package fabric

import (
	"testing"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/rotor"
)

// TestBaseRTTOneNumber: the fabric's base RTT, computed by hand, is the
// one number every consumer reads: the laws' τ (cc.Env.BaseRTT; on a
// rotor whose routing waits for a pair's circuit, plus one cycle of the
// schedule, here 3 slots of 10 µs: lawRTT), every switch's RTT, ABM's unscheduled bytes (host rate × RTT) and NDP's first
// window (⌈host rate × RTT / MTU⌉). The wait for circuits in τ
// (cc.Env.CircuitWait) lifts TIMELY's delay thresholds by as much. A 1500 B packet takes 1.2 µs and a
// 64 B ACK 51.2 ns at 10 Gbps, 0.3 µs and 12.8 ns at 40 Gbps.
//
//   - Leaf-spine, 10 Gbps hosts, 40 Gbps fabric, 1 µs per link: the data
//     crosses host, leaf→spine, spine→leaf, host and the ACK comes back:
//     2·(1.2 + 0.0512 + 2) + 2·(0.3 + 0.0128 + 2) = 11.128 µs; 13,910 B
//     at 10 Gbps, a first window of 10 packets.
//   - Rotor, 10 Gbps, 100 ns per link, direct routing: host, circuit,
//     host, 3·(1.2 + 0.0512 + 0.2) = 4.3536 µs; 5,442 B, 4 packets.
//   - The same under rotorlb, whose path has two circuits:
//     4·1.4512 = 5.8048 µs; 7,256 B, 5 packets.
func TestBaseRTTOneNumber(t *testing.T) {
	ns := rotor.Nanosecond
	us := rotor.Microsecond
	rotorCfg := func(mode string) Config {
		cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, 1*us), nil)
		cfg.Routing, cfg.Transport = mode, NDP
		return cfg
	}
	for _, c := range []struct {
		name  string
		cfg   Config
		rtt   rotor.Time
		bytes int64
		iw    int
		wait  rotor.Time // added to the laws' τ
	}{
		{"leaf-spine", ndpLS(2, 2, 2, 40*rotor.Gbps, nil), 11*us + 128*ns, 13_910, 10, 0},
		{"rotor direct", rotorCfg(Direct), 4*us + 353*ns + 600*rotor.Picosecond, 5_442, 4, 30 * us},
		{"rotor rotorlb", rotorCfg(RotorLB), 5*us + 804*ns + 800*rotor.Picosecond, 7_256, 5, 30 * us},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := newSimFor(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.cc.env.BaseRTT; got != c.rtt+c.wait {
				t.Errorf("laws' τ = %v, want %v", got, c.rtt+c.wait)
			}
			if got := s.cc.env.CircuitWait; got != c.wait {
				t.Errorf("laws' wait for circuits = %v, want %v", got, c.wait)
			}
			timely, _ := cc.Lookup("timely")
			v, err := timely.Resolve(s.cc.env, nil)
			if err != nil {
				t.Fatal(err)
			}
			if lo, hi := v.T("t_low"), v.T("t_high"); lo != 50*us+c.wait || hi != 500*us+c.wait {
				t.Errorf("TIMELY's thresholds %v, %v; want the paper's 50 µs and 500 µs plus %v", lo, hi, c.wait)
			}
			for _, tr := range s.switches() {
				if got := tr.Config().RTT; got != c.rtt {
					t.Errorf("switch %d: RTT %v, want %v", tr.ID, got, c.rtt)
				}
				if got := tr.Config().Unsched; got != c.bytes {
					t.Errorf("switch %d: unscheduled bytes %d, want %d", tr.ID, got, c.bytes)
				}
			}
			if s.ndp.iw != c.iw {
				t.Errorf("NDP first window %d packets, want %d", s.ndp.iw, c.iw)
			}
		})
	}
}
