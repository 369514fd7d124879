package predict

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/emulated"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/vermilion"
)

// Algorithm names a schedule designer of the study.
type Algorithm string

// The designers compared in thesis §9.6 (plus the §9.3 baseline).
const (
	Deterministic Algorithm = "vermilion"  // Algorithm 7, γ = k/ℓ
	Randomized    Algorithm = "randomized" // Algorithm 8, uniform PMF over 1..γ
	BvN           Algorithm = "bvn"        // Birkhoff–von Neumann baseline (ignores γ)
)

// Reading names how a row's samples become one throughput.
type Reading string

// The two readings of a row (docs/vermilion.md, "Two readings").
const (
	// PerDraw judges every sample's schedule on its own and averages the
	// certified θ over the samples (Row.Any): the expectation over the
	// draw that Theorems 26–27 bound.
	PerDraw Reading = "per-draw"
	// Pooled plays the row's sample schedules back to back and certifies θ
	// of that one schedule (Row.Pooled): one max concurrent flow on the
	// sample-averaged emulated multigraph (emulated.Pool, each sample
	// weighted by its cycle). For randomised Vermilion at zero noise this
	// is the reading that gives the 0.91 of §9.6 on the ring.
	Pooled Reading = "pooled"
)

// Study is one sweep: every demand matrix × noise kind × noise factor ×
// trust factor γ × algorithm, each averaged over Samples noise draws.
type Study struct {
	Nodes      int        // n (thesis: 8, a DGX H100)
	Uplinks    int        // U (thesis: 4)
	Link       rotor.Rate // c (thesis: 400 Gbps)
	Slot       rotor.Time // Δ
	Reconf     rotor.Time // Δr
	Matrices   []string   // demand specs for demand.Parse: uniform, ring, chessboard, skew:0.5, random:7, a file…
	Noises     []string   // noise kinds for demand.AddNoise: additive, multiplicative
	Factors    []float64  // noise factors (the noise's standard deviation, see demand.AddNoise)
	Gammas     []float64  // trust factors; γ = k/ℓ with the smallest ℓ (vermilion.TrustRatio)
	Algorithms []Algorithm
	Samples    int       // noise draws per point (thesis: 100)
	Seed       uint64    // the whole study is a function of Seed
	Gap        float64   // certified relative gap of the any-routing θ (0: 1e-2)
	BvNCycleK  int       // the BvN cycle lasts ⌈k·n/U⌉ slots for this k (0: 3)
	Workers    int       // parallel evaluations (0: GOMAXPROCS); results do not depend on it
	Readings   []Reading // which readings to certify (nil: both); without PerDraw the per-sample max concurrent flows are skipped
}

// Defaults is the thesis §9.6 setup with fewer samples: 8 nodes of degree 4,
// 400 Gbps, a 0.99 duty cycle, six matrices, both noise kinds, noise factors
// 0…10, γ ∈ {1, 2, 3, 5, 10}, deterministic and randomised Vermilion and BvN.
//
// The thesis quotes "Δr = 1 µs, a timeslot of 9.9 µs (a duty cycle of 0.99)";
// those numbers give 0.9, so Defaults keeps the stated duty cycle 0.99 with
// Δ = 10 µs and Δr = 100 ns.
func Defaults() Study {
	return Study{
		Nodes: 8, Uplinks: 4, Link: 400 * rotor.Gbps,
		Slot: 10 * rotor.Microsecond, Reconf: 100 * rotor.Nanosecond,
		Matrices:   []string{"ring", "uniform", "chessboard", "skewring:0.2", "skewring:0.8", "random:1"},
		Noises:     []string{"additive", "multiplicative"},
		Factors:    []float64{0, 0.5, 1, 2, 5, 10},
		Gammas:     []float64{1, 2, 3, 5, 10},
		Algorithms: []Algorithm{Deterministic, Randomized, BvN},
		Samples:    10,
		Seed:       1,
	}
}

// Stat summarises one measure over the samples.
type Stat struct {
	Mean float64 `json:"mean"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
}

// Row is one point of the study. Throughputs are of the true demand,
// hose-normalised to the node capacity U·c, so 1 − Δr/Δ is the best any
// schedule can do. Bounds are throughputs too (competitive ratio × 1 − Δr/Δ).
type Row struct {
	Matrix    string    `json:"matrix"`
	Noise     string    `json:"noise"`
	Factor    float64   `json:"noise_factor"`
	Algorithm Algorithm `json:"algorithm"`
	Gamma     float64   `json:"gamma"` // 0 for bvn
	K         int       `json:"k"`
	L         int       `json:"l"`
	Samples   int       `json:"samples"`
	Period    Stat      `json:"period_slots"` // slots per cycle (randomised: varies with the draw)
	SingleHop Stat      `json:"single_hop"`   // direct circuits only
	// Any is the per-draw reading: the certified lower bound of each
	// sample's max concurrent flow, over the samples; AnyUpper the mean of
	// their upper bounds. Both nil unless Study.Readings has PerDraw.
	Any      *Stat    `json:"any_routing,omitempty"`
	AnyUpper *float64 `json:"any_routing_upper,omitempty"`
	// Pooled is the pooled reading (nil unless Study.Readings has it).
	Pooled *Certified `json:"pooled_any_routing,omitempty"`
	// Consistency and Robustness are the guarantees of Theorems 24/25 (or
	// 26/27, Corollary 2 for the randomised algorithm) for the schedule's
	// actual degree; nil for bvn, which has none (Theorem 23).
	Consistency *float64 `json:"consistency_bound,omitempty"`
	Robustness  *float64 `json:"robustness_bound,omitempty"`
}

// Certified is a certified interval of the any-routing θ: Lower is
// achieved by a feasible flow, Upper bounds θ by a dual length function.
type Certified struct {
	Lower float64 `json:"lower"`
	Upper float64 `json:"upper"`
}

// Validate reports the first unusable parameter.
func (s *Study) Validate() error {
	switch {
	case s.Nodes < 2:
		return fmt.Errorf("nodes: %d, want at least 2", s.Nodes)
	case s.Uplinks < 1:
		return fmt.Errorf("uplinks: %d, want at least 1", s.Uplinks)
	case s.Link <= 0:
		return fmt.Errorf("link: %d bit/s, want a positive rate", s.Link)
	case s.Slot <= 0 || s.Reconf < 0 || s.Reconf >= s.Slot:
		return fmt.Errorf("reconf: %v with slot %v, want 0 ≤ reconf < slot", s.Reconf, s.Slot)
	case len(s.Matrices) == 0:
		return fmt.Errorf("matrices: none given")
	case len(s.Noises) == 0:
		return fmt.Errorf("noise: none given")
	case len(s.Factors) == 0:
		return fmt.Errorf("factors: none given")
	case len(s.Algorithms) == 0:
		return fmt.Errorf("algorithms: none given")
	case s.Samples < 1:
		return fmt.Errorf("samples: %d, want at least 1", s.Samples)
	case s.Gap < 0 || s.Gap >= 1 || math.IsNaN(s.Gap):
		return fmt.Errorf("gap: %v, want 0 ≤ gap < 1", s.Gap)
	case s.BvNCycleK < 0:
		return fmt.Errorf("bvn-cycle-k: %d, want at least 1", s.BvNCycleK)
	}
	for _, nz := range s.Noises {
		if _, err := demand.ParseNoiseKind(nz); err != nil {
			return fmt.Errorf("noise: %w", err)
		}
	}
	for _, f := range s.Factors {
		if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return fmt.Errorf("factors: %v, want finite non-negative noise factors", f)
		}
	}
	needGamma := false
	for _, a := range s.Algorithms {
		switch a {
		case Deterministic:
			needGamma = true
		case Randomized:
			needGamma = true
			for _, g := range s.Gammas {
				if g != math.Trunc(g) {
					return fmt.Errorf("gamma: %v, the randomised algorithm needs an integer γ", g)
				}
			}
		case BvN:
		default:
			return fmt.Errorf("algorithm: %q, want vermilion, randomized or bvn", a)
		}
	}
	for _, r := range s.Readings {
		if r != PerDraw && r != Pooled {
			return fmt.Errorf("reading: %q, want per-draw or pooled", r)
		}
	}
	if needGamma && len(s.Gammas) == 0 {
		return fmt.Errorf("gamma: none given")
	}
	// Run holds every sample's predicted matrix at once, so the number of
	// evaluations bounds its memory as well as its time.
	perFactor := 0.0
	for _, a := range s.Algorithms {
		if a == BvN {
			perFactor++
		} else {
			perFactor += float64(len(s.Gammas))
		}
	}
	if e := float64(len(s.Matrices)) * float64(len(s.Noises)) * float64(len(s.Factors)) * perFactor * float64(s.Samples); e > maxEvaluations {
		return fmt.Errorf("samples: %d gives %g evaluations, more than %d", s.Samples, e, maxEvaluations)
	}
	for _, g := range s.Gammas {
		if _, _, err := vermilion.TrustRatio(g, maxL); err != nil {
			return err
		}
	}
	return nil
}

// maxL bounds ℓ when γ is written as k/ℓ.
const maxL = 100

// maxEvaluations bounds the schedules a study designs and judges.
const maxEvaluations = 1 << 20

// point is one (matrix, noise, factor, algorithm, γ) row under construction.
type point struct {
	row                 Row
	period, single, any []float64
	upper               []float64
	pool                *emulated.Pool // the pooled reading's schedule so far; nil once certified
	pooled              *Certified     // the pooled reading, set by the sample that completes pool
}

// job is one sample of one row: build from the prediction, judge on truth.
type job struct {
	point  int
	sample int
	truth  demand.Matrix
	pred   demand.Matrix
	seed   uint64
}

// Run executes the study. progress (may be nil) is called after every
// evaluation with the number done and the total; it may be called from
// several goroutines but never concurrently. Rows come in a fixed order:
// matrix, noise, factor, algorithm, γ.
func Run(ctx context.Context, s Study, progress func(done, total int)) ([]Row, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s.Gap == 0 {
		s.Gap = 1e-2
	}
	if s.BvNCycleK == 0 {
		s.BvNCycleK = 3
	}
	if len(s.Readings) == 0 {
		s.Readings = []Reading{PerDraw, Pooled}
	}
	perDraw, pooled := slices.Contains(s.Readings, PerDraw), slices.Contains(s.Readings, Pooled)
	truths := make([]demand.Matrix, len(s.Matrices))
	for i, spec := range s.Matrices {
		m, err := demand.Parse(spec, s.Nodes)
		if err != nil {
			return nil, fmt.Errorf("matrices: %q: %w", spec, err)
		}
		truths[i] = m
	}

	kinds := make([]demand.NoiseKind, len(s.Noises))
	for i, nz := range s.Noises {
		k, err := demand.ParseNoiseKind(nz)
		if err != nil {
			return nil, fmt.Errorf("noise: %w", err)
		}
		kinds[i] = k
	}

	var points []*point
	var jobs []job
	for mi, spec := range s.Matrices {
		for ni, noise := range s.Noises {
			for _, f := range s.Factors {
				first := len(points)
				for _, a := range s.Algorithms {
					gammas := s.Gammas
					if a == BvN {
						gammas = []float64{0}
					}
					for _, g := range gammas {
						r := Row{Matrix: spec, Noise: noise, Factor: f, Algorithm: a, Gamma: g, Samples: s.Samples}
						if a != BvN {
							r.K, r.L, _ = vermilion.TrustRatio(g, maxL)
						}
						if a == Randomized {
							r.K, r.L = int(g), 1
						}
						p := &point{row: r}
						if pooled {
							p.pool = &emulated.Pool{}
						}
						points = append(points, p)
					}
				}
				for sample := range s.Samples {
					pred := truths[mi]
					if f > 0 {
						var err error
						if pred, err = demand.AddNoise(truths[mi], kinds[ni], f, s.noiseRand(spec, kinds[ni], sample)); err != nil {
							return nil, fmt.Errorf("noise: %q, factor %v: %w", noise, f, err)
						}
					}
					for pi := first; pi < len(points); pi++ {
						r := points[pi].row
						jobs = append(jobs, job{point: pi, sample: sample, truth: truths[mi], pred: pred,
							seed: s.scheduleSeed(spec, kinds[ni], sample, r.Algorithm, r.Gamma)})
					}
				}
			}
		}
	}

	type result struct {
		period, single, any, upper float64
		cons, robust               float64
	}
	results := make([]result, len(jobs))
	workers := s.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// firstErr is the error of the lowest failing job, errAt its index:
	// the feed stops at an error, but every job before it has been fed, so
	// the report does not depend on which worker fails first.
	var (
		mu       sync.Mutex
		done     int
		firstErr error
		errAt    int
		wg       sync.WaitGroup
	)
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				jb := jobs[j]
				r := points[jb.point].row
				sched, cons, robust, err := s.design(r, jb.pred, jb.seed)
				var sh, an, up float64
				if err == nil {
					sh, an, up, err = s.judge(sched, jb.truth, perDraw)
				}
				// The sample that completes a row's pool certifies the
				// pooled reading; Pool's integer sums make it independent
				// of the order in which samples arrive.
				var full *emulated.Pool
				if err == nil && pooled {
					mu.Lock()
					p := points[jb.point]
					if err = p.pool.Add(sched); err == nil && p.pool.Len() == s.Samples {
						full, p.pool = p.pool, nil
					}
					mu.Unlock()
				}
				var pc *Certified
				if full != nil {
					if pc, err = s.judgePool(full, jb.truth); err != nil {
						err = fmt.Errorf("pooled: %w", err)
					}
				}
				mu.Lock()
				if err != nil && (firstErr == nil || j < errAt) {
					errAt = j
					firstErr = fmt.Errorf("%s, %s noise %v, %s γ=%v, sample %d: %w", r.Matrix, r.Noise, r.Factor, r.Algorithm, r.Gamma, jb.sample, err)
				}
				if err == nil {
					results[j] = result{float64(sched.Period), sh, an, up, cons, robust}
					if pc != nil {
						points[jb.point].pooled = pc
					}
				}
				done++
				if progress != nil {
					progress(done, len(jobs))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for j := range jobs {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop {
			break
		}
		select {
		case next <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	cons := make([]float64, len(points))
	robust := make([]float64, len(points))
	for j, jb := range jobs {
		p, r := points[jb.point], results[j]
		p.period = append(p.period, r.period)
		p.single = append(p.single, r.single)
		p.any = append(p.any, r.any)
		p.upper = append(p.upper, r.upper)
		cons[jb.point] += r.cons / float64(s.Samples)
		robust[jb.point] += r.robust / float64(s.Samples)
	}
	rows := make([]Row, len(points))
	for i, p := range points {
		r := p.row
		r.Period, r.SingleHop, r.Pooled = stat(p.period), stat(p.single), p.pooled
		if perDraw {
			a, u := stat(p.any), stat(p.upper).Mean
			r.Any, r.AnyUpper = &a, &u
		}
		if r.Algorithm != BvN {
			c, b := cons[i], robust[i]
			r.Consistency, r.Robustness = &c, &b
		}
		rows[i] = r
	}
	return rows, nil
}

// design builds the schedule of row r from the prediction pred and returns
// it with its guarantees (throughputs).
func (s *Study) design(r Row, pred demand.Matrix, seed uint64) (*rotor.Schedule, float64, float64, error) {
	duty := 1 - float64(s.Reconf)/float64(s.Slot)
	c := vermilion.Config{Nodes: s.Nodes, Uplinks: s.Uplinks, K: r.K, L: r.L, Slot: s.Slot, Reconf: s.Reconf, Seed: seed}
	switch r.Algorithm {
	case Deterministic:
		sched, err := vermilion.Schedule(pred, c)
		cons, robust := c.Guarantees()
		return sched, cons * duty, robust * duty, err
	case Randomized:
		// The expected guarantee over the draw (Theorems 26, 27): the mean
		// over r = 1..γ of the deterministic guarantees with k = r, ℓ = 1.
		var cons, robust float64
		for k := 1; k <= r.K; k++ {
			ck := c
			ck.K, ck.L = k, 1
			a, b := ck.Guarantees()
			cons += a / float64(r.K)
			robust += b / float64(r.K)
		}
		sched, _, err := vermilion.Randomized(pred, c, nil)
		return sched, cons * duty, robust * duty, err
	default:
		cycle := vermilion.Config{Nodes: s.Nodes, Uplinks: s.Uplinks, K: s.BvNCycleK, L: 1}.Period()
		sched, err := vermilion.BvN(pred, vermilion.BvNConfig{Nodes: s.Nodes, Uplinks: s.Uplinks,
			Cycle: rotor.Time(cycle) * s.Slot, Slot: s.Slot, Reconf: s.Reconf})
		return sched, 0, 0, err
	}
}

// judge measures the schedule on the true demand: single-hop θ and, when
// certify is set, the certified any-routing θ (lower and upper bound).
func (s *Study) judge(sched *rotor.Schedule, truth demand.Matrix, certify bool) (single, lower, upper float64, err error) {
	g, err := emulated.FromSchedule(sched, s.Link)
	if err != nil {
		return 0, 0, 0, err
	}
	sh, err := emulated.SingleHop(g, truth, nil)
	if err != nil {
		return 0, 0, 0, err
	}
	if !certify {
		return sh.Theta, 0, 0, nil
	}
	an, err := emulated.Throughput(g, truth, &emulated.Options{Gap: s.Gap})
	if err != nil {
		return 0, 0, 0, err
	}
	return sh.Theta, an.Lower, an.Upper, nil
}

// judgePool certifies the any-routing θ of the pooled schedule on the true
// demand.
func (s *Study) judgePool(p *emulated.Pool, truth demand.Matrix) (*Certified, error) {
	g, err := p.Graph(s.Link)
	if err != nil {
		return nil, err
	}
	an, err := emulated.Throughput(g, truth, &emulated.Options{Gap: s.Gap})
	if err != nil {
		return nil, err
	}
	return &Certified{Lower: an.Lower, Upper: an.Upper}, nil
}

func stat(xs []float64) Stat {
	if len(xs) == 0 {
		return Stat{}
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return Stat{Mean: sum / float64(len(xs)), Min: slices.Min(xs), Max: slices.Max(xs)}
}

// Random streams are keyed by values, never by positions in the Study's
// lists, so a point's result does not depend on which other matrices, noise
// kinds, factors, algorithms or γ run beside it (TestDrawsIndependentOfLists).
//
// noiseRand is the noise stream of one sample: keyed by (Seed, matrix spec,
// noise kind, sample). It leaves out the noise factor, the algorithm and γ
// on purpose (common random numbers): every factor scales the same draw, so
// the curves are smooth, and every algorithm and γ designs from the same
// prediction, so they are compared on equal terms.
func (s *Study) noiseRand(matrix string, kind demand.NoiseKind, sample int) *rand.Rand {
	return rand.New(rand.NewPCG(s.Seed, mix(1, key(matrix), key(string(kind)), uint64(sample))))
}

// scheduleSeed seeds one design (the configuration model, and the trust
// draw of the randomised algorithm): keyed by (Seed, matrix spec, noise
// kind, sample, algorithm, γ), again not by the noise factor.
func (s *Study) scheduleSeed(matrix string, kind demand.NoiseKind, sample int, a Algorithm, gamma float64) uint64 {
	return mix(2, s.Seed, key(matrix), key(string(kind)), uint64(sample), key(string(a)), math.Float64bits(gamma))
}

// key hashes a string (FNV-1a, 64 bits) for mix.
func key(s string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(s))
	return h.Sum64()
}

// mix hashes its arguments into one 64-bit value (splitmix64 finaliser over
// a running sum).
func mix(xs ...uint64) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, x := range xs {
		h += x + 0x9e3779b97f4a7c15
		h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9
		h = (h ^ (h >> 27)) * 0x94d049bb133111eb
		h ^= h >> 31
	}
	return h
}
