package report_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/rdcn/rdcn/report"
	"github.com/rdcn/rdcn/sweep"
)

const spec = `kind = "simulate"
seed = 2
[base]
"topology.tors" = 4
"topology.hosts_per_tor" = 2
"topology.uplinks" = 2
"run.sim_time" = "3ms"
[axes]
"workload.load" = [0.1, 0.4]
"buffer.policy" = ["dt", "cs"]
`

func runSweep(t *testing.T) *sweep.Results {
	t.Helper()
	s, err := sweep.Parse(strings.NewReader(spec))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := sweep.Run(context.Background(), s, sweep.Options{Dir: dir, Jobs: 2, SpecText: []byte(spec)}); err != nil {
		t.Fatal(err)
	}
	r, err := sweep.Collect(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkPage parses a report and checks that nothing can load from the
// network and that every figure holds a plot with data; it returns the
// document.
func checkPage(t *testing.T, b []byte) *html.Node {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	figures := 0
	walk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		switch n.Data {
		case "script", "link", "img", "iframe", "object", "embed", "image", "use", "video", "audio", "source", "font-face":
			t.Errorf("element <%s> may load a resource", n.Data)
		case "style":
			if css := text(n); strings.Contains(css, "url(") || strings.Contains(css, "@import") || strings.Contains(css, "@font-face") {
				t.Errorf("style loads a resource: %s", css)
			}
		case "figure":
			figures++
			pts, _ := strconv.Atoi(attr(n, "data-points"))
			paths := 0
			walk(n, func(m *html.Node) {
				if m.Type == html.ElementNode && m.Data == "path" {
					paths++
				}
			})
			if pts < 1 || paths == 0 {
				t.Errorf("figure with %d data points and %d paths", pts, paths)
			}
		}
		for _, a := range n.Attr {
			k := strings.ToLower(a.Key)
			if (k == "src" || k == "href" || strings.HasSuffix(k, ":href") || k == "srcset" || k == "action") && !strings.HasPrefix(a.Val, "#") {
				t.Errorf("<%s %s=%q> refers outside the page", n.Data, a.Key, a.Val)
			}
			if k == "style" && strings.Contains(a.Val, "url(") {
				t.Errorf("<%s style=%q> loads a resource", n.Data, a.Val)
			}
		}
	})
	if figures == 0 {
		t.Error("no figure")
	}
	return doc
}

func TestSweepReport(t *testing.T) {
	r := runSweep(t)
	var b bytes.Buffer
	if err := report.Sweep(&b, r, report.Info{Version: "v-test"}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"rdcn v-test", "seed 2", `&#34;workload.load&#34; = [0.1, 0.4]`, "FCT CDF", "ToR buffer occupancy CDF", "against load"} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	doc := checkPage(t, b.Bytes())
	// Every cell of the points table matches collect's CSV.
	var csvb bytes.Buffer
	r.WriteCSV(&csvb)
	recs, _ := csv.NewReader(&csvb).ReadAll()
	want := map[[2]string]string{} // point, metric → value
	for _, rec := range recs[1:] {
		want[[2]string{rec[0], rec[len(rec)-2]}] = rec[len(rec)-1]
	}
	var rows [][]string
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "table" && attr(n, "id") == "points" {
			walk(n, func(tr *html.Node) {
				if tr.Type == html.ElementNode && tr.Data == "tr" {
					var cells []string
					for c := tr.FirstChild; c != nil; c = c.NextSibling {
						if c.Type == html.ElementNode {
							cells = append(cells, text(c))
						}
					}
					rows = append(rows, cells)
				}
			})
		}
	})
	if len(rows) != 1+len(r.Points) {
		t.Fatalf("table has %d rows, want a header and %d points", len(rows), len(r.Points))
	}
	header, naxes := rows[0], len(r.Manifest.Axes)
	checked := 0
	for _, row := range rows[1:] {
		for i := 1 + naxes; i < len(row); i++ {
			v, ok := want[[2]string{row[0], header[i]}]
			if v == "NaN" {
				v = report.NoValue // the table's dash for collect's NaN, with a note
			}
			if !ok || v != row[i] {
				t.Errorf("point %s metric %s: table %q, CSV %q", row[0], header[i], row[i], v)
			}
			checked++
		}
	}
	if checked != len(recs)-1 {
		t.Errorf("table holds %d values, CSV %d", checked, len(recs)-1)
	}
}

func TestSingleRunReport(t *testing.T) {
	r := runSweep(t)
	var b bytes.Buffer
	if err := report.Run(&b, r.Points[3].Dir, report.Info{Version: "v-test"}); err != nil {
		t.Fatal(err)
	}
	checkPage(t, b.Bytes())
	for _, want := range []string{"FCT by flow-size bucket", "Utilisation over time", "Buffer occupancy over time", "Drops and delivery", "packets dropped", "workload.seed"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if err := report.Run(&b, t.TempDir(), report.Info{}); err == nil || !strings.Contains(err.Error(), "not an rdcn simulate output directory") {
		t.Errorf("empty directory: %v", err)
	}
}

func walk(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	walk(n, func(m *html.Node) {
		if m.Type == html.TextNode {
			b.WriteString(m.Data)
		}
	})
	return b.String()
}

// TestReportReadable renders a sweep's report and checks what a reader
// sees: no NaN in any table cell (a dash, with a note naming the metric);
// at most report.MaxCurves curves per figure; axes named in words with
// units, never a raw metric key (no "_" in any text the SVGs draw); the
// numeric x axis ticked at its data values (loads 0.1 and 0.4); every
// figure saying what it shows; and a sweep whose only axis is
// categorical drawn as grouped bars, one per policy.
func TestReportReadable(t *testing.T) {
	r := runSweep(t)
	var b bytes.Buffer
	if err := report.Sweep(&b, r, report.Info{Version: "v-test"}); err != nil {
		t.Fatal(err)
	}
	doc := checkPage(t, b.Bytes())
	dashes := 0
	walk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		switch n.Data {
		case "td":
			if c := text(n); strings.Contains(c, "NaN") {
				t.Errorf("table cell %q", c)
			} else if c == report.NoValue {
				dashes++
			}
		case "figure":
			keys, notes := 0, 0
			var svgText []string
			walk(n, func(m *html.Node) {
				if m.Type == html.ElementNode && m.Data == "span" && attr(m, "class") == "key" {
					keys++
				}
				if m.Type == html.ElementNode && m.Data == "div" && attr(m, "class") == "note" {
					notes++
				}
				if m.Type == html.ElementNode && m.Data == "text" {
					svgText = append(svgText, strings.TrimSpace(text(m)))
				}
			})
			title := svgText[0]
			if keys > report.MaxCurves {
				t.Errorf("figure %q: %d curves", title, keys)
			}
			if notes != 1 {
				t.Errorf("figure %q says nothing of what it aggregates", title)
			}
			for _, s := range svgText {
				if strings.Contains(s, "_") {
					t.Errorf("figure %q draws the raw key %q", title, s)
				}
			}
			if strings.Contains(title, "against load") && !(slices.Contains(svgText, "0.1") && slices.Contains(svgText, "0.4")) {
				t.Errorf("figure %q: x ticks %q, want 0.1 and 0.4", title, svgText)
			}
		}
	})
	if dashes == 0 || !strings.Contains(b.String(), report.NoValue+" no value (the metric is undefined there, not zero): ") {
		t.Errorf("%d dashes; want some (long flows do not finish in 3 ms) and a note on them", dashes)
	}

	const cat = `kind = "simulate"
seed = 2
[base]
"topology.tors" = 4
"topology.hosts_per_tor" = 2
"topology.uplinks" = 2
"run.sim_time" = "2ms"
"workload.load" = 0.3
[axes]
"buffer.policy" = ["dt", "cs", "lqd"]
`
	s, err := sweep.Parse(strings.NewReader(cat))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := sweep.Run(context.Background(), s, sweep.Options{Dir: dir, Jobs: 2, SpecText: []byte(cat)}); err != nil {
		t.Fatal(err)
	}
	rc, err := sweep.Collect(dir)
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := report.Sweep(&b, rc, report.Info{}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	fig := page[strings.Index(page, "<figure"):]
	fig = fig[:strings.Index(fig, "</figure>")]
	if !strings.Contains(fig, "against policy") {
		t.Fatalf("first figure is not a metric against the policy: %.300s", fig)
	}
	for _, p := range []string{">dt<", ">cs<", ">lqd<"} {
		if !strings.Contains(fig, p) {
			t.Errorf("category %s not on the x axis", p)
		}
	}
	if pts := regexp.MustCompile(`data-points="(\d+)"`).FindStringSubmatch(fig); pts == nil || pts[1] != "3" {
		t.Errorf("figure draws %v bars, want 3", pts)
	}
}
