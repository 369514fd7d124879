package fabric

import (
	"slices"
	"testing"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// TestTransportsFromCC: every transport.kind names a cc transport for
// the flows its ToRs do not pull, and its entry lists every key that
// transport's flow ends read (scenario's TestRegistries checks that every
// key an entry lists is a key).
func TestTransportsFromCC(t *testing.T) {
	for _, e := range Transports().Entries {
		spec := flowTransport(e.Name)
		if e.Doc == "" {
			t.Errorf("%s: no doc", e.Name)
		}
		for _, k := range spec.Params {
			if !slices.Contains(e.Reads, k) {
				t.Errorf("%s: its flows (cc %s) read %s, which the entry does not list", e.Name, spec.Name, k)
			}
		}
	}
	if _, ok := cc.LookupTransport(cc.TransportPull); !ok {
		t.Error("cc has no pull transport for the pulled flows")
	}
}

// TestNDPUnfinishedRetransmits: the incast of TestNDPIncastLeafSpine,
// stopped at 500 µs, long before its 1.93 ms of link arithmetic: every
// flow is unfinished, the first windows were trimmed, and the NACKed
// segments were resent, so the flows still running report
// retransmissions (they reported none while their NDP sender was not
// the fabric's windowed one).
func TestNDPUnfinishedRetransmits(t *testing.T) {
	var flows []workload.Flow
	for i := 0; i < 16; i++ {
		flows = append(flows, workload.Flow{ID: i, Src: i, Dst: 16, Bytes: 150_000})
	}
	cfg := ndpLS(2, 4, 16, 40*rotor.Gbps, flows)
	cfg.Buffer, cfg.SimTime = 60_000, 500*rotor.Microsecond
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, f := range r.Flows {
		if f.Done {
			t.Fatalf("flow %d completed by 500 µs: the test needs unfinished flows", f.ID)
		}
		sum += f.Retransmits
	}
	if r.Trimmed == 0 || r.Retransmits == 0 || sum != r.Retransmits {
		t.Errorf("%d trimmed, %d retransmits (flows' sum %d): want trims and their retransmissions counted", r.Trimmed, r.Retransmits, sum)
	}
}
