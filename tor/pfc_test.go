package tor

import (
	"math"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

func pfcConfig(ports int, buffer int64) SwitchConfig {
	cfg := cfgN(ports, 2, buffer, rotor.Gbps)
	cfg.Lossless = 0b01 // queue 0 lossless, queue 1 lossy
	cfg.Headroom = 3 * 1500
	cfg.HeadroomPool = int64(ports) * cfg.Headroom
	return cfg
}

// With PFC a lossless class loses nothing, even under an 8-to-1 incast on
// top of lossy traffic, while the lossy class does drop; every lossless
// packet sent is eventually transmitted.
func TestPFCLossless(t *testing.T) {
	for _, pol := range []string{"reverie", "sonic", "dt", "sonic-abm"} {
		cfg := pfcConfig(10, 200*1500)
		var src []*source
		for in := int32(1); in <= 8; in++ { // lossless incast into port 0
			src = append(src, &source{port: 0, inPort: in, class: 0, rate: rotor.Gbps, stop: rotor.Second})
		}
		lossy := &source{port: 9, inPort: 9, class: 1, rate: 3 * rotor.Gbps, stop: rotor.Second}
		h := newHarness(t, cfg, pol, nil, append(src, lossy)...)
		h.run(50 * rotor.Millisecond)
		sw := h.sw
		if sw.LosslessDrops != 0 || h.dropped[0] != 0 {
			t.Errorf("%s: %d lossless packets lost", pol, sw.LosslessDrops+h.dropped[0])
		}
		t.Logf("%s: pauses %d, lossy drops %d, lossless sent %d", pol, sw.Pauses, h.dropped[9], src[0].sent)
		if sw.Pauses == 0 || h.dropped[9] == 0 {
			t.Errorf("%s: %d pauses, %d lossy drops: the test did not congest", pol, sw.Pauses, h.dropped[9])
		}
		var sent int64
		for _, s := range src {
			sent += s.sent
		}
		// conservation: what the lossless senders sent is in the buffer or
		// was transmitted by port 0
		inBuf := int64(sw.State().Queues[0].Packets)
		tx := sw.State().Ports[0].TxBytes / 1500
		if sent != inBuf+tx {
			t.Errorf("%s: lossless sent %d ≠ %d buffered + %d transmitted", pol, sent, inBuf, tx)
		}
		for iq, ing := range sw.State().Ingress {
			if ing.Headroom > cfg.Headroom || ing.Shared < 0 || ing.Headroom < 0 {
				t.Errorf("%s: ingress queue %d: %+v", pol, iq, ing)
			}
		}
	}
}

// Reverie's Theorem 10: a congested lossless queue and a congested lossy
// one, α = 1 each, settle at b*/3 each of the shared pool.
func TestReverieShares(t *testing.T) {
	cfg := pfcConfig(4, 300*1500)
	h := newHarness(t, cfg, "reverie", nil,
		&source{port: 0, inPort: 2, class: 0, rate: 2 * rotor.Gbps, stop: rotor.Second},
		&source{port: 1, inPort: 3, class: 1, rate: 2 * rotor.Gbps, stop: rotor.Second})
	h.run(300 * rotor.Millisecond)
	s := h.sw.State()
	third := float64(s.SharedSize()) / 3
	lossless := float64(s.Ingress[2*2+0].Shared)
	lossy := float64(s.Queues[1*2+1].Bytes)
	t.Logf("lossless %.0f, lossy %.0f, b*/3 %.0f, pauses %d", lossless, lossy, third, h.sw.Pauses)
	for name, got := range map[string]float64{"lossless": lossless, "lossy": lossy} {
		if math.Abs(got-third) > 0.1*third {
			t.Errorf("%s holds %.0f B of the pool, want b*/3 = %.0f ± 10%%", name, got, third)
		}
	}
	if h.sw.LosslessDrops != 0 {
		t.Errorf("%d lossless drops", h.sw.LosslessDrops)
	}
}

// PFC on a policy without lossless classes, or without headroom, is refused.
func TestPFCBadConfig(t *testing.T) {
	cfg := pfcConfig(4, 100*1500)
	p, _ := NewBufferPolicy("abm", nil, Env{Switch: &cfg})
	if _, err := NewSwitch(cfg, p, nil); err == nil || !strings.HasPrefix(err.Error(), "lossless: policy abm has no lossless classes (PFC needs reverie, sonic, sonic-abm or dt)") {
		t.Errorf("abm with PFC: %v", err)
	}
	cfg.Headroom = 0
	if err := cfg.Validate(); err == nil || !strings.HasPrefix(err.Error(), "headroom 0") {
		t.Errorf("no headroom: %v", err)
	}
}

// The SONiC model's steady state (Reverie's chapter, eqs. 5.5–5.7): one
// congested lossy egress queue holds α∘·b→∘/(1+α∘) = 0.4·b← (α∘ = 1,
// b→∘ = 0.8·b←), and one congested lossless ingress queue
// α•(b← − q•− q∘) → (b← − q∘)/2 = 0.3·b←: lossless traffic gets less than
// lossy — the isolation problem Reverie fixes (its Theorem 10 gives both
// b*/3).
func TestSonicSteadyState(t *testing.T) {
	cfg := pfcConfig(4, 300*1500)
	h := newHarness(t, cfg, "sonic", nil,
		&source{port: 0, inPort: 2, class: 0, rate: 2 * rotor.Gbps, stop: rotor.Second},
		&source{port: 1, inPort: 3, class: 1, rate: 2 * rotor.Gbps, stop: rotor.Second})
	h.run(100 * rotor.Millisecond)
	s := h.sw.State()
	b := float64(s.SharedSize())
	lossless := float64(s.Ingress[2*2+0].Shared)
	lossy := float64(s.Queues[1*2+1].Bytes)
	t.Logf("lossless %.0f (%.3f b←), lossy %.0f (%.3f b←)", lossless, lossless/b, lossy, lossy/b)
	if math.Abs(lossy-0.4*b) > 0.02*b || math.Abs(lossless-0.3*b) > 0.02*b {
		t.Errorf("lossless %.3f·b←, lossy %.3f·b←; want 0.3 and 0.4", lossless/b, lossy/b)
	}
	if h.sw.LosslessDrops != 0 {
		t.Errorf("%d lossless drops", h.sw.LosslessDrops)
	}
}

// ABM in the SONiC model (α = 1 everywhere). With one congested queue
// per class on ports of their own, n_p = 1 and γ = 1 (each drains at its
// port's rate): it is SONiC's DT and settles where TestSonicSteadyState
// does, lossless x = 0.3·b←, lossy y = 0.4·b←. With both on one port,
// served round robin, each drains at half the rate (γ = 1/2), so
// y = (1/2)(0.8·b← − y) = 0.267·b← and x = (1/2)(b← − x − y) = 0.244·b←,
// where SONiC's DT would stay at 0.4 and 0.3. The period is 10 RTTs so
// that γ, measured in whole packets, is within 2 % of its value.
func TestSonicABMSteadyState(t *testing.T) {
	for _, tc := range []struct {
		lossyPort int32
		x, y      float64
	}{{1, 0.3, 0.4}, {0, 0.244, 0.267}} {
		cfg := pfcConfig(4, 300*1500)
		h := newHarness(t, cfg, "sonic-abm", map[string]float64{"period_us": 800},
			&source{port: 0, inPort: 2, class: 0, rate: 2 * rotor.Gbps, stop: rotor.Second},
			&source{port: tc.lossyPort, inPort: 3, class: 1, rate: 2 * rotor.Gbps, stop: rotor.Second})
		h.run(100 * rotor.Millisecond)
		s := h.sw.State()
		b := float64(s.SharedSize())
		x := float64(s.Ingress[2*2+0].Shared)
		y := float64(s.Queues[tc.lossyPort*2+1].Bytes)
		t.Logf("lossy on port %d: lossless %.0f (%.3f b←), lossy %.0f (%.3f b←)", tc.lossyPort, x, x/b, y, y/b)
		if math.Abs(x-tc.x*b) > 0.02*b || math.Abs(y-tc.y*b) > 0.02*b {
			t.Errorf("lossy on port %d: lossless %.3f·b←, lossy %.3f·b←; want %.3f and %.3f", tc.lossyPort, x/b, y/b, tc.x, tc.y)
		}
		if h.sw.LosslessDrops != 0 || h.sw.Pauses == 0 {
			t.Errorf("%d lossless drops, %d pauses (want 0, > 0)", h.sw.LosslessDrops, h.sw.Pauses)
		}
	}
}
