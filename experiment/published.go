package experiment

import (
	"fmt"
	"io"
	"strings"

	"github.com/rdcn/rdcn/report"
	"github.com/rdcn/rdcn/sweep"
)

// WritePublished prints e's published values beside ours from the results
// in dir: the verdict headline ("k of n published values reproduced, m
// same direction only"), then a Markdown table (verdict, what, published,
// band, ours, per seed, source), the table of its report; nothing when e
// quotes none.
func WritePublished(w io.Writer, e *Experiment, dir string) error {
	if len(e.Published) == 0 {
		return nil
	}
	r, err := sweep.Collect(dir)
	if err != nil {
		return err
	}
	js := report.JudgeAll(e.Published, r)
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", e.Name, report.Count(js).Headline())
	fmt.Fprintln(&b, "| verdict | what | published | band | ours | per seed | source |\n|---|---|---|---|---|---|---|")
	for _, j := range js {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", j.Verdict.Word(), j.What, j.Value, j.Band, j.Ours, report.FormatPerSeed(j.PerSeed), j.Source)
	}
	_, err = io.WriteString(w, b.String())
	return err
}
