package bvn

// hopcroftKarp finds maximum matchings in a bipartite graph with n rows and
// n columns given in compressed sparse row form: the columns adjacent to row
// u are cols[start[u]:start[u+1]]. run starts from whatever matching matchL
// (row → column) and matchR (column → row) already hold, -1 meaning
// unmatched, so a caller can warm-start it.
type hopcroftKarp struct {
	start, cols    []int32
	matchL, matchR []int32
	dist, it       []int32 // BFS layer of each row; DFS cursor of each row
	queue          []int32
}

const infDist = int32(1 << 30)

func newHopcroftKarp(n int) *hopcroftKarp {
	h := &hopcroftKarp{
		matchL: make([]int32, n),
		matchR: make([]int32, n),
		dist:   make([]int32, n),
		it:     make([]int32, n),
		queue:  make([]int32, 0, n),
	}
	h.reset()
	return h
}

// reset clears the matching.
func (h *hopcroftKarp) reset() {
	for i := range h.matchL {
		h.matchL[i] = -1
		h.matchR[i] = -1
	}
}

// run augments the current matching to a maximum one and returns its size.
func (h *hopcroftKarp) run() int {
	n := len(h.matchL)
	size := 0
	// Greedy pass: cheap and usually matches almost every row.
	for u := 0; u < n; u++ {
		if h.matchL[u] >= 0 {
			size++
			continue
		}
		for _, v := range h.cols[h.start[u]:h.start[u+1]] {
			if h.matchR[v] < 0 {
				h.matchL[u], h.matchR[v] = v, int32(u)
				size++
				break
			}
		}
	}
	for size < n && h.bfs() {
		for u := 0; u < n; u++ {
			h.it[u] = h.start[u]
		}
		for u := 0; u < n; u++ {
			if h.matchL[u] < 0 && h.dfs(int32(u)) {
				size++
			}
		}
	}
	return size
}

// bfs layers the rows by alternating-path distance from the free rows and
// reports whether some free column is reachable.
func (h *hopcroftKarp) bfs() bool {
	q := h.queue[:0]
	for u := range h.matchL {
		if h.matchL[u] < 0 {
			h.dist[u] = 0
			q = append(q, int32(u))
		} else {
			h.dist[u] = infDist
		}
	}
	limit := infDist
	for head := 0; head < len(q); head++ {
		u := q[head]
		d := h.dist[u]
		if d >= limit {
			break
		}
		for _, v := range h.cols[h.start[u]:h.start[u+1]] {
			w := h.matchR[v]
			if w < 0 {
				if limit == infDist {
					limit = d + 1
				}
			} else if h.dist[w] == infDist {
				h.dist[w] = d + 1
				q = append(q, w)
			}
		}
	}
	h.queue = q
	return limit != infDist
}

// dfs looks for a shortest augmenting path from row u along the BFS layers.
func (h *hopcroftKarp) dfs(u int32) bool {
	end := h.start[u+1]
	for h.it[u] < end {
		v := h.cols[h.it[u]]
		h.it[u]++
		w := h.matchR[v]
		if w < 0 || (h.dist[w] == h.dist[u]+1 && h.dfs(w)) {
			h.matchL[u], h.matchR[v] = v, u
			return true
		}
	}
	h.dist[u] = infDist
	return false
}
