package app

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The tests below check the output formats every command shares
// (docs/formats.md: --format text|json|csv): each new format parses with encoding/csv or
// encoding/json and agrees with another format of the same run.

// runOK runs the CLI and fails the test unless it exits 0 with an empty
// stderr; it returns stdout.
func runOK(t *testing.T, args ...string) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"rdcn"}, args...), &out, &errb); code != 0 || errb.Len() != 0 {
		t.Fatalf("%v: exit %d, stderr %q", args, code, errb.String())
	}
	return out.Bytes()
}

// runTwice runs the CLI twice and fails the test unless both runs print
// the same non-empty bytes.
func runTwice(t *testing.T, args ...string) []byte {
	t.Helper()
	a, b := runOK(t, args...), runOK(t, args...)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("%v: two runs differ or are empty:\n%s\n%s", args, a, b)
	}
	return a
}

// readCSV parses b as CSV with every record the header's width.
func readCSV(t *testing.T, b []byte) [][]string {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, b)
	}
	if len(recs) < 2 {
		t.Fatalf("CSV has %d records, want a header and data:\n%s", len(recs), b)
	}
	return recs
}

// atoi parses a CSV cell that must be an integer.
func atoi(t *testing.T, row []string, col int) int64 {
	t.Helper()
	v, err := strconv.ParseInt(row[col], 10, 64)
	if err != nil {
		t.Fatalf("row %q, column %d: %v", row, col, err)
	}
	return v
}

// scheduleDoc is an rdcn.schedule/v1 document as encoding/json reads it,
// independent of rotor.ReadJSON.
type scheduleDoc struct {
	Format          string
	Kind            string
	Nodes           int
	Switches        int
	Period          int
	SlotPs          int64   `json:"slot_ps"`
	ReconfPs        int64   `json:"reconf_ps"`
	SlotDurationsPs []int64 `json:"slot_durations_ps"`
	SwitchOffsetsPs []int64 `json:"switch_offsets_ps"`
	Matchings       [][][]int
	Meta            map[string]any
}

// TestScheduleCSV rebuilds the schedule from the CSV rows and compares it
// with the JSON output of the same command: the rows come in switch, slot,
// source order, every (switch, slot) has one row per source ToR, the
// destinations form a matching (idle = -1) equal to the JSON matchings, and
// start, duration and reconfiguration follow slot_ps, slot_durations_ps,
// switch_offsets_ps and reconf_ps. The kinds cover an idle self-slot
// (rotornet --self-slot), switch offsets (opera) and per-slot durations
// (bvn).
func TestScheduleCSV(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"rotornet self-slot", []string{"--kind", "rotornet", "--tors", "8", "--uplinks", "2", "--self-slot"}},
		{"sirius", []string{"--kind", "sirius", "--tors", "8", "--uplinks", "2"}},
		{"opera offsets", []string{"--kind", "opera", "--tors", "16", "--uplinks", "4", "--seed", "7"}},
		{"static", []string{"--kind", "static", "--tors", "8", "--uplinks", "2", "--seed", "3"}},
		{"bvn slot durations", []string{"--kind", "bvn", "--tors", "8", "--uplinks", "2", "--demand", "skew:0.5"}},
		{"vermilion", []string{"--kind", "vermilion", "--tors", "8", "--uplinks", "2", "--demand", "ring", "--k", "3", "--slot", "50us", "--reconf", "5us"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := append([]string{"schedule"}, tc.args...)
			var doc scheduleDoc
			if err := json.Unmarshal(runOK(t, slices.Concat(base, []string{"--format", "json"})...), &doc); err != nil {
				t.Fatal(err)
			}
			out := runTwice(t, slices.Concat(base, []string{"--format", "csv"})...)
			recs := readCSV(t, out)
			want := []string{"switch", "slot", "start_ps", "duration_ps", "reconf_ps", "src", "dst"}
			if d := cmp.Diff(want, recs[0]); d != "" {
				t.Fatalf("header (-want +got):\n%s", d)
			}
			if got, want := len(recs)-1, doc.Switches*doc.Period*doc.Nodes; got != want {
				t.Fatalf("%d rows, want switches·period·nodes = %d", got, want)
			}
			cycle := int64(0)
			for slot := range doc.Period {
				cycle += slotPs(doc, slot)
			}
			got := make([][][]int, doc.Switches)
			for i, r := range recs[1:] {
				sw, slot, src := int(atoi(t, r, 0)), int(atoi(t, r, 1)), int(atoi(t, r, 5))
				// Row i is (switch, slot, src) in lexicographic order.
				if want := [3]int{i / (doc.Period * doc.Nodes), i / doc.Nodes % doc.Period, i % doc.Nodes}; [3]int{sw, slot, src} != want {
					t.Fatalf("row %d is %q, want switch, slot, src = %v", i+1, r, want)
				}
				if slot == 0 && src == 0 {
					got[sw] = make([][]int, doc.Period)
				}
				if src == 0 {
					got[sw][slot] = make([]int, doc.Nodes)
				}
				got[sw][slot][src] = int(atoi(t, r, 6))
				start := int64(0)
				if doc.SwitchOffsetsPs != nil {
					start = doc.SwitchOffsetsPs[sw]
				}
				for s := range slot {
					start += slotPs(doc, s)
				}
				if gs, gd, gr := atoi(t, r, 2), atoi(t, r, 3), atoi(t, r, 4); gs != start || gd != slotPs(doc, slot) || gr != doc.ReconfPs {
					t.Errorf("row %q: start, duration, reconf = %d, %d, %d; want %d, %d, %d from the JSON", r, gs, gd, gr, start, slotPs(doc, slot), doc.ReconfPs)
				}
			}
			for sw, slots := range got {
				for slot, m := range slots {
					seen := map[int]bool{}
					for src, dst := range m {
						if dst == -1 {
							continue
						}
						if dst < 0 || dst >= doc.Nodes || seen[dst] {
							t.Errorf("switch %d slot %d: src %d → dst %d: not a matching on %d ToRs", sw, slot, src, dst, doc.Nodes)
						}
						seen[dst] = true
					}
				}
			}
			if d := cmp.Diff(doc.Matchings, got); d != "" {
				t.Errorf("matchings rebuilt from the CSV differ from the JSON (-json +csv):\n%s", d)
			}
		})
	}
}

// slotPs is the duration of slot t of a schedule document.
func slotPs(doc scheduleDoc, t int) int64 {
	if doc.SlotDurationsPs != nil {
		return doc.SlotDurationsPs[t]
	}
	return doc.SlotPs
}

// TestDemandJSON compares the JSON matrix with the CSV matrix of the same
// flags: the same size, the same number text in every cell (the writers
// share the shortest round-trip form) and the same float64 after parsing.
// The cases cover thirds, noise and hose normalisation to 1.6 Tbit/s
// (exponents).
func TestDemandJSON(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"uniform", []string{"--pattern", "uniform", "--tors", "3"}},
		{"chessboard", []string{"--pattern", "chessboard", "--tors", "4"}},
		{"skew noisy normalised", []string{"--pattern", "skew:0.3", "--tors", "8", "--noise", "additive", "--delta", "4", "--seed", "5", "--normalize", "1"}},
		{"random rate", []string{"--pattern", "random:7", "--tors", "6", "--noise", "multiplicative", "--delta", "2", "--normalize", "1.6Tbps"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := append([]string{"demand"}, tc.args...)
			js := runTwice(t, slices.Concat(base, []string{"--format", "json"})...)
			recs, err := csv.NewReader(bytes.NewReader(runOK(t, slices.Concat(base, []string{"--format", "csv"})...))).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Format string
				Tors   int
				Matrix [][]json.Number
			}
			dec := json.NewDecoder(bytes.NewReader(js))
			dec.UseNumber()
			dec.DisallowUnknownFields()
			if err := dec.Decode(&doc); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, js)
			}
			if dec.More() {
				t.Errorf("trailing data after the JSON object")
			}
			if doc.Format != "rdcn.demand/v1" || doc.Tors != len(recs) || len(doc.Matrix) != len(recs) {
				t.Fatalf("format %q, tors %d, %d rows; want rdcn.demand/v1 and the CSV's %d rows", doc.Format, doc.Tors, len(doc.Matrix), len(recs))
			}
			for i, row := range recs {
				if len(doc.Matrix[i]) != len(row) {
					t.Fatalf("row %d: %d entries, CSV has %d", i, len(doc.Matrix[i]), len(row))
				}
				for j, cell := range row {
					jv, err1 := doc.Matrix[i][j].Float64()
					cv, err2 := strconv.ParseFloat(cell, 64)
					if string(doc.Matrix[i][j]) != cell || err1 != nil || err2 != nil || jv != cv {
						t.Errorf("[%d][%d]: JSON %s, CSV %s", i, j, doc.Matrix[i][j], cell)
					}
				}
			}
		})
	}
}

// jsonFields reads a flat JSON object into its keys in document order and
// each value's text: a number as written, a string unquoted.
func jsonFields(t *testing.T, b []byte) (keys []string, values map[string]string) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %v %v\n%s", tok, err, b)
	}
	values = map[string]string{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		v, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		key := k.(string)
		switch v := v.(type) {
		case json.Number:
			values[key] = string(v)
		case string:
			values[key] = v
		default:
			t.Fatalf("field %q: value %v (%T) is neither a number nor a string", key, v, v)
		}
		keys = append(keys, key)
	}
	return keys, values
}

// checkRecordCSV compares a one-row CSV with the flat JSON object of the
// same run: the header holds every JSON field in the JSON order (plus
// omitted ones), each cell is the JSON value's text, and a column JSON
// omits is empty.
func checkRecordCSV(t *testing.T, csvOut, jsonOut []byte, header []string) {
	t.Helper()
	recs := readCSV(t, csvOut)
	if len(recs) != 2 {
		t.Fatalf("CSV has %d records, want a header and one row:\n%s", len(recs), csvOut)
	}
	if d := cmp.Diff(header, recs[0]); d != "" {
		t.Errorf("header (-want +got):\n%s", d)
	}
	keys, values := jsonFields(t, jsonOut)
	var present []string
	for col, name := range recs[0] {
		v, ok := values[name]
		if ok {
			present = append(present, name)
		}
		if recs[1][col] != v { // v is "" when JSON omits the field
			t.Errorf("column %s: CSV %q, JSON %q (present %v)", name, recs[1][col], v, ok)
		}
	}
	if d := cmp.Diff(keys, present); d != "" {
		t.Errorf("JSON fields missing from the CSV or out of order (-json +csv):\n%s", d)
	}
}

// TestThroughputCSV compares each CSV column with the JSON field of the
// same run, for each routing; vlb has no flow, so JSON omits arl and the
// CSV cell is empty.
func TestThroughputCSV(t *testing.T) {
	header := []string{"theta", "lower", "upper", "gap", "routing", "solver", "demand", "nodes", "iterations", "per_node_bps", "arl", "stopped"}
	// A demand file whose name needs CSV quoting (and JSON escaping).
	quoted := filepath.Join(t.TempDir(), `m,"1"&.txt`)
	if err := os.WriteFile(quoted, []byte("0 1 2 0\n1 0 0 3\n0 2 0 1\n1 0 1 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		noARL bool // JSON omits arl
	}{
		{"any", []string{"--kind", "rotornet", "--tors", "8", "--uplinks", "4", "--demand", "permutation"}, false},
		{"direct", []string{"--kind", "rotornet", "--tors", "8", "--uplinks", "4", "--demand", "ring", "--routing", "direct"}, false},
		{"vlb", []string{"--kind", "rotornet", "--tors", "8", "--uplinks", "4", "--demand", "permutation", "--routing", "vlb"}, true},
		{"opera random", []string{"--kind", "opera", "--tors", "16", "--uplinks", "4", "--demand", "random:3"}, false},
		{"demand file name with a comma", []string{"--kind", "rotornet", "--tors", "4", "--uplinks", "1", "--demand", quoted}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := append([]string{"throughput"}, tc.args...)
			js := runOK(t, slices.Concat(base, []string{"--format", "json"})...)
			c := runTwice(t, slices.Concat(base, []string{"--format", "csv"})...)
			checkRecordCSV(t, c, js, header)
			if _, vals := jsonFields(t, js); tc.noARL != (vals["arl"] == "") {
				t.Errorf("arl %q in the JSON; the case expects it omitted: %v", vals["arl"], tc.noARL)
			}
		})
	}
}

// TestBoundsCSV compares each CSV column with the JSON field of the same
// run.
func TestBoundsCSV(t *testing.T) {
	header := []string{"demand", "nodes", "degree", "theta", "lower", "upper", "tub", "arl", "arl_bound", "ard_ps",
		"delay_bound_ps", "buffer_total_bytes", "buffer_per_node_bytes", "single_hop_theta", "vlb_theta"}
	tests := []struct {
		name string
		args []string
	}{
		{"rotornet worst", []string{"--kind", "rotornet", "--tors", "16", "--uplinks", "2", "--slot", "100us", "--reconf", "10us"}},
		{"opera ring", []string{"--kind", "opera", "--tors", "16", "--uplinks", "4", "--demand", "ring"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := append([]string{"bounds"}, tc.args...)
			js := runOK(t, slices.Concat(base, []string{"--format", "json"})...)
			c := runTwice(t, slices.Concat(base, []string{"--format", "csv"})...)
			checkRecordCSV(t, c, js, header)
		})
	}
}

// TestFormatFromOutput checks that schedule and demand infer --format from
// the -o extension (any case), that an explicit --format wins, and that
// the file holds the same bytes as stdout with that format.
func TestFormatFromOutput(t *testing.T) {
	sched := []string{"schedule", "--kind", "rotornet", "--tors", "4", "--uplinks", "1"}
	dem := []string{"demand", "--pattern", "chessboard", "--tors", "4"}
	tests := []struct {
		args   []string
		flag   string // --format given explicitly, or ""
		file   string
		format string // the --format whose stdout the file must equal
	}{
		{sched, "", "s.json", "json"},
		{sched, "", "s.csv", "csv"},
		{sched, "", "S.CSV", "csv"},
		{sched, "", "s.txt", "text"},
		{sched, "text", "s.csv", "text"},
		{sched, "json", "s.csv", "json"},
		{dem, "", "m.json", "json"},
		{dem, "", "m.JSON", "json"},
		{dem, "", "m.csv", "csv"},
		{dem, "", "m.txt", "text"},
		{dem, "csv", "m.json", "csv"},
	}
	for _, tc := range tests {
		path := filepath.Join(t.TempDir(), tc.file)
		args := slices.Concat(tc.args, []string{"-o", path})
		if tc.flag != "" {
			args = append(args, "--format", tc.flag)
		}
		if out := runOK(t, args...); len(out) != 0 {
			t.Errorf("%v: wrote %d bytes to stdout", args, len(out))
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want := runOK(t, slices.Concat(tc.args, []string{"--format", tc.format})...)
		if !bytes.Equal(got, want) {
			t.Errorf("%v: file is not the %s output:\n%s", args, tc.format, got)
		}
	}
}

// TestFormatBadValue checks the one-line error of a bad --format, the same
// for every command (schedule names its extra format too), and that
// nothing is written.
func TestFormatBadValue(t *testing.T) {
	commands := [][]string{
		{"schedule", "--kind", "rotornet", "--tors", "8", "--uplinks", "2"},
		{"demand", "--pattern", "uniform", "--tors", "4"},
		{"throughput", "--kind", "rotornet", "--tors", "8", "--uplinks", "2"},
		{"bounds", "--kind", "rotornet", "--tors", "8", "--uplinks", "2"},
		{"tradeoff", "--tors", "16", "--uplinks", "2", "--exact=false"},
		{"predict", "--samples", "1", "--factors", "0", "--gammas", "2", "--matrices", "ring"},
	}
	for _, cmd := range commands {
		for _, format := range []string{"xml", "CSV", "Json", "tsv", " text"} {
			dir := t.TempDir()
			args := append(append([]string{"rdcn"}, cmd...), "--format", format, "-o", filepath.Join(dir, "out.csv"))
			var out, errb bytes.Buffer
			code := run(args, &out, &errb)
			formats := "text, json or csv"
			if cmd[0] == "schedule" { // also writes opera-sim's topology
				formats = "text, json, csv or opera-sim"
			}
			want := "rdcn: format: " + strconv.Quote(format) + ": want " + formats + "\n"
			if code != 2 || errb.String() != want || out.Len() != 0 {
				t.Errorf("%s --format %q: exit %d, stderr %q, stdout %d bytes; want 2 and %q", cmd[0], format, code, errb.String(), out.Len(), want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("%s --format %q: left %d file(s)", cmd[0], format, len(entries))
			}
		}
	}
}

// TestFormatHelp checks that each command's --help lists the three formats.
func TestFormatHelp(t *testing.T) {
	for _, cmd := range []string{"schedule", "demand", "throughput", "bounds", "tradeoff", "predict"} {
		help := string(runOK(t, cmd, "--help"))
		if !strings.Contains(help, "--format text|json|csv") {
			t.Errorf("rdcn %s --help lacks --format text|json|csv:\n%s", cmd, help)
		}
	}
}
