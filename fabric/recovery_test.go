package fabric

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// TestRecoveryOneBottleneck: one 5 MB NewReno flow through a 5 Gb/s
// fabric link with a 100 KB buffer (10 Gb/s host links). Slow start
// overflows the buffer; fast recovery repairs the losses without a
// timeout, with SACK (RFC 6675) and without (NewReno, RFC 6582).
func TestRecoveryOneBottleneck(t *testing.T) {
	for _, c := range []struct {
		name   string
		dup    int
		noSACK bool
	}{{"sack", 0, false}, {"newreno", 0, true}, {"timeouts only", -1, false}} {
		cfg := lsConfig(2, 1, 1, 1, 10*rotor.Gbps, 5*rotor.Gbps, []workload.Flow{{Src: 0, Dst: 1, Bytes: 5_000_000}})
		cfg.Buffer, cfg.CC, cfg.DupThresh, cfg.NoSACK, cfg.SimTime = 100_000, "newreno", c.dup, c.noSACK, 200*rotor.Millisecond
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		f := r.Flows[0]
		t.Logf("%s: FCT %v, %d retransmits, %d timeouts, %d drops", c.name, f.FCT, f.Retransmits, f.Timeouts, r.DroppedPackets)
	}
}
