package report_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdcn/rdcn/report"
	"github.com/rdcn/rdcn/sweep"
)

// pointFiles are the files of a simulate sweep point the fuzz damages.
var pointFiles = []string{"summary.json", "timeseries.csv", "buffer_cdf.csv", "fct_cdf.csv", sweep.MetricsFile}

// FuzzReportCorruptPoint damages one file of a finished simulate sweep
// point (fuzzed content) and reports on it: report.Run never panics, a
// failure is one line, a *report.DamagedError names the damaged file, and
// sweep.Collect lists the point as damaged whenever its content changed
// (issue 25, defects 7 and 8).
func FuzzReportCorruptPoint(f *testing.F) {
	f.Add(uint8(1), []byte("time_us,host_utilization,circuit_utilization,buffer_mean_bytes,voq_mean_bytes\n0,0.1,0.2,3"))
	f.Add(uint8(1), []byte("time_us,host_utilization,circuit_utilization,buffer_mean_bytes,voq_mean_bytes\n0,NaN,1e400,-1,x\n"))
	f.Add(uint8(2), []byte{})
	f.Add(uint8(2), []byte("\x00\x00\x00"))
	f.Add(uint8(2), []byte("what,bytes,cdf\ntor_buffer,1e308,2\nvoq,-5,NaN\n"))
	f.Add(uint8(0), []byte(`{"format":"rdcn.simulate/v1"`))
	f.Add(uint8(0), []byte(`{"format":"rdcn.simulate/v1","fct":[{"bucket":"x"}]}`))
	f.Add(uint8(3), []byte("fct_us,cdf\n1,0.5\n2\n"))
	f.Add(uint8(4), []byte("metric,value\nx,notanumber\n"))
	finished := f.TempDir()
	if err := finishedSweep(finished); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, which uint8, content []byte) {
		res := t.TempDir()
		if err := os.CopyFS(res, os.DirFS(finished)); err != nil {
			t.Fatal(err)
		}
		r, err := sweep.Collect(res)
		if err != nil || len(r.Points) == 0 {
			t.Fatalf("collect: %v", err)
		}
		pt := r.Points[0]
		name := pointFiles[int(which)%len(pointFiles)]
		path := filepath.Join(pt.Dir, name)
		old, _ := os.ReadFile(path)
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		err = report.Run(io.Discard, pt.Dir, report.Info{})
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("multi-line error %q", err)
		}
		var de *report.DamagedError
		if errors.As(err, &de) && de.Path != path {
			t.Fatalf("damage in %s blamed on %s", name, de.Path)
		}
		if r, err := sweep.Collect(res); err != nil || (!bytes.Equal(old, content) && len(r.Corrupt) != 1) {
			t.Fatalf("collect after damaging %s: corrupt %v, err %v; want the point", name, r.Corrupt, err)
		}
	})
}

// finishedSweep runs the package's small simulate sweep into dir.
func finishedSweep(dir string) error {
	s, err := sweep.Parse(strings.NewReader(spec))
	if err != nil {
		return err
	}
	_, err = sweep.Run(context.Background(), s, sweep.Options{Dir: dir, Jobs: 2, SpecText: []byte(spec)})
	return err
}

// TestReportOddValues: values no rdcn output holds — ±1e308 (which hung
// the plot's tick computation), Inf — are damage naming the file and the
// column; a lone positive point on a log axis (which panicked in the
// plotting library) is drawn or refused with one line, never a panic.
func TestReportOddValues(t *testing.T) {
	fin := t.TempDir()
	if err := finishedSweep(fin); err != nil {
		t.Fatal(err)
	}
	r, err := sweep.Collect(fin)
	if err != nil {
		t.Fatal(err)
	}
	const tsHeader = "time_us,host_utilization,circuit_utilization,buffer_mean_bytes,voq_mean_bytes\n"
	for _, tc := range []struct{ file, content, want string }{
		{"timeseries.csv", tsHeader + "0,1e308,1,1,1\n1,-1e308,1,1,1\n", `host_utilization "1e308" is beyond`},
		{"timeseries.csv", tsHeader + "Inf,1,1,1,1\n", `time_us "Inf" is beyond`},
		{"buffer_cdf.csv", "what,bytes,cdf\ntor_buffer,1e400,0.5\n", `bytes "1e400" is beyond`},
		{"buffer_cdf.csv", "what,bytes,cdf\ntor_buffer,Inf,0.5\ntor_buffer,1,1\n", `bytes "Inf" is beyond`},
	} {
		dir := t.TempDir()
		os.CopyFS(dir, os.DirFS(r.Points[0].Dir))
		os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.content), 0o644)
		done := make(chan error, 1)
		go func() { done <- report.Run(io.Discard, dir, report.Info{}) }()
		select {
		case err := <-done:
			var de *report.DamagedError
			if !errors.As(err, &de) || de.Path != filepath.Join(dir, tc.file) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s %q: %v; want damage naming it and %q", tc.file, tc.content, err, tc.want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s %q: report.Run still running after 30 s", tc.file, tc.content)
		}
	}
	dir := t.TempDir()
	os.CopyFS(dir, os.DirFS(r.Points[0].Dir))
	os.WriteFile(filepath.Join(dir, "buffer_cdf.csv"), []byte("what,bytes,cdf\ntor_buffer,1,1\n"), 0o644)
	if err := report.Run(io.Discard, dir, report.Info{}); err != nil && strings.Contains(err.Error(), "\n") {
		t.Errorf("a lone point: %q", err)
	}
}
