package tor

import (
	"slices"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// TestHeaderQueue: with the shared buffer full of data, a port still takes
// HeaderQueue headers, in line with its data, and refuses the next; a
// header counts in its queue's length but not in Used (the buffer), the
// other port's header queue is its own, and draining returns every
// counter to zero. Under Complete Sharing (the plain path), DT (a policy
// with hooks) and LQD (push-out, which must not push out a header).
func TestHeaderQueue(t *testing.T) {
	const mtu, hdr, capH = 1500, 64, 3
	for _, name := range []string{"cs", "dt", "lqd"} {
		t.Run(name, func(t *testing.T) {
			tr, pool := newTestToR(t, Config{Hosts: 2, Buffer: 2 * mtu, MTU: mtu, HeaderQueue: capH, Policy: Named(name, nil, nil, nil)})
			q0, q1 := tr.HostQueue(0), tr.HostQueue(1)
			var want []int32 // port 0's departure order: data until the policy refuses
			for i := pkt(pool, mtu); tr.Enqueue(0, q0, i); i = pkt(pool, mtu) {
				want = append(want, i)
			}
			for _, e := range tr.TakeEvicted() {
				want = slices.DeleteFunc(want, func(i int32) bool { return i == e })
			}
			used := tr.Used()
			if used == 0 {
				t.Fatal("no data admitted")
			}
			for k := range capH {
				i := pkt(pool, hdr)
				if !tr.EnqueueHeader(q0, i) {
					t.Fatalf("header %d refused: the header queue has room", k)
				}
				want = append(want, i)
			}
			if tr.EnqueueHeader(q0, pkt(pool, hdr)) {
				t.Errorf("header %d admitted to a full header queue of %d", capH+1, capH)
			}
			// LQD: port 0's queue is the longest and ends with a header;
			// the arrival is refused rather than the header pushed out.
			if i := pkt(pool, mtu); tr.Enqueue(0, q1, i) || len(tr.TakeEvicted()) != 0 {
				t.Errorf("data admitted by pushing out a header")
			}
			if !tr.EnqueueHeader(q1, pkt(pool, hdr)) {
				t.Error("port 1's header refused: its header queue is empty")
			}
			s := tr.Switch().State()
			if tr.Used() != used || tr.HeaderBytes() != (capH+1)*hdr || s.Queues[q0].Bytes != used+capH*hdr ||
				int(s.Queues[q0].Packets) != len(want) || tr.Switch().Headers(0) != capH || tr.Switch().Headers(1) != 1 {
				t.Errorf("used %d, header bytes %d, queue 0 %+v, headers %d and %d", tr.Used(), tr.HeaderBytes(), s.Queues[q0], tr.Switch().Headers(0), tr.Switch().Headers(1))
			}
			if got := tr.QueuedBytes(); got != tr.Used()+tr.HeaderBytes() {
				t.Errorf("recount %d B, counters %d + %d", got, tr.Used(), tr.HeaderBytes())
			}
			var got []int32
			for tr.Len(q0) > 0 {
				got = append(got, tr.Dequeue(0, q0, tr.HostPort(0), rotor.Gbps))
			}
			if !slices.Equal(got, want) {
				t.Errorf("order %v, want %v (headers in line with data)", got, want)
			}
			tr.Dequeue(0, q1, tr.HostPort(1), rotor.Gbps)
			if tr.Used() != 0 || tr.HeaderBytes() != 0 || s.Active != 0 || s.Ports[0].Bytes != 0 || tr.Switch().Headers(0) != 0 {
				t.Errorf("after the drain: used %d, header bytes %d, active %d, port 0 %+v", tr.Used(), tr.HeaderBytes(), s.Active, s.Ports[0])
			}
			if s.Ports[0].TxBytes != used+capH*hdr {
				t.Errorf("port 0 sent %d B, want %d", s.Ports[0].TxBytes, used+capH*hdr)
			}
		})
	}
	if _, err := New(0, Config{Hosts: 1, Buffer: 1, HeaderQueue: -1}, &Pool{}); err == nil {
		t.Error("a negative header queue was accepted")
	}
	tr, pool := newTestToR(t, Config{Hosts: 1, Buffer: mtu})
	if tr.EnqueueHeader(tr.HostQueue(0), pkt(pool, hdr)) {
		t.Error("a switch without header queues took a header")
	}
}
