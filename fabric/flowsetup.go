package fabric

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// How a windowed flow starts, per traffic class (background flows and
// incast responses): its law's initial window, and how it opens its
// connection (handshake.go). And how its hosts send: with a small random
// delay on every send an ACK releases (send jitter).
//
// Send jitter breaks the ties of a deterministic engine: a host whose
// NIC runs at its switch port's rate sends packets that reach a full
// queue at the very instants the port frees a slot, so it takes every
// slot and another flow's packets always find the queue full (phase
// effects; Floyd and Jacobson, "On Traffic Phase Effects in
// Packet-Switched Gateways", add a random time to each send). Each
// packet a host sends reaches its ToR a time later drawn uniformly from
// [0, SendJitter × one MTU's transmit time on the host link), from a
// generator seeded by Config.Seed, but never before the packet sent
// before it: the NIC's rate and the link's order are kept, and a flow's
// FCT grows by at most that bound.

// IncastWindowResponse is transport.incast_init_window's value for an
// initial window that holds the whole response (InitWindowResponse), as
// ns-3's ABM evaluation gives its incast responses.
const IncastWindowResponse = "response"

// Special values of Config fields.
const (
	InitWindowResponse = -1 // IncastInitWindow: the whole response, rounded up to whole segments
	NoSendJitter       = -1 // SendJitter: off
	MaxSendJitter      = 100
)

// setupDefaults fills the per-class segment sizes and the delayed-ACK
// timer (a timeout is filled only where ACKs are delayed, so one set
// without them is refused).
func (c *Config) setupDefaults() {
	if c.MSS == 0 {
		c.MSS = c.MTU
	}
	if c.IncastMSS == 0 {
		c.IncastMSS = c.MSS
	}
	if c.DelayedAck == 0 {
		c.DelayedAck = DefaultDelayedAck
	}
	if c.DelayedAckTimeout == 0 && c.DelayedAck > 1 {
		c.DelayedAckTimeout = max(min(DefaultDelayedAckTimeout, c.MinRTO/DelayedAckRTODivisor), 1)
	}
}

// MaxDelayedAck bounds transport.delayed_ack.
const MaxDelayedAck = 1000

// validateSetup checks the per-class set-up and the send jitter against
// the transport and the law.
func (c *Config) validateSetup() error {
	tp, _ := Transports().Lookup(c.Transport) // validate has checked the name
	switch {
	case c.MSS < 1 || c.MSS > c.MTU:
		return cfgErr("transport.mss", "must be in [1, topology.mtu = %d] bytes, got %d", c.MTU, c.MSS)
	case c.IncastMSS < 1 || c.IncastMSS > c.MTU:
		return cfgErr("transport.incast_mss", "must be in [1, topology.mtu = %d] bytes, got %d", c.MTU, c.IncastMSS)
	case c.DelayedAck < 1 || c.DelayedAck > MaxDelayedAck:
		return cfgErr("transport.delayed_ack", "must be in [1, %d] segments per ACK (1: every segment), got %d", MaxDelayedAck, c.DelayedAck)
	case c.DelayedAckTimeout < 0:
		return cfgErr("transport.delayed_ack_timeout", "must be positive, got %v", c.DelayedAckTimeout)
	case c.DelayedAckTimeout > 0 && c.DelayedAck == 1:
		return cfgErr("transport.delayed_ack_timeout", "is read only with transport.delayed_ack > 1 (ACKs delayed), not 1")
	}
	for _, k := range []struct {
		key string
		set bool
	}{{"transport.delayed_ack", c.DelayedAck > 1}, {"transport.mss", c.MSS != c.MTU}, {"transport.incast_mss", c.IncastMSS != c.MSS}} {
		if k.set && !slices.Contains(tp.Reads, k.key) {
			return cfgErr(k.key, "is read by the windowed flows, and transport.kind %s has none", c.Transport)
		}
	}
	if err := c.validateHandshake(); err != nil {
		return err
	}
	if err := Slowdowns.Check(c.Slowdown); err != nil {
		return err
	}
	if _, set := c.CCParams[cc.InitWindowKey]; set {
		return cfgErr("transport.cc_params", "%s: set transport.init_window (and transport.incast_init_window) instead", cc.InitWindowKey)
	}
	if c.InitWindow == 0 && c.IncastInitWindow == 0 {
		return nil
	}
	key := "transport.init_window"
	if c.InitWindow == 0 {
		key = "transport.incast_init_window"
	}
	spec, ok := cc.Lookup(c.CC)
	switch {
	case !ok:
		return nil // validateCC names the unknown law
	case !flowTransport(c.Transport).Law:
		return cfgErr(key, "is read by the windowed flows' law, and transport.kind %s has none", c.Transport)
	case !spec.Has(cc.InitWindowKey):
		return cfgErr(key, "transport.cc %s has no initial window (it reads no %s)", spec.Name, cc.InitWindowKey)
	case c.NewController != nil:
		return cfgErr(key, "NewController makes the laws: set their initial window there")
	}
	return nil
}

// flowSetup is what the engine resolved of the per-class set-up.
type flowSetup struct {
	// incastValues are the law's parameters for incast responses (nil:
	// ccState.values); with responseWindow the init_window of each is
	// set to its response's size before its law is made.
	incastValues   cc.Values
	responseWindow bool
	jitterMax      int64 // ps; 0: no jitter
	jitter         *rand.Rand
}

// initSetup resolves the per-class initial windows into the law's
// parameters (initCC has resolved them) and the send jitter.
func (s *sim) initSetup() {
	c := &s.cfg
	if c.SendJitter > 0 {
		s.setup.jitterMax = int64(math.Round(c.SendJitter * float64(s.serMTU[linkHost])))
		s.setup.jitter = rand.New(rand.NewPCG(c.Seed, 0x717e5))
	}
	v := s.cc.values
	if v == nil {
		return
	}
	iw := s.cc.spec.Has(cc.InitWindowKey)
	if iw && c.InitWindow > 0 {
		v[cc.InitWindowKey] = float64(c.InitWindow)
	}
	if c.IncastInitWindow == 0 && c.IncastMSS == c.MSS {
		return
	}
	iv := make(cc.Values, len(v))
	for k, x := range v {
		iv[k] = x
	}
	if c.IncastMSS != c.MSS { // sizes in pkt are the responses' segments
		iv, _ = s.cc.spec.Resolve(c.incastEnv(), c.CCParams) // validateCC checked it
		if iw && c.InitWindow > 0 {
			iv[cc.InitWindowKey] = float64(c.InitWindow)
		}
	}
	if iw && c.IncastInitWindow > 0 {
		iv[cc.InitWindowKey] = float64(c.IncastInitWindow)
	}
	s.setup.incastValues = iv
	s.setup.responseWindow = iw && c.IncastInitWindow == InitWindowResponse
}

// lawValues is the law's parameters for flow f.
func (s *sim) lawValues(f workload.Flow) cc.Values {
	v := s.setup.incastValues
	if f.Query == 0 || v == nil {
		return s.cc.values
	}
	if s.setup.responseWindow { // the law reads its parameters when made
		mss := int64(s.cfg.IncastMSS)
		v[cc.InitWindowKey] = float64((f.Bytes + mss - 1) / mss * mss)
	}
	return v
}

// openFlow lets windowed flow id send: its host lists it with the flows
// that have data, and sends if its NIC is idle.
func (s *sim) openFlow(id int32) {
	h := &s.hosts[s.flows[id].f.Src]
	h.active.Push(id)
	if !h.busy {
		s.hostSend(int32(s.flows[id].f.Src))
	}
}

// hostArrival is when a packet host h's NIC finishes sending reaches the
// ToR, at at without jitter: with send jitter a uniform random delay
// later, but never before the packet the host sent before it (the link
// keeps its order).
func (s *sim) hostArrival(h int32, at rotor.Time) rotor.Time {
	j := s.setup.jitterMax
	if j == 0 {
		return at
	}
	hs := &s.hosts[h]
	at = max(at+rotor.Time(s.setup.jitter.Int64N(j)), hs.lastArrival)
	hs.lastArrival = at
	return at
}
