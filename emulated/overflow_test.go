package emulated

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// TestTradeoffSlotOverflow: a slot whose delay ARL·Γ·Δ (or whose buffer)
// does not fit 64 bits is a *FieldError naming "slot", not a panic in
// setBuffer (it used to be: 16 ToRs, 2 uplinks, Δ = 10^6 s gave ARD =
// 1.6·10^19 ps, converted to −2^63).
func TestTradeoffSlotOverflow(t *testing.T) {
	for _, c := range []TradeoffConfig{
		{Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps, Slot: 1_000_000 * rotor.Second},
		{Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps, Slot: 1_000_000 * rotor.Second, Buffer: 20_000_000, Delay: 850 * rotor.Microsecond},
		{Nodes: 4, Uplinks: 1, Link: 9_000_000 * rotor.Tbps, Slot: 1_000_000 * rotor.Second}, // delay fits, buffer does not
	} {
		var rows []TradeoffRow
		var err error
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("%+v: panic %v", c, p)
				}
			}()
			rows, err = Tradeoff(c)
		}()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != "slot" {
			t.Errorf("%v %v: got %v rows, err %v; want a *FieldError naming slot", c.Slot, c.Link, len(rows), err)
		}
		if err := PlotTradeoff(&bytes.Buffer{}, c, nil, "svg"); !errors.As(err, &fe) {
			t.Errorf("PlotTradeoff %v: err %v, want a *FieldError", c.Slot, err)
		}
	}
	// A slot beyond rotor.MaxCycle is rejected by Validate (the static row
	// of n = U has no delay to overflow, but its schedule's cycle would).
	c := TradeoffConfig{Nodes: 2, Uplinks: 2, Link: 400 * rotor.Gbps, Slot: 9_000_000 * rotor.Second, Exact: true}
	if err := c.Validate(); err == nil || !strings.HasPrefix(err.Error(), "slot: ") {
		t.Errorf("Validate: %v, want a slot error", err)
	}
	// Just inside the limit, the exact engine still runs.
	c = TradeoffConfig{Nodes: 16, Uplinks: 2, Link: 400 * rotor.Gbps, Slot: 500_000 * rotor.Second, Exact: true, Gap: 1e-2}
	rows, err := Tradeoff(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Delay < 0 || r.BufferTotal < 0 || r.BufferPerNode < 0 {
			t.Errorf("%s: negative delay or buffer: %+v", r.Design, r)
		}
	}
}

func TestBoundsOverflow(t *testing.T) {
	if _, _, err := BufferBound(1, 1e6, 400*rotor.Gbps, rotor.MaxTime, 4); err == nil {
		t.Error("BufferBound: no error for a buffer beyond 64 bits")
	}
	if _, _, err := BufferBound(math.Inf(1), 1, 400*rotor.Gbps, 1, 4); err == nil {
		t.Error("BufferBound: no error for θ = +Inf")
	}
	if _, err := DelayBound(16, 1, rotor.MaxCycle, 1e-3); err == nil {
		t.Error("DelayBound: no error for a delay beyond 64 bits")
	}
	g := &Graph{Cycle: rotor.MaxCycle}
	if got := AverageRouteDelay(g, 3); got != rotor.MaxTime {
		t.Errorf("AverageRouteDelay saturates at %v, want MaxTime", got)
	}
}

// TestAnalyseCycleOverflow: a valid schedule whose cycle is rotor.MaxCycle
// and whose routes are several hops long has an average route delay beyond
// 64 bits. Analyse reports a *FieldError naming "slot" (it used to pass a
// negative ARD to BufferBound, which the CLI blamed on the demand).
func TestAnalyseCycleOverflow(t *testing.T) {
	n := 8
	ring := make([]int, n)
	for i := range ring {
		ring[i] = (i + 1) % n
	}
	s := &rotor.Schedule{Kind: "static", Nodes: n, Switches: 1, Period: 1, Slot: rotor.MaxCycle, Matchings: [][][]int{{ring}}}
	g, err := FromSchedule(s, 400*rotor.Gbps)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Analyse(g, permutationDemand(n), nil)
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "slot" {
		t.Fatalf("Analyse: %v, want a *FieldError naming slot", err)
	}
}
