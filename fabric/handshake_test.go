package fabric

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// TestQueuedHandshakeIdle: on an idle path the queued handshake is the
// SYN's and the SYN-ACK's store-and-forward trip plus the handshake's
// ACK, which leaves the sender's NIC before the first data. Across
// leaves with 1 µs links at 10 Gbps a 62 B SYN takes 4 × 49.6 ns + 4 µs
// each way, and the 64 B ACK holds the first data back by 51.2 ns at the
// NIC (at the next hops it has left before the data arrives): FCT =
// ideal + 8.4480 µs. The FCT counts from the flow's start, as ns-3's ABM
// example counts it.
func TestQueuedHandshakeIdle(t *testing.T) {
	flows := []workload.Flow{{ID: 0, Src: 0, Dst: 2, Bytes: 2500, Start: 3 * rotor.Microsecond}}
	cfg := lsConfig(2, 2, 2, 1, 10*rotor.Gbps, 10*rotor.Gbps, flows)
	cfg.Handshake = HandshakeQueued
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g := 10 * rotor.Gbps
	hs := 2*(4*rotor.Microsecond+4*g.TransmitTime(62)) + g.TransmitTime(64)
	if hs != 8448*rotor.Nanosecond {
		t.Fatalf("hand arithmetic: handshake %v", hs)
	}
	f := r.Flows[0]
	if !f.Done || f.FCT != f.Ideal+hs {
		t.Errorf("FCT %v, want ideal %v + %v", f.FCT, f.Ideal, hs)
	}
	if h := r.Handshake; h == nil || *h != (HandshakeStats{Syns: 1}) {
		t.Errorf("handshake counts %+v, want one SYN, no timeout", h)
	}
	// SYN, SYN-ACK and the handshake's ACK are packets: 3 beyond the
	// data's 2 and their 2 ACKs.
	if r.InjectedPackets != 7 || r.DeliveredPackets != 7 {
		t.Errorf("packets injected %d, delivered %d; want 7", r.InjectedPackets, r.DeliveredPackets)
	}
}

// TestQueuedHandshakeSynDropped: a SYN that finds the buffer full is
// dropped and sent again transport.syn_timeout later. Leaf 0 has 4,500 B
// of completely shared buffer and a 1 Gbps uplink (12 µs per 1,500 B
// packet); the incast response B (no handshake) sends 4 packets from host
// 0 at t = 0, which reach leaf 0 at 2.2, 3.4, 4.6 and 5.8 µs: from 5.8 µs
// (at the latest) until 14.2 µs, when the second leaves for the uplink,
// 4,500 B wait (or, if a packet held its bytes until sent, the first
// three fill it from 4.6 µs). Flow A from host 1 starts at 8 µs: its SYN
// reaches leaf 0 at 9.0496 µs and is dropped. Its second SYN goes at
// 8 + 100 µs, when B's packets have left (by 50.2 µs; B's lost packet,
// if any, waits for B's 1 ms RTO), so from then on A's path is idle: FCT
// = 100 µs + its handshake (62 B at 10 Gbps on the 2 host links and 1
// Gbps on the 2 fabric links, + 4 µs, each way) + its 64 B ACK at the NIC
// + ideal. With transport.syn_tries = 1 A's connection fails instead and
// A never completes.
func TestQueuedHandshakeSynDropped(t *testing.T) {
	flows := []workload.Flow{
		{ID: 0, Src: 0, Dst: 2, Bytes: 6000, Query: 1},
		{ID: 1, Src: 1, Dst: 3, Bytes: 2500, Start: 8 * rotor.Microsecond},
	}
	run := func(tries int) *Result {
		t.Helper()
		cfg := lsConfig(2, 1, 2, 1, 10*rotor.Gbps, rotor.Gbps, flows)
		cfg.Buffer, cfg.NewPolicy = 4500, NamedPolicy("cs", nil, nil, 1)
		cfg.Handshake, cfg.IncastHandshake = HandshakeQueued, HandshakeNone
		cfg.SynTimeout, cfg.SynTries = 100*rotor.Microsecond, tries
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := run(DefaultSynTries)
	g, g1 := 10*rotor.Gbps, rotor.Gbps
	hs := 2*(4*rotor.Microsecond+2*g.TransmitTime(62)+2*g1.TransmitTime(62)) + g.TransmitTime(64)
	if hs != 10233600*rotor.Picosecond {
		t.Fatalf("hand arithmetic: handshake %v", hs)
	}
	a := r.Flows[1]
	if want := a.Ideal + 100*rotor.Microsecond + hs; !a.Done || a.FCT != want {
		t.Errorf("flow A: FCT %v, want ideal %v + 100µs + %v = %v", a.FCT, a.Ideal, hs, want)
	}
	if h := r.Handshake; h == nil || *h != (HandshakeStats{Syns: 2, Timeouts: 1}) {
		t.Errorf("handshake counts %+v, want 2 SYNs, 1 timeout", h)
	}
	if ctl := r.DroppedBytes - r.DroppedData; ctl != 62 {
		t.Errorf("control bytes dropped %d, want the one SYN's 62", ctl)
	}
	r = run(1)
	if a := r.Flows[1]; a.Done {
		t.Errorf("syn_tries 1: flow A completed (FCT %v); its connection should fail", a.FCT)
	}
	if h := r.Handshake; h == nil || *h != (HandshakeStats{Syns: 1, Timeouts: 1, Failed: 1}) {
		t.Errorf("syn_tries 1: handshake counts %+v, want 1 SYN, 1 timeout, 1 failed", h)
	}
}

// TestQueuedHandshakeRefused: the SYN timer's keys without a queued
// handshake, and an unknown handshake, fail before the run.
func TestQueuedHandshakeRefused(t *testing.T) {
	for _, c := range []struct {
		key  string
		edit func(*Config)
	}{
		{"transport.syn_timeout", func(c *Config) { c.Handshake, c.SynTimeout = HandshakeIdle, rotor.Millisecond }},
		{"transport.syn_tries", func(c *Config) { c.SynTries = 3 }},
		{"transport.incast_handshake", func(c *Config) { c.IncastHandshake = "syn" }},
		{"transport.handshake", func(c *Config) { c.Transport, c.Handshake = LineRate, HandshakeQueued }},
	} {
		cfg := lsConfig(2, 2, 2, 1, 10*rotor.Gbps, 10*rotor.Gbps, []workload.Flow{{Src: 0, Dst: 2, Bytes: 1500}})
		c.edit(&cfg)
		_, err := Run(cfg)
		if ce, ok := err.(*ConfigError); !ok || ce.Field != c.key {
			t.Errorf("%s: got %v, want an error naming it", c.key, err)
		}
	}
}
