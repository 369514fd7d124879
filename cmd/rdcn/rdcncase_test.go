package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/scenario"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

var rdcnCase = flag.Bool("rdcn-case", false, "run the RDCN case study (scenario/testdata/rdcn.toml) and write docs/rdcn-case.png; prints the docs/cc.md table")

// TestRDCNCase reproduces the PowerTCP thesis's reconfigurable-network
// study (§2.4): reTCP with prebuffering, HPCC and per-RTT PowerTCP on
// scenario/testdata/rdcn.toml. It runs only with -rdcn-case (about 15 s);
// the table it prints is in docs/cc.md.
func TestRDCNCase(t *testing.T) {
	if !*rdcnCase {
		t.Skip("the RDCN case study runs with -rdcn-case")
	}
	type run struct {
		name, plot string
		sets       []string
	}
	runs := []run{
		{"reTCP, τ_pre 1800 µs, VOQ 144 KB / 450 KB", "reTCP, prebuffer 1800 µs", []string{"transport.cc=retcp", "transport.cc_params=", "buffer.prebuffer=1800us", "buffer.prebuffer_small=144KB", "buffer.prebuffer_big=450KB"}},
		{"reTCP, τ_pre 600 µs, VOQ 144 KB / 450 KB", "reTCP, prebuffer 600 µs", []string{"transport.cc=retcp", "transport.cc_params=", "buffer.prebuffer=600us", "buffer.prebuffer_small=144KB", "buffer.prebuffer_big=450KB"}},
		{"reTCP, τ_pre 1800 µs, VOQ 16 / 50 packets", "", []string{"transport.cc=retcp", "transport.cc_params=", "buffer.prebuffer=1800us", "buffer.prebuffer_small=16pkt", "buffer.prebuffer_big=50pkt"}},
		{"reTCP, τ_pre 600 µs, VOQ 16 / 50 packets", "", []string{"transport.cc=retcp", "transport.cc_params=", "buffer.prebuffer=600us", "buffer.prebuffer_small=16pkt", "buffer.prebuffer_big=50pkt"}},
		{"HPCC", "HPCC", []string{"transport.cc=hpcc", "transport.cc_params="}},
		{"PowerTCP, per-RTT", "PowerTCP (per-RTT)", nil},
		{"PowerTCP, per-RTT, min_lambda = 0 (no λ floor)", "", []string{"transport.cc_params=mode=per-rtt,min_lambda=0"}},
		// Diagnostics: one cause at a time.
		{"PowerTCP, per-RTT, full_step = 0 (no γ = 1 rule)", "", []string{"transport.cc_params=mode=per-rtt,full_step=0"}},
		{"PowerTCP, per-RTT, τ = 20 µs (the circuit path's base RTT)", "", []string{"transport.cc_params=mode=per-rtt,tau=20us"}},
	}
	var panels [][]*plot.Plot
	fmt.Println("| scheme | circuit utilisation on demand days | queueing latency p50 / p99 / p99.9 (µs) | drops | timeouts | ToR 0 → 1: 90 % of the circuit after (µs) / VOQ peak in the day / after it (KB) |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, r := range runs {
		sets := append([]string{"workload.flows_file=../../scenario/testdata/rdcn.flows"}, r.sets...)
		res := runSpec(t, "../../scenario/testdata/rdcn.toml", sets...)
		q := res.QueueingLatency
		fill, inDay, after := dayShape(res, 100*rotor.Gbps) // rdcn.toml's circuit_link
		fillText := "never"
		if !math.IsInf(fill, 1) {
			fillText = fmt.Sprintf("%.0f", fill)
		}
		fmt.Printf("| %s | %.1f %% | %.1f / %.1f / %.1f | %d | %d | %s / %.0f / %.0f |\n", r.name, 100*res.DemandCircuitUtilization, q.P50, q.P99, q.P999,
			res.DroppedPackets, res.Timeouts, fillText, inDay/1e3, after/1e3)
		if r.plot != "" {
			// One week of ToR 0 → 1 around its second day (5880 µs).
			p := plotPairWindow(res.Watch, res.SeriesInterval, r.plot, 5700*rotor.Microsecond, 6400*rotor.Microsecond)
			panels = append(panels, []*plot.Plot{p})
		}
	}
	img := vgimg.New(7*vg.Inch, 10*vg.Inch)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: len(panels), Cols: 1, PadX: vg.Millimeter, PadY: 3 * vg.Millimeter, PadTop: vg.Millimeter, PadBottom: vg.Millimeter, PadLeft: vg.Millimeter, PadRight: vg.Millimeter}
	canvases := plot.Align(panels, tiles, dc)
	for i := range panels {
		panels[i][0].Draw(canvases[i][0])
	}
	out, err := os.Create("../../docs/rdcn-case.png")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(out); err != nil {
		t.Fatal(err)
	}
}

// dayShape averages the watched pair's measured days (those that start
// after the warm-up) bin by bin and returns how long after the day's
// start the circuit first carries 90 % of its rate (µs; +Inf if never),
// at rate circuit, and the peak of the mean VOQ bytes during the day and in the 200 µs
// after it.
func dayShape(res *fabric.Result, circuit rotor.Rate) (fill, inDay, after float64) {
	w, bin := res.Watch, res.SeriesInterval
	span := int((w.Days[0].End - w.Days[0].Start + 200*rotor.Microsecond) / bin)
	dayBins := int((w.Days[0].End - w.Days[0].Start) / bin)
	circ, voq := make([]float64, span), make([]float64, span)
	n := 0
	for _, d := range w.Days {
		i0 := int(d.Start / bin)
		if d.Start < res.Measure.From || i0+span > len(w.VOQ) {
			continue
		}
		for k := range span {
			circ[k] += w.Circuit[i0+k]
			voq[k] += w.VOQ[i0+k]
		}
		n++
	}
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	full := float64(circuit.BytesIn(bin)) // bytes per bin at the circuit's rate
	fill = math.Inf(1)
	for k := range span {
		if k < dayBins {
			inDay = max(inDay, voq[k]/float64(n))
			if math.IsInf(fill, 1) && circ[k]/float64(n) >= 0.9*full {
				fill = float64(k) * bin.Seconds() * 1e6
			}
		} else {
			after = max(after, voq[k]/float64(n))
		}
	}
	return fill, inDay, after
}

// runSpec runs the configuration file path with the key=value overrides
// sets.
func runSpec(t *testing.T, path string, sets ...string) *fabric.Result {
	t.Helper()
	res, err := specResult(path, sets...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// specResult is runSpec for any goroutine: it returns the error.
func specResult(path string, sets ...string) (*fabric.Result, error) {
	sp, err := scenario.Load(path, sets...)
	if err != nil {
		return nil, err
	}
	su, err := sp.Build()
	if err != nil {
		return nil, err
	}
	return fabric.Run(su.Config)
}
