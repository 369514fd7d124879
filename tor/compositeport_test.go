package tor

import (
	"strconv"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// opera-sim's CompositeQueue at a rotor ToR's VOQ output (Config.PortData,
// HeaderWeight): the tests below compare with sequences worked by hand
// from its rules (its compositequeue.cpp at ed471fe): while headers and
// data both wait, headers are served while the bytes served in the round
// are below 10 × 64 B = 640 B, then data while they are below 640 + 1 500
// B; the round starts again at 0 when it reaches 2 140 B; with one queue
// empty the other is served and the count stays.

// compositeToR is a rotor ToR of 2 ToRs (one uplink, one host) whose VOQ
// outputs are CompositeQueues with a private data queue of portData bytes
// and headerQueue headers.
func compositeToR(t *testing.T, portData int64, headerQueue int) (*ToR, *Pool) {
	return newTestToR(t, Config{ToRs: 2, Hosts: 1, Uplinks: 1, Buffer: 1500, MTU: 1500,
		HeaderQueue: headerQueue, PortData: portData, HeaderWeight: 10})
}

// serveOrder drains VOQ output v through PickCircuit and returns the
// sizes it sent, a header as "H" and a data packet as "D<size>".
func serveOrder(t *testing.T, tr *ToR, v int) string {
	var out []string
	for {
		q, ok := tr.PickCircuit(v, 1<<20, nil, nil)
		if !ok {
			break
		}
		idx := tr.Dequeue(0, q, 0, 0)
		if size := tr.pool.At(idx).Size; tr.queueClass(q) == HeaderVOQ {
			out = append(out, "H")
		} else {
			out = append(out, "D"+strconv.Itoa(int(size)))
		}
	}
	return strings.Join(out, " ")
}

// TestCompositeServiceOrder: 25 headers (64 B) and four data packets
// wait at VOQ output 1. By hand, full-size data: 10 headers (640 B), one
// data packet (2 140 B: the round ends), 10 headers, one data packet, the
// last 5 headers, then the data alone. With a 500-B data packet first,
// the round reaches only 1 140 B after it, so a second data packet
// follows before the next 10 headers (opera-sim counts data in bytes).
// Transit data goes before Local data.
func TestCompositeServiceOrder(t *testing.T) {
	cases := []struct {
		name  string
		local []int32 // data sizes into Local
		want  string
	}{
		{"full-size data", []int32{1500, 1500, 1500, 1500},
			"H H H H H H H H H H D1500 H H H H H H H H H H D1500 H H H H H D1500 D1500"},
		{"a 500-B packet first", []int32{500, 1500, 1500, 1500},
			"H H H H H H H H H H D500 D1500 H H H H H H H H H H D1500 H H H H H D1500"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, pool := compositeToR(t, 10*1500, 100)
			for range 25 {
				if !tr.EnqueueHeader(tr.VOQ(1, HeaderVOQ), pkt(pool, 64)) {
					t.Fatal("header refused")
				}
			}
			for _, size := range c.local {
				if !tr.EnqueuePrivate(0, tr.VOQ(1, Local), pkt(pool, size)) {
					t.Fatal("data refused")
				}
			}
			if got := serveOrder(t, tr, 1); got != c.want {
				t.Errorf("order\n got %s\nwant %s", got, c.want)
			}
		})
	}
	// Transit ahead of Local, and the count kept across a lone queue:
	// 5 headers alone (no count), then 12 headers and 2 data: 10 H, D, 2 H, D.
	tr, pool := compositeToR(t, 10*1500, 100)
	for range 5 {
		tr.EnqueueHeader(tr.VOQ(1, HeaderVOQ), pkt(pool, 64))
	}
	if got, want := serveOrder(t, tr, 1), "H H H H H"; got != want {
		t.Fatalf("headers alone: %s, want %s", got, want)
	}
	for range 12 {
		tr.EnqueueHeader(tr.VOQ(1, HeaderVOQ), pkt(pool, 64))
	}
	tr.EnqueuePrivate(0, tr.VOQ(1, Local), pkt(pool, 1000))
	tr.EnqueuePrivate(0, tr.VOQ(1, Transit), pkt(pool, 1500))
	if got, want := serveOrder(t, tr, 1), "H H H H H H H H H H D1500 H H D1000"; got != want {
		t.Errorf("transit first\n got %s\nwant %s", got, want)
	}
}

// TestCompositePrivateQueue: the private data queue holds PortData bytes
// per port, outside the shared buffer (Used stays 0 with a 1 500-B
// buffer holding four packets), per VOQ output; PopLastPrivate takes the
// packet that entered last, across classes, refuses one smaller than the
// arrival, and after a take falls back to the first class's tail.
func TestCompositePrivateQueue(t *testing.T) {
	tr, pool := compositeToR(t, 3*1500, 4)
	a, b, c := pkt(pool, 1500), pkt(pool, 1500), pkt(pool, 1500)
	for _, e := range []struct {
		q   QueueID
		idx int32
	}{{tr.VOQ(1, Transit), a}, {tr.VOQ(1, Local), b}, {tr.VOQ(1, Transit), c}} {
		if !tr.EnqueuePrivate(0, e.q, e.idx) {
			t.Fatal("refused below PortData")
		}
	}
	if tr.EnqueuePrivate(0, tr.VOQ(1, Local), pkt(pool, 1500)) {
		t.Error("a fourth packet admitted to a 3-packet queue")
	}
	if !tr.EnqueuePrivate(0, tr.VOQ(0, Local), pkt(pool, 1500)) || !tr.EnqueuePrivate(0, tr.HostQueue(0), pkt(pool, 1500)) {
		t.Error("another port's queue refused: each port has its own")
	}
	if tr.Used() != 0 || tr.PrivateBytes() != 5*1500 || tr.QueuedBytes() != tr.PrivateBytes() {
		t.Errorf("used %d, private %d, recount %d: private data is outside the shared buffer", tr.Used(), tr.PrivateBytes(), tr.QueuedBytes())
	}
	if got, from, ok := tr.PopLastPrivate(tr.VOQ(1, Local), 1500); !ok || got != c || from != tr.VOQ(1, Transit) {
		t.Errorf("took %d from %d (ok %v), want the last one in, %d from Transit", got, from, ok, c)
	}
	if tr.Drops != 1 {
		t.Errorf("drops %d: a taken packet counts as pushed out", tr.Drops)
	}
	small := pkt(pool, 500)
	if !tr.EnqueuePrivate(0, tr.VOQ(1, Local), small) {
		t.Fatal("refused with room")
	}
	if _, _, ok := tr.PopLastPrivate(tr.VOQ(1, Local), 1500); ok {
		t.Error("took a 500-B packet for a 1 500-B arrival")
	}
	if got, _, ok := tr.PopLastPrivate(tr.VOQ(1, Local), 500); !ok || got != small {
		t.Errorf("took %d, want the 500-B packet", got)
	}
	if got, from, ok := tr.PopLastPrivate(tr.VOQ(1, Local), 1500); !ok || got != a || from != tr.VOQ(1, Transit) {
		t.Errorf("after a take: %d from %d, want Transit's tail %d", got, from, a)
	}
	if tr.PrivateBytes() != 3*1500 || tr.Switch().portPrivate(tr.VOQPort(1)-1) != 1500 {
		t.Errorf("private %d B, port %d B after the takes", tr.PrivateBytes(), tr.Switch().portPrivate(tr.VOQPort(1)-1))
	}
	if _, err := New(0, Config{ToRs: 2, Uplinks: 1, Buffer: 1500, HeaderWeight: 10}, &Pool{}); err == nil {
		t.Error("a header weight without a header queue was accepted")
	}
}

// TestCompositeHeaderOverflow: a VOQ output's header queue takes
// HeaderQueue headers and refuses the next, while another output's
// takes its own.
func TestCompositeHeaderOverflow(t *testing.T) {
	tr, pool := compositeToR(t, 1500, 2)
	for k := range 2 {
		if !tr.EnqueueHeader(tr.VOQ(1, HeaderVOQ), pkt(pool, 64)) {
			t.Fatalf("header %d refused", k)
		}
	}
	if tr.EnqueueHeader(tr.VOQ(1, HeaderVOQ), pkt(pool, 64)) {
		t.Error("a third header admitted to a queue of 2")
	}
	if !tr.EnqueueHeader(tr.VOQ(0, HeaderVOQ), pkt(pool, 64)) {
		t.Error("VOQ output 0's header refused: its queue is empty")
	}
}

// TestCompositeCountsPacketOnWire: opera-sim's CompositeQueue (as every
// htsim queue) takes a packet off its queue when its last bit has left,
// so PortData counts the data packet being sent. Two 1 500-B packets fill
// a 2-packet queue; the first starts at 0 at 10 Gb/s, so it is on the
// wire until 1.2 µs (1 500 · 8 / 10^10 s, by hand): a third packet is
// refused at 0.6 µs and admitted at 1.2 µs. A header being sent does not
// count.
func TestCompositeCountsPacketOnWire(t *testing.T) {
	tr, pool := compositeToR(t, 2*1500, 4)
	q := tr.VOQ(1, Transit)
	for range 2 {
		if !tr.EnqueuePrivate(0, q, pkt(pool, 1500)) {
			t.Fatal("refused below PortData")
		}
	}
	const rate = 10 * rotor.Gbps
	tr.Dequeue(0, q, 0, rate)
	if tr.EnqueuePrivate(600*rotor.Nanosecond, q, pkt(pool, 1500)) {
		t.Error("admitted at 0.6 µs: the packet on the wire still counts")
	}
	if !tr.EnqueuePrivate(1200*rotor.Nanosecond, q, pkt(pool, 1500)) {
		t.Error("refused at 1.2 µs: the first packet has left")
	}
	if !tr.EnqueueHeader(tr.VOQ(1, HeaderVOQ), pkt(pool, 64)) {
		t.Fatal("header refused")
	}
	tr.Dequeue(2400*rotor.Nanosecond, tr.VOQ(1, HeaderVOQ), 0, rate)
	tr.Dequeue(2400*rotor.Nanosecond, q, 0, 0) // leaves one queued packet, sent at no rate: not on the wire
	if !tr.EnqueuePrivate(2400*rotor.Nanosecond, q, pkt(pool, 1500)) {
		t.Error("refused with one packet queued and none on the wire")
	}
}
