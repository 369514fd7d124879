package fabric

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
	"github.com/rdcn/rdcn/workload"
)

// intTrunc records whether any ACK reported a truncated INT path.
type intTrunc struct {
	intLog
	truncated *bool
}

func (c *intTrunc) OnAck(a *cc.Feedback) {
	c.intLog.OnAck(a)
	*c.truncated = *c.truncated || a.Truncated
}

// intRun runs cfg with INT on and returns the records each ACK brought;
// it fails the test if any ACK said its records were truncated.
func intRun(t *testing.T, cfg Config) [][]tor.IntHop {
	t.Helper()
	cfg.RecordINT = true
	var hops [][]tor.IntHop
	var truncated bool
	cfg.NewController = func(f workload.Flow, env cc.Env) (cc.Law, error) {
		return &intTrunc{intLog{Fixed: cc.Fixed{Bytes: env.Window}, hops: &hops}, &truncated}, nil
	}
	if _, err := Run(cfg); err != nil {
		t.Fatal(err)
	}
	if truncated {
		t.Errorf("an ACK's INT records were truncated")
	}
	return hops
}

// TestINTOneHopInBandAcks: TestINTReachesController's one-hop flow 0→2,
// with its ACKs crossing the fabric back (they queue at ToR 2's uplink and
// ToR 0's host port). Each ACK still brings exactly the two data-path
// records: switches stamp data packets only, and the ACK keeps its data
// packet's records.
func TestINTOneHopInBandAcks(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, us), []workload.Flow{{Src: 0, Dst: 2, Bytes: 3000}})
	cfg.Acks = AcksFabric
	g := 10 * rotor.Gbps
	want := [][]tor.IntHop{
		{{Ts: 10 * us, Qlen: 1500, TxBytes: 1500, Rate: g, Port: 0}, {Ts: 11*us + 300*ns, Qlen: 0, TxBytes: 1500, Rate: g, Port: 1}},
		{{Ts: 11*us + 200*ns, Qlen: 0, TxBytes: 3000, Rate: g, Port: 0}, {Ts: 12*us + 500*ns, Qlen: 0, TxBytes: 3000, Rate: g, Port: 1}},
	}
	if diff := cmp.Diff(want, intRun(t, cfg)); diff != "" {
		t.Errorf("INT records per ACK (-want +got):\n%s", diff)
	}
}

// TestINTThreeHops: one 1500 B packet 0→2 under VLB on the 4-ToR rotor
// of TestSingleFlowDirect (slot 0, day [0, 9 µs), is shift 1). Host link
// [0, 1.2), ToR 0 at 1.3 µs sends it to ToR 1 (the circuit up now):
// uplink 0 [1.3, 2.5), ToR 1 at 2.6, whose shift-1 circuit reaches ToR 2:
// uplink 0 [2.6, 3.8), ToR 2 at 3.9, host port (U + 0 = 1) [3.9, 5.1).
// The ACK, crossing the fabric back, brings exactly those three records.
func TestINTThreeHops(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, us), []workload.Flow{{Src: 0, Dst: 2, Bytes: 1500}})
	cfg.Acks, cfg.Routing = AcksFabric, VLB
	g := 10 * rotor.Gbps
	want := [][]tor.IntHop{{
		{Ts: 1*us + 300*ns, Qlen: 0, TxBytes: 1500, Rate: g, Port: 0},
		{Ts: 2*us + 600*ns, Qlen: 0, TxBytes: 1500, Rate: g, Port: 0},
		{Ts: 3*us + 900*ns, Qlen: 0, TxBytes: 1500, Rate: g, Port: 1},
	}}
	if diff := cmp.Diff(want, intRun(t, cfg)); diff != "" {
		t.Errorf("INT records per ACK (-want +got):\n%s", diff)
	}
}

// TestINTLeafSpine: on a leaf-spine (10 Gbps, 1 µs links) a flow across
// leaves has three data-path hops — leaf 0's uplink to the spine its flow
// hashes to (port H + j), the spine's port to leaf 1 (port 1), leaf 1's
// port to host 2 (port 0) — dequeued at 2.2, 4.4 and 6.6 µs; a flow
// within leaf 0, started at 100 µs, has one: leaf 0's port to host 1 at
// 102.2 µs. Each ACK, crossing the fabric back, brings exactly those.
func TestINTLeafSpine(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	cfg := lsConfig(2, 2, 2, 1, 10*rotor.Gbps, 10*rotor.Gbps, []workload.Flow{
		{ID: 0, Src: 0, Dst: 2, Bytes: 1500}, {ID: 1, Src: 0, Dst: 1, Bytes: 1500, Start: 100 * us}})
	cfg.RecordINT = true
	var hops [][]tor.IntHop
	var truncated bool
	cfg.NewController = func(f workload.Flow, env cc.Env) (cc.Law, error) {
		return &intTrunc{intLog{Fixed: cc.Fixed{Bytes: env.Window}, hops: &hops}, &truncated}, nil
	}
	s, err := newSimFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	up := int32(2 + s.ls.flowHash(0, 0)%2) // leaf 0: hosts 0, 1, then uplinks to spines 0, 1
	if _, err := s.run(); err != nil {
		t.Fatal(err)
	}
	g := 10 * rotor.Gbps
	want := [][]tor.IntHop{
		{{Ts: 2*us + 200*ns, TxBytes: 1500, Rate: g, Port: up}, {Ts: 4*us + 400*ns, TxBytes: 1500, Rate: g, Port: 1}, {Ts: 6*us + 600*ns, TxBytes: 1500, Rate: g, Port: 0}},
		{{Ts: 102*us + 200*ns, TxBytes: 1500, Rate: g, Port: 1}},
	}
	if diff := cmp.Diff(want, hops); diff != "" {
		t.Errorf("INT records per ACK (-want +got):\n%s", diff)
	}
	if truncated {
		t.Error("an ACK's INT records were truncated")
	}
}
