package report_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/rdcn/rdcn/report"
	"github.com/rdcn/rdcn/sweep"
)

// A report of a small throughput sweep: one self-contained HTML page.
func ExampleSweep() {
	text := "kind = \"throughput\"\n[axes]\n\"topology.tors\" = [8, 16]\n"
	s, _ := sweep.Parse(strings.NewReader(text))
	dir, _ := tempDir()
	sweep.Run(context.Background(), s, sweep.Options{Dir: dir, Jobs: 1, SpecText: []byte(text)})
	r, _ := sweep.Collect(dir)
	var b bytes.Buffer
	if err := report.Sweep(&b, r, report.Info{Version: "v1"}); err != nil {
		fmt.Println(err)
		return
	}
	page := b.String()
	fmt.Println(strings.Contains(page, "<svg"), strings.Contains(page, "<script"), strings.Contains(page, "rdcn v1"))
	// Output: true false true
}

func tempDir() (string, error) { return os.MkdirTemp("", "report-example") }
