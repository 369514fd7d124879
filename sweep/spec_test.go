package sweep

import (
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, spec, want string }{
		{"unknown key on an axis", "kind = \"simulate\"\n[axes]\n\"workload.lod\" = [0.1]\n",
			`axes."workload.lod": "workload.lod": unknown key`},
		{"empty axis", "kind = \"simulate\"\n[axes]\n\"workload.load\" = []\n", `axes."workload.load": empty axis`},
		{"unknown kind", "kind = \"simulat\"\n", `kind: "simulat": unknown`},
		{"no kind", "[axes]\n", "kind: missing"},
		{"scalar axis", "kind = \"simulate\"\n[axes]\n\"workload.load\" = 0.1\n", "must be a list of values"},
		{"repeated value", "kind = \"simulate\"\n[axes]\n\"workload.load\" = [0.1, 0.1]\n", `value "0.1" appears twice`},
		{"bad base key", "kind = \"simulate\"\n[base]\n\"topology.torz\" = 4\n", `base.topology.torz`},
		{"two axes one key", "kind = \"simulate\"\n[axes]\n\"schedule.kind\" = [\"opera\"]\n[[axes.d]]\nname = \"x\"\n\"schedule.kind\" = \"mars\"\n", "which axis"},
		{"variant without name", "kind = \"simulate\"\n[[axes.d]]\n\"schedule.kind\" = \"mars\"\n", "missing: each variant needs a name"},
		{"bad replicate", "kind = \"simulate\"\n[axes]\nseed = [\"a\"]\n", "replicate"},
		{"bad fixed replicate", "kind = \"simulate\"\n[[axes.seed]]\nname = \"one\"\n\"run.seed\" = 1\n", `replicate "one"`},
		{"unknown top-level", "kind = \"simulate\"\nbogus = 1\n", `"bogus": unknown top-level key`},
		{"negative seed", "kind = \"simulate\"\nseed = -1\n", "seed: must be a non-negative integer"},
		{"syntax", "kind = \n", "spec: "},
		{"throughput key", "kind = \"throughput\"\n[axes]\n\"workload.load\" = [0.1]\n", `unknown key "workload.load"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.spec))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestParseShard(t *testing.T) {
	for _, bad := range []string{"5/4", "4/4", "-1/4", "1/0", "1", "a/b", "1/2/3", ""} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
	sh, err := ParseShard("1/4")
	if err != nil || sh != (Shard{1, 4}) {
		t.Fatalf("ParseShard(1/4) = %v, %v", sh, err)
	}
	// The shards of N partition the points.
	for i := range 20 {
		n := 0
		for s := range 4 {
			if (Shard{s, 4}).Has(i) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("point %d in %d of 4 shards", i, n)
		}
	}
}

const twoAxes = `kind = "simulate"
seed = 7
[base]
"run.sim_time" = "1ms"
[axes]
"workload.load" = [0.1, 0.3]
"buffer.policy" = ["dt", "cs"]
seed = [1, 2]
[[axes.design]]
name = "opera"
"schedule.kind" = "opera"
"routing.mode" = "paths"
`

func TestPoints(t *testing.T) {
	s, err := Parse(strings.NewReader(twoAxes))
	if err != nil {
		t.Fatal(err)
	}
	pts := s.Points()
	if len(pts) != 8 || s.Size() != 8 {
		t.Fatalf("%d points, want 8", len(pts))
	}
	if pts[0].Name != "load=0.1_policy=dt_seed=1_design=opera" || pts[7].Name != "load=0.3_policy=cs_seed=2_design=opera" {
		t.Errorf("names %q … %q", pts[0].Name, pts[7].Name)
	}
	get := func(p Point, k string) string {
		for _, kv := range p.Config {
			if kv[0] == k {
				return kv[1]
			}
		}
		return ""
	}
	names := map[string]bool{}
	for _, p := range pts {
		if names[p.Name] {
			t.Errorf("duplicate name %s", p.Name)
		}
		names[p.Name] = true
		if get(p, "schedule.kind") != "opera" || get(p, "run.sim_time") != "1ms" {
			t.Errorf("%s: config %v lacks the base or the variant", p.Name, p.Config)
		}
	}
	// Common random numbers: the seed depends on the replicate only.
	if pts[0].Seed != pts[2].Seed || pts[0].Seed == pts[1].Seed {
		t.Errorf("seeds %d %d %d: want equal across policies, different across replicates", pts[0].Seed, pts[2].Seed, pts[1].Seed)
	}
	if ws, rs := get(pts[0], "workload.seed"), get(pts[0], "run.seed"); ws == "" || ws == rs {
		t.Errorf("derived seeds workload %q run %q: want set and distinct", ws, rs)
	}
	// Another sweep seed changes the seeds, and the hash.
	s2, _ := Parse(strings.NewReader(strings.Replace(twoAxes, "seed = 7", "seed = 8", 1)))
	if s2.Points()[0].Seed == pts[0].Seed || s2.Hash() == s.Hash() {
		t.Error("the sweep seed does not reach the points or the hash")
	}
	// Formatting does not change the hash.
	s3, _ := Parse(strings.NewReader("# a comment\n" + strings.ReplaceAll(twoAxes, " = ", "=")))
	if s3.Hash() != s.Hash() {
		t.Error("comments and spacing change the spec hash")
	}
}

// TestFixedSeedReplicates: a compound seed axis names replicates; one
// that sets a seed key keeps it (an earlier run reproduced), one that sets
// none derives every seed key from its replicate number as a plain seed
// axis does, and the results split by replicate.
func TestFixedSeedReplicates(t *testing.T) {
	const spec = `kind = "simulate"
seed = 7
[axes]
"buffer.policy" = ["dt", "cs"]
[[axes.seed]]
name = "1"
"workload.seed" = 3
"run.seed" = 1
[[axes.seed]]
name = "2"
`
	s, err := Parse(strings.NewReader(spec))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := Parse(strings.NewReader(twoAxes))
	var derived Point // replicate 2 of the plain seed axis, sweep seed 7
	for _, p := range plain.Points() {
		if strings.Contains(p.Name, "seed=2") {
			derived = p
		}
	}
	get := func(p Point, k string) string {
		for _, kv := range p.Config {
			if kv[0] == k {
				return kv[1]
			}
		}
		return ""
	}
	pts := s.Points()
	if len(pts) != 4 || pts[0].Name != "policy=dt_seed=1" || pts[3].Name != "policy=cs_seed=2" {
		t.Fatalf("points %v", pts)
	}
	for _, p := range pts {
		switch {
		case strings.HasSuffix(p.Name, "seed=1"):
			if get(p, "workload.seed") != "3" || get(p, "run.seed") != "1" {
				t.Errorf("%s: seeds %v, want the fixed 3 and 1", p.Name, p.Config)
			}
		case p.Seed != derived.Seed || get(p, "workload.seed") != get(derived, "workload.seed") || get(p, "run.seed") != get(derived, "run.seed"):
			t.Errorf("%s: seed %d, workload %s, run %s; a plain seed axis's replicate 2 has %d, %s, %s", p.Name, p.Seed,
				get(p, "workload.seed"), get(p, "run.seed"), derived.Seed, get(derived, "workload.seed"), get(derived, "run.seed"))
		}
	}
}

func TestAxisLabelsDisambiguate(t *testing.T) {
	s, err := Parse(strings.NewReader("kind = \"simulate\"\n[axes]\n\"workload.seed\" = [1]\n\"run.seed\" = [2]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Points()[0].Name; got != "workload.seed=1_run.seed=2" {
		t.Errorf("name %q", got)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(twoAxes)
	f.Add("kind = \"throughput\"\n[axes]\n\"topology.tors\" = [8, 16]\n")
	f.Add("kind = \"simulate\"\n[axes]\n\"workload.load\" = []\n")
	f.Add("kind = \"tradeoff\"\n[[axes.x]]\nname = \"a\"\n\"tradeoff.degree\" = 4\n")
	// Issue 25: huge sizes, a value repeated at the end of a long axis.
	f.Add("kind=\"throughput\"\n[base]\n\"schedule.kind\"=\"rotornet\"\n\"topology.uplinks\"=2\n[axes]\n\"topology.tors\"=[100000, 9000]\n")
	f.Add("kind=\"predict\"\n[axes]\n\"topology.tors\"=[1000000000]\n\"predict.samples\"=[9223372036854775807]\n")
	f.Add(longAxis(1000, true))
	f.Fuzz(func(t *testing.T, text string) {
		s, err := Parse(strings.NewReader(text))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if s.Size() > MaxPoints || s.Size() < 1 {
			t.Fatalf("size %d", s.Size())
		}
		if s.Size() <= 1000 {
			seen := map[string]bool{}
			for _, p := range s.Points() {
				if seen[p.Name] {
					t.Fatalf("duplicate point name %q", p.Name)
				}
				seen[p.Name] = true
			}
		}
	})
}
