package workload

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Point is one line of a flow-size CDF: P(size ≤ Bytes) = Prob.
type Point struct {
	Bytes float64
	Prob  float64
}

// CDF is an empirical flow-size distribution given by points (x_i, p_i) with
// x non-decreasing and p non-decreasing up to 1. It is read as a
// piecewise-linear CDF:
//
//   - the first point is an atom: P(size = x_0) = p_0;
//   - between consecutive points the size is uniform on [x_{i−1}, x_i] with
//     probability p_i − p_{i−1} (linear interpolation of the CDF, the rule of
//     htsim/ns-3 style empirical samplers);
//   - a sample is rounded to the nearest byte and is at least 1 byte.
//
// Mean is the exact mean of that distribution:
// p_0·x_0 + Σ_i (p_i − p_{i−1})·(x_{i−1} + x_i)/2.
type CDF struct {
	pts  []Point
	mean float64
}

// probTolerance is how far the last cumulative probability may be from 1 (or
// 100) before a CDF is rejected; within it the probabilities are rescaled so
// the last one is exactly 1.
const probTolerance = 1e-3

// maxCDFBytes bounds sizes: MaxFlowBytes, so that rounding to int64 never
// overflows and every sampled flow is one the simulator accepts.
const maxCDFBytes = MaxFlowBytes

// NewCDF validates points and builds a CDF. Probabilities may be fractions
// (0..1) or percentages (0..100): if the last one exceeds 1 all are divided by
// 100. Errors name the offending point (counting from 1).
func NewCDF(points []Point) (*CDF, error) {
	c, err := newCDF(points, func(i int) int { return i + 1 })
	if err != nil {
		return nil, err
	}
	return c, nil
}

// newCDF checks points; line maps a point index to the line number reported.
func newCDF(points []Point, line func(int) int) (*CDF, error) {
	if len(points) == 0 {
		return nil, errors.New("cdf: no points")
	}
	last := points[len(points)-1].Prob
	scale := 1.0
	if last > 1+probTolerance {
		scale = 100
	}
	for i, p := range points {
		switch {
		case math.IsNaN(p.Bytes) || math.IsInf(p.Bytes, 0) || p.Bytes < 0 || p.Bytes > maxCDFBytes:
			return nil, lineErr(line(i), "size %v must be a number of bytes in [0, 1e12] (1 TB)", p.Bytes)
		case math.IsNaN(p.Prob) || p.Prob < 0 || p.Prob > scale*(1+probTolerance):
			return nil, lineErr(line(i), "cumulative probability %v must be in [0, %v]", p.Prob, scale)
		}
		if i > 0 {
			q := points[i-1]
			if p.Bytes < q.Bytes {
				return nil, lineErr(line(i), "size %v is smaller than the previous size %v (sizes must not decrease)", p.Bytes, q.Bytes)
			}
			if p.Prob < q.Prob {
				return nil, lineErr(line(i), "cumulative probability %v is smaller than the previous %v (must not decrease)", p.Prob, q.Prob)
			}
		}
	}
	if math.Abs(last/scale-1) > probTolerance {
		return nil, lineErr(line(len(points)-1), "last cumulative probability is %v, want 1 (or 100)", last)
	}
	if points[0].Prob > 0 && points[0].Bytes < 1 {
		return nil, lineErr(line(0), "first point puts probability %v on size %v; sizes with positive probability must be ≥ 1 byte", points[0].Prob, points[0].Bytes)
	}
	pts := make([]Point, len(points))
	norm := last
	for i, p := range points {
		pts[i] = Point{Bytes: p.Bytes, Prob: p.Prob / norm}
	}
	pts[len(pts)-1].Prob = 1
	c := &CDF{pts: pts}
	c.mean = pts[0].Prob * pts[0].Bytes
	for i := 1; i < len(pts); i++ {
		c.mean += (pts[i].Prob - pts[i-1].Prob) * (pts[i-1].Bytes + pts[i].Bytes) / 2
	}
	if c.mean <= 0 {
		return nil, errors.New("cdf: mean size is 0")
	}
	return c, nil
}

// ParseCDF reads lines "bytes cumulative_probability" (whitespace or comma
// separated). Blank lines and lines starting with '#' are skipped. See CDF for
// how the points are interpreted and NewCDF for what is checked.
func ParseCDF(r io.Reader) (*CDF, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var pts []Point
	var lines []int
	n := 0
	for sc.Scan() {
		n++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		f := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' })
		if len(f) != 2 {
			return nil, lineErr(n, "want 2 columns \"bytes cumulative_probability\", got %d in %q", len(f), clip(text))
		}
		x, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			return nil, lineErr(n, "size %q is not a number", clip(f[0]))
		}
		p, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return nil, lineErr(n, "cumulative probability %q is not a number", clip(f[1]))
		}
		pts = append(pts, Point{Bytes: x, Prob: p})
		lines = append(lines, n)
	}
	if err := sc.Err(); err != nil {
		return nil, lineErr(n+1, "%v", err)
	}
	if len(pts) == 0 {
		return nil, errors.New("cdf: no data lines")
	}
	return newCDF(pts, func(i int) int { return lines[i] })
}

// LoadCDF reads a CDF file; errors carry the file name and line.
func LoadCDF(path string) (*CDF, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c, err := ParseCDF(f)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			pe.Name = filepath.Base(path)
			return nil, pe
		}
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return c, nil
}

// Points returns a copy of the normalised points (probabilities in 0..1).
func (c *CDF) Points() []Point { return append([]Point(nil), c.pts...) }

// Mean is the exact mean flow size in bytes (see CDF).
func (c *CDF) Mean() float64 { return c.mean }

// Quantile is the inverse CDF: the size (before rounding) below which a
// fraction u of flows lie, for u in [0, 1).
func (c *CDF) Quantile(u float64) float64 {
	pts := c.pts
	// The first index with Prob > u; exists because the last Prob is 1 > u.
	lo, hi := 0, len(pts)-1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if pts[mid].Prob > u {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	i := lo
	if i == 0 || u < 0 {
		return pts[0].Bytes
	}
	a, b := pts[i-1], pts[i]
	return a.Bytes + (u-a.Prob)/(b.Prob-a.Prob)*(b.Bytes-a.Bytes)
}

// Sample draws a flow size in bytes: inverse-transform sampling of the
// piecewise-linear CDF, rounded to the nearest byte, at least 1.
func (c *CDF) Sample(rng *rand.Rand) int64 {
	x := math.Round(c.Quantile(rng.Float64()))
	if x < 1 {
		return 1
	}
	return int64(x)
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
