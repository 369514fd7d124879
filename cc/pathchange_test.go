package cc

import (
	"math"
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

// TestThetaPowerTCPFastReact: θ-PowerTCP with mode fast-react changes its
// window on every ACK, as the authors' RDMA code does (Algorithm 2 as
// printed, mode per-rtt, only once per RTT), and its τ is the flow's own
// path base RTT (Env.PathRTT = 20 µs, not the network's 50 µs): the first
// window is HostRate·τ = 250 000 B. Hand trace, γ = 0.9, β = 150 Mb/s·τ =
// 375 B: ACK 2 (RTT 21 µs, 1 µs after one of 20 µs) has θ̇ = 1, Γ = 2·21/20
// = 2.1, which starts the smoothing, and opens a round: w = 0.9·(250 000/2.1
// + 375) + 0.1·250 000, committed as the reference. ACK 3 (RTT 21 µs, 1 µs
// later, same round) has Γ = 1.05, smoothed (2.1·19 + 1.05)/20 = 2.0475,
// and w = 0.9·(ref/2.0475 + 375) + 0.1·ref.
func TestThetaPowerTCPFastReact(t *testing.T) {
	us := rotor.Microsecond
	env := Env{MSS: 1000, HostRate: 100 * rotor.Gbps, BaseRTT: 50 * us, PathRTT: 20 * us}
	acks := []Feedback{
		{Now: 100 * us, Cum: 1000, SndNxt: 100_000, RTT: 20 * us},
		{Now: 101 * us, Cum: 2000, SndNxt: 100_000, RTT: 21 * us},
		{Now: 102 * us, Cum: 3000, SndNxt: 100_000, RTT: 21 * us},
	}
	w0 := 12.5e9 * 20e-6
	w2 := 0.9*(w0/2.1+375) + 0.1*w0
	w3 := 0.9*(w2/2.0475+375) + 0.1*w2
	for _, c := range []struct {
		mode string
		want []float64
	}{{"fast-react", []float64{w0, w2, w3}}, {"per-rtt", []float64{w0, w2, w2}}} {
		l, err := New("theta-powertcp", env, map[string]string{"mode": c.mode})
		if err != nil {
			t.Fatal(err)
		}
		if got := float64(l.Window()); math.Abs(got-w0) > 1 {
			t.Fatalf("%s: first window %.0f B, want HostRate·PathRTT = %.0f", c.mode, got, w0)
		}
		for i := range acks {
			f := acks[i]
			l.OnAck(&f)
			if got := float64(l.Window()); math.Abs(got-c.want[i]) > 1 {
				t.Errorf("%s: after ACK %d window %.1f B, want %.1f", c.mode, i+1, got, c.want[i])
			}
		}
	}
}
