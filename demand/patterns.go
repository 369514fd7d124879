package demand

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/rdcn/rdcn/internal/limits"
)

// Uniform is all-to-all traffic: 1 between every pair of distinct nodes.
func Uniform(n int) Matrix {
	m := New(n)
	for i := range m {
		for j := range m[i] {
			if i != j {
				m[i][j] = 1
			}
		}
	}
	return m
}

// shift is the permutation matrix i → (i+k) mod n.
func shift(n, k int) Matrix {
	m := New(n)
	for i := range m {
		m[i][(i+k)%n] = 1
	}
	return m
}

// Permutation sends 1 from every node i to (i + ⌊n/2⌋) mod n: the
// permutation that is farthest from the ring. (For n = 1 the matrix is 0.)
func Permutation(n int) Matrix {
	if n < 2 {
		return New(n)
	}
	return shift(n, n/2)
}

// Ring sends 1 from every node i to (i + 1) mod n (the pattern of ring
// all-reduce). (For n = 1 the matrix is 0.)
func Ring(n int) Matrix {
	if n < 2 {
		return New(n)
	}
	return shift(n, 1)
}

// Chessboard alternates heavy and light pairs: (1.5 if i+j is even, else
// 0.5) / (n−1), zero diagonal (thesis §9.6). It stresses degree
// constraints of demand-aware designs; its busiest row sums to about 1.
func Chessboard(n int) Matrix {
	m := New(n)
	for i := range m {
		for j := range m[i] {
			if i == j {
				continue
			}
			v := 0.5
			if (i+j)%2 == 0 {
				v = 1.5
			}
			m[i][j] = v / float64(n-1)
		}
	}
	return m
}

// Skew mixes all-to-all and permutation traffic, as in the thesis §8.3.2
// ("skew-0.1 indicates a 10% skew towards a permutation matrix"):
// (1−α)·Uniform(n)/(n−1) + α·Permutation(n). Every row and column sums to 1,
// so the matrix saturates the hose model. α must be in [0, 1].
func Skew(n int, alpha float64) Matrix {
	return mix(Uniform(n), 1/float64(max(n-1, 1)), Permutation(n), alpha)
}

// SkewRing mixes ring and permutation traffic, the skewed matrices of the
// thesis §9.6 (α = 0 is the ring, α = 1 the permutation):
// (1−α)·Ring(n) + α·Permutation(n). Rows and columns sum to 1.
func SkewRing(n int, alpha float64) Matrix {
	return mix(Ring(n), 1, Permutation(n), alpha)
}

// mix is (1−α)·scale·a + α·b.
func mix(a Matrix, scale float64, b Matrix, alpha float64) Matrix {
	for i := range a {
		for j := range a[i] {
			a[i][j] = (1-alpha)*scale*a[i][j] + alpha*b[i][j]
		}
	}
	return a
}

// Random draws every off-diagonal entry independently and uniformly from
// [0, 1) using rng; the same seed gives the same matrix.
func Random(n int, rng *rand.Rand) Matrix {
	m := New(n)
	for i := range m {
		for j := range m[i] {
			if i != j {
				m[i][j] = rng.Float64()
			}
		}
	}
	return m
}

// Patterns lists the pattern names Parse understands, for help texts.
var Patterns = []string{"uniform", "permutation", "ring", "chessboard", "skew:ALPHA", "skewring:ALPHA", "random:SEED"}

// ErrNeedsSchedule is returned by Parse for "worst": the worst-case demand
// of a topology is computed from its emulated graph (package emulated).
var ErrNeedsSchedule = errors.New(`"worst" depends on the topology: it needs a schedule and is computed by package emulated`)

// Parse turns a command-line demand spec into a matrix for n nodes:
// "uniform", "permutation", "ring", "chessboard", "skew:ALPHA",
// "skewring:ALPHA", "random:SEED", or the path of a matrix file (see Read;
// a file named like a pattern can be given as "./uniform"). For a file, n
// must equal the file's size or be 0 (take the size from the file). The
// patterns need n ≥ 2. "worst" returns ErrNeedsSchedule.
func Parse(spec string, n int) (Matrix, error) {
	name, arg, hasArg := strings.Cut(spec, ":")
	switch name {
	case "uniform", "permutation", "ring", "chessboard", "skew", "skewring", "random", "worst":
	default:
		return readFile(spec, n)
	}
	if name == "worst" {
		return nil, ErrNeedsSchedule
	}
	if n < 2 {
		return nil, fmt.Errorf("demand pattern %q needs at least 2 nodes, got %d", spec, n)
	}
	needsArg := name == "skew" || name == "skewring" || name == "random"
	if hasArg != needsArg {
		if needsArg {
			return nil, fmt.Errorf("demand pattern %q needs an argument: %s", spec, map[string]string{
				"skew": "skew:ALPHA, e.g. skew:0.5", "skewring": "skewring:ALPHA, e.g. skewring:0.5", "random": "random:SEED, e.g. random:7"}[name])
		}
		return nil, fmt.Errorf("demand pattern %q takes no argument", spec)
	}
	switch name {
	case "uniform":
		return Uniform(n), nil
	case "permutation":
		return Permutation(n), nil
	case "ring":
		return Ring(n), nil
	case "chessboard":
		return Chessboard(n), nil
	case "skew", "skewring":
		alpha, err := strconv.ParseFloat(arg, 64)
		if err != nil || math.IsNaN(alpha) || alpha < 0 || alpha > 1 {
			return nil, fmt.Errorf("demand pattern %q: skew %q must be a number in [0, 1]", spec, arg)
		}
		if name == "skew" {
			return Skew(n, alpha), nil
		}
		return SkewRing(n, alpha), nil
	default: // random
		seed, err := strconv.ParseUint(arg, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("demand pattern %q: seed %q must be a non-negative integer", spec, arg)
		}
		return Random(n, rand.New(rand.NewPCG(seed, 0))), nil
	}
}

func readFile(path string, n int) (Matrix, error) {
	f, err := limits.Open(path, limits.MaxMatrixBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("demand %q: neither a pattern (%s) nor an existing file", path, strings.Join(Patterns, ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("demand %q: %w", path, err)
	}
	defer f.Close()
	m, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if n != 0 && m.N() != n {
		return nil, fmt.Errorf("%s: matrix has %d nodes, want %d", path, m.N(), n)
	}
	return m, nil
}
