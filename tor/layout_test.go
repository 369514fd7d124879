package tor

import (
	"testing"
	"unsafe"
)

// TestPortInOneLine: a port's counters and its header and private data
// queue state (PortCounters with apart) are one 64 B item, and the ports'
// array starts on a line, also after on-demand ports grew it, so an NDP
// header or private data packet entering or leaving a port reads one
// line for both (EnqueueHeader, EnqueuePrivate, StartPrivate, subHeader,
// subPrivate, and add/sub's port counters). It fails if a field is added
// that splits the item, or if the allocator stops aligning the array.
func TestPortInOneLine(t *testing.T) {
	const line = 64
	if size := unsafe.Sizeof(PortCounters{}); size != line {
		t.Fatalf("PortCounters takes %d B, not one %d B line", size, line)
	}
	if off := unsafe.Offsetof(PortCounters{}.apart); off+unsafe.Sizeof(portApart{}) > line {
		t.Errorf("apart at %d B, %d B long: beyond the line", off, unsafe.Sizeof(portApart{}))
	}
	aligned := func(tr *ToR) {
		t.Helper()
		if a := uintptr(unsafe.Pointer(&tr.sw.st.Ports[0])); a%line != 0 {
			t.Fatalf("%d ports: the array starts at %#x, not on a %d B line", len(tr.sw.st.Ports), a, line)
		}
	}
	// Dense ToRs (opera-sim's ports: all VOQ ports made in New, one
	// append at a time).
	for _, tors := range []int{2, 5, 64, 300} {
		tr, _ := newTestToR(t, Config{ToRs: tors, Hosts: 4, Uplinks: 4, Buffer: 15000, MTU: 1500,
			HeaderQueue: 8, PortData: 12000, HeaderWeight: 10})
		aligned(tr)
	}
	// A sparse ToR (NDP's header queues alone): each port made on first
	// use.
	tr, _ := newTestToR(t, Config{ToRs: 2 * DenseToRs, Hosts: 4, Uplinks: 4, Buffer: 15000, MTU: 1500, HeaderQueue: 8})
	for v := range 2 * DenseToRs {
		tr.VOQ(v, 0)
		aligned(tr)
	}
}
