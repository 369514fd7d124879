package experiment

import (
	"math"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/report"
	"github.com/rdcn/rdcn/sweep"
)

// TestABMLoadReductions: the abm-load rows against a hand computation on
// made-up p99s. At 20 % load, seed 1: ABM 10 against DT 20, FAB 40, CS 25,
// IB 50 is 50, 75, 60 and 80 % lower, 66.25 % on average; seed 2: ABM 30
// against 20, 30, 60, 40 is −50, 0, 50 and 25 %, 6.25 % on average. So the
// average row is 36.25 % (per seed 36.25 ± 12.706·30) and the DT row 0 % (0 ± 12.706·50).
// A load whose ABM point is missing for seed 2 has only seed 1's value,
// and no interval.
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
		"ABM's short-flow p99 slowdown below CS's (%), 20 % load":              {55, 50, 60},
	}
	seen := 0
	for _, p := range e.Published {
		w, ok := want[p.What]
		if !ok {
			continue
		}
		seen++
		j := p.Judge(r)
		// Two seeds a, b: the 95 % interval is (a+b)/2 ± t_{0.975,1}·|a−b|/2,
		// t_{0.975,1} = 12.706 (Student's t table).
		iv := j.PerSeed
		half := 12.706 * (w[2] - w[1]) / 2
		if math.Abs(j.OursValue-w[0]) > 1e-9 || iv.N != 2 || math.Abs(iv.Mean-w[0]) > 1e-9 || math.Abs(iv.Half-half) > 1e-3*max(1, half) {
			t.Errorf("%s: ours %v, per seed %+v; want %v, %v ± %v over 2 seeds", p.What, j.OursValue, iv, w[0], w[0], half)
		}
		if p.What == "ABM's incast p99 slowdown below the four's on average (%), 20 % load" {
			if j.Value != "12.6" || j.Ours != "36.25" || report.FormatPerSeed(iv) != "36.25 ± 381.2 (2 seeds)" || j.Verdict != report.SameDirection {
				t.Errorf("formatted: published %q, ours %q, per seed %q, verdict %s", j.Value, j.Ours, report.FormatPerSeed(iv), j.Verdict.Word())
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d rows found", seen, len(want))
	}
	for _, p := range e.Published {
		if p.What == "ABM's incast p99 slowdown below the four's on average (%), 40 % load" {
			if j := p.Judge(r); j.OursValue != 90 || j.PerSeed.N != 1 || !math.IsNaN(j.PerSeed.Half) || j.Verdict != report.WithinBand {
				t.Errorf("40 %% load, one seed: ours %v, per seed %+v, verdict %s; want 90, one seed, within band", j.OursValue, j.PerSeed, j.Verdict.Word())
			}
		}
		if strings.Contains(p.What, "80 % load") {
			if _, ok := p.Ours(r); ok {
				t.Errorf("%s: a value without points", p.What)
			}
		}
	}
}
