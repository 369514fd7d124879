package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExperimentReport runs extend-compare at the quick scale (24 short
// points) and checks that its report names the three new components
// beside the built-ins they are compared with.
func TestExperimentReport(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the quick experiment takes about 15 s of CPU")
	}
	dir := filepath.Join(t.TempDir(), "out")
	runMain(t, "experiment", "run", "--quick", "-o", dir, "extend-compare")
	b, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"harmonic", "swift", "random-rotor", "dt", "lqd", "dctcp", "rotornet"} {
		if !strings.Contains(string(b), name) {
			t.Errorf("report.html does not name %s", name)
		}
	}
}
