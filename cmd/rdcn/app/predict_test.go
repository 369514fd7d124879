package app

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/vermilion"
)

func TestPredictCommand(t *testing.T) {
	dir := t.TempDir()
	plotFile := filepath.Join(dir, "theta.svg")
	args := []string{"rdcn", "predict", "--matrices", "ring,skew:0.5", "--noise", "multiplicative",
		"--factors", "0,5", "--gammas", "1,3", "--samples", "2", "--format", "csv", "--plot", plotFile}
	var out, errb bytes.Buffer
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// 2 matrices × 1 noise × 2 factors × (2 algorithms × 2 γ + bvn) rows + header
	if len(recs) != 2*2*5+1 || recs[0][0] != "matrix" {
		t.Fatalf("%d CSV records, header %v", len(recs), recs[0])
	}
	if b, err := os.ReadFile(plotFile); err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("plot file: %v", err)
	}

	// Same seed, same bytes; JSON carries the study.
	var j1, j2 bytes.Buffer
	jargs := []string{"rdcn", "predict", "--matrices", "ring", "--factors", "2", "--gammas", "2", "--samples", "1", "--format", "json", "--seed", "9"}
	if run(jargs, &j1, &errb) != 0 || run(jargs, &j2, &errb) != 0 {
		t.Fatalf("json run failed: %s", errb.String())
	}
	if !bytes.Equal(j1.Bytes(), j2.Bytes()) {
		t.Error("same seed, different JSON")
	}
	var rep struct {
		Format string
		Rows   []map[string]any
	}
	if err := json.Unmarshal(j1.Bytes(), &rep); err != nil || rep.Format != "rdcn.predict/v1" || len(rep.Rows) != 2*3 {
		t.Errorf("json: format %q, %d rows, err %v", rep.Format, len(rep.Rows), err)
	}

	var text bytes.Buffer
	if code := run([]string{"rdcn", "predict", "--matrices", "ring", "--factors", "0", "--gammas", "3", "--samples", "1", "--algorithms", "vermilion"}, &text, &errb); code != 0 {
		t.Fatalf("text: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(text.String(), "robustness") || !strings.Contains(text.String(), "ring") ||
		!strings.Contains(text.String(), "per-draw θ") || !strings.Contains(text.String(), "pooled θ") {
		t.Errorf("text output:\n%s", text.String())
	}

	// --readings pooled: the per-draw cells are empty, the pooled ones set.
	var pooled bytes.Buffer
	if code := run([]string{"rdcn", "predict", "--matrices", "ring", "--factors", "0", "--gammas", "3", "--samples", "2",
		"--noise", "additive", "--algorithms", "randomized", "--readings", "pooled", "--format", "csv"}, &pooled, &errb); code != 0 {
		t.Fatalf("pooled: exit %d: %s", code, errb.String())
	}
	recs, err = csv.NewReader(&pooled).ReadAll()
	if err != nil || len(recs) != 2 {
		t.Fatalf("pooled CSV: %d records, err %v", len(recs), err)
	}
	col := func(name string) string { return recs[1][slices.Index(recs[0], name)] }
	if col("any_mean") != "" || col("pooled_any") == "" || col("pooled_any_upper") == "" {
		t.Errorf("--readings pooled: any_mean %q, pooled_any %q", col("any_mean"), col("pooled_any"))
	}
}

func TestPredictBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--gammas", "0.5"}, "gamma"},
		{[]string{"--gammas", "x"}, "gammas"},
		{[]string{"--algorithms", "eclipse"}, "algorithm"},
		{[]string{"--samples", "0"}, "samples"},
		{[]string{"--slot", "fast"}, "slot"},
		{[]string{"--matrices", filepath.Join(dir, "missing.txt")}, "matrices"},
		{[]string{"--plot", filepath.Join(dir, "x.gif")}, "plot"},
		{[]string{"--format", "xml"}, "format"},
		{[]string{"--readings", "median"}, "reading"},
		{[]string{"--readings", ","}, "readings"},
	} {
		var out, errb bytes.Buffer
		args := append([]string{"rdcn", "predict", "--samples", "1", "--factors", "0", "--matrices", "ring"}, tc.args...)
		code := run(args, &out, &errb)
		msg := errb.String()
		if code != 2 || !strings.Contains(msg, tc.want) || strings.Count(msg, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line naming %q", tc.args, code, msg, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.gif")); err == nil {
		t.Error("a failed run wrote the plot file")
	}
}

// rdcn schedule --kind vermilion writes exactly what the package builds.
func TestScheduleVermilionFlags(t *testing.T) {
	dir := t.TempDir()
	runOK := func(args ...string) []byte {
		t.Helper()
		path := filepath.Join(dir, "s.json")
		var out, errb bytes.Buffer
		if code := run(append([]string{"rdcn", "schedule", "-o", path}, args...), &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	base := []string{"--kind", "vermilion", "--demand", "skewring:0.5", "--tors", "16", "--uplinks", "4", "--slot", "10us", "--reconf", "100ns", "--seed", "5"}
	a := runOK(append(base, "--k", "5", "--l", "2")...)
	b := runOK(append(base, "--gamma", "2.5")...)
	if !bytes.Equal(a, b) {
		t.Error("--k 5 --l 2 and --gamma 2.5 differ")
	}
	d, err := demand.Parse("skewring:0.5", 16)
	if err != nil {
		t.Fatal(err)
	}
	want, err := vermilion.Schedule(d, vermilion.Config{Nodes: 16, Uplinks: 4, K: 5, L: 2, Slot: 10 * rotor.Microsecond, Reconf: 100 * rotor.Nanosecond, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	var wb bytes.Buffer
	if err := rotor.WriteJSON(&wb, want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, wb.Bytes()) {
		t.Error("CLI output differs from vermilion.Schedule")
	}
	if r := runOK(append(base, "--k", "4", "--randomized")...); !bytes.Contains(r, []byte(`"trust_drawn"`)) {
		t.Error("randomized: no trust_drawn in meta")
	}
	if r := runOK("--kind", "bvn", "--demand", "ring", "--tors", "8", "--uplinks", "2", "--slot", "10us", "--reconf", "1us"); !bytes.Contains(r, []byte(`"slot_durations_ps": [120000000]`)) {
		t.Errorf("bvn on a ring: want one slot of the whole 12-slot cycle, got %s", r)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--kind", "vermilion", "--tors", "8", "--uplinks", "2"}, "design-demand"},
		{[]string{"--kind", "vermilion", "--demand", "ring", "--tors", "8", "--uplinks", "2", "--k", "3", "--gamma", "2.5"}, "gamma"},
		{[]string{"--kind", "vermilion", "--demand", "nosuchfile", "--tors", "8", "--uplinks", "2"}, "design-demand"},
		{[]string{"--kind", "vermilion", "--demand", "ring", "--tors", "8", "--uplinks", "2", "--k", "2", "--l", "3"}, "l"},
	} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"rdcn", "schedule"}, tc.args...), &out, &errb); code != 2 || !strings.HasPrefix(errb.String(), "rdcn: "+tc.want+": ") {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %q", tc.args, code, errb.String(), tc.want)
		}
	}
}
