package experiment

import (
	"fmt"
	"io"

	"github.com/rdcn/rdcn/sweep"
)

// WritePublished prints e's published values beside ours from the results
// in dir as a Markdown table (what, published, ours, source), the table of
// its report; nothing when e quotes none.
func WritePublished(w io.Writer, e *Experiment, dir string) error {
	if len(e.Published) == 0 {
		return nil
	}
	r, err := sweep.Collect(dir)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintln(w, "| what | published | ours | source |\n|---|---|---|---|"); err != nil {
		return err
	}
	for _, p := range e.Published {
		v, ours := p.Format(r)
		if _, err := fmt.Fprintf(w, "| %s | %s | %s | %s |\n", p.What, v, ours, p.Source); err != nil {
			return err
		}
	}
	return nil
}
