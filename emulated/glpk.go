package emulated

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rdcn/rdcn/demand"
)

// ErrNoGLPK means glpsol (GLPK) is not on the PATH.
var ErrNoGLPK = errors.New("glpsol not installed (apt-get install glpk-utils)")

// GLPKAvailable reports whether glpsol is on the PATH.
func GLPKAvailable() bool {
	_, err := exec.LookPath("glpsol")
	return err == nil
}

// WriteLP writes the exact source-aggregated net-flow LP of θ(D) in CPLEX LP
// format: maximise θ subject to, for every source s and node v ≠ s,
// inflow_s(v) − outflow_s(v) = θ·D_sv, and Σ_s f_s(e) ≤ c_e; commodity s has
// no variables on arcs into s. d is the demand as given (normalised here).
// It returns the order of the flow columns, (s, arc) pairs, after θ.
func WriteLP(w io.Writer, g *Graph, d demand.Matrix) ([][2]int, error) {
	n := g.N
	bw := bufio.NewWriter(w)
	var cols [][2]int
	seen := make(map[[2]int]bool)
	name := func(s, a int) string {
		k := [2]int{s, a}
		if !seen[k] {
			seen[k] = true
			cols = append(cols, k)
		}
		return fmt.Sprintf("f_%d_%d_%d", s, a/n, a%n)
	}
	fmt.Fprintln(bw, "Maximize\n obj: theta\nSubject To")
	row := 0
	for s, drow := range d {
		if d.RowSum(s) == 0 {
			continue
		}
		for v := 0; v < n; v++ {
			if v == s {
				continue
			}
			row++
			fmt.Fprintf(bw, " r%d:", row)
			terms := 0
			for _, u := range g.In[v] {
				fmt.Fprintf(bw, " + %s", name(s, int(u)*n+v))
				terms++
			}
			for _, x := range g.Out[v] {
				if int(x) != s {
					fmt.Fprintf(bw, " - %s", name(s, v*n+int(x)))
					terms++
				}
			}
			fmt.Fprintf(bw, " - %s theta = 0\n", strconv.FormatFloat(drow[v], 'g', -1, 64))
		}
	}
	for u := 0; u < n; u++ {
		for _, v := range g.Out[u] {
			a := u*n + int(v)
			row++
			fmt.Fprintf(bw, " r%d:", row)
			any := false
			for s := range d {
				if d.RowSum(s) == 0 || int(v) == s || !seen[[2]int{s, a}] {
					continue
				}
				fmt.Fprintf(bw, " + %s", name(s, a))
				any = true
			}
			if !any {
				fmt.Fprint(bw, " 0 theta")
			}
			fmt.Fprintf(bw, " <= %s\n", strconv.FormatFloat(g.Cap[a], 'g', -1, 64))
		}
	}
	fmt.Fprintln(bw, "End")
	return cols, bw.Flush()
}

// ThroughputGLPK solves the same problem as Throughput exactly with glpsol
// (the simplex method) and returns a Result in the same form: the primal
// flow and the capacity duals as lengths, so Verify can check it. It needs
// glpsol on the PATH (ErrNoGLPK otherwise); meant for cross-checks at
// small n — the LP has n·m variables.
func ThroughputGLPK(ctx context.Context, g *Graph, d demand.Matrix, opt *Options) (*Result, error) {
	bin, err := exec.LookPath("glpsol")
	if err != nil {
		return nil, ErrNoGLPK
	}
	dn, err := prepare(g, d, opt != nil && opt.Raw)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "rdcn-glpk")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	lp := filepath.Join(dir, "theta.lp")
	sol := filepath.Join(dir, "theta.sol")
	f, err := os.Create(lp)
	if err != nil {
		return nil, err
	}
	cols, err := WriteLP(f, g, dn)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "--lp", lp, "-w", sol)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("glpsol: %v: %s", err, lastLine(out.String()))
	}
	raw, err := os.ReadFile(sol)
	if err != nil {
		return nil, err
	}
	return parseGLPKSolution(g, dn, cols, raw)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// parseGLPKSolution reads glpsol's raw solution (-w): "s bas ROWS COLS
// pst dst obj", then "i ROW st prim dual" and "j COL st prim dual" lines.
func parseGLPKSolution(g *Graph, dn demand.Matrix, cols [][2]int, raw []byte) (*Result, error) {
	n := g.N
	// Rows: one conservation row per (source with demand, v ≠ s), then one
	// capacity row per arc in Out order.
	conservation := 0
	for s := range dn {
		if dn.RowSum(s) > 0 {
			conservation += n - 1
		}
	}
	arcs := make([]int, 0, g.Arcs())
	for u := 0; u < n; u++ {
		for _, v := range g.Out[u] {
			arcs = append(arcs, u*n+int(v))
		}
	}
	res := &Result{Routing: "any", Solver: "glpk", Demand: dn,
		Flow: make([]SourceFlow, n), Lengths: make([]float64, n*n)}
	dense := make([][]float64, n) // per source, packed once read
	for s := range dense {
		dense[s] = make([]float64, n*n)
	}
	status := ""
	for _, line := range strings.Split(string(raw), "\n") {
		fs := strings.Fields(line)
		if len(fs) == 0 {
			continue
		}
		switch fs[0] {
		case "s":
			if len(fs) < 7 {
				return nil, fmt.Errorf("glpsol: bad status line %q", line)
			}
			status = fs[4] + fs[5]
		case "i", "j":
			if len(fs) < 5 {
				return nil, fmt.Errorf("glpsol: bad solution line %q", line)
			}
			k, err1 := strconv.Atoi(fs[1])
			prim, err2 := strconv.ParseFloat(fs[3], 64)
			dual, err3 := strconv.ParseFloat(fs[4], 64)
			if err1 != nil || err2 != nil || err3 != nil {
				return nil, fmt.Errorf("glpsol: bad solution line %q", line)
			}
			if fs[0] == "i" {
				if k > conservation && k-conservation <= len(arcs) {
					res.Lengths[arcs[k-conservation-1]] = max(dual, 0)
				}
				continue
			}
			if k == 1 {
				res.Lower = prim
				continue
			}
			if k-2 >= len(cols) {
				return nil, fmt.Errorf("glpsol: column %d out of range", k)
			}
			c := cols[k-2]
			dense[c[0]][c[1]] = max(prim, 0)
		}
	}
	for s, f := range dense {
		res.Flow[s] = sparseFlow(f)
	}
	if status != "ff" {
		return nil, fmt.Errorf("glpsol: solution is not feasible and optimal (status %q)", status)
	}
	ub, err := dualBound(g, dn, res.Lengths)
	if err != nil {
		return nil, err
	}
	res.Upper = outwardUpper(res.Lower, ub)
	res.Theta = res.Lower
	res.Gap = relGap(res.Lower, res.Upper)
	return res, nil
}
