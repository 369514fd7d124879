package fabric

import (
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/routing"
	"github.com/rdcn/rdcn/tor"
)

// The engine's side of routing: it builds the router of routing.mode
// (package routing) and asks it for every packet's next hop. RotorLB's
// relaying is not there: it decides at the uplinks which traffic takes a
// spare circuit (tor.PickCircuit with the relay rule in sim.go, and the
// pull transport's pull.go), since it is about capacity, not paths.

// newRouter builds the router of the configured routing mode.
func (s *sim) newRouter() error {
	cfg := &s.cfg
	r, err := routing.New(cfg.Routing, routing.Setup{
		Context:   cfg.Context,
		Schedule:  cfg.Schedule,
		Circuits:  circuitState{s},
		Rand:      s.rng,
		Bulk:      func(f int32) bool { return s.flows[f].f.Bytes >= cfg.BulkBytes },
		PathsK:    cfg.PathsK,
		Multipath: cfg.Multipath,
		HopLimit:  cfg.hopLimit,
		Guard:     cfg.RoutingGuard,
		Source:    cfg.RoutingSource,
	})
	if err != nil {
		if e, ok := err.(*routing.SetupError); ok {
			return cfgErr("routing."+e.Param, "%s", e.Problem)
		}
		return cfgErr("routing.mode", "%v", err)
	}
	s.router, s.rerouting = r, r.Reroute()
	if st, ok := r.(routing.Stamper); ok && cfg.RoutingSource == RoutingSourceNIC {
		s.stamper = st
	}
	if hl, ok := r.(routing.HopLimiter); ok {
		s.hopLimit = hl.HopLimit()
	}
	return nil
}

// route picks the next hop for packet p at ToR t (source: it came from a
// local host) and the VOQ class it waits in; usePS sends it to the
// electrical packet switch instead.
func (s *sim) route(t int, p *packet.Packet, source bool) (next int32, class int, usePS bool) {
	h := s.router.Next(s.q.Now(), t, p, source)
	if h.OffRoute {
		s.offRoute(t, p)
	}
	class = tor.Transit
	if source && !h.Transit {
		class = tor.Local
	}
	return h.To, class, h.PacketSwitch
}

// offRoute reports (run.check) a packet found off its source route.
//
//go:noinline
func (s *sim) offRoute(t int, p *packet.Packet) {
	if s.cfg.Check {
		s.fail("packet of flow %d at ToR %d is not on its source route %d", p.Flow, t, p.Route)
	}
}

// circuitState answers the router's questions about the circuits up now.
type circuitState struct{ s *sim }

func (c circuitState) Peer(t, sw int) int32 { return c.s.peer[t*c.s.U+sw] }

func (c circuitState) Up(t int, v int32) bool { return c.s.upTo(t, int(v)) != 0 }

// routerEntries is the routing.mode registry: package routing's table.
func routerEntries() []Entry {
	out := make([]Entry, len(routing.Modes()))
	for i, m := range routing.Modes() {
		out[i] = Entry{Name: m.Name, Doc: m.Doc, Reads: m.Reads}
	}
	return out
}
