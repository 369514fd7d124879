package emulated

// arcIndex numbers a graph's arcs compactly, in CSR order: u's out-arcs
// are the ids out[u] … out[u+1]−1, their heads g.Out[u] in the same
// order. Ids increase with u·n+v, so a loop over the ids visits the arcs
// in the order of a loop over the dense n×n index that skips the
// non-arcs: sums over arcs round the same either way. The path solver
// keeps its per-arc state (lengths, capacities, loads, scratch) by these
// ids, len(arcs) long instead of n² (on mars-200 at n = 1,024, 204,600
// instead of 1,048,576), and converts to the dense u·n+v index only for
// its certificate.
type arcIndex struct {
	out   []int32 // n+1 offsets: out-arcs of u are out[u]..out[u+1]
	in    []int32 // n+1 offsets into inArc
	inArc []int32 // ids of v's in-arcs, in g.In[v]'s order
	head  []int32 // id → v
	dense []int32 // id → u·n+v
}

func newArcIndex(g *Graph) arcIndex {
	n := g.N
	m := g.Arcs()
	x := arcIndex{out: make([]int32, n+1), in: make([]int32, n+1), inArc: make([]int32, m),
		head: make([]int32, 0, m), dense: make([]int32, 0, m)}
	for u, vs := range g.Out {
		x.out[u] = int32(len(x.head))
		for _, v := range vs {
			x.head = append(x.head, v)
			x.dense = append(x.dense, int32(u*n)+v)
		}
	}
	x.out[n] = int32(m)
	for v, us := range g.In {
		x.in[v+1] = x.in[v] + int32(len(us))
	}
	// Tails increase over the ids, as g.In lists them: filling each
	// head's list in id order gives g.In's order.
	fill := append([]int32(nil), x.in[:n]...)
	for e, v := range x.head {
		x.inArc[fill[v]] = int32(e)
		fill[v]++
	}
	return x
}

// arcs is the number of arcs.
func (x *arcIndex) arcs() int { return len(x.head) }

// expand returns the per-arc values vals as a dense n×n slice (u·n+v),
// zero where there is no arc.
func (x *arcIndex) expand(vals []float64, n int) []float64 {
	d := make([]float64, n*n)
	for e, a := range x.dense {
		d[a] = vals[e]
	}
	return d
}
