package cc

import (
	"fmt"
	"math"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// TestPowerTCPFullStep checks the rule of the PowerTCP authors' TCP
// implementation (the one of the thesis's reconfigurable-network study):
// when the smoothed normalised power is at most 0.5 (full_step), the
// update takes the whole step, w ← w_old/Γ + β (γ = 1); above it, and with
// full_step = 0, it is w ← γ(w_old/Γ + β) + (1 − γ)w. One hop of 100 Gb/s
// with an empty queue carries λ = 0.4·b or 0.6·b, so Γ = λ/b exactly
// (min_lambda = 0, ai = 0); the first update of every mode is compared
// with the closed form.
func TestPowerTCPFullStep(t *testing.T) {
	const pkt = 1000
	for _, mode := range modeNames {
		for _, c := range []struct {
			frac     float64 // λ/b = Γ
			fullStep string
			want     float64 // w_new / w_old
		}{
			{0.4, "0.5", 1 / 0.4},
			{0.4, "0", 0.9/0.4 + 0.1},
			{0.6, "0.5", 0.9/0.6 + 0.1},
			{0.5, "0.5", 1 / 0.5}, // "at or below"
		} {
			name := fmt.Sprintf("%s/power=%g/full_step=%s", mode, c.frac, c.fullStep)
			env := Env{MSS: pkt, HostRate: 100 * rotor.Gbps, BaseRTT: 24 * rotor.Microsecond}
			l, err := New("powertcp", env, map[string]string{"mode": mode, "ai": "0", "min_lambda": "0", "full_step": c.fullStep})
			if err != nil {
				t.Fatal(err)
			}
			p := l.(*PowerTCP)
			for range 3 { // 300 KB → 37.5 KB: room to grow ×2.5
				p.OnTimeout(0)
			}
			w0 := float64(p.Window())
			gap := (100 * rotor.Gbps).TransmitTime(pkt) // one INT record per 100 G packet time
			sent := c.frac * pkt                        // bytes through the hop per gap
			for i := int64(1); i <= 2; i++ {
				hop := []Hop{{Ts: rotor.Time(i) * gap, TxBytes: int64(math.Round(float64(i) * sent)), Rate: 100 * rotor.Gbps, Port: 1}}
				p.OnAck(&Feedback{Now: rotor.Time(i) * gap, Acked: pkt, Cum: i * pkt, SndNxt: i*pkt + p.Window(), Hops: hop})
			}
			if got := float64(p.Window()) / w0; math.Abs(got-c.want) > 1e-4*c.want {
				t.Errorf("%s: first update ×%.5f, want ×%.5f", name, got, c.want)
			}
		}
	}
}
