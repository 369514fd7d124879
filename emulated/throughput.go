package emulated

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/rdcn/rdcn/demand"
)

// Options tune Throughput. The zero value (or nil) asks for a certified
// relative gap of 1e-3.
type Options struct {
	// Gap is the target relative gap (Upper−Lower)/Upper; 0 means 1e-3.
	Gap float64
	// MaxPhases bounds the number of solver iterations (each one
	// shortest-path tree per source plus gradient-projection sweeps); 0
	// means 1e6. The solver stops earlier once Gap is reached; at the limit
	// it returns the (valid, wider) certificate it has.
	MaxPhases int
	// Raw skips hose normalisation: the demand is taken as given.
	Raw bool
	// Context, when non-nil, stops the solver early: once it is done,
	// Throughput returns the best certificate found so far (a valid but
	// wider interval) with Result.Interrupted set, and no error. The first
	// iteration always completes, since it is the first certificate.
	Context context.Context
	// Progress, when non-nil, is called after every iteration with the
	// certified interval so far (the solver's goroutine; keep it short).
	Progress func(Progress)
}

// Progress is the state of a running solve: θ* lies in [Lower, Upper].
type Progress struct {
	Iteration    int
	Lower, Upper float64
	Gap          float64 // (Upper − Lower) / Upper
}

// DefaultGap is the relative gap Throughput certifies unless told otherwise.
const DefaultGap = 1e-3

// Result is a throughput value with its certificate.
type Result struct {
	Theta      float64 // certified achievable throughput (= Lower)
	Lower      float64 // θ of the feasible flow Flow
	Upper      float64 // dual bound Σ c_e·l_e / Σ D_st·dist_l(s,t) of Lengths
	Gap        float64 // (Upper − Lower) / Upper; 0 when both are 0
	Iterations int     // solver iterations (or LP iterations for GLPK)
	Routing    string  // "any", "direct" or "vlb"
	Solver     string  // "fptas" (Throughput's certified solver), "glpk", "closed-form"
	// Interrupted is set when Options.Context stopped the solver before the
	// target gap: the certificate is valid, only wider than asked.
	Interrupted bool

	// Demand is the (hose-normalised) demand that θ scales.
	Demand demand.Matrix
	// Flow[s] is the flow of source s's commodity (sparse, see SourceFlow);
	// it routes Lower·Demand[s][t] to every t within the capacities (nil
	// when the routing has no per-source flow certificate).
	Flow []SourceFlow
	// Lengths[u*n+v] is the dual length of arc u→v (nil when not certified
	// by a length function).
	Lengths []float64
}

// SourceFlow is one source's flow, sparse: arc Arcs[i] = u·n+v carries
// X[i] (arcs increasing, each once; arcs without flow are left out, so a
// certificate takes memory in proportion to the arcs it uses, not n³).
type SourceFlow struct {
	Arcs []int32
	X    []float64
}

// At is the flow on arc a (u·n+v); 0 when it carries none.
func (f SourceFlow) At(a int) float64 {
	lo, hi := 0, len(f.Arcs)
	for lo < hi {
		m := (lo + hi) / 2
		if int(f.Arcs[m]) < a {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(f.Arcs) && int(f.Arcs[lo]) == a {
		return f.X[lo]
	}
	return 0
}

// sparseFlow keeps the non-zero entries of a dense per-arc flow.
func sparseFlow(dense []float64) SourceFlow {
	var f SourceFlow
	for a, x := range dense {
		if x != 0 {
			f.Arcs = append(f.Arcs, int32(a))
			f.X = append(f.X, x)
		}
	}
	return f
}

// ARL is the average route length (Definition 17) of the result's flow:
// total arc flow divided by total routed demand. 0 without a flow.
func (r *Result) ARL() float64 {
	if r.Flow == nil || r.Lower == 0 {
		return 0
	}
	arc, dem := 0.0, 0.0
	for _, f := range r.Flow {
		for _, x := range f.X {
			arc += x
		}
	}
	for s, row := range r.Demand {
		for t, x := range row {
			if s != t {
				dem += x
			}
		}
	}
	return arc / (r.Lower * dem)
}

func checkDemand(d demand.Matrix, n int) error {
	if err := demand.Validate(d); err != nil {
		return err
	}
	if len(d) != n {
		return fmt.Errorf("demand: has %d nodes, the graph has %d", len(d), n)
	}
	return nil
}

// prepare validates and (unless raw) hose-normalises d for g.
func prepare(g *Graph, d demand.Matrix, raw bool) (demand.Matrix, error) {
	if g == nil {
		return nil, errors.New("graph: is nil")
	}
	if err := checkDemand(d, g.N); err != nil {
		return nil, err
	}
	if raw {
		out := demand.New(g.N)
		for s, row := range d {
			for t, x := range row {
				if s != t {
					out[s][t] = x
				}
			}
		}
		return out, nil
	}
	return demand.HoseNormalize(d, g.NodeCapacity)
}

// Throughput computes the maximum concurrent flow θ(D) of the hose-normalised
// demand d in g over any routing (net-flow form: simple paths, so no
// commodity re-enters its source), with a certificate: Flow routes Lower·D
// and Lengths proves θ ≤ Upper. It stops once (Upper−Lower)/Upper ≤ opt.Gap.
func Throughput(g *Graph, d demand.Matrix, opt *Options) (*Result, error) {
	r, err := newRoundSolve(g, d, opt)
	if err != nil {
		return nil, err
	}
	r.advance(r.maxIter)
	return r.result(), nil
}

// roundSolve is a Throughput solve that runs in rounds of iterations:
// advance(k) then advance(m) gives the same iterates, and so the same
// Result, as one advance(k+m) (Recommend refines its designs this way).
type roundSolve struct {
	s       *pathSolver // nil: a disconnected pair, θ = 0 at once
	st      *solveState
	dn      [][]float64
	maxIter int // Options.MaxPhases
}

// newRoundSolve validates and hose-normalises d as Throughput does; no
// iteration has run yet.
func newRoundSolve(g *Graph, d demand.Matrix, opt *Options) (*roundSolve, error) {
	o, dn, err := solverInput(g, d, opt)
	if err != nil {
		return nil, err
	}
	r := &roundSolve{dn: dn, maxIter: o.MaxPhases}
	if connected(g, dn) {
		r.s = newPathSolver(g, dn)
		r.s.ctx, r.s.progress = o.Context, o.Progress
		r.st = r.s.newSolveState(o.Gap)
	}
	return r, nil
}

// advance runs up to k more iterations (fewer when the gap is met or the
// context stops the solve).
func (r *roundSolve) advance(k int) {
	if r.s != nil && !r.done() {
		r.s.run(r.st, min(r.maxIter, r.st.iters+k))
	}
}

// done reports whether the solve has ended: gap met, stalled, stopped by
// the context or at Options.MaxPhases.
func (r *roundSolve) done() bool {
	return r.s == nil || r.st.finished || r.st.interrupted || r.st.iters >= r.maxIter
}

// interrupted reports whether the context stopped the solve before its gap.
func (r *roundSolve) interrupted() bool {
	return r.s != nil && r.st.interrupted
}

// interval is the certified interval so far ([0, +Inf) before the first
// iteration); result's may differ from it in the last bits (it sums the
// flow anew).
func (r *roundSolve) interval() (lower, upper float64) {
	if r.s == nil {
		return 0, 0
	}
	return r.st.interval()
}

// result packs the certificate so far; the solve cannot advance after it.
func (r *roundSolve) result() *Result {
	var res *Result
	if r.s != nil {
		res = r.s.certificate(r.st)
		r.s = nil
	} else {
		res = zeroResult(len(r.dn))
	}
	res.Demand = r.dn
	res.Routing = "any"
	res.Solver = "fptas"
	return res
}

// solverInput fills opt's defaults (a nil opt: all of them), checks the
// gap and returns the hose-normalised demand of d in g, refusing one
// without traffic between distinct nodes.
func solverInput(g *Graph, d demand.Matrix, opt *Options) (Options, [][]float64, error) {
	var o Options
	if opt != nil {
		o = *opt
	}
	if o.Gap == 0 {
		o.Gap = DefaultGap
	}
	if o.Gap < 0 || math.IsNaN(o.Gap) || o.Gap >= 1 {
		return o, nil, fmt.Errorf("gap: must be in (0,1), got %v", o.Gap)
	}
	if o.MaxPhases == 0 {
		o.MaxPhases = 1_000_000
	}
	dn, err := prepare(g, d, o.Raw)
	if err != nil {
		return o, nil, err
	}
	if !hasTraffic(dn) {
		return o, nil, errors.New("demand: has no traffic between distinct nodes")
	}
	return o, dn, nil
}

func hasTraffic(d [][]float64) bool {
	for s, row := range d {
		for t, x := range row {
			if s != t && x > 0 {
				return true
			}
		}
	}
	return false
}

// connected reports whether every pair with demand is joined by a path.
func connected(g *Graph, d [][]float64) bool {
	seen := make([]bool, g.N)
	queue := make([]int32, 0, g.N)
	for s, row := range d {
		clear(seen)
		seen[s] = true
		queue = append(queue[:0], int32(s))
		for h := 0; h < len(queue); h++ {
			for _, v := range g.Out[queue[h]] {
				if !seen[v] {
					seen[v] = true
					queue = append(queue, v)
				}
			}
		}
		for t, x := range row {
			if x > 0 && t != s && !seen[t] {
				return false
			}
		}
	}
	return true
}

// zeroResult certifies θ = 0 for a demand with a disconnected pair: the
// zero flow, and l ≡ 0 (no path has positive length).
func zeroResult(n int) *Result {
	return &Result{Lengths: make([]float64, n*n), Flow: make([]SourceFlow, n)}
}
