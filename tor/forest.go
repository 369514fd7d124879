package tor

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Forest is a random forest of binary classification trees over Features,
// flattened into one node array so that Predict walks it without
// allocating. Leaves hold the fraction of "drop" samples they saw; the
// forest predicts drop iff the mean over trees is at least 1/2.
type Forest struct {
	Nodes []ForestNode
	Roots []int32 // first node of each tree
}

// ForestNode is a split (Feature ≥ 0: go Left if f[Feature] ≤ Threshold,
// else Right) or a leaf (Feature = −1, Value = P(drop)).
type ForestNode struct {
	Feature     int8
	Threshold   float64
	Left, Right int32
	Value       float64
}

// Predict is the forest's vote on f.
func (m *Forest) Predict(f *Features) bool {
	s := 0.0
	for _, r := range m.Roots {
		n := &m.Nodes[r]
		for n.Feature >= 0 {
			if f[n.Feature] <= n.Threshold {
				n = &m.Nodes[n.Left]
			} else {
				n = &m.Nodes[n.Right]
			}
		}
		s += n.Value
	}
	return 2*s >= float64(len(m.Roots))
}

// TrainConfig sets up TrainForest; zero fields take Credence's values.
type TrainConfig struct {
	Trees    int // 4
	Depth    int // 4
	MinLeaf  int // 1
	Features int // features tried per split: 2 (√4, as scikit-learn)
}

// TrainForest grows a random forest by CART (Gini impurity), each tree on
// a bootstrap sample, each split over a random subset of the features.
// Same rng state and data, same forest.
func TrainForest(x []Features, y []bool, cfg TrainConfig, rng *rand.Rand) (*Forest, error) {
	if len(x) == 0 || len(x) != len(y) {
		return nil, fmt.Errorf("training data: %d samples and %d labels", len(x), len(y))
	}
	if cfg.Trees == 0 {
		cfg.Trees = 4
	}
	if cfg.Depth == 0 {
		cfg.Depth = 4
	}
	if cfg.MinLeaf == 0 {
		cfg.MinLeaf = 1
	}
	if cfg.Features == 0 {
		cfg.Features = 2
	}
	if cfg.Trees < 1 || cfg.Depth < 1 || cfg.Features < 1 || cfg.Features > len(Features{}) {
		return nil, fmt.Errorf("train config %+v: out of range", cfg)
	}
	m := &Forest{}
	idx := make([]int, len(x))
	for t := 0; t < cfg.Trees; t++ {
		for i := range idx {
			idx[i] = rng.IntN(len(x))
		}
		m.Roots = append(m.Roots, int32(len(m.Nodes)))
		m.grow(x, y, idx, cfg, cfg.Depth, rng)
	}
	return m, nil
}

// grow appends the subtree of samples idx and returns its node index.
func (m *Forest) grow(x []Features, y []bool, idx []int, cfg TrainConfig, depth int, rng *rand.Rand) int32 {
	me := int32(len(m.Nodes))
	pos := 0
	for _, i := range idx {
		if y[i] {
			pos++
		}
	}
	m.Nodes = append(m.Nodes, ForestNode{Feature: -1, Value: float64(pos) / float64(len(idx))})
	if depth == 0 || pos == 0 || pos == len(idx) || len(idx) < 2*cfg.MinLeaf {
		return me
	}
	feat, thr, ok := bestSplit(x, y, idx, cfg, rng)
	if !ok {
		return me
	}
	left := make([]int, 0, len(idx))
	right := make([]int, 0, len(idx))
	for _, i := range idx {
		if x[i][feat] <= thr {
			left = append(left, i)
		} else {
			right = append(right, i)
		}
	}
	l := m.grow(x, y, left, cfg, depth-1, rng)
	r := m.grow(x, y, right, cfg, depth-1, rng)
	m.Nodes[me] = ForestNode{Feature: int8(feat), Threshold: thr, Left: l, Right: r}
	return me
}

// bestSplit tries cfg.Features random features and every midpoint
// between distinct values, minimising the weighted Gini impurity.
func bestSplit(x []Features, y []bool, idx []int, cfg TrainConfig, rng *rand.Rand) (int, float64, bool) {
	feats := rng.Perm(len(Features{}))[:cfg.Features]
	slices.Sort(feats)
	order := make([]int, len(idx))
	best, bestF, bestT := math.Inf(1), -1, 0.0
	total := 0
	for _, i := range idx {
		if y[i] {
			total++
		}
	}
	n := len(idx)
	for _, f := range feats {
		copy(order, idx)
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case x[a][f] < x[b][f]:
				return -1
			case x[a][f] > x[b][f]:
				return 1
			}
			return 0
		})
		lp := 0
		for k := 0; k < n-1; k++ {
			if y[order[k]] {
				lp++
			}
			a, b := x[order[k]][f], x[order[k+1]][f]
			nl := k + 1
			if a == b || nl < cfg.MinLeaf || n-nl < cfg.MinLeaf {
				continue
			}
			g := gini(lp, nl) + gini(total-lp, n-nl)
			if g < best-1e-12 {
				best, bestF, bestT = g, f, a+(b-a)/2
			}
		}
	}
	return bestF, bestT, bestF >= 0
}

// gini is n times the Gini impurity of a node with pos positives of n.
func gini(pos, n int) float64 {
	p := float64(pos) / float64(n)
	return float64(n) * 2 * p * (1 - p)
}

// Model file format (text, one record a line, '#' comments):
//
//	rdcn-forest 1
//	tree
//	split FEATURE THRESHOLD LEFT RIGHT
//	leaf P
//
// Nodes are numbered in file order from 0 across the whole file; a tree
// starts at the node after its "tree" line; LEFT and RIGHT name later
// nodes of the same tree. FEATURE is one of FeatureNames.

const forestMagic = "rdcn-forest 1"

// Write writes the model file.
func (m *Forest) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, forestMagic)
	for _, r := range m.Roots {
		end := len(m.Nodes)
		for _, r2 := range m.Roots {
			if r2 > r && int(r2) < end {
				end = int(r2)
			}
		}
		fmt.Fprintln(bw, "tree")
		for i := int(r); i < end; i++ {
			n := m.Nodes[i]
			if n.Feature < 0 {
				fmt.Fprintf(bw, "leaf %s\n", strconv.FormatFloat(n.Value, 'g', -1, 64))
			} else {
				fmt.Fprintf(bw, "split %s %s %d %d\n", FeatureNames[n.Feature],
					strconv.FormatFloat(n.Threshold, 'g', -1, 64), n.Left, n.Right)
			}
		}
	}
	return bw.Flush()
}

// LoadForest reads a model file; errors start with its path.
func LoadForest(path string) (*Forest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	defer f.Close()
	m, err := ReadForest(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return m, nil
}

// Quality is a classifier's confusion counts on a labelled set, with
// "drop" as the positive class (the Credence paper's metrics).
type Quality struct {
	TP int `json:"tp"`
	FP int `json:"fp"`
	TN int `json:"tn"`
	FN int `json:"fn"`
}

// Accuracy, Precision and Recall as usual; 0 when undefined.
func (q Quality) Accuracy() float64  { return frac(q.TP+q.TN, q.TP+q.TN+q.FP+q.FN) }
func (q Quality) Precision() float64 { return frac(q.TP, q.TP+q.FP) }
func (q Quality) Recall() float64    { return frac(q.TP, q.TP+q.FN) }

func frac(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Evaluate is m's confusion on (x, y).
func (m *Forest) Evaluate(x []Features, y []bool) Quality {
	var q Quality
	for i := range x {
		switch p := m.Predict(&x[i]); {
		case p && y[i]:
			q.TP++
		case p:
			q.FP++
		case y[i]:
			q.FN++
		default:
			q.TN++
		}
	}
	return q
}

// MaxForestNodes bounds a model file.
const MaxForestNodes = 1 << 16

// ReadForest parses a model file; a bad file gives a one-line error with
// its line number.
func ReadForest(r io.Reader) (*Forest, error) {
	sc := bufio.NewScanner(r)
	m := &Forest{}
	line, magic := 0, false
	treeStart := -1
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if !magic {
			if text != forestMagic {
				return nil, fmt.Errorf("line %d: want %q, got %.40q", line, forestMagic, text)
			}
			magic = true
			continue
		}
		f := strings.Fields(text)
		bad := func(format string, a ...any) error {
			return fmt.Errorf("line %d: "+format, append([]any{line}, a...)...)
		}
		switch f[0] {
		case "tree":
			if len(f) != 1 {
				return nil, bad("tree takes no fields")
			}
			if treeStart >= 0 && treeStart == len(m.Nodes) {
				return nil, bad("previous tree has no node")
			}
			treeStart = len(m.Nodes)
			m.Roots = append(m.Roots, int32(treeStart))
			continue
		case "leaf", "split":
		default:
			return nil, bad("unknown record %.20q", f[0])
		}
		if treeStart < 0 {
			return nil, bad("%s before the first tree", f[0])
		}
		if len(m.Nodes) >= MaxForestNodes {
			return nil, bad("more than %d nodes", MaxForestNodes)
		}
		me := len(m.Nodes)
		if f[0] == "leaf" {
			if len(f) != 2 {
				return nil, bad("leaf wants 1 field, got %d", len(f)-1)
			}
			v, err := strconv.ParseFloat(f[1], 64)
			if err != nil || !(v >= 0 && v <= 1) {
				return nil, bad("leaf value %.20q: want a probability in [0, 1]", f[1])
			}
			m.Nodes = append(m.Nodes, ForestNode{Feature: -1, Value: v})
			continue
		}
		if len(f) != 5 {
			return nil, bad("split wants 4 fields, got %d", len(f)-1)
		}
		feat := slices.Index(FeatureNames[:], f[1])
		if feat < 0 {
			return nil, bad("feature %.20q: want one of %s", f[1], strings.Join(FeatureNames[:], ", "))
		}
		thr, err := strconv.ParseFloat(f[2], 64)
		if err != nil || math.IsNaN(thr) || math.IsInf(thr, 0) {
			return nil, bad("threshold %.20q: want a finite number", f[2])
		}
		l, err1 := strconv.Atoi(f[3])
		rr, err2 := strconv.Atoi(f[4])
		if err1 != nil || err2 != nil || l <= me || rr <= me || l == rr || l >= MaxForestNodes || rr >= MaxForestNodes {
			return nil, bad("children %.20q %.20q: want two distinct later nodes", f[3], f[4])
		}
		m.Nodes = append(m.Nodes, ForestNode{Feature: int8(feat), Threshold: thr, Left: int32(l), Right: int32(rr)})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %v", line+1, err)
	}
	if !magic {
		return nil, fmt.Errorf("line %d: empty model file, want %q", line, forestMagic)
	}
	if len(m.Roots) == 0 {
		return nil, fmt.Errorf("line %d: no tree", line)
	}
	// Children must lie inside their own tree, and every node must be
	// reached exactly once, so that Predict ends at a leaf.
	for t, r := range m.Roots {
		end := int32(len(m.Nodes))
		if t+1 < len(m.Roots) {
			end = m.Roots[t+1]
		}
		if r == end {
			return nil, fmt.Errorf("tree %d: no node", t)
		}
		seen := make([]bool, end-r)
		seen[0] = true
		for i := r; i < end; i++ {
			n := m.Nodes[i]
			if n.Feature < 0 {
				continue
			}
			for _, c := range [2]int32{n.Left, n.Right} {
				if c >= end || seen[c-r] {
					return nil, fmt.Errorf("tree %d node %d: child %d outside its tree or shared", t, i, c)
				}
				seen[c-r] = true
			}
		}
		for i, ok := range seen {
			if !ok {
				return nil, fmt.Errorf("tree %d: node %d is unreachable", t, int(r)+i)
			}
		}
	}
	return m, nil
}
