package cc

import (
	"math"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// TestDCQCNTimeline follows one DCQCN sender through its timers against
// closed forms: the first CNP halves the rate (α = 1); α then decays by
// (1−g) per alpha_interval; a second CNP is felt at the next decrease
// check with the α of that moment and (clamp_target) sets the target to
// the rate before it; afterwards each increase period moves
// the rate halfway to the target rate.
func TestDCQCNTimeline(t *testing.T) {
	const g = 1.0 / 256
	us := rotor.Microsecond
	l, _ := New("dcqcn", testEnv, map[string]string{"clamp_target": "true"})
	d := l.(*DCQCN)
	line := bytesPerSec(testEnv.HostRate)
	t0 := 10 * us
	d.OnAck(&Feedback{Now: t0, ECE: true})
	if d.rc != line/2 || d.rt != line {
		t.Fatalf("first CNP: rate %.0f, target %.0f; want %.0f, %.0f", d.rc, d.rt, line/2, line)
	}
	d.OnAck(&Feedback{Now: t0 + 30*us})
	if want := math.Pow(1-g, 30); math.Abs(d.alpha-want) > 1e-12 {
		t.Fatalf("α 30 µs after the first CNP: %.12f, want (1−g)^30 = %.12f", d.alpha, want)
	}
	d.OnAck(&Feedback{Now: t0 + 50*us, ECE: true}) // the α tick at +50 µs precedes it
	d.OnAck(&Feedback{Now: t0 + 51*us})
	if d.rc != line/2 {
		t.Fatalf("rate changed before the decrease check: %.0f", d.rc)
	}
	d.OnAck(&Feedback{Now: t0 + 52*us}) // decrease check (every 4 µs from t0)
	alpha := (math.Pow(1-g, 51) + g) * (1 - g)
	r1 := line / 2 * (1 - alpha/2)
	if math.Abs(d.rc-r1) > 1e-6*line {
		t.Fatalf("second decrease: rate %.0f, want %.0f (α = %.6f)", d.rc, r1, alpha)
	}
	if d.rt != line/2 {
		t.Fatalf("second decrease: target %.0f, want the rate before it, %.0f", d.rt, line/2)
	}
	// Without clamp_target the target keeps the line rate: no increase
	// period has passed since the first decrease.
	l2, _ := New("dcqcn", testEnv, nil)
	for _, f := range []Feedback{{Now: t0, ECE: true}, {Now: t0 + 50*us, ECE: true}, {Now: t0 + 52*us}} {
		l2.OnAck(&f)
	}
	if d2 := l2.(*DCQCN); d2.rt != line || math.Abs(d2.rc-r1) > 1e-6*line {
		t.Fatalf("unclamped: rate %.0f target %.0f, want %.0f %.0f", d2.rc, d2.rt, r1, line)
	}
	// Increase periods of 900 µs: fast recovery, then +ai, then +hai.
	ai, hai := bytesPerSec(50*rotor.Mbps), bytesPerSec(100*rotor.Mbps)
	rc, rt := r1, line/2
	for k, add := range []float64{0, ai, hai, hai} {
		d.OnAck(&Feedback{Now: t0 + 52*us + rotor.Time(k+1)*900*us})
		rt += add
		rc = (rc + rt) / 2
		if math.Abs(d.rc-rc) > 1e-6*line || math.Abs(d.rt-rt) > 1e-6*line {
			t.Fatalf("increase %d: rate %.0f target %.0f, want %.0f %.0f", k+1, d.rc, d.rt, rc, rt)
		}
	}
}

// TestTimelyRegions checks TIMELY's regions once per RTT: above T_high
// the rate falls by β(1 − T_high/rtt); below T_low it rises by δ, by
// δ_HAI after five increases in a row; between the thresholds a rising
// RTT cuts it by β·g (g the RTT gradient over min_rtt; alpha = 1 makes
// the gradient the last difference) and a flat one raises it.
func TestTimelyRegions(t *testing.T) {
	us := rotor.Microsecond
	l, _ := New("timely", testEnv, map[string]string{"alpha": "1"})
	tm := l.(*Timely)
	var cum int64
	now := rotor.Time(0)
	ack := func(rtt rotor.Time) {
		cum += 1000
		now += 100 * us
		tm.OnAck(&Feedback{Now: now, Acked: 1000, Cum: cum, SndNxt: cum, RTT: rtt})
	}
	line := bytesPerSec(testEnv.HostRate)
	ack(600 * us) // first sample: no update
	ack(600 * us)
	r := line * (1 - 0.8*(1-500.0/600))
	if math.Abs(tm.rc-r) > 1e-6*line {
		t.Fatalf("above T_high: %.0f, want %.0f", tm.rc, r)
	}
	for k := 1; k <= 7; k++ {
		ack(30 * us)
		step := bytesPerSec(50 * rotor.Mbps)
		if k > 5 {
			step = bytesPerSec(100 * rotor.Mbps)
		}
		r += step
		if math.Abs(tm.rc-r) > 1e-6*line {
			t.Fatalf("below T_low, increase %d: %.0f, want %.0f", k, tm.rc, r)
		}
	}
	ack(52 * us) // g = 22 µs / 20 µs
	r *= 1 - 0.8*22.0/20
	if math.Abs(tm.rc-r) > 1e-6*line {
		t.Fatalf("rising RTT: %.0f, want %.0f", tm.rc, r)
	}
	ack(52 * us) // g = 0: additive increase
	r += bytesPerSec(50 * rotor.Mbps)
	if math.Abs(tm.rc-r) > 1e-6*line {
		t.Fatalf("flat RTT: %.0f, want %.0f", tm.rc, r)
	}
}
