package experiment

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/sweep"
)

// TestFBIsRunSh checks the fb experiment's quick points against
// scenario/testdata/buffers/run.sh's fb section, the independent source of
// the same runs: its deployments, each deployment's policies and the keys
// it sets or clears.
func TestFBIsRunSh(t *testing.T) {
	b, err := os.ReadFile("../scenario/testdata/buffers/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	sh := string(b[strings.Index(string(b), "want fb"):])
	deps := regexp.MustCompile(`for dep in ([^;]+);`).FindStringSubmatch(sh)[1]
	multiPols := strings.Fields(regexp.MustCompile(`\tpols="([^"]+)"`).FindStringSubmatch(sh)[1])
	singlePols := strings.Fields(regexp.MustCompile(`then pols="([^"]+)"`).FindStringSubmatch(sh)[1])
	type run struct{ queues, cc, policy string }
	var want []run
	for _, dep := range strings.Fields(deps) { // multi:3:tcp …
		f := strings.Split(dep, ":")
		pols := multiPols
		if f[0] == "single" {
			pols = singlePols
		}
		cc := "newreno"
		if f[2] == "dctcp" {
			cc = "dctcp"
		}
		for _, p := range pols {
			want = append(want, run{f[1], cc, p})
		}
	}
	e, _ := Lookup("fb")
	s, err := sweep.Parse(strings.NewReader(e.Spec(Scale{Quick: true})))
	if err != nil {
		t.Fatal(err)
	}
	var pts []sweep.Point // replicate 1: run.sh's runs, seeds included
	for _, p := range s.Points() {
		if p.Values[len(p.Values)-1] == "1" {
			pts = append(pts, p)
		}
	}
	if len(pts) != 2*len(want) || s.Size() != 2*len(pts) {
		t.Fatalf("%d points in replicate 1 of %d, run.sh runs %d", len(pts), s.Size(), 2*len(want))
	}
	var got []run
	for _, p := range pts {
		c := map[string]string{}
		for _, kv := range p.Config {
			c[kv[0]] = kv[1]
		}
		if c["run.seed"] != "1" || c["workload.seed"] != "1" {
			t.Errorf("%s: seeds %s, %s; run.sh's are 1, 1", p.Name, c["run.seed"], c["workload.seed"])
		}
		r := run{c["topology.queues_per_port"], c["transport.cc"], c["buffer.policy"]}
		if c["workload.load"] == "0.18" {
			got = append(got, r)
		}
		_, hasHi := c["buffer.hi_queues"]
		if wantHi := !slices.Contains([]string{"cs", "fab", "ib"}, r.policy); hasHi != wantHi {
			t.Errorf("%s: buffer.hi_queues set %v, run.sh %v", p.Name, hasHi, wantHi)
		}
		if _, has := c["topology.incast_queue"]; has != (r.queues == "3") {
			t.Errorf("%s: topology.incast_queue set %v with %s queues", p.Name, has, r.queues)
		}
		if _, has := c["buffer.ecn_threshold"]; has != (r.cc == "dctcp") {
			t.Errorf("%s: buffer.ecn_threshold set %v with %s", p.Name, has, r.cc)
		}
	}
	less := func(a, b run) int { return strings.Compare(a.queues+a.cc+a.policy, b.queues+b.cc+b.policy) }
	slices.SortFunc(got, less)
	slices.SortFunc(want, less)
	if !slices.Equal(got, want) {
		t.Errorf("runs at high load:\n got %v\nwant %v", got, want)
	}
}
