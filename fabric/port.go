package fabric

import (
	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// ports is the engine's one component for a switch port with queues of
// its own: its queues (a tor switch's, served in its Pick order), the
// serialisation on its link, and the propagation to its peer, where the
// packet arrives as an event. The leaf-spine's leaf and spine ports and
// the rotor fabric's packet-switch ports are such ports. (The rotor ToRs'
// circuit uplinks serve VOQs over changing circuits, and their host ports
// book their turns ahead for pulled traffic: circuits.go and switch.go.)
//
// A port has a global id, base[switch] + its port id in the switch. It
// schedules its "free" event only when something waits for it: a packet
// queued behind the one it sends, or one arriving while it serialises.
type ports struct {
	sw     []*tor.ToR   // [switch]
	base   []int32      // [switch]: first global id; base[len(sw)] is the count
	portSw []int32      // [global]: its switch
	freeAt []rotor.Time // [global]: serialising until then
	peer   []portPeer   // [global]: where its packets go
	// Free events are timers beside the event queue when the fabric has
	// no circuit uplinks using them (leaf-spine); else queue events, and
	// pending says which are scheduled.
	timers  *des.Timers
	pending []bool
}

// portPeer is the far end of a port's link.
type portPeer struct {
	delay  rotor.Time
	rate   rotor.Rate
	target int32 // the arrival event's target
	ev     uint8 // the arrival event
	link   uint8 // linkHost, linkPS or linkFabric: serialisation times
	hop    bool  // the crossing is a switch-to-switch hop (Packet.Hops)
	ps     bool  // its bytes count as the packet switch's (Result.PacketSwitchBytes)
}

// newPorts numbers the ports of switches; peers are set with connect.
func newPorts(switches []*tor.ToR) *ports {
	pt := &ports{sw: switches, base: make([]int32, len(switches)+1)}
	for i, tr := range switches {
		pt.base[i+1] = pt.base[i] + int32(tr.NumPorts())
	}
	total := int(pt.base[len(switches)])
	pt.portSw = make([]int32, total)
	for i := range switches {
		for g := pt.base[i]; g < pt.base[i+1]; g++ {
			pt.portSw[g] = int32(i)
		}
	}
	pt.freeAt = make([]rotor.Time, total)
	pt.peer = make([]portPeer, total)
	return pt
}

// connect sets the peer of port of switch sw.
func (pt *ports) connect(sw, port int, p portPeer) { pt.peer[pt.base[sw]+int32(port)] = p }

// useTimers makes the free events timers of q (kind evPortFree); without
// it they are queue events.
func (pt *ports) useTimers(q *des.Queue) {
	pt.timers = des.NewTimers(len(pt.freeAt))
	q.AttachTimers(pt.timers, evPortFree)
}

// wake schedules port g's free event at at.
func (s *sim) wakePort(g int32, at rotor.Time) {
	pt := s.ports
	if pt.timers != nil {
		pt.timers.Set(int(g), at)
		return
	}
	if pt.pending == nil {
		pt.pending = make([]bool, len(pt.freeAt))
	}
	pt.pending[g] = true
	s.q.ScheduleFirst(at, evPortFree, g, 0)
}

// portSend starts the next packet on port of switch sw if the port is
// idle: the switch's pick among the port's queues, serialise, propagate.
func (s *sim) portSend(sw, port int) {
	pt := s.ports
	g := pt.base[sw] + int32(port)
	if pt.timers != nil && pt.timers.When(int(g)) != des.Never || pt.pending != nil && pt.pending[g] {
		return // its free event is pending
	}
	now := s.q.Now()
	if now < pt.freeAt[g] { // serialising: come back when it is done
		s.wakePort(g, pt.freeAt[g])
		return
	}
	tr := pt.sw[sw]
	var q tor.QueueID
	var ok bool
	if s.pfc != nil { // not the classes PFC paused
		q, ok = tr.PickExcept(port, s.pfc.paused[g])
	} else {
		q, ok = tr.Pick(port)
	}
	if !ok && s.voqFeedsPS(tr) && port == tr.PacketSwitchPort() {
		q, ok = s.pickVOQ(tr.ID) // hybrid-voq: the port drains VOQs
	}
	if !ok {
		return
	}
	if tr.ID >= 0 {
		s.settle(tr.ID) // the policy's dequeue hook sees the buffer
	}
	pe := &pt.peer[g]
	idx := tr.Dequeue(now, q, port, pe.rate)
	p := s.pool.At(idx)
	if s.pfc != nil {
		s.pfc.sent(g, idx)
	}
	ser := s.ser(int(pe.link), p.Size)
	pt.freeAt[g] = now + ser
	if s.cfg.eagerFree || tr.PortQueued(port) || s.voqFeedsPS(tr) {
		s.wakePort(g, now+ser)
	}
	if pe.hop {
		p.Hops++
	}
	if pe.ps {
		s.m.psBytes += int64(p.Size)
	}
	s.q.Schedule(now+ser+pe.delay, pe.ev, pe.target, idx)
}

// portFree handles the end of a serialisation on global port g.
func (s *sim) portFree(g int32) {
	pt := s.ports
	if pt.pending != nil {
		pt.pending[g] = false
	}
	sw := int(pt.portSw[g])
	s.portSend(sw, int(g-pt.base[sw]))
}
