package emulated

import (
	"os"
	"testing"
	"time"
)

func TestProbeDense(t *testing.T) {
	if os.Getenv("PROBE") == "" {
		t.Skip()
	}
	c := question64
	c.Nodes, c.Uplinks = 128, 8
	for _, d := range c.Designs() {
		if d.Kind != "mars" || d.Degree != 56 {
			continue
		}
		s, err := c.schedule(&d)
		if err != nil {
			t.Logf("%s: %v", d.Name, err)
			continue
		}
		g := mustGraph(t, s)
		w, err := WorstCaseDemand(g)
		if err != nil {
			t.Fatal(err)
		}
		c0, _ := processCPU()
		t0 := time.Now()
		last := 0.0
		r, err := Throughput(g, w, &Options{Gap: 1e-2, Progress: func(p Progress) {
			if p.Lower > last*(1+1e-3) || p.Iteration%50 == 0 {
				t.Logf("it %d [%.6f %.6f] %.4f", p.Iteration, p.Lower, p.Upper, p.Gap)
			}
			last = p.Lower
		}})
		if err != nil {
			t.Fatal(err)
		}
		c1, _ := processCPU()
		t.Logf("%s: [%.6f %.6f] %d iterations cpu %v wall %v", d.Name, r.Lower, r.Upper, r.Iterations, c1-c0, time.Since(t0))
	}
}
