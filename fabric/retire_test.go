package fabric

import (
	"testing"
	"unsafe"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// TestRetiredFlowsKeepCounts: a retired flow releases its transport ends
// and keeps its counts in its timer words. An incast of 6 senders × 40
// full segments into one host through a 20-packet shared buffer loses
// packets, so the senders retransmit and time out; every flow must finish,
// retire (ends released) and report counts that add up to the engine's
// own byte counters: data bytes injected = flow bytes + retransmits × MSS
// (all segments full), and a flow received exactly its bytes.
func TestRetiredFlowsKeepCounts(t *testing.T) {
	const senders, segs = 6, 40
	var fl []workload.Flow
	cfg := lsConfig(2, 1, 8, 1, 10*rotor.Gbps, 10*rotor.Gbps, nil)
	cfg.defaults()
	mss := int64(cfg.MSS)
	for k := range senders {
		fl = append(fl, workload.Flow{ID: k, Src: 8 + k, Dst: 0, Bytes: segs * mss})
	}
	cfg.Flows = &SliceSource{Flows: fl}
	cfg.Buffer = 20 * rotor.Bytes(cfg.MTU)
	cfg.SimTime = 200 * rotor.Millisecond
	s, err := newSimFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.run()
	if err != nil {
		t.Fatal(err)
	}
	var retx, timeouts, bytes int64
	for i, f := range r.Flows {
		if fs := &s.flows[i]; fs.src != nil || fs.sink != nil {
			t.Errorf("flow %d kept its transport ends after it finished", f.ID)
		}
		if !f.Done || f.Received != f.Bytes {
			t.Errorf("flow %d: done %v, received %d of %d B", f.ID, f.Done, f.Received, f.Bytes)
		}
		retx += f.Retransmits
		timeouts += f.Timeouts
		bytes += f.Bytes
	}
	if r.DroppedData == 0 || timeouts == 0 {
		t.Fatalf("%d data bytes dropped, %d timeouts: the run tests no recovery", r.DroppedData, timeouts)
	}
	if want := bytes + retx*mss; r.InjectedData != want {
		t.Errorf("data injected %d B, flows' bytes + retransmits × MSS = %d + %d × %d = %d B", r.InjectedData, bytes, retx, mss, want)
	}
	t.Logf("%d retransmits, %d timeouts, %d data bytes dropped", retx, timeouts, r.DroppedData)
	if size := unsafe.Sizeof(flowState{}); size > 136 {
		t.Errorf("a flow's record takes %d B, more than 136", size)
	}
}
