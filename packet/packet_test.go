package packet

import (
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// TestSize keeps a packet within one 64-byte cache line.
func TestSize(t *testing.T) {
	if got := unsafe.Sizeof(Packet{}); got != 64 {
		t.Errorf("packet.Packet is %d bytes, want 64 (one cache line)", got)
	}
}

// TestStampDataOnly: only data packets are stamped; an ACK made from a
// data packet keeps its records; hops past MaxHops are counted, not kept.
func TestStampDataOnly(t *testing.T) {
	s, err := NewIntStore(2)
	if err != nil {
		t.Fatal(err)
	}
	var pool Pool
	idx := pool.Alloc()
	p := pool.At(idx)
	p.Reset(Data)
	s.Stamp(idx, p, IntHop{Ts: 1, Port: 3})
	s.Stamp(idx, p, IntHop{Ts: 2, Port: 5})
	p.Kind = Ack // the receiver turns it into its ACK
	s.Stamp(idx, p, IntHop{Ts: 3, Port: 7})
	if diff := cmp.Diff([]IntHop{{Ts: 1, Port: 3}, {Ts: 2, Port: 5}}, s.Records(idx, p)); diff != "" {
		t.Errorf("ACK records (-want +got):\n%s", diff)
	}
	if s.Truncated(p) {
		t.Errorf("two hops in a two-hop store reported truncated")
	}
	p.Kind = Data
	s.Stamp(idx, p, IntHop{Ts: 4})
	if p.IntN != 3 || !s.Truncated(p) || len(s.Records(idx, p)) != 2 {
		t.Errorf("third hop: IntN %d, truncated %v, %d records; want 3, true, 2", p.IntN, s.Truncated(p), len(s.Records(idx, p)))
	}
	for _, bad := range []int{0, -1, MaxHopsLimit + 1} {
		if _, err := NewIntStore(bad); err == nil {
			t.Errorf("NewIntStore(%d): no error", bad)
		}
	}
}

func TestKindNames(t *testing.T) {
	seen := map[string]bool{}
	for k := Kind(0); k < numKinds; k++ {
		if n := k.String(); n == "" || n == "kind?" || seen[n] {
			t.Errorf("kind %d: name %q missing or repeated", k, n)
		} else {
			seen[n] = true
		}
	}
	if Data.Control() || Trimmed.Control() || !Ack.Control() || !Pause.Control() {
		t.Errorf("Control: data/trimmed must not be control, ack/pause must")
	}
}
