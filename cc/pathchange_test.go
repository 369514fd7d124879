package cc

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// TestPowerTCPCircuitDay feeds one per-RTT PowerTCP sender the INT records
// of the reconfigurable network's two paths, as one of ten flows of a ToR
// pair: a packet path whose two 25 G uplink hops carry 25 Gb/s
// (normalised power 1) and whose 25 G host hop carries the flow's
// 2.5 Gb/s; then, when the circuit day starts, a circuit path whose first
// hop is 100 G and still sees 25 Gb/s arrive (power 0.25, not floored: its
// rate changed) and the same host hop (0.1, floored at min_lambda = 0.5).
// The rates changed with the path, so the smoothing restarts at the new
// path's power, 0.5, and the first update of the day multiplies the
// window by 1/0.5 = 2 (at power ≤ full_step = 0.5 the step is whole, γ = 1)
// or, with full_step = 0, by γ/0.5 + (1 − γ) = 1.9. When the path change
// hid the rate change, the smoothing blended the packet path's 1 into the
// day and the first update gave ×1.1.
func TestPowerTCPCircuitDay(t *testing.T) {
	for _, c := range []struct {
		fullStep string
		want     float64
	}{{"0.5", 1 / 0.5}, {"0", 0.9/0.5 + 0.1}} {
		circuitDay(t, c.fullStep, c.want)
	}
}

func circuitDay(t *testing.T, fullStep string, want float64) {
	env := Env{MSS: 1000, HostRate: 100 * rotor.Gbps, BaseRTT: 24 * rotor.Microsecond}
	l, err := New("powertcp", env, map[string]string{"mode": "per-rtt", "ai": "0", "full_step": fullStep})
	if err != nil {
		t.Fatal(err)
	}
	p := l.(*PowerTCP)
	for range 3 { // from the line-rate window (300 KB) to 37.5 KB, room to grow
		p.OnTimeout(0)
	}
	const pkt = 1000
	gap := (25 * rotor.Gbps).TransmitTime(pkt) // one packet per 25 G packet time
	packetPath := func(i int64) []Hop {
		return []Hop{
			{Ts: rotor.Time(i) * gap, TxBytes: i * pkt, Rate: 25 * rotor.Gbps, Port: 1},
			{Ts: rotor.Time(i) * gap, TxBytes: i * pkt, Rate: 25 * rotor.Gbps, Port: 2},
			{Ts: rotor.Time(i) * gap, TxBytes: i * pkt / 10, Rate: 25 * rotor.Gbps, Port: 5},
		}
	}
	circuitPath := func(i int64) []Hop {
		return []Hop{
			{Ts: rotor.Time(i) * gap, TxBytes: i * pkt, Rate: 100 * rotor.Gbps, Port: 4},
			{Ts: rotor.Time(i) * gap, TxBytes: i * pkt / 10, Rate: 25 * rotor.Gbps, Port: 5},
		}
	}
	// ack i acknowledges packet i; the send frontier is a window ahead,
	// so a round is a window of ACKs.
	var i int64
	ack := func(hops []Hop) {
		i++
		p.OnAck(&Feedback{Now: rotor.Time(i) * gap, Acked: pkt, Cum: i * pkt, SndNxt: i*pkt + p.Window(), Hops: hops})
	}
	for range 400 { // several rounds on the packet path
		ack(packetPath(i))
	}
	if p.smooth < 0.99 || p.smooth > 1.01 {
		t.Fatalf("packet path: smoothed power %.3f, want 1", p.smooth)
	}
	// The day starts: ACKs on the circuit path until the first update.
	w0 := float64(p.Window())
	for k := 0; float64(p.Window()) == w0 && k < 1000; k++ {
		ack(circuitPath(i))
	}
	got := float64(p.Window()) / w0
	if got < 0.97*want || got > 1.03*want {
		t.Errorf("full_step %s: first update of the day: window ×%.2f, want ×%.2f (smoothing restarted at the circuit path's power)", fullStep, got, want)
	}
}
