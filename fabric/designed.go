package fabric

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/yourbasic/graph"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/routing"
	"github.com/rdcn/rdcn/workload"
)

// Designed is the routing mode and transport a schedule was designed to
// run with: the defaults of routing.mode and transport.kind (and of
// Config.Routing and Config.Transport) for it.
type Designed struct {
	Routing, Transport string
	Why                string // one line: the design it follows
}

// designed holds the kinds whose design names a routing.
var designed = map[string]Designed{
	"rotornet": {RotorLB, Pull, "RotorNet: traffic waits at the hosts and RotorLB relays it over spare circuits"},
	"sirius":   {RotorLB, Pull, "Sirius: a rotor sweep, run like RotorNet (host-buffered, RotorLB)"},
	"opera":    {Paths, Pull, "Opera: short flows over the expander slices, bulk flows host-buffered over RotorLB"},
}

var (
	// rotorLike is the design of any other schedule in which every ToR
	// pair gets a direct circuit during the cycle (Mars at degree n,
	// Vermilion's ℓ-complete part): one or two circuit hops, as RotorNet.
	rotorLike = Designed{RotorLB, Pull, "every ToR pair meets directly in the cycle: run like RotorNet (host-buffered, RotorLB)"}
	// mars is Mars below degree n as the thesis runs it (§7.5): Valiant
	// first hops over the circuits up now, then the slice's shortest
	// paths, packets sprayed over equal-cost next hops; NDP.
	mars = Designed{VLBSlice, NDP, "Mars (thesis §7.5): Valiant first hop over any circuit up now, then the slice's shortest paths, packets sprayed; NDP"}
	// multiHop is the design of the rest (static graphs, BvN): paths of
	// several circuits, which earliest-arrival routing finds for every
	// pair the circuits connect.
	multiHop = Designed{Earliest, Windowed, "some ToR pairs never meet directly: earliest-arrival temporal paths reach every pair the circuits connect"}

	// withPacketSwitch is the design of a fabric given an electrical
	// packet switch: it carries what no circuit reaches now.
	withPacketSwitch = Designed{Hybrid, Windowed, "a packet switch beside the circuits: hybrid sends what no circuit reaches now through it"}
)

// defaultsFor is the design Config.defaults (DesignModes) applies: hybrid when
// the fabric has a packet switch, else DesignedFor(sc).
func defaultsFor(sc *rotor.Schedule, packetSwitch bool) Designed {
	if packetSwitch {
		return withPacketSwitch
	}
	return DesignedFor(sc)
}

// DesignedFor returns the designed routing and transport of sc: its
// kind's (rotornet, sirius, opera), else rotorlb with pull when every ToR
// pair gets a direct circuit during the cycle, else vlb-slice with NDP for
// Mars and earliest with the windowed transport for the rest. (With a
// packet switch the default is hybrid.)
func DesignedFor(sc *rotor.Schedule) Designed {
	if d, ok := designed[sc.Kind]; ok {
		return d
	}
	if everyPairMeets(sc) {
		return rotorLike
	}
	if sc.Kind == "mars" {
		return mars
	}
	return multiHop
}

// everyPairMeets reports whether every ordered pair of distinct ToRs gets
// a circuit in some slot with a day (slot longer than the night).
func everyPairMeets(sc *rotor.Schedule) bool {
	r, _ := newReach(context.Background(), sc, 0, 0)
	w := r.words()
	for u := 0; u < r.n; u++ {
		ones := 0
		for _, word := range r.direct[u*w : (u+1)*w] {
			ones += bits.OnesCount64(word)
		}
		if ones < r.n-1 { // rows never hold u itself
			return false
		}
	}
	return true
}

// reach is what a schedule connects: the ToR pairs that get a direct
// circuit at some time of the cycle (a day long enough for one packet),
// and, computed when first asked, the strongly connected components of
// their union.
type reach struct {
	n      int
	direct []uint64       // n rows of ⌈n/64⌉ words: bit v of row u = circuit u→v
	comp   []int          // strongly connected component of each ToR in the union; nil until needed
	one    bool           // the union has one component
	from   map[int][]bool // ToRs the union reaches from a source, for pairs across components
}

// components fills r.comp.
func (r *reach) components() {
	if r.comp != nil {
		return
	}
	r.comp = make([]int, r.n)
	cs := graph.StrongComponents(r)
	for c, nodes := range cs {
		for _, v := range nodes {
			r.comp[v] = c
		}
	}
	r.one = len(cs) == 1
}

// stronglyConnected reports whether the union connects every ToR to
// every other.
func (r *reach) stronglyConnected() bool {
	r.components()
	return r.one
}

func newReach(ctx context.Context, sc *rotor.Schedule, link rotor.Rate, mtu int32) (*reach, error) {
	n := sc.Nodes
	w := (n + 63) / 64
	r := &reach{n: n, direct: make([]uint64, n*w)}
	need := rotor.Time(1) // a day at all; with a link, one mtu packet's time
	if link > 0 {
		need = link.TransmitTime(rotor.Bytes(mtu))
	}
	for sw := range sc.Matchings {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for k, m := range sc.Matchings[sw] {
			if sc.SlotDuration(k)-sc.Reconf < need {
				continue // no packet crosses in this slot's day
			}
			for u, v := range m {
				if v != rotor.Idle && v != u {
					r.direct[u*w+v/64] |= 1 << (v % 64)
				}
			}
		}
	}
	return r, nil
}

func (r *reach) words() int { return (r.n + 63) / 64 }

// Order and Visit make the union graph a graph.Iterator.
func (r *reach) Order() int { return r.n }

func (r *reach) Visit(u int, do func(v int, c int64) bool) bool {
	w := r.words()
	for i, word := range r.direct[u*w : (u+1)*w] {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &= word - 1
			if do(i*64+b, 0) {
				return true
			}
		}
	}
	return false
}

func (r *reach) hasDirect(u, v int) bool {
	return r.direct[u*r.words()+v/64]&(1<<(v%64)) != 0
}

// twoHop reports whether some ToR w gets circuits u→w and w→v (RotorLB's
// relay path).
func (r *reach) twoHop(u, v int) bool {
	return r.Visit(u, func(w int, _ int64) bool { return r.hasDirect(w, v) })
}

// connected reports whether the union reaches v from u: same component,
// or (rarely) a path between components, found by one search per source.
func (r *reach) connected(u, v int) bool {
	r.components()
	if r.comp[u] == r.comp[v] {
		return true
	}
	seen, ok := r.from[u]
	if !ok {
		seen = make([]bool, r.n)
		stack := []int{u}
		seen[u] = true
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			r.Visit(x, func(y int, _ int64) bool {
				if !seen[y] {
					seen[y] = true
					stack = append(stack, y)
				}
				return false
			})
		}
		if r.from == nil {
			r.from = map[int][]bool{}
		}
		r.from[u] = seen
	}
	return seen[v]
}

// CheckReach refuses, before a run, a routing mode that cannot carry some
// flow of the workload on the schedule: one line naming routing.mode, the
// schedule and a ToR pair. Direct waits for a direct circuit; RotorLB
// takes it or relays through one intermediate; VLB's second leg is direct
// from any ToR the source meets; Paths sends bulk flows by RotorLB and
// the others over circuit paths; VLBPaths goes through any ToR; Earliest
// needs a temporal path; Hybrid always has the packet switch. For Paths
// the test is necessary, not sufficient: each slice's paths are not
// checked one by one.
func (cfg *Config) CheckReach(ctx context.Context, flows []workload.Flow) error {
	if cfg.Routing == Hybrid || cfg.Routing == HybridVOQ || cfg.Schedule == nil {
		return nil
	}
	sc := cfg.Schedule
	r, err := newReach(ctx, sc, cfg.CircuitLink, cfg.MTU)
	if err != nil {
		return err
	}
	hpt := int(cfg.HostsPerToR)
	for i, f := range flows {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		s, d := f.Src/hpt, f.Dst/hpt
		if s == d {
			continue
		}
		var problem string
		switch cfg.Routing {
		case Direct:
			if !r.hasDirect(s, d) {
				problem = fmt.Sprintf("ToR %d → ToR %d (flow %d) never gets a direct circuit", s, d, i)
			}
		case RotorLB:
			if !r.hasDirect(s, d) && !r.twoHop(s, d) {
				problem = fmt.Sprintf("ToR %d → ToR %d (flow %d) never gets a direct circuit, nor one through a single intermediate", s, d, i)
			}
		case VLB: // the first hop is any ToR s has a circuit to, the second direct
			r.Visit(s, func(w int, _ int64) bool {
				if w != d && !r.hasDirect(w, d) {
					problem = fmt.Sprintf("VLB may relay flow %d (ToR %d → ToR %d) through ToR %d, which never gets a circuit to ToR %d", i, s, d, w, d)
				}
				return problem != ""
			})
		case Paths:
			if f.Bytes >= cfg.BulkBytes && !r.hasDirect(s, d) && !r.twoHop(s, d) {
				problem = fmt.Sprintf("bulk flow %d (ToR %d → ToR %d, %d B ≥ routing.bulk) takes RotorLB, and that pair never gets a circuit, direct or through a single intermediate", i, s, d, f.Bytes)
			} else if !r.connected(s, d) {
				problem = fmt.Sprintf("no circuit path from ToR %d to ToR %d (flow %d)", s, d, i)
			}
		case VLBPaths, VLBSlice:
			if !r.stronglyConnected() {
				problem = fmt.Sprintf("the circuits do not connect every ToR to every other, and VLB may relay flow %d (ToR %d → ToR %d) through any", i, s, d)
			}
		case Earliest:
			if !r.connected(s, d) {
				problem = fmt.Sprintf("no circuit path from ToR %d to ToR %d (flow %d)", s, d, i)
			}
		}
		if problem != "" {
			return reachError(cfg, problem)
		}
	}
	return nil
}

func reachError(cfg *Config, problem string) error {
	kind := cfg.Schedule.Kind
	if kind == "" {
		kind = "(unnamed)"
	}
	hint := "; add a packet switch (topology.packet_switch_link) and routing.mode = hybrid, or choose a schedule that connects the pair"
	if d := defaultsFor(cfg.Schedule, cfg.PacketSwitchLink > 0); d.Routing != cfg.Routing {
		hint = fmt.Sprintf("; leave routing.mode unset for this schedule's default, %s", d.Routing)
	}
	return cfgErr("routing.mode", "%s cannot carry the workload on schedule.kind = %s: %s%s", cfg.Routing, kind, problem, hint)
}

// defaultTransport is the transport d runs with under cfg's routing: the
// designed one, unless it is pull and the routing is one pull does not
// serve, or the schedule's days are too short for a pull (pullProblem).
func defaultTransport(d Designed, cfg *Config) string {
	t := d.Transport
	if t == Pull && (!pullRoutes(cfg.Routing) || pullProblem(cfg) != "") {
		return Windowed
	}
	return t
}

// pullLatency is how long a ToR's pull takes to bring a packet: the
// request takes the host delay down, the host serialises an MTU packet
// and it takes the host delay up.
func (c *Config) pullLatency() rotor.Time {
	return 2*c.HostDelay + c.HostLink.TransmitTime(rotor.Bytes(c.MTU))
}

// pullProblem says why the pull transport could never send on cfg's
// schedule, or "". A ToR asks a host for a packet at the latest when its
// circuit's night begins (the prefetch); the packet reaches the ToR
// latency = 2 · host_delay + one host-link packet time later and must
// cross the circuit before the night, so some slot k must have
// slot_k − reconf ≥ max(0, latency − reconf) + one circuit packet time.
// Sirius' 384 ns slots are far shorter than the ~2 µs round trip.
func pullProblem(cfg *Config) string {
	sc := cfg.Schedule
	if sc == nil || cfg.HostLink <= 0 || cfg.CircuitLink <= 0 || cfg.MTU <= 0 {
		return "" // validate reports these
	}
	latency := cfg.pullLatency()
	need := max(0, latency-sc.Reconf) + cfg.CircuitLink.TransmitTime(rotor.Bytes(cfg.MTU))
	longest := sc.Slot - sc.Reconf
	for _, d := range sc.SlotDurations {
		longest = max(longest, d-sc.Reconf)
	}
	if longest >= need {
		return ""
	}
	return fmt.Sprintf("a pulled packet needs %v of a day (request, host, circuit), the longest day is %v", need, max(longest, 0))
}

// pullRoutes reports whether the pull transport serves routing.
func pullRoutes(routing string) bool {
	return routing == Direct || routing == RotorLB || routing == Paths
}

// CheckTable refuses, before the workload is built and the run starts,
// a routing whose next-hop table (one entry per epoch, ToR pair and path)
// would exceed routing.MaxTableEntries; newSim applies the same limit.
func (cfg *Config) CheckTable() error {
	switch cfg.Routing {
	case Paths, VLBPaths, VLBSlice, Earliest:
	default:
		return nil
	}
	n := cfg.Schedule.Nodes
	epochs := routing.NewEpochs(cfg.Schedule).Len()
	k := max(cfg.PathsK, 1)
	if cfg.Routing == VLBSlice {
		k = routing.MaxECMP // every equal-cost next hop
	}
	ksp := cfg.Routing != Earliest && k > 1 && cfg.Multipath == MultipathKSP
	if ksp {
		k = 1 // the k-shortest-path table holds references, not k entries per pair; newKSPTable checks n·k
	}
	if epochs*n*n*k <= routing.MaxTableEntries && n <= 32767 {
		return nil
	}
	return cfgErr("routing.mode", "%s: the next-hop table of %d epochs × %d² ToR pairs is too large (limit %d entries); rotorlb (RotorNet's and Opera's bulk routing) needs no table",
		cfg.Routing, epochs, n, routing.MaxTableEntries)
}
