package fabric

import (
	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/packet"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// TestRecoveryOneBottleneck: one 5 MB NewReno flow through a 5 Gb/s
// fabric link with a 100 KB buffer (10 Gb/s host links): 8 ms at the
// bottleneck rate. Slow start overflows the buffer. With the default SACK
// recovery (RFC 6675) every loss is repaired without a timeout and the
// flow finishes within 1 % of 8 ms; NewReno without SACK (RFC 6582,
// one hole per RTT, and its retransmissions meet the same full buffer)
// within 5 %; with losses found by the timeout only the flow still
// completes.
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
		bound := map[string]float64{"sack": 1.01, "newreno": 1.05, "timeouts only": 25}[c.name]
		if !f.Done || f.FCT.Seconds() > bound*0.008 {
			t.Errorf("%s: done %v, FCT %v; want within %.2f × 8 ms", c.name, f.Done, f.FCT, bound)
		}
		if c.name == "sack" && f.Timeouts != 0 {
			t.Errorf("sack: %d timeouts, want none", f.Timeouts)
		}
	}
}

// fakeTimerSource is a Source whose timer the test moves by hand; it
// records when its timer fires.
type fakeTimerSource struct {
	deadline rotor.Time
	fired    []rotor.Time
}

func (f *fakeTimerSource) CanSend() bool { return false }
func (f *fakeTimerSource) Next(rotor.Time) (int64, int32, bool, bool) {
	return 0, 0, false, false
}
func (f *fakeTimerSource) Pending() int64                                        { return 0 }
func (f *fakeTimerSource) Rate() rotor.Rate                                      { return 0 }
func (f *fakeTimerSource) OnReply(rotor.Time, *packet.Packet, *cc.Feedback) bool { return false }
func (f *fakeTimerSource) Timer() rotor.Time                                     { return f.deadline }
func (f *fakeTimerSource) OnTimeout(now rotor.Time) bool {
	if f.deadline == 0 || now < f.deadline {
		return false
	}
	f.fired, f.deadline = append(f.fired, now), 0
	return false
}
func (f *fakeTimerSource) OnCircuit(rotor.Time, bool)            {}
func (f *fakeTimerSource) Done() bool                            { return false }
func (f *fakeTimerSource) Counts() (retransmits, timeouts int64) { return 0, 0 }

// TestTimerMovesEarlier: a flow's timer event is pending at 100 µs when
// its source's deadline moves to 40 µs (a valid RTT sample reset the
// RTO's backoff). The timeout fires at 40 µs, and the superseded event at
// 100 µs does nothing; the engine used to keep only the 100 µs event.
func TestTimerMovesEarlier(t *testing.T) {
	cfg := lsConfig(2, 1, 1, 1, 10*rotor.Gbps, 10*rotor.Gbps, nil)
	s, err := newSimFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	src := &fakeTimerSource{deadline: 100 * rotor.Microsecond}
	s.flows = append(s.flows, flowState{f: workload.Flow{Src: 0, Dst: 1, Bytes: 1}, src: src})
	s.tx = append(s.tx, txState{})
	s.armTimer(0)
	src.deadline = 40 * rotor.Microsecond
	s.armTimer(0)
	for {
		kind, target, arg, ok := s.q.PopUntil(rotor.Millisecond)
		if !ok {
			break
		}
		if kind == evRTO {
			s.dispatch(kind, target, arg)
		}
	}
	if len(src.fired) != 1 || src.fired[0] != 40*rotor.Microsecond {
		t.Errorf("timer fired at %v, want once at 40µs", src.fired)
	}
}
