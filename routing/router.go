package routing

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/rdcn/rdcn/internal/registry"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// Router picks the next hop of the packets at the ToRs of a circuit
// fabric. The engine calls Next for every packet that reaches a ToR it is
// not destined to, and again for the packets that wait for a circuit that
// goes down when Reroute says so.
type Router interface {
	// Next is the hop of packet p at ToR at, at time now; source says p
	// entered the fabric at this ToR (from one of its hosts). Next may
	// note in p where p goes on: Via (an intermediate ToR) and Route (a
	// source route).
	Next(now rotor.Time, at int, p *packet.Packet, source bool) Hop
	// Reroute says which packets waiting for a circuit are routed again
	// when that circuit goes down.
	Reroute() Reroute
}

// Hop is a router's answer for one packet at one ToR.
type Hop struct {
	To           int32 // the ToR whose circuit the packet waits for (its VOQ)
	Transit      bool  // it waits in the transit (high-priority) class even at its source ToR
	PacketSwitch bool  // it goes through the electrical packet switch instead (hybrid)
	OffRoute     bool  // it was not on its own source route: a bug the engine's run.check reports
}

// Reroute is what happens to the packets waiting for a circuit that goes
// down (at the end of an epoch).
type Reroute uint8

const (
	RerouteNone    Reroute = iota // they wait for the circuit's next day
	RerouteTransit                // the transit class is routed again in the new epoch (paths, vlb-paths)
	RerouteAll                    // both classes are, each keeping its class (earliest)
)

// Circuits is what a router may ask of the fabric's circuit state now.
type Circuits interface {
	Peer(t, sw int) int32   // the ToR ToR t's uplink on switch sw reaches now, rotor.Idle if none
	Up(t int, v int32) bool // whether some circuit t → v is up now
}

// Setup is what a router is built from.
type Setup struct {
	Context  context.Context // stops a long table build (earliest); nil: never
	Schedule *rotor.Schedule // the circuit schedule; nil for a leaf-spine
	Circuits Circuits        // vlb, hybrid: the circuit state now
	Rand     *rand.Rand      // vlb, vlb-paths: the run's random stream (intermediate ToRs); ecmp: its hash seed
	// Bulk reports whether a flow is bulk (paths: such flows go direct and
	// RotorLB relays them).
	Bulk      func(flow int32) bool
	PathsK    int    // paths, vlb-paths: paths per ToR pair (1: the shortest-path table)
	Multipath string // paths, vlb-paths with PathsK > 1: MultipathKSP, MultipathECMP or MultipathSpray
	HopLimit  int    // source routes (ksp): drop a packet at this many hops; 0: KSPHopLimit
	// Guard: paths, vlb-paths with the next-hop table: from this long
	// before a night, look up that night's paths (PathTable.SetGuard); 0: none.
	Guard rotor.Time
	// Source: paths with the next-hop table: SourceHop (each ToR reads
	// the table of now) or SourceNIC (a packet reads the table of the
	// slice it left its NIC in; Stamper); "": SourceHop.
	Source string
}

// Where the paths router's packets fix their slice (routing.source).
const (
	SourceHop = "hop" // every ToR looks up the next hop in the table of the current slice
	SourceNIC = "nic" // a packet keeps the table of the slice it left its NIC in (opera-sim's source routes)
)

// Stamper is a Router whose packets fix their route when they leave
// their host's NIC: the engine calls Stamp for every packet a NIC sends.
type Stamper interface {
	Stamp(now rotor.Time, p *packet.Packet)
}

// Multipath routings with Setup.PathsK > 1.
const (
	MultipathKSP   = "ksp"   // k shortest loopless paths per epoch, unequal cost allowed (Yen), source-routed (Opera)
	MultipathECMP  = "ecmp"  // up to k next hops on equal-cost shortest paths, hop by hop
	MultipathSpray = "spray" // as ecmp, but each packet draws its next hop (packet spraying; the thesis' Opera and expander, §7.5)
)

// SetupError is a router that cannot be built: Param (a key under
// routing.) and what is wrong.
type SetupError struct {
	Param   string
	Problem string
}

func (e *SetupError) Error() string { return "routing." + e.Param + ": " + e.Problem }

func setupErr(param, format string, args ...any) error {
	return &SetupError{Param: param, Problem: fmt.Sprintf(format, args...)}
}

// HopLimiter is a Router whose packets are dropped after a number of hops
// (source routes, which could otherwise loop over re-routings).
type HopLimiter interface {
	HopLimit() uint8 // 0: none
}

// PathCacher is a Router with a k-shortest-path cache to report.
type PathCacher interface {
	PathCache() *PathCacheStats // nil: none in this run
}

// Mode is one routing mode: its name, a one-line doc, the configuration
// keys it reads besides routing.mode, and how it is built. Modes is the
// table of them; the simulator's routing.mode registry is this table.
type Mode struct {
	Name  string
	Doc   string
	Reads []string
	Needs Needs
	New   func(Setup) (Router, error)
}

// Mode names.
const (
	Direct   = "direct"
	VLB      = "vlb"
	RotorLB  = "rotorlb"
	Paths    = "paths"
	Hybrid   = "hybrid"
	Earliest = "earliest"
	VLBPaths = "vlb-paths"
	VLBSlice = "vlb-slice"
	ECMP     = "ecmp"
	// HybridVOQ routes as Direct; the engine's per-destination VOQs are
	// drained by the circuit in its day and otherwise by the packet switch.
	HybridVOQ = "hybrid-voq"
)

var modes = registry.New("routing", "routing mode", func(m Mode) string { return m.Name }, builtinModes...)

// Register adds a routing mode; call it from an init function. A name
// already taken, a missing New, or a call after the registry has been
// read (a run has started) panics with the name.
func Register(m Mode) {
	if m.New == nil {
		panic("routing: routing mode " + m.Name + " registered without New")
	}
	modes.Add(m)
}

// Modes lists every routing mode, rdcn's in table order, then the
// registered ones.
func Modes() []Mode { return modes.All() }

// builtinModes are rdcn's own modes.
var builtinModes = []Mode{
	{Name: Direct, Doc: "wait for a circuit to the destination ToR",
		New: func(Setup) (Router, error) { return direct{}, nil }},
	{Name: VLB, Doc: "first hop to a ToR a circuit reaches now, then direct (Valiant)",
		Needs: NeedSchedule | NeedCircuits | NeedRand, New: newVLB},
	{Name: RotorLB, Doc: "direct first; spare circuit capacity relays two-hop traffic (RotorNet's RotorLB)",
		Reads: []string{"routing.relay_limit", "routing.offer"},
		New:   func(Setup) (Router, error) { return direct{}, nil }},
	{Name: Paths, Doc: "shortest paths over the circuits up now (Opera's expander slices); bulk flows use rotorlb",
		Reads: []string{"routing.paths_k", "routing.multipath", "routing.bulk", "routing.relay_limit", "routing.offer", "routing.guard", "routing.source"},
		Needs: NeedSchedule | NeedBulk, New: newPaths},
	{Name: Hybrid, Doc: "a circuit if one reaches the destination now, else the electrical packet switch",
		Needs: NeedSchedule | NeedCircuits, New: newHybrid},
	{Name: HybridVOQ, Doc: "per-destination VOQs: the circuit drains VOQ v during its day toward v, the packet-switch port drains round robin the VOQs whose circuit is down (the PowerTCP thesis's and reTCP's hybrid ToR)",
		New: func(Setup) (Router, error) { return direct{}, nil }},
	{Name: Earliest, Doc: "the temporal path that arrives first given the schedule, waiting at ToRs for later circuits",
		Needs: NeedSchedule, New: newEarliest},
	{Name: VLBPaths, Doc: "Valiant over shortest paths: to a random intermediate ToR, then to the destination (static graphs)",
		Reads: []string{"routing.paths_k", "routing.multipath", "routing.guard"},
		Needs: NeedSchedule | NeedRand, New: newVLBPaths},
	{Name: VLBSlice, Doc: "Valiant as RotorNet sprays it, on the slices (Mars, thesis §7.5): first hop over any circuit up now, then shortest paths of the current slice, each packet drawn among the equal-cost next hops",
		Needs: NeedSchedule | NeedCircuits | NeedRand, New: newVLBSlice},
	{Name: ECMP, Doc: "topology.kind leafspine only (its default and only mode): each flow hashed onto one of the equal-cost leaf–spine paths",
		Needs: NeedRand, New: newECMP},
}

// Lookup returns the mode called name.
func Lookup(name string) (Mode, bool) {
	return modes.Lookup(name)
}

// New builds the router of mode name.
func New(name string, s Setup) (Router, error) {
	m, ok := Lookup(name)
	if !ok {
		return nil, setupErr("mode", "unknown routing mode %q", name)
	}
	if s.Context == nil {
		s.Context = context.Background()
	}
	if err := s.check(m); err != nil {
		return nil, err
	}
	return m.New(s)
}

// Needs lists what of a Setup a mode reads.
type Needs uint8

const (
	NeedSchedule Needs = 1 << iota // Setup.Schedule
	NeedCircuits                   // Setup.Circuits
	NeedRand                       // Setup.Rand
	NeedBulk                       // Setup.Bulk
)

// check refuses a Setup that lacks what mode m reads.
func (s *Setup) check(m Mode) error {
	for _, c := range []struct {
		need Needs
		ok   bool
		what string
	}{
		{NeedSchedule, s.Schedule != nil, "a schedule (Setup.Schedule)"},
		{NeedCircuits, s.Circuits != nil, "the circuit state (Setup.Circuits)"},
		{NeedRand, s.Rand != nil, "a random stream (Setup.Rand)"},
		{NeedBulk, s.Bulk != nil, "the bulk test (Setup.Bulk)"},
	} {
		if m.Needs&c.need != 0 && !c.ok {
			return setupErr("mode", "%s needs %s", m.Name, c.what)
		}
	}
	return nil
}
