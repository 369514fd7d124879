package app

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

var table71Args = []string{"rdcn", "tradeoff", "--tors", "16", "--uplinks", "2", "--link", "400Gbps",
	"--slot", "100us", "--reconf", "10us", "--buffer", "20MB", "--delay", "850us"}

// TestTradeoffTable71CLI reproduces thesis Table 7.1 through the CLI:
// static 0.125 (no delay or buffer); complete graph 0.5, 1600 µs, 80 MB;
// complete graph within 20 MB 0.125; Mars d = 4, 0.25, 20 MB (its delay,
// 800 µs, meets the 850 µs requirement the table prints).
func TestTradeoffTable71CLI(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := append(append([]string{}, table71Args...), "--format", "json", "--gap", "0.005")
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var rows []struct {
		Design        string   `json:"design"`
		Degree        int      `json:"degree"`
		Period        int      `json:"period_slots"`
		Theta         float64  `json:"theta"`
		Exact         *float64 `json:"theta_exact"`
		BufferLimited float64  `json:"theta_buffer_limited"`
		Delay         int64    `json:"delay_ps"`
		Buffer        int64    `json:"buffer_bytes_per_node"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rows); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	type fig struct {
		design         string
		degree, period int
		theta, limited float64
		delayUS        int64
		bufferMB       float64
		exact          float64 // engine θ expected (−1: only checked to exist)
	}
	want := []fig{
		{"static", 2, 1, 0.125, 0.125, 0, 0, -1},
		{"complete", 16, 8, 0.5, 0.125, 1600, 80, 0.45}, // 1/2 · duty cycle 0.9
		{"complete-buffer-limited", 16, 8, 0.5, 0.125, 1600, 20, 0.45},
		{"mars", 4, 2, 0.25, 0.25, 800, 20, -1},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d:\n%s", len(rows), len(want), stdout.String())
	}
	for i, w := range want {
		r := rows[i]
		if r.Design != w.design || r.Degree != w.degree || r.Period != w.period ||
			math.Abs(r.Theta-w.theta) > 1e-12 || math.Abs(r.BufferLimited-w.limited) > 1e-12 ||
			r.Delay != w.delayUS*1e6 || math.Abs(float64(r.Buffer)-w.bufferMB*1e6) > 0.5 {
			t.Errorf("row %d = %+v, want %+v", i, r, w)
		}
		if r.Exact == nil || (w.exact >= 0 && math.Abs(*r.Exact-w.exact) > 0.005*w.exact) {
			t.Errorf("row %d (%s): theta_exact %v, want %v", i, r.Design, r.Exact, w.exact)
		}
	}
}

func TestTradeoffCLIFormats(t *testing.T) {
	dir := t.TempDir()
	out, plot := filepath.Join(dir, "t.csv"), filepath.Join(dir, "f.svg")
	var stdout, stderr bytes.Buffer
	args := append(append([]string{}, table71Args...), "--exact=false", "--degrees", "6,8", "--format", "csv", "-o", out, "--plot", plot)
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 7 || recs[0][0] != "design" || recs[5][0] != "degree-6" || recs[6][1] != "8" || recs[6][5] != "" {
		t.Errorf("csv:\n%v", recs)
	}
	if b, err := os.ReadFile(plot); err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("plot: %v, %d bytes", err, len(b))
	}

	stdout.Reset()
	if code := run(append(append([]string{}, table71Args...), "--exact=false"), &stdout, &stderr); code != 0 {
		t.Fatalf("text: exit %d: %s", code, stderr.String())
	}
	for _, s := range []string{"complete-buffer-limited", "80MB", "1.6ms", "800µs"} {
		if !strings.Contains(stdout.String(), s) {
			t.Errorf("text output lacks %q:\n%s", s, stdout.String())
		}
	}
}

func TestTradeoffCLIBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--tors", "16", "--uplinks", "2", "--link", "fast"}, "link"},
		{[]string{"--tors", "16", "--uplinks", "2", "--buffer", "-3MB"}, "buffer"},
		{[]string{"--tors", "16", "--uplinks", "2", "--delay", "0s"}, "delay"},
		{[]string{"--tors", "16", "--uplinks", "2", "--degrees", "4,x"}, "degrees: \"x\""},
		{[]string{"--tors", "16", "--uplinks", "2", "--degrees", "5"}, "degrees: 5"},
		{[]string{"--tors", "1", "--uplinks", "1"}, "tors"},
		{[]string{"--tors", "16", "--uplinks", "2", "--buffer", "1MB"}, "rdcn: buffer: 1MB: allows degree 0"},
		{[]string{"--tors", "16", "--uplinks", "2", "--delay", "100us"}, "rdcn: delay: 100us: is below"},
		{[]string{"--tors", "16", "--uplinks", "2", "--format", "xml"}, "format"},
		{[]string{"--tors", "16", "--uplinks", "2", "--plot", "f.gif"}, "plot"},
		{[]string{"--uplinks", "2"}, "tors"},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"rdcn", "tradeoff", "--exact=false"}, tc.args...), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), tc.want) || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// TestScheduleMarsCLI: rdcn schedule --kind mars picks d = 4 for Table 7.1
// and writes a valid schedule with d/U = 2 matchings per switch.
func TestScheduleMarsCLI(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mars.json")
	var stdout, stderr bytes.Buffer
	code := run([]string{"rdcn", "schedule", "--kind", "mars", "--tors", "16", "--uplinks", "2", "--buffer", "20MB",
		"--link", "400Gbps", "--delay", "850us", "--slot", "100us", "--reconf", "10us", "-o", path}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := rotor.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind != "mars" || s.Switches != 2 || s.Period != 2 || len(s.Matchings[0]) != 2 || len(s.Matchings[1]) != 2 {
		t.Errorf("schedule %s: %d switches, period %d", s.Kind, s.Switches, s.Period)
	}
	stderr.Reset()
	code = run([]string{"rdcn", "schedule", "--kind", "mars", "--tors", "16", "--uplinks", "2", "--degree", "5"}, &stdout, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "degree") {
		t.Errorf("--degree 5: exit %d, %q", code, stderr.String())
	}
}

// The design question in one command (n = 16 for speed): exit 0, one
// recommendation, and the recommended point is the feasible one with the
// highest certified θ of the JSON's points.
func TestTradeoffDesignQuestionCLI(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := []string{"rdcn", "tradeoff", "--tors", "16", "--uplinks", "2", "--link", "400Gbps", "--buffer", "20MB",
		"--delay", "850us", "--slots", "5us,20us,100us", "--reconf", "2us", "--gap", "1e-2", "--format", "json"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var got struct {
		Designs []struct {
			Name string `json:"design"`
		} `json:"designs"`
		Points []struct {
			Design   int     `json:"design"`
			Theta    float64 `json:"theta"`
			Feasible bool    `json:"feasible"`
			Why      string  `json:"why"`
			Slot     int64   `json:"slot_ps"`
		} `json:"points"`
		Best           int    `json:"best"`
		Recommendation string `json:"recommendation"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	if len(got.Points) != 3*len(got.Designs) || got.Best < 0 {
		t.Fatalf("%d points for %d designs, best %d", len(got.Points), len(got.Designs), got.Best)
	}
	for _, p := range got.Points {
		if p.Feasible == (p.Why != "") {
			t.Errorf("point %+v: feasible and why disagree", p)
		}
		if p.Feasible && p.Theta > got.Points[got.Best].Theta {
			t.Errorf("point %+v beats the recommended %+v", p, got.Points[got.Best])
		}
		if p.Slot == 100e6 && got.Designs[p.Design].Name == "rotornet" && p.Why != "buffer" {
			t.Errorf("rotornet at 100us needs 80 MB > 20 MB, got %+v", p)
		}
	}
	if !strings.HasPrefix(got.Recommendation, got.Designs[got.Points[got.Best].Design].Name+" ") {
		t.Errorf("recommendation %q does not name the best point's design", got.Recommendation)
	}
	stdout.Reset()
	if code := run(args[:len(args)-2], &stdout, &stderr); code != 0 || strings.Count(stdout.String(), "\nrecommended, ") != 1 {
		t.Errorf("text: exit %d, want one recommended line:\n%s", code, stdout.String())
	}
}

func TestTradeoffSlotsBadInput(t *testing.T) {
	base := []string{"rdcn", "tradeoff", "--tors", "16", "--uplinks", "2", "--buffer", "20MB"}
	for _, extra := range [][]string{
		{"--slots", "5us,,10us"}, {"--slots", "0us"}, {"--slots", "-1us"}, {"--slots", "fast"},
		{"--slots", "5us", "--slot", "10us"}, {"--slots", "5us", "--exact=false"}, {"--reconf", "-1us"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append(append([]string{}, base...), extra...), &stdout, &stderr)
		if code != 2 || stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", extra, code, stdout.String(), stderr.String())
		}
	}
}

// parseSlots either refuses its input as bad input or returns one positive
// slot per comma-separated field, each the value rotor.ParseTime gives.
func FuzzParseSlots(f *testing.F) {
	for _, s := range []string{"1us,2us,5us", "100us", " 3.84ns , 1ms", "", ",", "5us,,", "0us", "-1us", "1e400s", "NaNus", "2us,fast"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		slots, err := parseSlots(v)
		if err != nil {
			if _, ok := err.(*inputError); !ok || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: error %T %q, want one-line bad input", v, err, err)
			}
			return
		}
		fields := strings.Split(v, ",")
		if len(slots) != len(fields) {
			t.Fatalf("%q: %d slots from %d fields", v, len(slots), len(fields))
		}
		for i, s := range slots {
			want, err := rotor.ParseTime(strings.TrimSpace(fields[i]))
			if s <= 0 || err != nil || want != s {
				t.Fatalf("%q: slot %d = %v (ParseTime %v, %v)", v, i, s, want, err)
			}
		}
	})
}

// The one-slot table names the rows that break L or B: Table 7.1's
// complete graph (1.6 ms > 850 µs, 80 MB > 20 MB) and its buffer-limited
// run (delay only), not static or Mars (800 µs, 20 MB).
func TestTradeoffTextNamesBrokenLimits(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(append(append([]string{}, table71Args...), "--exact=false"), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"\ncomplete: its delay 1.6ms exceeds L = 850us; its buffer 80MB per ToR exceeds B = 20MB\n",
		"\ncomplete-buffer-limited: its delay 1.6ms exceeds L = 850us\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "\nmars:") || strings.Contains(out, "\nstatic:") {
		t.Errorf("mars or static flagged:\n%s", out)
	}
}

// TestTradeoffStatesReconf: without --reconf the recommendation line
// states its assumption (Δr = Δ/10), and one more line gives the answer
// under a fixed Δr of 1 µs and 10 µs, each the answer rdcn tradeoff gives
// when asked with that --reconf (which certifies every design again).
func TestTradeoffStatesReconf(t *testing.T) {
	base := []string{"rdcn", "tradeoff", "--tors", "16", "--uplinks", "2", "--link", "400Gbps", "--buffer", "20MB", "--delay", "850us"}
	var stdout, stderr bytes.Buffer
	if code := run(base, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "\nrecommended, assuming Δr = Δ/10 at every slot (duty cycle 0.9; --reconf sets a fixed Δr): ") {
		t.Errorf("the recommendation does not state its Δr:\n%s", out)
	}
	_, alt, ok := strings.Cut(out, "\nwith a fixed reconfiguration time instead (--reconf): ")
	if !ok {
		t.Fatalf("no line for other reconfiguration times:\n%s", out)
	}
	for _, reconf := range []string{"1us", "10us"} {
		stdout.Reset()
		if code := run(append(append([]string{}, base...), "--reconf", reconf), &stdout, &stderr); code != 0 {
			t.Fatalf("--reconf %s: exit %d: %s", reconf, code, stderr.String())
		}
		_, rec, _ := strings.Cut(stdout.String(), "\nrecommended, with Δr = "+reconf+" at every slot: ")
		design, rest, _ := strings.Cut(rec, ": certified θ ≥ ")
		theta, _, _ := strings.Cut(rest, " ")
		if want := "Δr = " + reconf + ": " + design + ", θ ≥ " + theta; design == "" || !strings.Contains(alt, want) {
			t.Errorf("--reconf %s recommends %q (θ ≥ %s); the default run's line says %q", reconf, design, theta, alt)
		}
		if strings.Contains(stdout.String(), "with a fixed reconfiguration time instead") {
			t.Errorf("--reconf %s: alternatives printed though Δr was given", reconf)
		}
	}
}

// TestTradeoffThetaOrder: the one-slot table prints θ any as its
// certified interval, and where θ VLB (exact: a fixed routing) lies
// inside it — on Table 7.1's complete graph the engine's lower end
// 0.4497 is below θ VLB 0.4500 — a line says so instead of printing
// "θ any 0.4497" beside "θ VLB 0.4500" as if VLB beat any routing.
func TestTradeoffThetaOrder(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(table71Args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	below := 0
	for _, line := range strings.Split(out, "\n")[2:6] {
		f := strings.Fields(line)
		lo, hi, ok := strings.Cut(f[4], "–")
		l, err1 := strconv.ParseFloat(lo, 64)
		h, err2 := strconv.ParseFloat(hi, 64)
		vlb, err3 := strconv.ParseFloat(f[5], 64)
		if !ok || err1 != nil || err2 != nil || err3 != nil || l > h {
			t.Fatalf("row %q: θ any %q is not a certified interval lower–upper", line, f[4])
		}
		if vlb > h {
			t.Errorf("row %q: θ VLB above θ any's upper end", line)
		}
		if l < vlb {
			below++
			if want := "\n" + f[0] + ": θ VLB " + f[5] + " lies inside θ any's certified interval"; !strings.Contains(out, want) {
				t.Errorf("no line %q in\n%s", want, out)
			}
		}
	}
	if below == 0 {
		t.Errorf("no row with θ VLB inside θ any's interval (Table 7.1's complete graph had one):\n%s", out)
	}
}

// TestTradeoffFoldsInfeasibleRuns: at 128 racks with 1 MB of buffer, Mars
// d = 24 … 120 (13 designs) fit no swept slot. The text output folds them
// into one line naming the first and the last with their limits, and
// leaves them out of both tables; RotorNet and Opera, two designs of
// different kinds, keep their rows and lines. The JSON output still lists
// every design.
func TestTradeoffFoldsInfeasibleRuns(t *testing.T) {
	args := []string{"tradeoff", "--tors", "128", "--uplinks", "8", "--link", "400Gbps", "--buffer", "1MB", "--delay", "1ms"}
	out := string(runOK(t, args...))
	want := "\nmars-24 … mars-120, 13 designs left out of the tables above: no swept slot is feasible: B = 1MB needs Δ ≤ 833.333ns (mars-24); B = 1MB needs Δ ≤ 166.666ns (mars-120)\n"
	if !strings.Contains(out, want) {
		t.Errorf("missing %q in\n%s", want, out)
	}
	rest := strings.Replace(out, want, "\n", 1)
	for _, name := range []string{"mars-24", "mars-64", "mars-120"} {
		if strings.Contains(rest, name) {
			t.Errorf("%s appears outside the folded line:\n%s", name, out)
		}
	}
	for _, line := range []string{"\nrotornet: no swept slot is feasible", "\nopera: no swept slot is feasible", "\n   mars-16   16"} {
		if !strings.Contains(out, line) {
			t.Errorf("missing %q in\n%s", line, out)
		}
	}
	var got struct {
		Designs []struct {
			Name       string `json:"design"`
			Infeasible string `json:"infeasible"`
		} `json:"designs"`
	}
	if err := json.Unmarshal(runOK(t, append(args, "--format", "json")...), &got); err != nil {
		t.Fatal(err)
	}
	infeasible := 0
	for _, d := range got.Designs {
		if d.Infeasible != "" {
			infeasible++
		}
	}
	if infeasible != 15 {
		t.Errorf("JSON lists %d designs no slot suits, want 15 (rotornet, opera, mars-24 … mars-120)", infeasible)
	}
}
