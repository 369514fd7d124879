package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runCmd runs rdcn in-process; it returns stdout, stderr and the status.
func runCmd(args ...string) (string, string, int) {
	var out, errw bytes.Buffer
	code := run(append([]string{"rdcn"}, args...), &out, &errw)
	return out.String(), errw.String(), code
}

// TestOperaSimSizeGuard: schedule --format opera-sim estimates its file
// (a path line per ToR pair and slice) and refuses one past
// maxOperaSimBytes without --force, at once and writing nothing (issue
// 25, defect 4: 256 ToRs took 45 s and 4.4 GB for a 771 MB file; 8192 was
// accepted). The estimate's path count is the written file's.
func TestOperaSimSizeGuard(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"256", "8192"} {
		out := filepath.Join(dir, "top"+n+".txt")
		start := time.Now()
		_, stderr, code := runCmd("schedule", "--kind", "opera", "--tors", n, "--uplinks", "4", "--format", "opera-sim", "-o", out)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "rdcn: format: opera-sim: ") || !strings.Contains(stderr, "--force") {
			t.Errorf("%s ToRs: exit %d, stderr %q; want 2 and one line naming format and --force", n, code, stderr)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s ToRs: refused after %v, want at once", n, d)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s ToRs: wrote %s", n, out)
		}
	}
	// The estimate counts the lines: 2 header lines, per slice its
	// circuit line, its index line and n(n−1) paths.
	out := filepath.Join(dir, "top32.txt")
	if _, stderr, code := runCmd("schedule", "--kind", "opera", "--tors", "32", "--uplinks", "4", "--format", "opera-sim", "-o", out); code != 0 {
		t.Fatalf("32 ToRs: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Count(b, []byte("\n")) + 1
	slices := 3 * 32 // Opera at 32 ToRs and 4 uplinks: 8 matchings per switch, 32 superslices
	if want := 2 + 2*slices + 32*31*slices; lines != want {
		t.Errorf("32 ToRs: %d lines, want %d", lines, want)
	}
	if per := float64(len(b)) / float64(32*31*slices); per > operaSimBytesPerPath {
		t.Errorf("32 ToRs: %.1f bytes per path line, more than the estimate's %d", per, operaSimBytesPerPath)
	}
	if err := checkOperaSimSize(256, 256, true); err != nil {
		t.Errorf("--force: %v", err)
	}
	if _, stderr, code := runCmd("schedule", "--kind", "opera", "--tors", "16", "--uplinks", "4", "--force"); code != 2 || !strings.Contains(stderr, "force: is read only with --format opera-sim") {
		t.Errorf("--force without opera-sim: exit %d, %q", code, stderr)
	}
}

// TestReportDamagedFiles: report on a simulate output whose flows.csv,
// timeseries.csv or buffer_cdf.csv is damaged names the file and exits 1
// with one line, writing nothing (issue 25, defect 7: exit 0 with the
// plots missing).
func TestReportDamagedFiles(t *testing.T) {
	src := filepath.Join(t.TempDir(), "run")
	if _, stderr, code := runCmd(append([]string{"simulate", "-q", "-o", src}, smallRun...)...); code != 0 {
		t.Fatalf("simulate: exit %d: %s", code, stderr)
	}
	if _, stderr, code := runCmd("report", "-o", filepath.Join(t.TempDir(), "ok.html"), src); code != 0 {
		t.Fatalf("report on the intact output: exit %d: %s", code, stderr)
	}
	lastLine := func(b []byte) int { return bytes.LastIndexByte(bytes.TrimRight(b, "\n"), '\n') + 1 }
	for _, tc := range []struct {
		name, file string
		damage     func([]byte) []byte
		want       string
	}{
		{"flows.csv, a line of garbage", "flows.csv", func(b []byte) []byte { return append(b, "\x00\x01garbage\n"...) }, "wrong number of fields"},
		{"flows.csv, fct not a number", "flows.csv", func(b []byte) []byte {
			return bytes.Replace(b, []byte(",true,"), []byte(",true,abc"), 1)
		}, `fct_us "abc`},
		{"flows.csv, done neither", "flows.csv", func(b []byte) []byte {
			return bytes.Replace(b, []byte(",true,"), []byte(",yes,"), 1)
		}, `done "yes"`},
		{"timeseries.csv, truncated", "timeseries.csv", func(b []byte) []byte {
			i := lastLine(b)
			return b[:i+bytes.IndexByte(b[i:], ',')+1]
		}, "wrong number of fields"},
		{"timeseries.csv, header only cut", "timeseries.csv", func(b []byte) []byte { return b[:10] }, `no column "host_utilization"`},
		{"buffer_cdf.csv, empty", "buffer_cdf.csv", func([]byte) []byte { return nil }, "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			os.MkdirAll(dir, 0o755)
			entries, _ := os.ReadDir(src)
			for _, e := range entries {
				b, _ := os.ReadFile(filepath.Join(src, e.Name()))
				if e.Name() == tc.file {
					b = tc.damage(b)
				}
				os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644)
			}
			out := filepath.Join(t.TempDir(), "r.html")
			_, stderr, code := runCmd("report", "-o", out, dir)
			if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, filepath.Join(dir, tc.file)) || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 1 and one line naming %s and %q", code, stderr, tc.file, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s written", out)
			}
		})
	}
}

// TestCredenceTrainChecksFirst: credence train without --config, or with
// an output folder that does not exist, is refused before it trains
// (issue 25, defect 13: it trained the default run, then failed with "0
// samples" or on the folder).
func TestCredenceTrainChecksFirst(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join("..", "..", "..", "fabric", "testdata", "credence", "train.toml")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", filepath.Join(dir, "m")}, "rdcn: config: missing"},
		{[]string{"--config", cfg, "-o", filepath.Join(dir, "nope", "m")}, "rdcn: output: \"" + filepath.Join(dir, "nope", "m") + "\": the directory"},
	} {
		start := time.Now()
		_, stderr, code := runCmd(append([]string{"credence", "train"}, tc.args...)...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line starting %q", tc.args, code, stderr, tc.want)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%v: refused after %v: it worked first", tc.args, d)
		}
	}
}
