package emulated

import "github.com/rdcn/rdcn/demand"

// A Routing is one way to route a demand on the emulated graph, as rdcn
// throughput's --routing names it: Name is Result.Routing of what Solve
// returns, Doc says what it is in a few words.
type Routing struct {
	Name  string
	Doc   string
	Solve func(g *Graph, d demand.Matrix, opt *Options) (*Result, error)
	// Certified: Solve brackets θ in a certified interval [Lower, Upper]
	// down to Options.Gap and stops early, with a wider interval, when
	// Options.Context ends. Otherwise θ is exact (Lower = Upper) and Solve
	// reads neither.
	Certified bool
}

// Routings lists every routing: any first (the maximum concurrent flow,
// the largest θ of all), then the fixed routings.
func Routings() []Routing {
	return []Routing{
		{Name: "any", Doc: "max concurrent flow", Solve: Throughput, Certified: true},
		{Name: "direct", Doc: "single hop", Solve: SingleHop},
		{Name: "vlb", Doc: "Valiant", Solve: VLB},
		{Name: RoutingVLBSlice, Doc: "max concurrent flow over a first hop to any neighbour, then shortest paths: the simulator's vlb-slice",
			Solve: VLBSlice, Certified: true},
		{Name: RoutingVLBSliceSpray, Doc: "those paths split as the router sprays: first hops in proportion to capacity, then even",
			Solve: VLBSliceSpray},
	}
}

// LookupRouting is the routing called name.
func LookupRouting(name string) (Routing, bool) {
	for _, r := range Routings() {
		if r.Name == name {
			return r, true
		}
	}
	return Routing{}, false
}
