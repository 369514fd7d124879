package experiment

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReportsNamePathsThatExist: every file an experiment's report text
// names (title, source, reason, published rows, figure titles) — a
// set-up, a flow trace — is a path of the repository that exists, or
// inputs/NAME, one of the Inputs the run writes into its results
// directory; a bare "abm-incast.toml" a reader cannot find fails.
func TestReportsNamePathsThatExist(t *testing.T) {
	file := regexp.MustCompile(`[A-Za-z0-9_./-]+\.(toml|flows|cdf|json)\b`)
	checked := 0
	for _, e := range List() {
		texts := []string{e.Title, e.Source, e.Reason}
		for _, p := range e.Published {
			texts = append(texts, p.What, p.Source, p.Note)
		}
		for _, f := range e.Figures {
			texts = append(texts, f.Title, f.YLabel)
		}
		for _, m := range file.FindAllString(strings.Join(texts, "\n"), -1) {
			checked++
			if name, ok := strings.CutPrefix(m, InputsDir+"/"); ok {
				if _, in := e.Inputs[name]; !in {
					t.Errorf("%s: names %s, which the run does not write", e.Name, m)
				}
				continue
			}
			if _, err := os.Stat(filepath.Join("..", m)); err != nil {
				t.Errorf("%s: names %q, not a path of the repository: %v", e.Name, m, err)
			}
		}
	}
	if checked < 5 {
		t.Errorf("only %d file names found in the experiments' texts", checked)
	}
}
