package fabric

import (
	"testing"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// ackLog is a fixed-window law that records when each ACK of new data
// reached the sender and its cumulative point.
type ackLog struct {
	cc.Fixed
	at  []rotor.Time
	cum []int64
}

func (a *ackLog) OnAck(f *cc.Feedback) {
	a.at, a.cum = append(a.at, f.Now), append(a.cum, f.Cum)
}

// runDelAck runs one flow of n 1500 B segments across the leaves of an
// idle 10 Gb/s leaf-spine (1 µs links) with a window that never binds,
// ACKs delayed per count and timeout; it returns the run's packets
// injected (data and ACKs), the flow and its sender's ACK log.
func runDelAck(t *testing.T, n int64, count int, timeout rotor.Time) (int64, FlowResult, *ackLog) {
	t.Helper()
	cfg := lsConfig(2, 1, 1, 1, 10*rotor.Gbps, 10*rotor.Gbps, []workload.Flow{{Src: 0, Dst: 1, Bytes: n * 1500}})
	cfg.DelayedAck, cfg.DelayedAckTimeout, cfg.Window = count, timeout, n*1500
	log := &ackLog{Fixed: cc.Fixed{Bytes: n * 1500}}
	cfg.NewController = func(workload.Flow, cc.Env) (cc.Law, error) { return log, nil }
	s, err := newSimFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.run()
	if err != nil {
		t.Fatal(err)
	}
	return s.m.injectedPkts, r.Flows[0], log
}

// TestDelayedAckCount: a clean transfer of 20 segments sends 20 ACKs
// with every segment ACKed and 10 with DelAck 2 (each the cumulative ACK
// of a pair); 21 segments send 11, the last one's alone, after the
// delayed-ACK timeout: it reaches the sender 100 µs after the last
// segment reached the receiver (the flow's finish), plus the ACK's own
// trip back over 4 links of 1 µs, 64 B at 10 Gb/s each. The flow's FCT
// (the receiver's) is the same either way.
func TestDelayedAckCount(t *testing.T) {
	const timeout = 100 * rotor.Microsecond
	pkts1, f1, _ := runDelAck(t, 20, 1, 0)
	pkts2, f2, log2 := runDelAck(t, 20, 2, timeout)
	if acks1, acks2 := pkts1-20, pkts2-20; acks1 != 20 || acks2 != 10 {
		t.Errorf("20 segments: %d ACKs every segment, %d delayed; want 20 and 10", acks1, acks2)
	}
	if f1.FCT != f2.FCT || f2.Retransmits != 0 {
		t.Errorf("FCT %v every segment, %v delayed (%d retransmits); want equal, none", f1.FCT, f2.FCT, f2.Retransmits)
	}
	for i, c := range log2.cum {
		if c != int64(i+1)*3000 {
			t.Errorf("ACK %d: cumulative %d, want %d (pairs)", i, c, (i+1)*3000)
		}
	}
	pkts, f, log := runDelAck(t, 21, 2, timeout)
	if acks := pkts - 21; acks != 11 || f.Retransmits != 0 || f.Timeouts != 0 {
		t.Errorf("21 segments: %d ACKs, %d retransmits, %d timeouts; want 11, 0, 0", acks, f.Retransmits, f.Timeouts)
	}
	back := 4 * (rotor.Microsecond + (10 * rotor.Gbps).TransmitTime(64))
	if last, want := log.at[len(log.at)-1], f.FCT+timeout+back; last != want || log.cum[len(log.cum)-1] != 21*1500 {
		t.Errorf("last ACK at %v (cum %d), want %v: the finish %v + timeout %v + %v back", last, log.cum[len(log.cum)-1], want, f.FCT, timeout, back)
	}
}
