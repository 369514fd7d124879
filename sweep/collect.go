package sweep

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rdcn/rdcn/stats"
)

// Results are the finished points of one sweep, gathered from one or more
// results directories (the shards of a cluster run).
type Results struct {
	Manifest Manifest
	SpecText []byte // sweep.toml of the first directory, if any
	Points   []Finished
	Missing  []string // points no directory holds finished
	Corrupt  []error  // point directories named and skipped
}

// Finished is one finished point.
type Finished struct {
	Index   int
	Name    string
	Values  []string // in axis order
	Dir     string   // its directory
	Metrics []Metric
}

// Collect reads the finished points of the results directories. They
// must all hold the same sweep (spec hash); a point directory that is
// incomplete or unreadable is skipped and named in Corrupt.
func Collect(dirs ...string) (*Results, error) {
	if len(dirs) == 0 {
		return nil, errf("arguments", "no results directory given")
	}
	r := &Results{}
	var expect map[string]string // point name → config hash, from sweep.toml
	for i, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, ManifestFile))
		if err != nil {
			return nil, errf("results", "%s: not a sweep results directory (%s: %v)", d, ManifestFile, errText(err))
		}
		var m Manifest
		if err := json.Unmarshal(b, &m); err != nil || m.Format != ManifestFormat {
			return nil, errf("results", "%s: %s is not an %s manifest", d, ManifestFile, ManifestFormat)
		}
		if i == 0 {
			r.Manifest = m
			if text, err := os.ReadFile(filepath.Join(d, SpecFile)); err == nil {
				r.SpecText = text
				if s, err := Parse(bytes.NewReader(text)); err == nil && s.Hash() == m.SpecHash {
					expect = map[string]string{}
					for _, p := range s.Points() {
						expect[p.Name] = p.ConfigHash(s.Kind)
					}
				}
			}
		} else if m.SpecHash != r.Manifest.SpecHash {
			return nil, errf("results", "%s holds a different sweep (spec hash %.12s) than %s (%.12s)", d, m.SpecHash, dirs[0], r.Manifest.SpecHash)
		}
	}
	index := map[string]int{}
	for i, n := range r.Manifest.Points {
		index[n] = i
	}
	found := map[string]Finished{}
	for _, d := range dirs {
		entries, err := os.ReadDir(filepath.Join(d, PointsDir))
		if err != nil {
			return nil, errf("results", "%s: %v", d, errText(err))
		}
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") { // a point being written
				continue
			}
			pd := filepath.Join(d, PointsDir, name)
			i, known := index[name]
			if !known || !e.IsDir() {
				r.Corrupt = append(r.Corrupt, fmt.Errorf("%s: not a point of this sweep", pd))
				continue
			}
			if _, dup := found[name]; dup {
				continue // another shard's copy: the first directory wins
			}
			f, err := readPoint(pd, expect[name])
			if err != nil {
				r.Corrupt = append(r.Corrupt, fmt.Errorf("%s: %v", pd, err))
				continue
			}
			f.Index, f.Name, f.Dir = i, name, pd
			found[name] = f
		}
	}
	for _, n := range r.Manifest.Points {
		if f, ok := found[n]; ok {
			r.Points = append(r.Points, f)
		} else {
			r.Missing = append(r.Missing, n)
		}
	}
	return r, nil
}

// readPoint checks a point directory: a done marker (matching want when
// known), point.json and metrics.csv.
func readPoint(dir, want string) (Finished, error) {
	var f Finished
	done, err := os.ReadFile(filepath.Join(dir, DoneFile))
	if err != nil {
		return f, fmt.Errorf("no %s marker: unfinished or damaged", DoneFile)
	}
	if want != "" && strings.TrimSpace(string(done)) != want {
		return f, fmt.Errorf("%s marker does not match the point's configuration", DoneFile)
	}
	b, err := os.ReadFile(filepath.Join(dir, PointFile))
	if err != nil {
		return f, fmt.Errorf("%s: %v", PointFile, errText(err))
	}
	var pr pointRecord
	if err := json.Unmarshal(b, &pr); err != nil {
		return f, fmt.Errorf("%s: %v", PointFile, err)
	}
	f.Values = pr.Values
	mf, err := os.Open(filepath.Join(dir, MetricsFile))
	if err != nil {
		return f, fmt.Errorf("%s: %v", MetricsFile, errText(err))
	}
	defer mf.Close()
	recs, err := csv.NewReader(mf).ReadAll()
	if err != nil {
		return f, fmt.Errorf("%s: %v", MetricsFile, err)
	}
	if len(recs) == 0 || !slices.Equal(recs[0], []string{"metric", "value"}) {
		return f, fmt.Errorf("%s: want the header metric,value", MetricsFile)
	}
	for i, rec := range recs[1:] {
		v, err := strconv.ParseFloat(rec[1], 64)
		if err != nil {
			return f, fmt.Errorf("%s line %d: %q is not a number", MetricsFile, i+2, rec[1])
		}
		f.Metrics = append(f.Metrics, Metric{rec[0], v})
	}
	return f, nil
}

func errText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// Header is the tidy table's header: point, one column per axis, metric,
// value.
func (r *Results) Header() []string {
	h := []string{"point"}
	for _, a := range r.Manifest.Axes {
		h = append(h, a.Name)
	}
	return append(h, "metric", "value")
}

// Rows are the tidy table: one row per point and metric, points in sweep
// order, metrics in the order the kind reports them.
func (r *Results) Rows() [][]string {
	var rows [][]string
	for _, p := range r.Points {
		for _, m := range p.Metrics {
			row := append([]string{p.Name}, p.Values...)
			rows = append(rows, append(row, m.Name, stats.FormatFloat(m.Value)))
		}
	}
	return rows
}

// WriteCSV writes the tidy table.
func (r *Results) WriteCSV(w io.Writer) error {
	return stats.WriteCSV(w, r.Header(), r.Rows())
}

// Replicates splits the results by the replicate axis (ReplicateAxis):
// one Results per value that has points, in the axis's order, holding that
// replicate's points and the axis with that value only; nil without a
// replicate axis.
func (r *Results) Replicates() []*Results {
	ai := slices.IndexFunc(r.Manifest.Axes, func(a ManifestAxis) bool { return a.Name == ReplicateAxis })
	if ai < 0 {
		return nil
	}
	var out []*Results
	for _, v := range r.Manifest.Axes[ai].Values {
		sub := &Results{Manifest: r.Manifest, SpecText: r.SpecText}
		sub.Manifest.Axes = slices.Clone(r.Manifest.Axes)
		sub.Manifest.Axes[ai].Values = []string{v}
		for _, p := range r.Points {
			if p.Values[ai] == v {
				sub.Points = append(sub.Points, p)
			}
		}
		if len(sub.Points) > 0 {
			out = append(out, sub)
		}
	}
	return out
}
