package routing

import (
	"testing"

	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// TestSourceNIC: on guardSchedule, a packet from ToR 3 to ToR 1 that
// leaves its NIC at 45 µs (B's night, A's shift 1 only) takes 3 → 0 → 1.
// It reaches ToR 0 at 95 µs, in A's night, when the table of now says
// 0 → 1 over B: 0 → 3 → 2 → 1 (next hop 3). With routing.source = nic it
// keeps its slice's next hop, 1 (A's 0 → 1); with hop it reads 3. A
// packet not from a NIC (Route unset) is fixed where it is routed first.
func TestSourceNIC(t *testing.T) {
	us := rotor.Microsecond
	sc := guardSchedule(t, 10*us)
	build := func(src string) *paths {
		r, err := newPaths(Setup{Schedule: sc, PathsK: 1, Source: src, Bulk: func(int32) bool { return false }})
		if err != nil {
			t.Fatal(err)
		}
		return r.(*paths)
	}
	send := func(r *paths, at rotor.Time) *packet.Packet {
		p := &packet.Packet{}
		p.Reset(packet.Data)
		p.DstToR = 1
		r.Stamp(at, p)
		if h := r.Next(at, 3, p, true); h.To != 0 {
			t.Fatalf("source %v: next hop 3 → 1 at %v is %d, want 0 (3 → 0 → 1 over A's shift 1)", r.nic, at, h.To)
		}
		return p
	}
	nic, hop := build(SourceNIC), build(SourceHop)
	p := send(nic, 45*us)
	if got := nic.Next(95*us, 0, p, false).To; got != 1 {
		t.Errorf("nic: next hop 0 → 1 at 95us of a packet sent at 45us is %d, want 1 (its slice's)", got)
	}
	q := send(hop, 45*us)
	if q.Route != packet.NoRoute {
		t.Errorf("hop: Route %d, want none", q.Route)
	}
	if got := hop.Next(95*us, 0, q, false).To; got != 3 {
		t.Errorf("hop: next hop 0 → 1 at 95us is %d, want 3 (A's night: 0 → 3 → 2 → 1)", got)
	}
	// Moved off a dark circuit or sent back by a ToR: no slice yet, so
	// the table of now, kept from there.
	r := &packet.Packet{}
	r.Reset(packet.Nack)
	r.DstToR = 1
	if got := nic.Next(95*us, 0, r, false).To; got != 3 {
		t.Errorf("nic, no slice: next hop 0 → 1 at 95us is %d, want 3", got)
	}
	if want := int32(nic.table.Slice(95 * us)); r.Route != want {
		t.Errorf("nic, no slice: Route %d after routing at 95us, want %d (that slice)", r.Route, want)
	}
}

// TestSourceNICRefused: nic is read only with the next-hop table of
// routing.mode = paths.
func TestSourceNICRefused(t *testing.T) {
	sc := guardSchedule(t, 10*rotor.Microsecond)
	for _, s := range []Setup{
		{Schedule: sc, PathsK: 2, Multipath: MultipathKSP, Source: SourceNIC},
		{Schedule: sc, PathsK: 1, Source: SourceNIC},
	} {
		newR := newPaths
		if s.PathsK == 1 {
			newR = newVLBPaths
		}
		_, err := newR(s)
		if e, ok := err.(*SetupError); !ok || e.Param != "source" {
			t.Errorf("paths_k %d: error %v, want one naming routing.source", s.PathsK, err)
		}
	}
}
