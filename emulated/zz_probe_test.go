package emulated

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/rdcn/rdcn/rotor"
)

func TestZZProbe(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PROBE_N"))
	if n == 0 {
		t.Skip()
	}
	u, _ := strconv.Atoi(os.Getenv("PROBE_U"))
	c := question64
	c.Nodes, c.Uplinks = n, u
	c.ReconfAlternatives = []rotor.Time{rotor.Microsecond, 10 * rotor.Microsecond}
	c.RefineAll = os.Getenv("PROBE_ALL") == "1"
	start := time.Now()
	cpu0, _ := processCPU()
	c.Progress = func(done, total int, d Design) {
		cpu, _ := processCPU()
		t.Logf("%2d/%d %-9s [%.6f, %.6f] gap %.2e it %d %s  (%.1fs cpu %.1fs)", done, total, d.Name, d.Theta0, d.Upper0, relGap(d.Theta0, d.Upper0), d.Iterations, d.Status, (cpu - cpu0).Seconds(), time.Since(start).Seconds())
	}
	ds, err := Recommend(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(ds.Reason())
	for _, r := range c.ReconfAlternatives {
		t.Log(r, ds.WithReconf(r).Reason())
	}
}
