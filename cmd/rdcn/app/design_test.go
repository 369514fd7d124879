package app

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"runtime"
	"testing"
)

// designAnswer is the part of the design question's JSON the tests read.
type designAnswer struct {
	Designs []struct {
		Name   string  `json:"design"`
		Theta0 float64 `json:"theta0"`
		Upper0 float64 `json:"theta0_upper"`
		Status string  `json:"status"`
	} `json:"designs"`
	Best           int      `json:"best"`
	Recommendation string   `json:"recommendation"`
	Shortfall      *float64 `json:"shortfall"`
	ByReconf       []struct {
		Recommendation string   `json:"recommendation"`
		Shortfall      *float64 `json:"shortfall"`
	} `json:"recommendation_by_reconf"`
	Stopped string `json:"stopped"`
}

var question64Args = []string{"rdcn", "tradeoff", "--tors", "64", "--uplinks", "8", "--link", "400Gbps",
	"--buffer", "10MB", "--delay", "1ms", "--format", "json"}

// The design question at n = 64 against main's binary (commit 527ccf9,
// testdata/tradeoff64-main.json, written by the command above): every
// design's certified interval overlaps main's (both contain θ*) and meets
// the gap unless it is marked cannot-win or settled (then --refine-all's
// run, which certifies every design to the gap, recommends the same design
// and slot), and the recommendation is the same: word for word under
// Δr = Δ/10, and the same design and slot under 1 µs and 10 µs (whose
// certified θ may differ: the restricted LP lifts slow solves' lower
// bounds).
func TestDesignQuestion64MatchesMain(t *testing.T) {
	if testing.Short() {
		t.Skip("the n = 64 design question (~10 s of CPU)")
	}
	var ref, got designAnswer
	b, err := os.ReadFile("testdata/tradeoff64-main.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(question64Args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Designs) != len(ref.Designs) {
		t.Fatalf("%d designs, main has %d", len(got.Designs), len(ref.Designs))
	}
	for i, d := range got.Designs {
		r := ref.Designs[i]
		if d.Name != r.Name {
			t.Fatalf("design %d is %s, main's %s", i, d.Name, r.Name)
		}
		if d.Theta0 > r.Upper0 || r.Theta0 > d.Upper0 || d.Theta0 > d.Upper0 {
			t.Errorf("%s: [%v, %v] and main's [%v, %v] are disjoint", d.Name, d.Theta0, d.Upper0, r.Theta0, r.Upper0)
		}
		if d.Status == "cannot-win" || d.Status == "settled" {
			continue // refined only until the recommendations were decided
		}
		if d.Upper0-d.Theta0 > 1e-2*d.Upper0*(1+1e-9) || d.Status != "" {
			t.Errorf("%s: [%v, %v] (status %q) is not certified to the gap 1e-2", d.Name, d.Theta0, d.Upper0, d.Status)
		}
	}
	if got.Best != ref.Best || got.Recommendation != ref.Recommendation {
		t.Errorf("recommended %d %q, main %d %q", got.Best, got.Recommendation, ref.Best, ref.Recommendation)
	}
	// Refined to the end, each answer's shortfall is within the settle
	// rule's two gaps (the leader's own) and no less than 0.
	shortfalls := []*float64{got.Shortfall}
	for _, a := range got.ByReconf {
		shortfalls = append(shortfalls, a.Shortfall)
	}
	for i, s := range shortfalls {
		if s == nil || !(*s >= 0 && *s <= 2e-2) {
			t.Errorf("answer %d: shortfall %v, want in [0, 2e-2]", i, s)
		}
	}
	// --refine-all certifies every design to the gap and gives the same
	// three recommendations word for word.
	var all designAnswer
	stdout.Reset()
	if code := run(append(append([]string{}, question64Args...), "--refine-all"), &stdout, &stderr); code != 0 {
		t.Fatalf("--refine-all: exit %d: %s", code, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), &all); err != nil {
		t.Fatal(err)
	}
	cannotWin := 0
	for i, d := range all.Designs {
		if d.Upper0-d.Theta0 > 1e-2*d.Upper0*(1+1e-9) || d.Status != "" {
			t.Errorf("--refine-all %s: [%v, %v] (status %q) is not certified to the gap 1e-2", d.Name, d.Theta0, d.Upper0, d.Status)
		}
		if st := got.Designs[i].Status; st == "cannot-win" || st == "settled" {
			cannotWin++
		} else if got.Designs[i].Theta0 != d.Theta0 || got.Designs[i].Upper0 != d.Upper0 {
			t.Errorf("%s: [%v, %v], --refine-all [%v, %v]", d.Name, got.Designs[i].Theta0, got.Designs[i].Upper0, d.Theta0, d.Upper0)
		}
	}
	if cannotWin == 0 {
		t.Error("no design was left as cannot-win or settled without --refine-all")
	}
	if all.Best != got.Best || maskTheta(all.Recommendation) != maskTheta(got.Recommendation) || len(all.ByReconf) != len(got.ByReconf) {
		t.Fatalf("--refine-all recommended %d %q, without it %d %q", all.Best, all.Recommendation, got.Best, got.Recommendation)
	}
	for i := range all.ByReconf {
		if maskTheta(all.ByReconf[i].Recommendation) != maskTheta(got.ByReconf[i].Recommendation) {
			t.Errorf("answer %d by reconfiguration time: --refine-all %q, without it %q", i, all.ByReconf[i].Recommendation, got.ByReconf[i].Recommendation)
		}
	}
	if len(got.ByReconf) != len(ref.ByReconf) {
		t.Fatalf("%d answers by reconfiguration time, main has %d", len(got.ByReconf), len(ref.ByReconf))
	}
	// The same design and slot; the certified θ in the line may differ
	// (both bounds are certified, the intervals above overlap).
	for i := range got.ByReconf {
		if g, r := maskTheta(got.ByReconf[i].Recommendation), maskTheta(ref.ByReconf[i].Recommendation); g != r {
			t.Errorf("answer %d by reconfiguration time %q, main %q", i, got.ByReconf[i].Recommendation, ref.ByReconf[i].Recommendation)
		}
	}
}

// maskTheta replaces the certified θ of a recommendation line by "…".
func maskTheta(s string) string {
	return regexp.MustCompile(`θ ≥ [0-9.]+`).ReplaceAllString(s, "θ ≥ …")
}

// A time limit that ends before any design is solved: exit 3, the JSON
// marked stopped, every design uncertified, and no recommendation
// claimed; the recommendation line says so.
func TestDesignQuestionTimeLimit(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := append(append([]string{}, question64Args...), "--time-limit", "1ns")
	if code := run(args, &stdout, &stderr); code != exitStopped {
		t.Fatalf("exit %d, want %d: %s", code, exitStopped, stderr.String())
	}
	var got designAnswer
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Stopped != "time-limit" || got.Best != -1 || got.Shortfall != nil {
		t.Errorf("stopped %q, best %d, shortfall %v; want time-limit, -1, none", got.Stopped, got.Best, got.Shortfall)
	}
	for _, d := range got.Designs {
		if d.Status != "uncertified" || d.Theta0 != 0 {
			t.Errorf("%s: status %q θ0 %v, want uncertified and 0", d.Name, d.Status, d.Theta0)
		}
	}
	if !bytes.Contains(stderr.Bytes(), []byte("not certified: static, rotornet")) {
		t.Errorf("stderr does not name the uncertified designs: %s", stderr.String())
	}
	if code := run([]string{"rdcn", "tradeoff", "--tors", "16", "--uplinks", "2", "--slot", "10us", "--time-limit", "1s"}, &stdout, &stderr); code != 2 {
		t.Errorf("--time-limit with --slot: exit %d, want 2", code)
	}
}

// The n = 128 design question's answer is byte-identical on 1 and 2
// goroutines. The full question takes ~36 s of CPU (docs/mars.md: its
// output was compared with cmp); this one keeps its n = 128 graphs and
// solver but, with 1 MB of buffer and 1 µs and 2 µs slots only, decides
// among the designs that fit: static (d = 8) and Mars d = 16, in rounds
// on 2 goroutines at once.
func TestDesignQuestion128Deterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("two n = 128 design questions (~20 s of CPU)")
	}
	args := []string{"rdcn", "tradeoff", "--tors", "128", "--uplinks", "8", "--link", "400Gbps",
		"--buffer", "1MB", "--delay", "1ms", "--slots", "1us,2us"}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var out [2]bytes.Buffer
	for i, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		var stderr bytes.Buffer
		if code := run(args, &out[i], &stderr); code != 0 {
			t.Fatalf("GOMAXPROCS=%d: exit %d: %s", procs, code, stderr.String())
		}
	}
	if !bytes.Equal(out[0].Bytes(), out[1].Bytes()) {
		t.Errorf("GOMAXPROCS 1 and 2 differ:\n%s\n---\n%s", out[0].String(), out[1].String())
	}
	for _, want := range []string{"mars-16", "recommended"} {
		if !bytes.Contains(out[1].Bytes(), []byte(want)) {
			t.Errorf("answer lacks %q:\n%s", want, out[1].String())
		}
	}
}
