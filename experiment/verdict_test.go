package experiment

import (
	"bytes"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/report"
	"github.com/rdcn/rdcn/sweep"
)

// TestEveryPublishedValueHasAVerdict walks every registered experiment's
// published values: each declares a tolerance with its reason, and the
// report of the experiment's sweep (no point finished: nothing of ours)
// shows every row with a verdict — within band, same direction, differs or
// no value for a number or a claim, "no claim" only where the paper quotes
// neither — and the headline counts them.
func TestEveryPublishedValueHasAVerdict(t *testing.T) {
	row := regexp.MustCompile(`<tr><td class="verdict [a-z-]+" data-verdict="([a-z ]+)">`)
	for _, e := range List() {
		if !e.Available {
			continue
		}
		s, err := sweep.Parse(strings.NewReader(e.Spec(Scale{Quick: true, Inputs: "/inputs"})))
		if err != nil {
			t.Fatal(err)
		}
		r := &sweep.Results{Manifest: s.Manifest()}
		var b bytes.Buffer
		if err := report.Sweep(&b, r, report.Info{Published: e.Published}); err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		got := row.FindAllStringSubmatch(b.String(), -1)
		if len(got) != len(e.Published) {
			t.Errorf("%s: %d rows with a verdict, %d published values", e.Name, len(got), len(e.Published))
			continue
		}
		n := 0
		for i, p := range e.Published {
			if p.Tol.Why == "" {
				t.Errorf("%s: %q declares no tolerance", e.Name, p.What)
			}
			want := "no value"
			if math.IsNaN(p.Value) && p.Tol.Sense == 0 {
				want = "no claim"
			} else {
				n++
			}
			if got[i][1] != want {
				t.Errorf("%s: %q shows %q, want %q", e.Name, p.What, got[i][1], want)
			}
		}
		if h := (report.Tally{N: n, NotRun: n}).Headline(); !strings.Contains(b.String(), h) {
			t.Errorf("%s: no headline %q", e.Name, h)
		}
	}
}

// TestSeedsByDefault: every available experiment runs at least 3 seeds
// at the full scale and 2 at the quick one (a seed axis), unless it says
// why not: it is deterministic. A quick scale whose replicate 1 keeps
// run.sh's seeds (QuickFixedSeed) gives that replicate run.seed 1, and its
// replicate 2 other seeds.
func TestSeedsByDefault(t *testing.T) {
	for _, e := range List() {
		if !e.Available {
			continue
		}
		for _, quick := range []bool{false, true} {
			s, err := sweep.Parse(strings.NewReader(e.Spec(Scale{Quick: quick, Inputs: "/inputs"})))
			if err != nil {
				t.Fatal(err)
			}
			seeds := 1
			for _, a := range s.Manifest().Axes {
				if a.Name == sweep.ReplicateAxis {
					seeds = len(a.Values)
				}
			}
			if quick && e.QuickFixedSeed != "" {
				checkFixedReplicate(t, e.Name, s.Points())
			}
			switch want := map[bool]int{false: 3, true: 2}[quick]; {
			case e.Deterministic != "":
				if seeds != 1 {
					t.Errorf("%s (quick %v): deterministic, yet %d seeds", e.Name, quick, seeds)
				}
			case seeds < want:
				t.Errorf("%s (quick %v): %d seeds, want at least %d", e.Name, quick, seeds, want)
			}
		}
	}
}

// checkFixedReplicate: every point of replicate 1 has run.seed 1 (run.sh's
// and docs/cc.md's runs), every point of replicate 2 another run.seed, and
// another workload.seed where replicate 1 sets one.
func checkFixedReplicate(t *testing.T, name string, pts []sweep.Point) {
	t.Helper()
	get := func(p sweep.Point, k string) string {
		for _, kv := range p.Config {
			if kv[0] == k {
				return kv[1]
			}
		}
		return ""
	}
	var one map[string]string
	for _, p := range pts {
		if strings.Contains(p.Name, "seed=1") {
			if get(p, "run.seed") != "1" {
				t.Errorf("%s (quick) %s: run.seed %q, want run.sh's 1", name, p.Name, get(p, "run.seed"))
			}
			one = map[string]string{"run.seed": get(p, "run.seed"), "workload.seed": get(p, "workload.seed")}
		}
	}
	for _, p := range pts {
		if !strings.Contains(p.Name, "seed=2") {
			continue
		}
		for k, v := range one {
			if v != "" && get(p, k) == v {
				t.Errorf("%s (quick) %s: %s %s, the same as replicate 1's", name, p.Name, k, v)
			}
		}
	}
}
