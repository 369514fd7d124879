package emulated

import (
	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
)

// rotorSchedule spreads cyclic shifts over u switches round robin: shifts
// 0..n-1 with the self-slot (shift 0 is the idle identity), 1..n-1 for the
// true rotor. Built by hand so these tests do not depend on schedules.
func rotorSchedule(n, u int, selfSlot bool) *rotor.Schedule {
	first := 1
	if selfSlot {
		first = 0
	}
	shifts := n - first
	period := (shifts + u - 1) / u
	m := make([][][]int, u)
	for sw := range m {
		m[sw] = make([][]int, period)
		for t := range m[sw] {
			k := first + t*u + sw
			row := make([]int, n)
			for i := range row {
				if k >= n {
					row[i] = rotor.Idle
				} else {
					row[i] = (i + k) % n
				}
			}
			m[sw][t] = row
		}
	}
	return &rotor.Schedule{Kind: "rotornet", Nodes: n, Switches: u, Period: period,
		Slot: 100 * rotor.Microsecond, Matchings: m}
}

func permutationDemand(n int) demand.Matrix {
	d := demand.New(n)
	for i := 0; i < n; i++ {
		d[i][(i+n/2)%n] = 1
	}
	return d
}

func uniformDemand(n int) demand.Matrix {
	d := demand.New(n)
	for i := range d {
		for j := range d[i] {
			if i != j {
				d[i][j] = 1
			}
		}
	}
	return d
}

// chessboardDemand: node i sends to every j ≠ i of its own colour,
// colour = parity of the index.
func chessboardDemand(n int) demand.Matrix {
	d := demand.New(n)
	for i := range d {
		for j := range d[i] {
			if i != j && (i+j)%2 == 0 {
				d[i][j] = 1
			}
		}
	}
	return d
}

// completeGraph is K_n with capacity c on every arc.
func completeGraph(n int, c float64) *Graph {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
		for j := range m[i] {
			if i != j {
				m[i][j] = c
			}
		}
	}
	g, err := FromCapacity(m)
	if err != nil {
		panic(err)
	}
	return g
}

// deBruijnGraph has arcs u → (u·d + a) mod n, a = 0..d-1, capacity 1 each
// (parallel arcs add up, self-loops are dropped).
func deBruijnGraph(n, d int) *Graph {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	for u := 0; u < n; u++ {
		for a := 0; a < d; a++ {
			if v := (u*d + a) % n; v != u {
				m[u][v]++
			}
		}
	}
	g, err := FromCapacity(m)
	if err != nil {
		panic(err)
	}
	return g
}
