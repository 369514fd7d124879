//go:build unix

package sweep

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// flockFile holds a flock on path, as another rdcn process would, until
// the test ends.
func flockFile(t *testing.T, path string, how int) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
}

// TestRunRefusesLockedDir: while another run holds the results
// directory's lock, Run refuses with one line and runs nothing; shards of
// the same N run beside each other, not beside a run of the same shard or
// an unsharded run (issue 25, defect 5).
func TestRunRefusesLockedDir(t *testing.T) {
	s := mustParse(t, small)
	dir := filepath.Join(t.TempDir(), "res")
	if err := Prepare(s, dir, nil); err != nil {
		t.Fatal(err)
	}
	refused := func(shard Shard) bool {
		t.Helper()
		out, err := Run(context.Background(), s, Options{Dir: dir, Jobs: 1, Shard: shard})
		if err == nil {
			if len(out.Failed) > 0 {
				t.Errorf("shard %v: %v", shard, out.Failed)
			}
			return false
		}
		if !strings.Contains(err.Error(), "in use by another rdcn sweep") || strings.Contains(err.Error(), "\n") {
			t.Errorf("shard %v: %v", shard, err)
		}
		return true
	}

	flockFile(t, filepath.Join(dir, LockFile), syscall.LOCK_EX) // an unsharded run
	if !refused(Shard{}) || !refused(Shard{0, 2}) {
		t.Error("a run went on beside an unsharded run")
	}
	if n := len(finishedPoints(t, dir)); n != 0 {
		t.Errorf("%d points ran under another run's lock", n)
	}

	dir2 := filepath.Join(t.TempDir(), "res2")
	if err := Prepare(s, dir2, nil); err != nil {
		t.Fatal(err)
	}
	dir = dir2
	flockFile(t, filepath.Join(dir, LockFile), syscall.LOCK_SH) // shard 0/2 runs
	flockFile(t, filepath.Join(dir, LockFile+"-shard-0-of-2"), syscall.LOCK_EX)
	if !refused(Shard{}) || !refused(Shard{0, 2}) {
		t.Error("a run of shard 0/2's points went on beside it")
	}
	if refused(Shard{1, 2}) {
		t.Error("shard 1/2 was refused beside shard 0/2")
	}
	if n := len(finishedPoints(t, dir)); n != s.Size()/2 {
		t.Errorf("shard 1/2 finished %d points, want %d", n, s.Size()/2)
	}
}

func finishedPoints(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	entries, _ := os.ReadDir(filepath.Join(dir, PointsDir))
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(dir, PointsDir, e.Name(), DoneFile)); err == nil {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestStaleFailureCleared: a failure record of a point that has since
// finished (a concurrent run's spurious failure) is removed by the next
// run (issue 25, defect 5).
func TestStaleFailureCleared(t *testing.T) {
	s := mustParse(t, small)
	dir := t.TempDir()
	runSweep(t, s, dir, Options{Jobs: 2})
	p := s.Points()[3].Name
	stale := filepath.Join(dir, FailedDir, p+".txt")
	os.MkdirAll(filepath.Dir(stale), 0o755)
	if err := os.WriteFile(stale, []byte(fmt.Sprintf("point %s: lost its temporary directory\n", p)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runSweep(t, s, dir, Options{Jobs: 2})
	if out.Skipped != s.Size() {
		t.Fatalf("rerun skipped %d of %d", out.Skipped, s.Size())
	}
	if _, err := os.Stat(stale); err == nil {
		t.Errorf("%s outlived the point's success", stale)
	}
}
