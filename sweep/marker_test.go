package sweep

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestResumeRerunsDamagedFiles: a point whose files no longer match the
// SHA-256 in its done marker (metrics.csv deleted, summary.json garbled)
// is run again on resume, and the results are the first run's (issue 25,
// defect 8: the marker alone was trusted, the sweep said "all done" and
// collect failed on every rerun).
func TestResumeRerunsDamagedFiles(t *testing.T) {
	text := strings.Replace(small, "seed = [1, 2]\n", "", 1)
	s := mustParse(t, text)
	dir := t.TempDir()
	runSweep(t, s, dir, Options{Jobs: 2, SpecText: []byte(text)})
	want := csvOf(t, dir)
	pts := s.Points()
	os.Remove(filepath.Join(dir, PointsDir, pts[1].Name, MetricsFile))
	sum := filepath.Join(dir, PointsDir, pts[4].Name, "summary.json")
	b, err := os.ReadFile(sum)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x20
	os.WriteFile(sum, b, 0o644)
	if r, _ := Collect(dir); len(r.Corrupt) != 2 || !strings.Contains(r.Corrupt[1].Error(), "summary.json: its content differs") {
		t.Errorf("collect before the rerun: corrupt %v, want both damaged points, named", r.Corrupt)
	}
	var log bytes.Buffer
	out := runSweep(t, s, dir, Options{Jobs: 2, Log: &log})
	if out.Ran != 2 || out.Skipped != len(pts)-2 {
		t.Fatalf("resumed: ran %d, skipped %d; want 2 and %d\n%s", out.Ran, out.Skipped, len(pts)-2, log.String())
	}
	for _, w := range []string{pts[1].Name + ": " + MetricsFile + ": no such file", pts[4].Name + ": summary.json: its content differs"} {
		if !strings.Contains(log.String(), w) {
			t.Errorf("log does not say %q:\n%s", w, log.String())
		}
	}
	if got := csvOf(t, dir); got != want {
		t.Errorf("results after the rerun differ from the first run's")
	}
	// The marker checks with sha256sum, an independent implementation.
	if _, err := exec.LookPath("sha256sum"); err == nil {
		pd := filepath.Join(dir, PointsDir, pts[4].Name)
		done, _ := os.ReadFile(filepath.Join(pd, DoneFile))
		lines := strings.SplitN(string(done), "\n", 2)
		if lines[0] != pts[4].ConfigHash(s.Kind) || !strings.Contains(lines[1], "  summary.json\n") {
			t.Fatalf("marker %q", done)
		}
		cmd := exec.Command("sha256sum", "--strict", "-c", "-")
		cmd.Dir, cmd.Stdin = pd, strings.NewReader(lines[1])
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("sha256sum -c: %v\n%s", err, out)
		}
	}
	// A marker of the config hash alone (written before file hashes) is
	// accepted unchecked.
	os.WriteFile(filepath.Join(dir, PointsDir, pts[0].Name, DoneFile), []byte(pts[0].ConfigHash(s.Kind)+"\n"), 0o644)
	if out := runSweep(t, s, dir, Options{Jobs: 2}); out.Ran != 0 {
		t.Errorf("a legacy marker was not accepted: ran %d", out.Ran)
	}
}
