package emulated

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rdcn/rdcn/rotor"
)

// table71 is the example of thesis §7.4.4.
var table71 = TradeoffConfig{
	Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps,
	Slot: 100 * rotor.Microsecond, Reconf: 10 * rotor.Microsecond,
	Buffer: 20_000_000, Delay: 850 * rotor.Microsecond,
}

// TestTradeoffTable71 reproduces thesis Table 7.1 from the closed forms:
// ① static 0.125, ≈0 delay and buffer; ② complete graph 0.5, 1600 µs,
// 80 MB; ③ complete graph within 20 MB: 0.125; ④ Mars d = 4: 0.25, 20 MB.
// Mars's delay is its ARD, 2·log₄16·(4/2)·100 µs = 800 µs, within the 850 µs
// requirement the table prints in its place.
func TestTradeoffTable71(t *testing.T) {
	rows, err := Tradeoff(table71)
	if err != nil {
		t.Fatal(err)
	}
	us := rotor.Microsecond
	want := []TradeoffRow{
		{Design: "static", Degree: 2, PeriodSlots: 1, RouteLength: 8, Theta: 0.125, DutyCycle: 1,
			ThetaBufferLimited: 0.125},
		{Design: "complete", Degree: 16, PeriodSlots: 8, RouteLength: 2, Theta: 0.5, DutyCycle: 0.9,
			ThetaBufferLimited: 0.125, Delay: 1600 * us, BufferPerNode: 80_000_000, BufferTotal: 1_280_000_000},
		{Design: "complete-buffer-limited", Degree: 16, PeriodSlots: 8, RouteLength: 2, Theta: 0.5, DutyCycle: 0.9,
			ThetaBufferLimited: 0.125, Delay: 1600 * us, BufferPerNode: 20_000_000, BufferTotal: 320_000_000},
		{Design: "mars", Degree: 4, PeriodSlots: 2, RouteLength: 4, Theta: 0.25, DutyCycle: 0.9,
			ThetaBufferLimited: 0.25, Delay: 800 * us, BufferPerNode: 20_000_000, BufferTotal: 320_000_000},
	}
	if diff := cmp.Diff(want, rows, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("Table 7.1 (-want +got):\n%s", diff)
	}
	if rows[3].Delay > table71.Delay {
		t.Errorf("Mars delay %v exceeds the requirement %v", rows[3].Delay, table71.Delay)
	}
}

// TestTradeoffExact checks the engine columns against closed forms that do
// not come from the tradeoff code: the complete graph with the idle
// self-slot has θ = 1/2 on any permutation, under any routing and under VLB
// (docs/model.md), times the duty cycle 0.9; and no routing beats the
// shortest-path bound, so θ_exact ≥ θ_VLB.
func TestTradeoffExact(t *testing.T) {
	c := table71
	c.Exact, c.Gap, c.Degrees = true, 1e-3, []int{8}
	rows, err := Tradeoff(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.ThetaExact == nil || r.ThetaExactUpper == nil || r.ThetaVLB == nil {
			t.Fatalf("%s: engine columns missing", r.Design)
		}
		lo, hi, vlb := *r.ThetaExact, *r.ThetaExactUpper, *r.ThetaVLB
		if !(lo <= hi && hi-lo <= 1.01e-3*hi) {
			t.Errorf("%s: certificate [%g, %g] wider than the gap", r.Design, lo, hi)
		}
		if vlb > hi*(1+1e-9) {
			t.Errorf("%s: VLB θ %g exceeds the any-routing upper bound %g", r.Design, vlb, hi)
		}
		if r.Degree == 16 {
			if math.Abs(lo-0.45) > 1e-3 || math.Abs(vlb-0.45) > 1e-9 {
				t.Errorf("%s: θ_exact %g, θ_VLB %g; want 0.5·0.9 = 0.45", r.Design, lo, vlb)
			}
		}
	}
	// Static d = U = 2 never reconfigures: its engine θ is not scaled by the
	// duty cycle, and any routing beats the closed-form VLB figure 1/8.
	if s := rows[0]; *s.ThetaExact < s.Theta {
		t.Errorf("static: θ_exact %g below the VLB closed form %g", *s.ThetaExact, s.Theta)
	}
}

// TestTradeoffBufferIsCdDelta checks Theorem 16 against Theorem 19's
// per-node figure c·d·Δ for every degree of a 64-node network.
func TestTradeoffBufferIsCdDelta(t *testing.T) {
	c := TradeoffConfig{Nodes: 64, Uplinks: 4, Link: 100 * rotor.Gbps, Slot: 10 * rotor.Microsecond,
		Reconf: rotor.Microsecond, Degrees: []int{8, 12, 16, 32, 64}}
	rows, err := Tradeoff(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows[2:] {
		want := float64(c.Link) * float64(r.Degree) * c.Slot.Seconds() / 8
		if math.Abs(float64(r.BufferPerNode)-want) > 1 {
			t.Errorf("%s: buffer per node %v, want c·d·Δ = %.0f B", r.Design, r.BufferPerNode, want)
		}
	}
}

func TestTradeoffBadConfig(t *testing.T) {
	tests := []struct {
		name string
		f    func(*TradeoffConfig)
		want string
	}{
		{"tors", func(c *TradeoffConfig) { c.Nodes = 1 }, "tors"},
		{"uplinks", func(c *TradeoffConfig) { c.Uplinks = 17 }, "uplinks"},
		{"link", func(c *TradeoffConfig) { c.Link = 0 }, "link"},
		{"slot", func(c *TradeoffConfig) { c.Slot = 0 }, "slot"},
		{"reconf", func(c *TradeoffConfig) { c.Reconf = c.Slot }, "reconf"},
		{"buffer", func(c *TradeoffConfig) { c.Buffer = -1 }, "buffer"},
		{"delay", func(c *TradeoffConfig) { c.Delay = -1 }, "delay"},
		{"degree odd", func(c *TradeoffConfig) { c.Degrees = []int{3} }, "degrees: 3"},
		{"degree big", func(c *TradeoffConfig) { c.Degrees = []int{18} }, "degrees: 18"},
		{"buffer too small for mars", func(c *TradeoffConfig) { c.Buffer = 1000 }, "buffer = 1KB"},
		{"delay infeasible", func(c *TradeoffConfig) { c.Delay = 100 * rotor.Microsecond }, "least delay"},
	}
	for _, tc := range tests {
		c := table71
		tc.f(&c)
		if _, err := Tradeoff(c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestPlotTradeoff(t *testing.T) {
	rows, err := Tradeoff(table71)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"svg", "png"} {
		var buf bytes.Buffer
		if err := PlotTradeoff(&buf, table71, rows, format); err != nil {
			t.Fatal(err)
		}
		if buf.Len() < 1000 {
			t.Errorf("%s plot is only %d bytes", format, buf.Len())
		}
	}
	if err := PlotTradeoff(&bytes.Buffer{}, table71, rows, "gif"); err == nil {
		t.Error("gif: want an error")
	}
}
