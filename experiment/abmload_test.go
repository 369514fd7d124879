package experiment

import (
	"math"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/sweep"
)

// TestABMLoadReductions: the abm-load rows against a hand computation on
// made-up p99s. At 20 % load, seed 1: ABM 10 against DT 20, FAB 40, CS 25,
// IB 50 is 50, 75, 60 and 80 % lower, 66.25 % on average; seed 2: ABM 30
// against 20, 30, 60, 40 is −50, 0, 50 and 25 %, 6.25 % on average. So the
// average row is 36.25 % (6.25 – 66.25) and the DT row 0 % (−50 – 50).
// A load whose ABM point is missing for seed 2 has only seed 1's value.
func TestABMLoadReductions(t *testing.T) {
	r := &sweep.Results{Manifest: sweep.Manifest{Axes: []sweep.ManifestAxis{
		{Name: "seed", Values: []string{"1", "2"}},
		{Name: "workload.load", Values: []string{"0.05", "0.1", "0.2"}},
		{Name: "buffer.policy", Values: []string{"dt", "fab", "cs", "ib", "abm"}}}}}
	add := func(seed, load string, p99 map[string]float64) {
		for p, v := range p99 {
			r.Points = append(r.Points, sweep.Finished{Values: []string{seed, load, p},
				Metrics: []sweep.Metric{{Name: "incast_slowdown_p99", Value: v}, {Name: "background_short_slowdown_p99", Value: 2 * v}}})
		}
	}
	add("1", "0.05", map[string]float64{"abm": 10, "dt": 20, "fab": 40, "cs": 25, "ib": 50})
	add("2", "0.05", map[string]float64{"abm": 30, "dt": 20, "fab": 30, "cs": 60, "ib": 40})
	add("1", "0.1", map[string]float64{"abm": 1, "dt": 10, "fab": 10, "cs": 10, "ib": 10})
	add("2", "0.1", map[string]float64{"dt": 10, "fab": 10, "cs": 10, "ib": 10})
	e, err := Lookup("abm-load")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][3]float64{ // ours, min, max
		"ABM's incast p99 slowdown below the four's on average (%), 20 % load": {36.25, 6.25, 66.25},
		"ABM's incast p99 slowdown below DT's (%), 20 % load":                  {0, -50, 50},
		"ABM's incast p99 slowdown below IB's (%), 20 % load":                  {52.5, 25, 80},
		"ABM's incast p99 slowdown below the four's on average (%), 40 % load": {90, 90, 90},
		"ABM's short-flow p99 slowdown below CS's (%), 20 % load":              {55, 50, 60},
	}
	seen := 0
	for _, p := range e.Published {
		w, ok := want[p.What]
		if !ok {
			continue
		}
		seen++
		v, ok1 := p.Ours(r)
		lo, hi, ok2 := p.Spread(r)
		if !ok1 || !ok2 || math.Abs(v-w[0]) > 1e-9 || math.Abs(lo-w[1]) > 1e-9 || math.Abs(hi-w[2]) > 1e-9 {
			t.Errorf("%s: %v (%v – %v), want %v (%v – %v)", p.What, v, lo, hi, w[0], w[1], w[2])
		}
		if p.What == "ABM's incast p99 slowdown below the four's on average (%), 20 % load" {
			if pub, ours := p.Format(r); pub != "12.6" || ours != "36.25 (6.25 – 66.25)" {
				t.Errorf("formatted: published %q, ours %q", pub, ours)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d rows found", seen, len(want))
	}
	for _, p := range e.Published {
		if strings.Contains(p.What, "80 % load") {
			if _, ok := p.Ours(r); ok {
				t.Errorf("%s: a value without points", p.What)
			}
		}
	}
}
