//go:build unix

package app

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

var scheduleArgs = []string{"rdcn", "schedule", "--kind", "rotornet", "--tors", "8", "--uplinks", "2"}

// wantSchedule is what scheduleArgs print on stdout.
func wantSchedule(t *testing.T) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(scheduleArgs, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	return out.Bytes()
}

// TestOutputDevice: -o /dev/null writes to the device and leaves it a
// character device (it used to be replaced by a regular file, as root);
// -o /dev/full reports the full device with exit status 1.
func TestOutputDevice(t *testing.T) {
	for _, dev := range []string{"/dev/null", "/dev/full"} {
		if st, err := os.Stat(dev); err != nil || st.Mode()&os.ModeCharDevice == 0 {
			t.Skipf("%s: not a character device here", dev)
		}
	}
	var out, errb bytes.Buffer
	if code := run(append(scheduleArgs, "-o", "/dev/null"), &out, &errb); code != 0 {
		t.Errorf("-o /dev/null: exit %d: %s", code, errb.String())
	}
	if st, err := os.Lstat("/dev/null"); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no longer a character device: %v %v", st.Mode(), err)
	}
	errb.Reset()
	code := run(append(scheduleArgs, "-o", "/dev/full"), &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "no space left") || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("-o /dev/full: exit %d, stderr %q; want 1 and ENOSPC", code, errb.String())
	}
}

// TestStdoutFull: a failed write to standard output exits 1 in every
// command, including simulate and version, which print without checking.
func TestStdoutFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	dir := t.TempDir()
	for _, args := range [][]string{
		scheduleArgs[1:],
		{"demand", "--pattern", "ring", "--tors", "4"},
		{"throughput", "--kind", "rotornet", "--tors", "8", "--uplinks", "2", "--demand", "uniform"},
		{"bounds", "--kind", "rotornet", "--tors", "8", "--uplinks", "2"},
		{"tradeoff", "--tors", "16", "--uplinks", "2", "--exact=false"},
		{"predict", "--tors", "8", "--uplinks", "2", "--samples", "1", "--matrices", "ring", "--gammas", "1", "--algorithms", "bvn"},
		{"simulate", "--set", "run.sim_time=100us", "-o", filepath.Join(dir, "run")},
		{"version"},
		{"--help"},
	} {
		var errb bytes.Buffer
		code := run(append([]string{"rdcn"}, args...), full, &errb)
		if code != 1 || !strings.Contains(errb.String(), "no space left") {
			t.Errorf("%v > /dev/full: exit %d, stderr %q; want 1", args, code, errb.String())
		}
	}
}

// TestOutputFIFO: -o to a named pipe writes into the pipe (no temporary
// file, no rename), and the pipe stays a pipe.
func TestOutputFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	want := wantSchedule(t)
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo) // blocks until the writer opens
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	var out, errb bytes.Buffer
	if code := run(append(scheduleArgs, "-o", fifo), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	select {
	case b := <-got:
		if !bytes.Equal(b, want) {
			t.Errorf("read %d bytes from the FIFO, want the %d bytes of stdout", len(b), len(want))
		}
	case <-time.After(10 * time.Second): // the reader still waits: nothing opened the pipe
		t.Fatal("the FIFO was never written")
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("%s is no longer a FIFO: %v %v", fifo, st.Mode(), err)
	}
	if ents, _ := os.ReadDir(filepath.Dir(fifo)); len(ents) != 1 {
		t.Errorf("directory holds %d entries, want the FIFO alone", len(ents))
	}
}

// TestOutputSymlink: -o to a symlink replaces the file it points to and
// keeps the link; a dangling link is refused with exit 2.
func TestOutputSymlink(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target.txt"), filepath.Join(dir, "link.txt")
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target.txt", link); err != nil {
		t.Skip("symlink:", err)
	}
	want := wantSchedule(t)
	var out, errb bytes.Buffer
	if code := run(append(scheduleArgs, "-o", link), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symlink", link)
	}
	if b, _ := os.ReadFile(target); !bytes.Equal(b, want) {
		t.Errorf("target holds %q, want the schedule", b)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("nowhere/x", dangling); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if code := run(append(scheduleArgs, "-o", dangling), &out, &errb); code != 2 || !namesField(errb.String(), "output") {
		t.Errorf("dangling symlink: exit %d, stderr %q; want 2 naming output", code, errb.String())
	}
}

// TestSimulateOutputSymlink: `simulate -o LINK` writes into the
// directory the link points to and keeps the link, as the other commands
// do (issue 25, defect 9: the link was replaced by a directory); a
// dangling link is refused with exit 2.
func TestSimulateOutputSymlink(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target"), filepath.Join(dir, "link")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target", link); err != nil {
		t.Skip("symlink:", err)
	}
	for range 2 { // a new directory, then a rerun over the first run
		if st, _, e := rdcnRun(append([]string{"simulate", "-q", "-o", link, "--set", "run.sim_time=1ms"}, smallRun...)...); st != 0 {
			t.Fatalf("exit %d: %s", st, e)
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a symlink", link)
		}
		if _, err := os.Stat(filepath.Join(target, "summary.json")); err != nil {
			t.Errorf("the target holds no summary: %v", err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("left %q", left)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("nowhere/x", dangling); err != nil {
		t.Fatal(err)
	}
	if st, _, e := rdcnRun(append([]string{"simulate", "-q", "-o", dangling, "--set", "run.sim_time=1ms"}, smallRun...)...); st != 2 || !namesField(e, "output") {
		t.Errorf("dangling symlink: exit %d, stderr %q; want 2 naming output", st, e)
	}
}

// TestSimulateRerunAfterReport: `report DIR` then `simulate -o DIR`
// reruns into DIR (issue 25, defect 15: report.html "was not written by
// simulate"); the old report, of the earlier run, goes with it. A file
// rdcn did not write still stops the rerun.
func TestSimulateRerunAfterReport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "o")
	sim := append([]string{"simulate", "-q", "-o", out, "--set", "run.sim_time=1ms"}, smallRun...)
	if st, _, e := rdcnRun(sim...); st != 0 {
		t.Fatalf("exit %d: %s", st, e)
	}
	if st, _, e := rdcnRun("report", out); st != 0 {
		t.Fatalf("report: exit %d: %s", st, e)
	}
	if st, _, e := rdcnRun(sim...); st != 0 {
		t.Fatalf("rerun after report: exit %d: %s", st, e)
	}
	if _, err := os.Stat(filepath.Join(out, "report.html")); err == nil {
		t.Error("the earlier run's report outlived the rerun")
	}
	os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine\n"), 0o644)
	if st, _, e := rdcnRun(sim...); st != 2 || !strings.Contains(e, `"notes.txt"`) {
		t.Errorf("a user's file: exit %d, stderr %q; want 2 naming it", st, e)
	}
}
