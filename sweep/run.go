package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rdcn/rdcn/internal/cputime"
	"github.com/rdcn/rdcn/internal/fsfail"
	"github.com/rdcn/rdcn/stats"
	"github.com/schollz/progressbar/v3"
)

// Files of a results directory.
const (
	ManifestFile = "sweep.json" // the spec's hash, axes and points
	SpecFile     = "sweep.toml" // the spec as given
	PointsDir    = "points"     // one directory per finished point
	FailedDir    = "failed"     // NAME.txt: why a point failed last time
	DoneFile     = "done"       // in a point directory: its config hash and files' SHA-256, written last
	MetricsFile  = "metrics.csv"
	ConfigFile   = "config.toml"
	PointFile    = "point.json"
)

// Manifest is sweep.json: what a results directory holds.
type Manifest struct {
	Format   string         `json:"format"` // rdcn.sweep/v1
	Kind     string         `json:"kind"`
	SpecHash string         `json:"spec_hash"`
	Seed     uint64         `json:"seed"`
	Axes     []ManifestAxis `json:"axes"`
	Points   []string       `json:"points"` // names, by index
}

// ManifestAxis is an axis as the report needs it.
type ManifestAxis struct {
	Name    string   `json:"name"`
	Values  []string `json:"values"`
	Numeric bool     `json:"numeric"`
}

// ManifestFormat names the manifest's format.
const ManifestFormat = "rdcn.sweep/v1"

// Manifest describes the spec's results directory.
func (s *Spec) Manifest() Manifest {
	m := Manifest{Format: ManifestFormat, Kind: s.Kind, SpecHash: s.Hash(), Seed: s.Seed}
	for _, a := range s.Axes {
		m.Axes = append(m.Axes, ManifestAxis{a.Name, a.Values, a.Numeric()})
	}
	for _, p := range s.Points() {
		m.Points = append(m.Points, p.Name)
	}
	return m
}

// Options control Run.
type Options struct {
	Dir      string    // results directory (created)
	Jobs     int       // points run at once; 0: the number of CPUs
	Shard    Shard     // the part to run; the zero Shard is all of it
	SpecText []byte    // the spec file as given, kept as sweep.toml
	Log      io.Writer // progress and failures; nil: none
	Bar      bool      // a progress bar on Log (a terminal) instead of a line per point
}

// Outcome is what Run did.
type Outcome struct {
	Points, Skipped, Ran int // in the shard; already finished; run now
	Interrupted          int // stopped by the context, left for the next run
	Failed               []PointError
	Wall, CPU            time.Duration // CPU: of the whole process during Run
}

// PointError is a point that failed, named by its point name.
type PointError struct {
	Point string
	Err   error
}

func (e PointError) Error() string { return "point " + e.Point + ": " + oneLine(e.Err.Error()) }

// Run runs the shard's unfinished points on opt.Jobs workers. A finished
// point (its directory holds a done marker with its config hash) is
// skipped; anything else is run again from scratch in a temporary
// directory renamed into place when complete. A failing point is recorded
// (Outcome.Failed, failed/NAME.txt) and the others go on. The error is
// non-nil only when the results directory cannot be used: it belongs to
// another spec, cannot be written, or another run of the same points holds
// its lock (LockFile).
func Run(ctx context.Context, s *Spec, opt Options) (*Outcome, error) {
	kind, err := LookupKind(s.Kind)
	if err != nil {
		return nil, err
	}
	if err := Prepare(s, opt.Dir, opt.SpecText); err != nil {
		return nil, err
	}
	lock, err := lockResults(opt.Dir, opt.Shard)
	if err != nil {
		return nil, err
	}
	defer lock.release()
	cpu0, _, _ := cputime.Process()
	t0 := time.Now()
	out := &Outcome{}
	var todo []Point
	for _, p := range s.Points() {
		if !opt.Shard.Has(p.Index) {
			continue
		}
		out.Points++
		// Leftovers of this point's interrupted runs (other points'
		// belong to other shards).
		if old, _ := filepath.Glob(filepath.Join(opt.Dir, PointsDir, ".tmp-"+p.Name+"-*")); len(old) > 0 {
			for _, o := range old {
				os.RemoveAll(o)
			}
		}
		err := finished(opt.Dir, p, s.Kind)
		if err == nil {
			os.Remove(filepath.Join(opt.Dir, FailedDir, p.Name+".txt")) // a failure recorded before it finished
			out.Skipped++
			continue
		}
		if !errors.Is(err, errNoMarker) && opt.Log != nil {
			fmt.Fprintf(opt.Log, "rdcn sweep: point %s: %v; running it again\n", p.Name, err)
		}
		todo = append(todo, p)
	}
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	prog := newProgress(opt, out.Points, out.Skipped)
	var mu sync.Mutex
	ch := make(chan Point)
	var wg sync.WaitGroup
	for range min(jobs, max(1, len(todo))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range ch {
				start := time.Now()
				err := runPoint(ctx, kind, s.Kind, opt.Dir, p)
				mu.Lock()
				if err != nil && ctx.Err() != nil { // stopped, not failed: the next run redoes it
					out.Interrupted++
					mu.Unlock()
					continue
				}
				out.Ran++
				if err != nil {
					pe := PointError{p.Name, err}
					out.Failed = append(out.Failed, pe)
					recordFailure(opt.Dir, p.Name, err)
				}
				prog.done(p.Name, err, time.Since(start), len(out.Failed))
				mu.Unlock()
			}
		}()
	}
feed:
	for _, p := range todo {
		select {
		case ch <- p:
		case <-ctx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	prog.finish()
	cpu1, _, _ := cputime.Process()
	out.Wall, out.CPU = time.Since(t0), cpu1-cpu0
	return out, nil
}

// outputErr is err writing the results directory: a *Error (bad input)
// unless the file system failed (read-only, full, I/O error), a runtime
// failure that wraps err.
func outputErr(err error) error {
	if fsfail.Runtime(err) {
		return fmt.Errorf("output: %w", err)
	}
	return errf("output", "%v", err)
}

// Prepare creates the results directory dir (sweep.json, and sweep.toml
// holding specText) or checks that it holds this spec's results. Run
// calls it; so does rdcn sweep --emit, so that the cluster's tasks (and
// their log files) find the directory in place.
func Prepare(s *Spec, dir string, specText []byte) error {
	opt := Options{Dir: dir, SpecText: specText}
	if opt.Dir == "" {
		return errf("output", "empty directory name")
	}
	if fi, err := os.Stat(opt.Dir); err == nil && !fi.IsDir() {
		return errf("output", "%q exists and is not a directory", opt.Dir)
	}
	m := s.Manifest()
	b, err := os.ReadFile(filepath.Join(opt.Dir, ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		// A new results directory, or an existing empty one: never a
		// directory holding something else.
		if entries, _ := os.ReadDir(opt.Dir); len(entries) > 0 {
			return errf("output", "%s is not empty and holds no %s: not a sweep results directory; use a new one", opt.Dir, ManifestFile)
		}
	}
	if err := os.MkdirAll(filepath.Join(opt.Dir, PointsDir), 0o755); err != nil {
		return outputErr(err)
	}
	switch {
	case err == nil:
		var old Manifest
		if json.Unmarshal(b, &old) != nil || old.Format != ManifestFormat {
			return errf("output", "%s holds a %s that is not an rdcn sweep's; use another directory", opt.Dir, ManifestFile)
		}
		if old.SpecHash != m.SpecHash {
			return errf("output", "%s holds results of a different sweep spec (hash %.12s, this spec %.12s); use another directory", opt.Dir, old.SpecHash, m.SpecHash)
		}
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return outputErr(err)
	}
	if len(opt.SpecText) > 0 {
		if err := WriteFileAtomic(opt.Dir, SpecFile, opt.SpecText); err != nil {
			return outputErr(err)
		}
	}
	mb, _ := json.MarshalIndent(m, "", "  ")
	if err := WriteFileAtomic(opt.Dir, ManifestFile, append(mb, '\n')); err != nil {
		return outputErr(err)
	}
	return nil
}

// finished checks whether the point's directory is complete: its done
// marker holds the point's config hash and each of its files' SHA-256.
// The error says what is missing or damaged.
func finished(dir string, p Point, kind string) error {
	return checkMarker(filepath.Join(dir, PointsDir, p.Name), p.ConfigHash(kind))
}

// runPoint runs p in a fresh temporary directory and renames it into
// place; the done marker is its last file, written once the others are
// on disk (writeMarker), and the rename is fsynced too.
func runPoint(ctx context.Context, kind Kind, kindName, dir string, p Point) (err error) {
	pdir := filepath.Join(dir, PointsDir)
	tmp, err := os.MkdirTemp(pdir, ".tmp-"+p.Name+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	if err := os.WriteFile(filepath.Join(tmp, ConfigFile), configTOML(p.Config), 0o644); err != nil {
		return err
	}
	if err := writeJSONFile(tmp, PointFile, pointRecord{p.Index, p.Name, p.Values, strconv.FormatUint(p.Seed, 10)}); err != nil {
		return err
	}
	ms, err := kind.Run(ctx, p.Config, tmp)
	if err != nil {
		return err
	}
	rows := make([][]string, len(ms))
	for i, m := range ms {
		rows[i] = []string{m.Name, stats.FormatFloat(m.Value)}
	}
	if err := writeCSVFile(tmp, MetricsFile, table{[]string{"metric", "value"}, rows}); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := writeMarker(tmp, p.ConfigHash(kindName)); err != nil {
		return err
	}
	final := filepath.Join(pdir, p.Name)
	if err := os.RemoveAll(final); err != nil {
		return err
	}
	if err := os.Rename(tmp, final); err != nil {
		return err
	}
	if err := syncDir(pdir); err != nil {
		return err
	}
	os.Remove(filepath.Join(dir, FailedDir, p.Name+".txt"))
	return nil
}

// pointRecord is point.json.
type pointRecord struct {
	Index  int      `json:"index"`
	Name   string   `json:"name"`
	Values []string `json:"values"`
	Seed   string   `json:"seed"`
}

func recordFailure(dir, name string, err error) {
	fd := filepath.Join(dir, FailedDir)
	if os.MkdirAll(fd, 0o755) == nil {
		os.WriteFile(filepath.Join(fd, name+".txt"), []byte(oneLine(err.Error())+"\n"), 0o644)
	}
}

// configTOML writes a resolved configuration as TOML tables of quoted
// values (for kind simulate, rdcn simulate --config reads it as is).
func configTOML(cfg [][2]string) []byte {
	var b bytes.Buffer
	section := "\x00"
	for _, kv := range cfg {
		sec, key, ok := strings.Cut(kv[0], ".")
		if !ok {
			sec, key = "", kv[0]
		}
		if sec != section {
			if section != "\x00" {
				b.WriteByte('\n')
			}
			if sec != "" {
				fmt.Fprintf(&b, "[%s]\n", sec)
			}
			section = sec
		}
		fmt.Fprintf(&b, "%s = %s\n", strconv.Quote(key), strconv.Quote(kv[1]))
	}
	return b.Bytes()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// progress reports finished points: a bar on a terminal, else a line each.
type progress struct {
	w                  io.Writer
	bar                *progressbar.ProgressBar
	total, count, skip int
	start              time.Time
}

func newProgress(opt Options, total, skipped int) *progress {
	p := &progress{w: opt.Log, total: total, count: skipped, skip: skipped, start: time.Now()}
	if opt.Log == nil {
		p.w = io.Discard
	}
	if opt.Bar && opt.Log != nil {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(opt.Log),
			progressbar.OptionSetDescription("points"), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionShowElapsedTimeOnFinish(),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionSetWidth(30))
		p.bar.Set(skipped)
	}
	return p
}

func (p *progress) done(name string, err error, took time.Duration, failed int) {
	p.count++
	if p.bar != nil {
		if err != nil {
			p.bar.Clear()
			fmt.Fprintf(p.w, "rdcn sweep: %v\n", PointError{name, err})
			p.bar.Describe(fmt.Sprintf("points (%d failed)", failed))
		}
		p.bar.Add(1)
		return
	}
	// ETA: the mean wall time per point run so far, times those left.
	ran := p.count - p.skip
	eta := time.Duration(float64(time.Since(p.start)) / float64(ran) * float64(p.total-p.count)).Round(time.Second)
	head := fmt.Sprintf("[%d/%d, %d failed, ETA %v]", p.count, p.total, failed, eta)
	if err != nil {
		fmt.Fprintf(p.w, "%s %v\n", head, PointError{name, err})
		return
	}
	fmt.Fprintf(p.w, "%s %s done in %.2fs\n", head, name, took.Seconds())
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
		fmt.Fprintln(p.w)
	}
}
