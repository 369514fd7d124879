package fabric

import (
	"testing"

	"cmp"
	"slices"

	gocmp "github.com/google/go-cmp/cmp"
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
		{{Ts: 10 * us, Qlen: 1500, TxBytes: 1500, Rate: g, Port: 0}, {Ts: 11*us + 300*ns, Qlen: 0, TxBytes: 1500, Rate: g, Port: 6}},
		{{Ts: 11*us + 200*ns, Qlen: 0, TxBytes: 3000, Rate: g, Port: 0}, {Ts: 12*us + 500*ns, Qlen: 0, TxBytes: 3000, Rate: g, Port: 6}},
	}
	if diff := gocmp.Diff(want, intRun(t, cfg)); diff != "" {
		t.Errorf("INT records per ACK (-want +got):\n%s", diff)
	}
}

// TestINTThreeHops: one 1500 B packet 0→2 under VLB on the 4-ToR rotor
// of TestSingleFlowDirect (slot 0, day [0, 9 µs), is shift 1). Host link
// [0, 1.2), ToR 0 at 1.3 µs sends it to ToR 1 (the circuit up now):
// uplink 0 [1.3, 2.5), ToR 1 at 2.6, whose shift-1 circuit reaches ToR 2:
// uplink 0 [2.6, 3.8), ToR 2 at 3.9, host port (U + 0 = 1) [3.9, 5.1).
// The ACK, crossing the fabric back, brings exactly those three records,
// which name the ports by global id: ToR t's uplink t, its host port 4 + t.
func TestINTThreeHops(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, us), []workload.Flow{{Src: 0, Dst: 2, Bytes: 1500}})
	cfg.Acks, cfg.Routing = AcksFabric, VLB
	g := 10 * rotor.Gbps
	want := [][]tor.IntHop{{
		{Ts: 1*us + 300*ns, Qlen: 0, TxBytes: 1500, Rate: g, Port: 0},
		{Ts: 2*us + 600*ns, Qlen: 0, TxBytes: 1500, Rate: g, Port: 1},
		{Ts: 3*us + 900*ns, Qlen: 0, TxBytes: 1500, Rate: g, Port: 6},
	}}
	if diff := gocmp.Diff(want, intRun(t, cfg)); diff != "" {
		t.Errorf("INT records per ACK (-want +got):\n%s", diff)
	}
}

// TestINTLeafSpine: on a leaf-spine (10 Gbps, 1 µs links) a flow across
// leaves has three data-path hops — leaf 0's uplink to the spine its flow
// hashes to (port H + j), the spine's port to leaf 1 (port 1), leaf 1's
// port to host 2 (port 0) — dequeued at 2.2, 4.4 and 6.6 µs; a flow
// within leaf 0, started at 100 µs, has one: leaf 0's port to host 1 at
// 102.2 µs. Each ACK, crossing the fabric back, brings exactly those,
// naming each port by its global id.
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
	j := int(s.ls.flowHash(0, 0) % 2)                   // the spine (switch 2 + j)
	up, spine := s.ports.id(0, 2+j), s.ports.id(2+j, 1) // leaf 0: hosts 0, 1, then uplinks to spines 0, 1
	if _, err := s.run(); err != nil {
		t.Fatal(err)
	}
	g := 10 * rotor.Gbps
	want := [][]tor.IntHop{
		{{Ts: 2*us + 200*ns, TxBytes: 1500, Rate: g, Port: up}, {Ts: 4*us + 400*ns, TxBytes: 1500, Rate: g, Port: spine}, {Ts: 6*us + 600*ns, TxBytes: 1500, Rate: g, Port: s.ports.id(1, 0)}},
		{{Ts: 102*us + 200*ns, TxBytes: 1500, Rate: g, Port: s.ports.id(0, 1)}},
	}
	if diff := gocmp.Diff(want, hops); diff != "" {
		t.Errorf("INT records per ACK (-want +got):\n%s", diff)
	}
	if truncated {
		t.Error("an ACK's INT records were truncated")
	}
}

// TestINTHopIDsAreGlobal: under VLB, packets of all 12 flows of a 4-ToR
// rotor cross different intermediate ToRs through uplink 0 of each. An
// INT record names its hop by the port's global id, so records with the
// same id come from one port, whose byte counter only grows: sorted by
// dequeue time, their TxBytes increase (the same record, seen by two
// ACKs, repeats). Per-switch ids would name uplink 0 of every ToR alike,
// and HPCC or PowerTCP would difference unrelated counters.
func TestINTHopIDsAreGlobal(t *testing.T) {
	us := rotor.Microsecond
	var flows []workload.Flow
	for s := range 4 {
		for d := range 4 {
			if s != d {
				flows = append(flows, workload.Flow{ID: len(flows), Src: s, Dst: d, Bytes: 30_000})
			}
		}
	}
	cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, us), flows)
	cfg.Acks, cfg.Routing = AcksFabric, VLB
	byPort := map[int32][]tor.IntHop{}
	n := 0
	for _, hs := range intRun(t, cfg) {
		for _, h := range hs {
			byPort[h.Port] = append(byPort[h.Port], h)
			n++
		}
	}
	if n < 200 {
		t.Fatalf("%d records: the run should send hundreds of packets", n)
	}
	for id, rs := range byPort {
		slices.SortFunc(rs, func(a, b tor.IntHop) int { return cmp.Compare(a.Ts, b.Ts) })
		for i := 1; i < len(rs); i++ {
			a, b := rs[i-1], rs[i]
			if a.Ts == b.Ts && a != b || a.Ts < b.Ts && b.TxBytes <= a.TxBytes {
				t.Fatalf("port %d: record %+v after %+v: two ports' counters under one id", id, b, a)
			}
		}
	}
	if len(byPort) != 8 { // 4 uplinks, 4 host ports
		t.Errorf("records name %d ports, want 8", len(byPort))
	}
}
