package report_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/rdcn/rdcn/report"
	"github.com/rdcn/rdcn/sweep"
)

// TestVerdictJudge: each verdict from its band and direction, by hand.
func TestVerdictJudge(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name  string
		tol   report.Tolerance
		value float64
		ours  float64
		ok    bool
		want  report.Verdict
	}{
		{"ratio inside ±15 %", report.Ratio(0.15, ""), 1.37, 1.20, true, report.WithinBand},
		{"ratio at the band's edge", report.Ratio(0.5, ""), 2, 1, true, report.WithinBand},
		{"ratio above 1, below the band", report.Ratio(0.15, ""), 7.02, 1.82, true, report.SameDirection},
		{"ratio below 1 against a claim above", report.Ratio(0.15, ""), 2, 0.86, true, report.Differs},
		{"reduction inside ±10 points", report.Reduction(10, ""), 94, 86, true, report.WithinBand},
		{"reduction of the other sign", report.Reduction(10, ""), 12.6, -87.4, true, report.Differs},
		{"reduction too large", report.Reduction(10, ""), 12.6, 87.4, true, report.SameDirection},
		{"absolute value outside", report.Exact(0.01, ""), 0.25, 0.24, true, report.Differs},
		{"at most: below", report.Tolerance{AtMost: true, NoDirection: true}, 850, 800, true, report.WithinBand},
		{"at least: far above", report.Tolerance{AtLeast: true, Rel: 0.1, Pivot: 1}, 2, 40, true, report.WithinBand},
		{"at least: just below", report.Tolerance{AtLeast: true, Rel: 0.1, Pivot: 1}, 2, 1.27, true, report.SameDirection},
		{"range", report.Between(78, 87, ""), 80, 81.2, true, report.WithinBand},
		{"close to 1: no direction", report.Ratio(0.1, ""), 1, 39.8, true, report.Differs},
		{"claim without a number, kept", report.Claim(1, +1, ""), nan, 117, true, report.SameDirection},
		{"claim without a number, broken", report.Claim(1, +1, ""), nan, 0.5, true, report.Differs},
		{"no value of ours", report.Ratio(0.15, ""), 2.09, 0, false, report.NotRun},
		{"not quoted", report.NotQuoted(""), nan, 3, true, report.NoClaim},
	} {
		if got := tc.tol.Judge(tc.value, tc.ours, tc.ok); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got.Word(), tc.want.Word())
		}
	}
	c := report.Count([]report.Judgement{{Verdict: report.WithinBand}, {Verdict: report.SameDirection}, {Verdict: report.Differs},
		{Verdict: report.NotRun}, {Verdict: report.NoClaim}, {Verdict: report.WithinBand}})
	if h := c.Headline(); h != "2 of 5 published values reproduced, 1 same direction only (1 differ, 1 with no value of ours)" {
		t.Errorf("headline %q", h)
	}
}

// TestSweepReportMeanCI feeds a synthetic sweep with two seeds per point
// and checks the reported intervals against a hand computation: for two
// values a and b the 95 % interval is (a+b)/2 ± t_{0.975,1}·|a−b|/2 with
// t_{0.975,1} = 12.706 (Student's t table). Seeds 1 and 2 give 10 and
// 14 at x = 1 (12 ± 25.41) and 20 and 21 at x = 2 (20.5 ± 6.353); the
// published value's per-seed interval is the same computation on Ours.
func TestSweepReportMeanCI(t *testing.T) {
	r := &sweep.Results{Manifest: sweep.Manifest{Kind: "throughput", Axes: []sweep.ManifestAxis{
		{Name: "seed", Values: []string{"1", "2"}, Numeric: true},
		{Name: "topology.tors", Values: []string{"1", "2"}, Numeric: true}}}}
	for _, p := range []struct {
		seed, x string
		v       float64
	}{{"1", "1", 10}, {"1", "2", 20}, {"2", "1", 14}, {"2", "2", 21}} {
		r.Points = append(r.Points, sweep.Finished{Name: "seed=" + p.seed + "_tors=" + p.x, Values: []string{p.seed, p.x},
			Metrics: []sweep.Metric{{Name: "theta", Value: p.v}}})
	}
	at1 := func(r *sweep.Results) (float64, bool) {
		s, n := 0.0, 0
		for _, p := range r.Points {
			if p.Values[1] == "1" {
				s, n = s+p.Metrics[0].Value, n+1
			}
		}
		return s / float64(n), n > 0
	}
	var b bytes.Buffer
	if err := report.Sweep(&b, r, report.Info{Published: []report.Published{
		{What: "θ at 1 ToR", Value: 11, Ours: at1, Tol: report.Exact(0.05, "hand")}}}); err != nil {
		t.Fatal(err)
	}
	doc := checkPage(t, b.Bytes())
	rows := tableRows(doc, "means")
	if len(rows) != 3 || strings.Join(rows[0], "|") != "point|topology.tors|seeds|theta" {
		t.Fatalf("means table: %q", rows)
	}
	hand := func(a, b float64) string {
		return strconv.FormatFloat((a+b)/2, 'g', 4, 64) + " ± " + strconv.FormatFloat(12.706*math.Abs(a-b)/2, 'g', 4, 64)
	}
	for i, want := range []string{hand(10, 14), hand(20, 21)} {
		if got := rows[i+1][3]; got != want || rows[i+1][2] != "2" {
			t.Errorf("row %d: %q over %s seeds, want %q over 2", i+1, got, rows[i+1][2], want)
		}
	}
	pub := tableRows(doc, "published")
	if len(pub) != 2 || pub[1][6] != hand(10, 14)+" (2 seeds)" || pub[1][5] != "12" || !strings.Contains(pub[1][0], "differs") {
		t.Errorf("published row: %q; want ours 12, per seed %q, differs (outside 11 ± 5 %%)", pub, hand(10, 14)+" (2 seeds)")
	}
	page := b.String()
	for _, want := range []string{"0 of 1 published values reproduced, 0 same direction only (1 differ, 0 with no value of ours)",
		"the mean over the 2 seeds (the seed axis); bars: its 95 % confidence interval (Student t, n − 1 degrees of freedom)",
		"Each cell: the mean over the seeds"} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestSweepReportCensoredCDF: in a sweep whose 2 ms runs leave flows
// unfinished, each point's FCT CDF stops at completed/measured of its
// summary (not 1), and the figure's legend counts the unfinished ones.
func TestSweepReportCensoredCDF(t *testing.T) {
	const text = `kind = "simulate"
[base]
"topology.tors" = 4
"topology.hosts_per_tor" = 2
"topology.uplinks" = 2
"run.sim_time" = "2ms"
[axes]
"workload.load" = [0.2, 0.4]
`
	s, err := sweep.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := sweep.Run(t.Context(), s, sweep.Options{Dir: dir, Jobs: 1, SpecText: []byte(text)}); err != nil {
		t.Fatal(err)
	}
	r, err := sweep.Collect(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := report.Sweep(&b, r, report.Info{}); err != nil {
		t.Fatal(err)
	}
	censored := 0
	for _, p := range r.Points {
		sum, err := report.ReadSummary(p.Dir)
		if err != nil {
			t.Fatal(err)
		}
		m := sum.Measured
		csvText, err := os.ReadFile(filepath.Join(p.Dir, "fct_cdf.csv"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(csvText)), "\n")
		top := 0.0
		if len(lines) > 1 {
			top, _ = strconv.ParseFloat(lines[len(lines)-1][strings.LastIndex(lines[len(lines)-1], ",")+1:], 64)
		}
		if want := float64(m.Completed) / float64(m.Started); math.Abs(top-want) > 1e-12 {
			t.Errorf("%s: CDF ends at %v, want completed/measured %d/%d", p.Name, top, m.Completed, m.Started)
		}
		if m.Unfinished > 0 {
			censored++
			legend := p.Name + " (" + strconv.Itoa(m.Unfinished) + " of " + strconv.Itoa(m.Started) + " unfinished, censored)"
			if !strings.Contains(b.String(), legend) {
				t.Errorf("legend lacks %q", legend)
			}
		}
	}
	if censored == 0 {
		t.Fatal("no point left a flow unfinished: the test needs one")
	}
	if !strings.Contains(b.String(), "unfinished at the run&#39;s end, censored there") {
		t.Error("the FCT CDF does not say how it treats unfinished flows")
	}
}

// tableRows returns the cells of the table with the given id.
func tableRows(doc *html.Node, id string) [][]string {
	var rows [][]string
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "table" && attr(n, "id") == id {
			walk(n, func(tr *html.Node) {
				if tr.Type == html.ElementNode && tr.Data == "tr" {
					var cells []string
					for c := tr.FirstChild; c != nil; c = c.NextSibling {
						if c.Type == html.ElementNode {
							cells = append(cells, strings.TrimSpace(text(c)))
						}
					}
					rows = append(rows, cells)
				}
			})
		}
	})
	return rows
}
