package fabric

import (
	"testing"

	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// TestNDPStaleHop: with routing.source = nic a packet keeps the slice its
// NIC stamped; when it reaches a ToR whose next hop in that slice has gone
// dark, transport.ndp_dark decides (ndpStaleHop). On testsched.DarkCircuit
// a packet for ToR 1 stamped at 80 µs (0 → 1 direct) reaches ToR 0 at
// 95 µs, in A's night, when 0 → 1 is next up at 1.2 ms and the slice's
// path is 0 → 3 → 2 → 1:
//   - trim: it leaves for 3; data is cut to its header (the payload counted
//     as trimmed), a PULL is moved whole;
//   - wait, or a circuit back within a slot (A alternating shifts 1 and
//     3): it stays for 1, unchanged and uncounted.
func TestNDPStaleHop(t *testing.T) {
	us := rotor.Microsecond
	// at runs cfg's simulation to 95 µs and hands ToR 0 a packet of kind
	// k for host 1 with 80 µs's stamp, one hop into its route.
	at := func(t *testing.T, cfg Config, k packet.Kind) (*sim, *packet.Packet, int32, DarkStats) {
		t.Helper()
		cfg.RoutingSource = RoutingSourceNIC
		s, err := newSimFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.runUntil(95 * us)
		if s.err != nil {
			t.Fatal(s.err)
		}
		if s.upTo(0, 1) != 0 {
			t.Fatalf("0 → 1 is up at %v: the schedule does not put the hop in the dark", s.q.Now())
		}
		idx := s.pool.Alloc()
		p := s.pool.At(idx)
		p.Reset(k)
		p.Flow, p.SrcHost, p.DstHost, p.DstToR, p.Hops = 0, 3, 1, 1, 1
		p.Size = 1500
		if k != packet.Data {
			p.Size = int32(s.cfg.AckSize)
		}
		s.stamper.Stamp(80*us, p)
		if p.Route == packet.NoRoute {
			t.Fatal("no stamp: routing.source = nic is not on")
		}
		s.ndp.trimmedBytes = 0
		before := s.ndp.dark
		next := s.ndpStaleHop(0, p, 1)
		d := s.ndp.dark
		d.Trimmed -= before.Trimmed
		d.Moved -= before.Moved
		d.Parked -= before.Parked
		return s, p, next, d
	}

	stamp := func(s *sim, when rotor.Time) int32 {
		var q packet.Packet
		q.Reset(packet.Data)
		s.stamper.Stamp(when, &q)
		return q.Route
	}
	s, p, next, d := at(t, darkConfig(t, NDPDarkTrim), packet.Data)
	hdr := int32(s.cfg.AckSize)
	if next != 3 || p.Kind != packet.Trimmed || p.Size != hdr || d.Trimmed != 1 || d.Moved != 0 || d.Parked != 0 {
		t.Errorf("trim, data: next %d, kind %v, %d B, %+v: want next hop 3, a %d B header, one trim", next, p.Kind, p.Size, d, hdr)
	}
	if p.Route != stamp(s, s.q.Now()) || p.Route == stamp(s, 80*us) {
		t.Errorf("trim, data: route %d after the stale hop, want the slice of now %d (stamped at 80 µs: %d)", p.Route, stamp(s, s.q.Now()), stamp(s, 80*us))
	}
	if want := int64(1500 - hdr); s.ndp.trimmedBytes != want {
		t.Errorf("trim, data: %d payload bytes counted as trimmed, want %d", s.ndp.trimmedBytes, want)
	}

	_, p, next, d = at(t, darkConfig(t, NDPDarkTrim), packet.Pull)
	if next != 3 || p.Kind != packet.Pull || p.Size != hdr || d.Moved != 1 || d.Trimmed != 0 {
		t.Errorf("trim, PULL: next %d, kind %v, %d B, %+v: want next hop 3, the PULL whole, one moved", next, p.Kind, p.Size, d)
	}

	s, p, next, d = at(t, darkConfig(t, NDPDarkWait), packet.Data)
	if next != 1 || p.Kind != packet.Data || p.Size != 1500 || d.Trimmed != 0 || d.Moved != 0 || s.ndp.trimmedBytes != 0 {
		t.Errorf("wait: next %d, kind %v, %d B, %+v: want it kept for 1, whole, uncounted", next, p.Kind, p.Size, d)
	}

	cfg := darkConfig(t, NDPDarkTrim)
	sc := *cfg.Schedule
	a := make([][]int, sc.Period)
	for k := range a {
		a[k] = sc.Matchings[0][k%2] // shift 1, shift 3, …: 0 → 1 is back at 200 µs
	}
	sc.Matchings = [][][]int{a, sc.Matchings[1]}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	cfg.Schedule = &sc
	_, p, next, d = at(t, cfg, packet.Data)
	if next != 1 || p.Kind != packet.Data || d.Trimmed != 0 || d.Moved != 0 {
		t.Errorf("back within a slot: next %d, kind %v, %+v: want it kept for 1", next, p.Kind, d)
	}
}
