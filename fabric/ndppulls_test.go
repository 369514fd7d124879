package fabric

import (
	"strings"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// TestNDPPullsCarried: the 100-packet flow of TestNDPIdlePathFCT (first
// window 11 packets, 1500 B in 1.2 µs, PULLs paced one per 1.2 µs).
// Packet k reaches the receiver at 8.8 + (k − 1)·1.2 µs, one drain time
// after packet k − 1, and each of the first 99 asks for a PULL.
//
// By hand, transport.ndp_pulls = own (rdcn's default): every PULL is a
// packet of its own, so the hosts inject 100 data packets, 100 ACKs and
// 99 PULLs, 299 packets. With operasim, opera-sim's pacer finds its queue
// empty and its last PULL one drain time ago at every arrival, so each
// ACK carries the PULL (cumulative numbers 1 … 99, each granting one
// packet): 200 packets. The ACK carrying PULL k reaches the sender
// 51.2 ns before the separate PULL would (13.0048 + (k − 1)·1.2 µs),
// still before its NIC finishes packet 10 + k, so the link never idles
// and the FCT is 127.6 µs either way, with either pacer.
func TestNDPPullsCarried(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	cases := []struct {
		pulls, pacing string
		packets       int64
	}{
		{NDPPullsOwn, NDPPaceHost, 299},
		{NDPPullsOperaSim, NDPPaceHost, 200},
		{NDPPullsOperaSim, NDPPaceFlow, 200},
	}
	for _, c := range cases {
		t.Run(c.pulls+"/"+c.pacing, func(t *testing.T) {
			cfg := ndpLS(2, 2, 2, 10*rotor.Gbps, []workload.Flow{{Src: 0, Dst: 2, Bytes: 100 * 1500}})
			cfg.NDPPulls, cfg.NDPPullPacing = c.pulls, c.pacing
			r, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if f := r.Flows[0]; !f.Done || f.FCT != 127*us+600*ns {
				t.Errorf("done %v, FCT %v, want 127.6µs", f.Done, f.FCT)
			}
			if r.InjectedPackets != c.packets {
				t.Errorf("%d packets injected, want %d by hand", r.InjectedPackets, c.packets)
			}
		})
	}
}

// TestNDPPullsKey: transport.ndp_pulls takes its two choices only.
func TestNDPPullsKey(t *testing.T) {
	cfg := ndpLS(2, 2, 2, 10*rotor.Gbps, nil)
	cfg.NDPPulls = "folded"
	if _, err := Run(cfg); err == nil || !strings.HasPrefix(err.Error(), "transport.ndp_pulls: ") {
		t.Errorf("ndp_pulls=folded: got %v, want a transport.ndp_pulls error", err)
	}
}

// TestNDPReturnedKey: transport.ndp_returned takes its two choices only.
func TestNDPReturnedKey(t *testing.T) {
	cfg := ndpLS(2, 2, 2, 10*rotor.Gbps, nil)
	cfg.NDPReturned = "drop"
	if _, err := Run(cfg); err == nil || !strings.HasPrefix(err.Error(), "transport.ndp_returned: ") {
		t.Errorf("ndp_returned=drop: got %v, want a transport.ndp_returned error", err)
	}
}

// TestNDPHeader: transport.ndp_header = 64 as opera-sim (1 500-B packets
// of 64 B header and 1 436 B payload). A flow of 100 × 1 436 B then takes
// exactly 100 packets of 1 500 B on the wire, the 100-packet flow of
// TestNDPPullsCarried: FCT 127.6 µs, 100 data packets, 100 ACKs and 99
// PULLs (299 packets), and its receiver counts 143 600 B of payload.
// Without the header the same bytes are ⌈143 600 / 1 500⌉ = 96 packets
// (96 + 96 + 95 = 287 injected). The pacer spaces its PULLs by the
// payload's transmit time: 1 436 B × 8 / 10 Gbps = 1.1488 µs.
func TestNDPHeader(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	for _, c := range []struct {
		header  int32
		packets int64
	}{{64, 299}, {0, 287}} {
		cfg := ndpLS(2, 2, 2, 10*rotor.Gbps, []workload.Flow{{Src: 0, Dst: 2, Bytes: 100 * 1436}})
		cfg.NDPHeader = c.header
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if r.InjectedPackets != c.packets {
			t.Errorf("header %d: %d packets injected, want %d by hand", c.header, r.InjectedPackets, c.packets)
		}
		if f := r.Flows[0]; !f.Done || f.Received != 100*1436 {
			t.Errorf("header %d: done %v, %d B received, want 143600", c.header, f.Done, f.Received)
		}
		if f := r.Flows[0]; c.header == 64 && f.FCT != 127*us+600*ns {
			t.Errorf("header 64: FCT %v, want 127.6µs", f.FCT)
		}
	}
	cfg := ndpLS(2, 2, 2, 10*rotor.Gbps, nil)
	cfg.NDPHeader = 64
	s, err := newSimFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := rotor.Time(1148800) * rotor.Picosecond; s.ndp.pullGap != want {
		t.Errorf("PULL spacing %v, want %v", s.ndp.pullGap, want)
	}
	cfg.NDPHeader = 1500
	if _, err := Run(cfg); err == nil || !strings.HasPrefix(err.Error(), "transport.ndp_header: ") {
		t.Errorf("ndp_header = mtu: got %v, want a transport.ndp_header error", err)
	}
}
