package app

import (
	"fmt"
	"io"

	"github.com/rdcn/rdcn/report"
	"github.com/rdcn/rdcn/sweep"
)

// warnPoints writes simulate's completion warning (completionWarning) for
// every simulate point of the results that needs one, as "rdcn CMD: point
// NAME: …".
func warnPoints(w io.Writer, cmd string, r *sweep.Results) {
	if r.Manifest.Kind != "simulate" {
		return
	}
	for _, p := range r.Points {
		sum, err := report.ReadSummary(p.Dir)
		if err != nil {
			continue // an older point without a summary: collect names damaged ones
		}
		if warn := completionWarning(sum); warn != "" {
			fmt.Fprintf(w, "rdcn %s: point %s: %s\n", cmd, p.Name, warn)
		}
	}
}
