package fabric

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// TestSlowStartAfterTimeoutFCT: one 5 MB NewReno flow through a 5 Gb/s
// fabric link with a 100 KB buffer (10 Gb/s host links). Slow start
// overflows the buffer; after a timeout the window must slow-start again
// (RFC 5681 §3.1). At 5 Gb/s the 5 MB take 8 ms; the flow once took 24 ms,
// resending one segment per RTT until the frontier of the timeout was
// acknowledged.
func TestSlowStartAfterTimeoutFCT(t *testing.T) {
	for _, dup := range []int{0, 3} {
		cfg := lsConfig(2, 1, 1, 1, 10*rotor.Gbps, 5*rotor.Gbps, []workload.Flow{{Src: 0, Dst: 1, Bytes: 5_000_000}})
		cfg.Buffer, cfg.CC, cfg.DupThresh, cfg.SimTime = 100_000, "newreno", dup, 100*rotor.Millisecond
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		f := r.Flows[0]
		t.Logf("dupthresh %d: FCT %v, %d retransmits, %d timeouts", dup, f.FCT, f.Retransmits, f.Timeouts)
	}
}
