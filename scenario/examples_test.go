package scenario

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/fabric"
)

// docExample is one `rdcn simulate` command of the README or docs/*.md.
type docExample struct {
	afterRun bool     // its --config is a results directory's point
	where    string   // file:line
	config   string   // --config, relative to the repository
	sets     []string // --set key=value, in order
}

// docExamples extracts the `rdcn simulate` commands with --set from the
// README and docs/*.md (continuation lines joined). Skipped: usage lines
// ([…]), commands with placeholders (KIND), and commands that set only
// the run's length (run.sim_time, workload.duration), which the test
// overrides.
func docExamples(t *testing.T) []docExample {
	t.Helper()
	files, _ := filepath.Glob("../docs/*.md")
	files = append([]string{"../README.md"}, files...)
	placeholder := regexp.MustCompile(`=[A-Z]{3,}\b`)
	var out []docExample
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i := len(lines) - 2; i >= 0; i-- { // join continuation lines, keeping the numbering
			if strings.HasSuffix(lines[i], "\\") {
				lines[i], lines[i+1] = strings.TrimSuffix(lines[i], "\\")+" "+lines[i+1], ""
			}
		}
		for i, line := range lines {
			for _, cmd := range strings.Split(line, "rdcn simulate ")[1:] {
				if j := strings.IndexAny(cmd, "`|#("); j >= 0 {
					cmd = cmd[:j]
				}
				if strings.Contains(cmd, "[") || placeholder.MatchString(cmd) {
					continue
				}
				ex := docExample{where: filepath.Base(file) + ":" + itoa(i+1)}
				f := strings.Fields(cmd)
				for k := 0; k+1 < len(f); k++ {
					switch f[k] {
					case "--config", "-c":
						ex.config = filepath.Join("..", f[k+1])
						if strings.Contains(f[k+1], "/points/") { // a sweep's output: it exists only after the experiment ran
							ex.afterRun = true
						}
					case "--set":
						ex.sets = append(ex.sets, f[k+1])
					}
				}
				if slices.ContainsFunc(ex.sets, func(s string) bool {
					return !strings.HasPrefix(s, "run.sim_time=") && !strings.HasPrefix(s, "workload.duration=")
				}) {
					out = append(out, ex)
				}
			}
		}
	}
	return out
}

// TestDocExamplesChangeTheResult runs each `rdcn simulate --set …` of
// the README and docs against its baseline (the same --config, or the
// defaults, without the --set keys), and against itself without its last
// key (other than the run's length), and fails if summary.json's
// simulated results (all but the configuration echo and the event count)
// are the same: the keys an example sets, and the one it names last
// (buffer.policy=credence, transport.cc_params=…, routing.mode=vlb), must
// change the run. To keep it
// fast every run, example and baseline, is cut to run.sim_time = 4ms
// with arrivals for 3.2 ms (an override after the example's keys).
func TestDocExamplesChangeTheResult(t *testing.T) {
	examples := docExamples(t)
	if len(examples) < 8 {
		t.Fatalf("found only %d examples: %+v", len(examples), examples)
	}
	short := []string{"run.sim_time=4ms", "workload.duration=3200us"}
	summary := func(ex docExample, sets []string) []byte {
		sets = append(slices.Clone(sets), short...)
		var sp *Spec
		var err error
		if ex.config != "" {
			sp, err = Load(ex.config, sets...)
		} else {
			sp, err = With(sets...)
		}
		if err != nil {
			t.Fatalf("%s: %v", ex.where, err)
		}
		setup, err := sp.Build()
		if err != nil {
			t.Fatalf("%s: %v: %v", ex.where, sets, err)
		}
		r, err := fabric.Run(setup.Config)
		if err != nil {
			t.Fatalf("%s: %v", ex.where, err)
		}
		s, err := r.Summarize(setup.Buckets, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.Events = 0
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, ex := range examples {
		if ex.afterRun {
			t.Logf("%s: skipped: its --config %s is written by an experiment run", ex.where, ex.config)
			continue
		}
		t.Logf("%s: %s %v", ex.where, ex.config, ex.sets)
		got := summary(ex, ex.sets)
		if bytes.Equal(got, summary(ex, nil)) {
			t.Errorf("%s: rdcn simulate %v changes nothing against its baseline", ex.where, ex.sets)
		}
		last := len(ex.sets) - 1
		for strings.HasPrefix(ex.sets[last], "run.sim_time=") || strings.HasPrefix(ex.sets[last], "workload.duration=") {
			last--
		}
		if last > 0 && bytes.Equal(got, summary(ex, slices.Delete(slices.Clone(ex.sets), last, last+1))) {
			t.Errorf("%s: rdcn simulate %v: %s changes nothing", ex.where, ex.sets, ex.sets[last])
		}
	}
}
