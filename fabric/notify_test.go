package fabric

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
	"github.com/rdcn/rdcn/workload"
)

// circuitLog is a fixed-window controller that records OnCircuit calls.
type circuitLog struct {
	cc.Fixed
	calls *[]circuitCall
	flow  int
}

type circuitCall struct {
	Flow int
	At   rotor.Time
	Up   bool
}

func (c *circuitLog) OnCircuit(now rotor.Time, up bool) {
	*c.calls = append(*c.calls, circuitCall{c.flow, now, up})
}

// TestOnCircuit: on TestSingleFlowDirect's rotor (4 ToRs, one switch
// playing shifts 1, 2, 3, Δ = 10 µs, Δr = 1 µs, cycle 30 µs) the circuit
// 0→2 is up in [10, 19) + 30k µs and 0→1 in [0, 9) + 30k µs. A windowed
// flow 0→2 of 20 packets hears up at 10, down at 19, up at 40, … until it
// finishes (7 packets cross per day: its last day is the third, [70, 79));
// a flow 0→1 starting at 5 µs hears only the 0→1 transitions (down at 9,
// up at 30, …); a flow inside rack 0 hears nothing (no circuit).
func TestOnCircuit(t *testing.T) {
	us := rotor.Microsecond
	flows := []workload.Flow{
		{ID: 0, Src: 0, Dst: 2, Bytes: 20 * 1500},
		{ID: 1, Src: 0, Dst: 1, Bytes: 8 * 1500, Start: 5 * us},
	}
	cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, 1*us), flows)
	cfg.Acks = AcksIdeal
	cfg.Window = 40 * 1500
	var calls []circuitCall
	cfg.NewController = func(f workload.Flow, env cc.Env) (cc.Law, error) {
		return &circuitLog{Fixed: cc.Fixed{Bytes: env.Window}, calls: &calls, flow: f.ID}, nil
	}
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.FlowsComplete != 2 {
		t.Fatalf("%d of 2 flows completed", r.FlowsComplete)
	}
	done0 := r.Flows[0].Start + r.Flows[0].FCT
	done1 := r.Flows[1].Start + r.Flows[1].FCT
	// Expected: every transition of the flow's circuit while it is not yet
	// fully acknowledged (ideal ACKs: 300 ns after the data arrives).
	var want []circuitCall
	for k := rotor.Time(0); k < 10; k++ {
		for _, c := range []circuitCall{
			{0, 10*us + 30*us*k, true}, {0, 19*us + 30*us*k, false},
			{1, 30 * us * k, true}, {1, 9*us + 30*us*k, false},
		} {
			start, done := flows[c.Flow].Start, done0
			if c.Flow == 1 {
				done = done1
			}
			if c.At > start && c.At <= done+300 {
				want = append(want, c)
			}
		}
	}
	sortCalls(want)
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("OnCircuit calls (-want +got), flows done at %v and %v:\n%s", done0, done1, diff)
	}
	t.Logf("%d notifications: %v", len(calls), calls)
	if len(want) < 5 {
		t.Errorf("only %d notifications expected: test too weak", len(want))
	}
}

func sortCalls(c []circuitCall) {
	for i := 1; i < len(c); i++ {
		for j := i; j > 0 && c[j].At < c[j-1].At; j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
}

// intLog records the INT hops each ACK brings.
type intLog struct {
	cc.Fixed
	hops *[][]tor.IntHop
}

func (c *intLog) OnAck(a *cc.Feedback) {
	*c.hops = append(*c.hops, append([]tor.IntHop(nil), a.Hops...))
}

// TestINTReachesController: with INT on, every ACK of a one-hop flow 0→2
// (TestSingleFlowDirect's rotor, ideal ACKs) carries two records: ToR 0's
// uplink (port 0, dequeued at 10 and 11.2 µs, queue left 1500 and 0 B)
// and ToR 2's port to host 2 (at 11.3 and 12.5 µs). Records name ports by
// global id: the 4 uplinks are 0…3, then ToR t's host port is 4 + t.
func TestINTReachesController(t *testing.T) {
	us, ns := rotor.Microsecond, rotor.Nanosecond
	cfg := baseConfig(cyclicSchedule(t, 4, 1, 1, 10*us, us), []workload.Flow{{Src: 0, Dst: 2, Bytes: 3000}})
	cfg.Acks, cfg.RecordINT = AcksIdeal, true
	var hops [][]tor.IntHop
	cfg.NewController = func(f workload.Flow, env cc.Env) (cc.Law, error) {
		return &intLog{Fixed: cc.Fixed{Bytes: env.Window}, hops: &hops}, nil
	}
	if _, err := Run(cfg); err != nil {
		t.Fatal(err)
	}
	g := 10 * rotor.Gbps
	want := [][]tor.IntHop{
		{{Ts: 10 * us, Qlen: 1500, TxBytes: 1500, Rate: g, Port: 0}, {Ts: 11*us + 300*ns, Qlen: 0, TxBytes: 1500, Rate: g, Port: 6}},
		{{Ts: 11*us + 200*ns, Qlen: 0, TxBytes: 3000, Rate: g, Port: 0}, {Ts: 12*us + 500*ns, Qlen: 0, TxBytes: 3000, Rate: g, Port: 6}},
	}
	if diff := cmp.Diff(want, hops); diff != "" {
		t.Errorf("INT records per ACK (-want +got):\n%s", diff)
	}
}
