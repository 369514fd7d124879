package cc

import (
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

func TestTmpAlpha(t *testing.T) {
	const k, n = 65, 4
	b := &bottleneck{C: 100 * rotor.Gbps, H: 100 * rotor.Gbps, MSS: 1000, K: k * 1000,
		Fwd: 10 * rotor.Microsecond, Back: 10 * rotor.Microsecond,
		End: 20 * rotor.Millisecond, Sample: rotor.Microsecond, MeasureAt: 10 * rotor.Millisecond}
	env := Env{MSS: b.MSS, HostRate: b.H, BaseRTT: b.BaseRTT()}
	for i := range n {
		l, _ := New("dctcp", env, nil)
		b.Laws = append(b.Laws, l)
		b.Starts = append(b.Starts, rotor.Time(i)*100*rotor.Microsecond)
	}
	var sum float64
	var cnt int
	next := b.MeasureAt
	b.RateAt = func(now rotor.Time) rotor.Rate {
		if now >= next {
			next += 10 * rotor.Microsecond
			for _, l := range b.Laws {
				sum += l.(*DCTCP).Alpha
				cnt++
			}
		}
		return b.C
	}
	r := b.run()
	t.Logf("mean alpha %.3f, final %.3f %.3f, qmax %d busy %.4f", sum/float64(cnt), b.Laws[0].(*DCTCP).Alpha, b.Laws[1].(*DCTCP).Alpha, r.QMax, r.Busy)
}
