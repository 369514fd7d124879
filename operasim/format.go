package operasim

import (
	"bufio"
	"bytes"
	"io"
	"strconv"

	"github.com/rdcn/rdcn/rotor"
)

// Write writes tp in opera-sim's topology file format (the file its
// -topfile flag reads):
//
//	H U U N               hosts (N·U), downlinks and uplinks per ToR, ToRs
//	S ε δ r               slices (3 per superslice), slice parts in ps
//	next ToR per uplink   S lines of N·U ToRs (−1 dark), ToR-major
//	i                     then per slice i: its number alone on a line,
//	s d p1 p2 …           and one line per path: ToRs s→d, uplink ports
//
// The file has no final newline: opera-sim reads a trailing empty line as
// a path and crashes. It validates tp first and writes nothing if tp is
// invalid; equal topologies give identical bytes.
func Write(w io.Writer, tp *Topology) error {
	if err := tp.Check(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	b := make([]byte, 0, 256)
	first := true // each line but the first starts with its newline
	line := func(vals ...int64) {
		if !first {
			b = append(b, '\n')
		}
		first = false
		for i, v := range vals {
			if i > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, v, 10)
		}
	}
	flush := func() error {
		_, err := bw.Write(b)
		b = b[:0]
		return err
	}
	u, n := tp.Uplinks, tp.ToRs
	line(int64(n*u), int64(u), int64(u), int64(n))
	line(int64(tp.Slices()), int64(tp.Epsilon), int64(tp.Delta), int64(tp.R))
	for _, row := range tp.Next {
		b = append(b, '\n')
		for k, v := range row {
			if k > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		if err := flush(); err != nil {
			return err
		}
	}
	for i, ps := range tp.Paths {
		line(int64(i))
		for sd, list := range ps {
			for _, p := range list {
				b = append(b, '\n')
				b = strconv.AppendInt(b, int64(sd/n), 10)
				b = append(b, ' ')
				b = strconv.AppendInt(b, int64(sd%n), 10)
				for _, port := range p {
					b = append(b, ' ')
					b = strconv.AppendInt(b, int64(port), 10)
				}
			}
		}
		if err := flush(); err != nil {
			return err
		}
	}
	if err := flush(); err != nil {
		return err
	}
	return bw.Flush()
}

// Limits of Read, so that a hostile header cannot make it allocate
// without bound.
const (
	MaxToRs    = 1024
	MaxUplinks = 64
	MaxSlices  = 1 << 20
	// MaxEntries bounds the adjacency (slices × ToRs × uplinks) and the
	// path table (slices × ToRs²).
	MaxEntries = 1 << 24
)

// Read parses a topology file in Write's format (with or without a final
// newline) and checks it (Check). Errors name the line.
func Read(r io.Reader) (*Topology, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	ln := 0
	var fields [][]byte
	var nums []int64
	next := func() (bool, error) {
		if !sc.Scan() {
			return false, sc.Err()
		}
		ln++
		fields = bytes.Fields(sc.Bytes())
		nums = nums[:0]
		for _, f := range fields {
			v, err := strconv.ParseInt(string(f), 10, 64)
			if err != nil {
				return false, errorf(lineName(ln), "%q is not an integer", f)
			}
			nums = append(nums, v)
		}
		return true, nil
	}
	need := func(what string, k int) error {
		ok, err := next()
		if err != nil {
			return err
		}
		if !ok {
			return errorf(lineName(ln+1), "missing: want %s", what)
		}
		if len(nums) != k {
			return errorf(lineName(ln), "has %d numbers, want %d (%s)", len(nums), k, what)
		}
		return nil
	}
	if err := need("hosts, downlinks, uplinks, ToRs", 4); err != nil {
		return nil, err
	}
	hosts, down, up, n := nums[0], nums[1], nums[2], nums[3]
	switch {
	case n < 1 || n > MaxToRs:
		return nil, errorf("line 1", "ToRs %d outside [1, %d]", n, MaxToRs)
	case up < 1 || up > MaxUplinks:
		return nil, errorf("line 1", "uplinks %d outside [1, %d]", up, MaxUplinks)
	case down != up:
		return nil, errorf("line 1", "downlinks %d ≠ uplinks %d: opera-sim's RotorLB needs as many hosts as uplinks", down, up)
	case hosts != n*up:
		return nil, errorf("line 1", "hosts %d ≠ ToRs × hosts per ToR = %d", hosts, n*up)
	}
	if err := need("slices, ε, δ, r in ps", 4); err != nil {
		return nil, err
	}
	S := nums[0]
	if S < 3 || S%3 != 0 || S > MaxSlices || S*n*up > MaxEntries || S*n*n > MaxEntries {
		return nil, errorf("line 2", "slices %d: want a positive multiple of 3, at most %d entries of adjacency and of paths", S, MaxEntries)
	}
	for k, name := range []string{"ε", "δ", "r"} {
		if nums[1+k] < 0 {
			return nil, errorf("line 2", "%s %d is negative", name, nums[1+k])
		}
	}
	tp := &Topology{ToRs: int(n), Uplinks: int(up), Epsilon: rotor.Time(nums[1]), Delta: rotor.Time(nums[2]), R: rotor.Time(nums[3]),
		Next: make([][]int, S), Paths: make([][][]Path, S)}
	for i := range tp.Next {
		if err := need("the next ToR of every uplink", int(n*up)); err != nil {
			return nil, err
		}
		row := make([]int, len(nums))
		for k, v := range nums {
			if v < -1 || v >= n {
				return nil, errorf(lineName(ln), "next ToR %d outside [−1, %d)", v, n)
			}
			row[k] = int(v)
		}
		tp.Next[i] = row
	}
	slice := -1
	for {
		ok, err := next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		switch {
		case len(nums) == 0:
			if sc.Scan() { // only a final newline may leave an empty line
				return nil, errorf(lineName(ln), "is empty")
			}
		case len(nums) == 1:
			if nums[0] != int64(slice+1) {
				return nil, errorf(lineName(ln), "slice %d follows slice %d, want %d", nums[0], slice, slice+1)
			}
			if nums[0] >= S {
				return nil, errorf(lineName(ln), "slice %d ≥ %d slices", nums[0], S)
			}
			slice++
			tp.Paths[slice] = make([][]Path, n*n)
		case len(nums) == 2:
			return nil, errorf(lineName(ln), "a path with no hops")
		default:
			if slice < 0 {
				return nil, errorf(lineName(ln), "a path before the first slice number")
			}
			s, d := nums[0], nums[1]
			if s < 0 || s >= n || d < 0 || d >= n || s == d {
				return nil, errorf(lineName(ln), "ToRs %d→%d: want two distinct ToRs in [0, %d)", s, d, n)
			}
			if int64(len(nums)-2) > n {
				return nil, errorf(lineName(ln), "a path of %d hops through %d ToRs", len(nums)-2, n)
			}
			p := make(Path, len(nums)-2)
			for k, v := range nums[2:] {
				p[k] = int(v)
			}
			tp.Paths[slice][s*n+d] = append(tp.Paths[slice][s*n+d], p)
		}
	}
	if slice != int(S)-1 {
		return nil, errorf(lineName(ln+1), "paths of %d slices, want %d", slice+1, S)
	}
	if err := tp.Check(); err != nil {
		return nil, err
	}
	return tp, nil
}

func lineName(ln int) string { return "line " + strconv.Itoa(ln) }

// Check verifies tp's invariants: in every slice each uplink's circuits
// form a matching (a permutation of the ToRs, idle ports mapping to
// themselves) unless its rotor is dark (−1 on every ToR); every ordered
// pair of distinct ToRs has at least one path in every slice; and every
// path is a walk from s to d over the uplinks of its slice that are up,
// none of them idle, visiting no ToR twice.
func (tp *Topology) Check() error {
	n, u := tp.ToRs, tp.Uplinks
	if n < 1 || u < 1 || len(tp.Next) == 0 || len(tp.Next)%3 != 0 || len(tp.Paths) != len(tp.Next) {
		return errorf("topology", "%d ToRs, %d uplinks, %d adjacency and %d path slices: want positive sizes and 3 slices per superslice", n, u, len(tp.Next), len(tp.Paths))
	}
	if tp.Epsilon < 0 || tp.Delta < 0 || tp.R < 0 || tp.Superslice() == 0 {
		return errorf("slice times", "ε %v, δ %v, r %v: want non-negative with a positive sum", tp.Epsilon, tp.Delta, tp.R)
	}
	seen := make([]int, n)
	visited := make([]int, n) // visited[t] == gen: the path being checked has been at t
	gen := 0
	for i, row := range tp.Next {
		if len(row) != n*u {
			return errorf(sliceName(i), "adjacency of %d entries, want %d", len(row), n*u)
		}
		for k := 0; k < u; k++ {
			dark := row[k] == -1
			for t := 0; t < n; t++ {
				v := row[t*u+k]
				if (v == -1) != dark {
					return errorf(sliceName(i), "uplink %d is dark at some ToRs and up at others", k)
				}
				if dark {
					continue
				}
				if v < 0 || v >= n {
					return errorf(sliceName(i), "uplink %d of ToR %d reaches %d, outside [0, %d)", k, t, v, n)
				}
				if seen[v] == i*u+k+1 {
					return errorf(sliceName(i), "uplink %d is not a matching: ToR %d is reached twice", k, v)
				}
				seen[v] = i*u + k + 1
			}
		}
		for sd, list := range tp.Paths[i] {
			s, d := sd/n, sd%n
			if s == d {
				if len(list) > 0 {
					return errorf(sliceName(i), "paths from ToR %d to itself", s)
				}
				continue
			}
			if len(list) == 0 {
				return errorf(sliceName(i), "no path from ToR %d to ToR %d", s, d)
			}
			for _, p := range list {
				gen++
				a := s
				visited[a] = gen
				for _, port := range p {
					k := port - u
					if k < 0 || k >= u {
						return errorf(sliceName(i), "path %d→%d uses port %d, not an uplink (%d…%d)", s, d, port, u, 2*u-1)
					}
					b := row[a*u+k]
					if b < 0 {
						return errorf(sliceName(i), "path %d→%d uses uplink %d of ToR %d while its rotor is dark", s, d, k, a)
					}
					if b == a {
						return errorf(sliceName(i), "path %d→%d uses the idle uplink %d of ToR %d", s, d, k, a)
					}
					if visited[b] == gen {
						return errorf(sliceName(i), "path %d→%d visits ToR %d twice", s, d, b)
					}
					visited[b] = gen
					a = b
				}
				if a != d {
					return errorf(sliceName(i), "path %d→%d ends at ToR %d", s, d, a)
				}
			}
		}
	}
	return nil
}

func sliceName(i int) string { return "slice " + strconv.Itoa(i) }
