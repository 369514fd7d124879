package cc

import (
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// MaxHops is the number of INT hop records a Law keeps between ACKs. The
// INT laws (Spec.INT) cannot use a path with more hops: the engine must
// refuse such a configuration up front; on a longer stack they would
// never see two comparable samples and keep their window.
const MaxHops = 8

// Hop is one in-band telemetry record as a Law reads it: the state of one
// egress port when the data packet left it (Ts, Qlen, TxBytes, Rate, Port).
// It is the record switches stamp, so the engine hands its records over
// without copying.
type Hop = packet.IntHop

// Feedback is what one acknowledgement tells a Law.
type Feedback struct {
	Now     rotor.Time
	Acked   int64      // bytes newly acknowledged by this ACK
	Cum     int64      // cumulative bytes acknowledged (snd_una), after this ACK
	SndNxt  int64      // bytes sent so far (snd_nxt) when the ACK arrives
	RTT     rotor.Time // round-trip sample; 0 if none (retransmitted segment)
	ECE     bool       // ECN echo; reTCP reads it as "circuit up"
	Circuit bool       // the data packet crossed a circuit
	Hops    []Hop      // INT records of the data packet's path, in path order
	// Truncated: the data path had more hops than Hops holds (the engine
	// refuses INT laws on such fabrics; the fixed-window hooks see it).
	Truncated bool
}

// Law is a congestion-control law: it turns feedback into a window and a
// pacing rate. Every method runs in O(hops) time and allocates nothing.
type Law interface {
	// OnAck is called for every ACK that acknowledges new data.
	OnAck(f *Feedback)
	// OnLoss is called when the sender detects a loss without a timeout
	// (duplicate ACKs, a NACK).
	OnLoss(now rotor.Time)
	// OnTimeout is called when the retransmission timer fires.
	OnTimeout(now rotor.Time)
	// OnCircuit tells the law that the circuit from its ToR towards the
	// destination's ToR came up (day) or went down (night).
	OnCircuit(now rotor.Time, up bool)
	// Window is the congestion window in bytes; 0 means no window (rate-only
	// laws: TIMELY, DCQCN).
	Window() int64
	// Rate is the pacing rate; 0 means the NIC's line rate.
	Rate() rotor.Rate
}

// Env is what a law needs to know about its host and network. The
// registry fills parameters that default to a property of the network
// (the base RTT τ, the line rate) from it.
type Env struct {
	MSS      int64      // payload bytes per segment
	HostRate rotor.Rate // the host NIC's line rate
	BaseRTT  rotor.Time // τ: the base RTT the INT/RTT laws are tuned for (the topology's maximum)
	PathRTT  rotor.Time // the flow's own path base RTT (θ-PowerTCP's τ); 0: unknown, BaseRTT
	// CircuitWait is the part of BaseRTT that is waiting for circuits,
	// not queueing: a cycle on a rotor where every packet waits for its
	// pair's circuit, else 0 (TIMELY's delay thresholds sit above it).
	CircuitWait rotor.Time
	Window      int64 // the configured fixed window in bytes (law "fixed" only)
}

// bytesPerSec converts a rate to bytes per second.
func bytesPerSec(r rotor.Rate) float64 { return float64(r) / 8 }

// rateOf converts bytes per second to a rate, rounding down.
func rateOf(bps float64) rotor.Rate { return rotor.Rate(bps * 8) }

// clamp returns x limited to [lo, hi].
func clamp(x, lo, hi float64) float64 { return max(lo, min(hi, x)) }

// intMemory is the previous ACK's INT stack, kept in a fixed array so that
// the INT laws never allocate.
type intMemory struct {
	hops [MaxHops]Hop
	n    int
	ok   bool
	// After a path change: the old path's hop rates, by position, which
	// the first comparable sample of the new path is checked against.
	oldRate [MaxHops]rotor.Rate
	oldN    int
	fresh   bool
}

// matches reports whether hs is the same path as the stored stack (same
// hop count and ports), so that per-hop differences mean something. Hop.Port
// is a port id unique in the fabric (packet.IntHop), so hops of two
// switches never match.
func (m *intMemory) matches(hs []Hop) bool {
	if !m.ok || len(hs) != m.n {
		return false
	}
	for i := range hs {
		if hs[i].Port != m.hops[i].Port {
			return false
		}
	}
	return true
}

// store remembers hs (at most MaxHops records).
func (m *intMemory) store(hs []Hop) {
	m.n = copy(m.hops[:], hs)
	m.ok = true
}

// rateChanged reports whether hop i's rate b differs from its previous
// sample o, or, on the first comparable sample after a path change, from
// the rate at position i of the old path (a packet moving from a 25 G
// packet-switch port to a 100 G circuit changes path and rate at once).
func (m *intMemory) rateChanged(i int, h, o *Hop) bool {
	if h.Rate != o.Rate {
		return true
	}
	return m.fresh && (i >= m.oldN || h.Rate != m.oldRate[i])
}

// scan compares hs with the stored stack hop by hop and returns the
// largest value of metric over the hops whose time advanced (h the new
// record, o the old, dt seconds between them, b the new rate in bytes/s,
// changed whether the hop's rate changed, see rateChanged), the dt of
// that hop, and whether any hop's rate changed. ok is false when nothing
// could be compared: no records, the first sample of a path (a new hop
// count or port), or no time elapsed. It then stores hs.
func (m *intMemory) scan(hs []Hop, metric func(h, o *Hop, dt, b float64, changed bool) float64) (best, dt float64, changed, ok bool) {
	if len(hs) == 0 {
		return 0, 0, false, false
	}
	if m.matches(hs) {
		for i := range hs {
			h, o := &hs[i], &m.hops[i]
			d := (h.Ts - o.Ts).Seconds()
			if d <= 0 || h.Rate <= 0 {
				continue
			}
			c := m.rateChanged(i, h, o)
			if v := metric(h, o, d, bytesPerSec(h.Rate), c); !ok || v > best {
				best, dt, ok = v, d, true
			}
			changed = changed || c
		}
		if ok {
			m.fresh = false
		}
	} else if m.ok && !m.fresh {
		// A path change: remember the old path's rates.
		m.oldN = m.n
		for i := range m.n {
			m.oldRate[i] = m.hops[i].Rate
		}
		m.fresh = true
	}
	m.store(hs)
	return best, dt, changed, ok
}

// perRTT marks the once-per-RTT update points: an ACK starts a new round
// when it acknowledges the byte that was the send frontier at the previous
// round's start (snd_una > last update's snd_nxt, as in HPCC's
// lastUpdateSeq). The first ACK starts a round.
type perRTT struct {
	mark    int64
	started bool
}

// open starts the first round at f unless one has started: the INT laws
// call it on the ACK that only stores INT records, as the authors' code
// sets lastUpdateSeq on it, so the first round's updates react from the
// initial (line) rate and commit nothing until that round ends.
func (p *perRTT) open(f *Feedback) {
	if !p.started {
		p.started, p.mark = true, f.SndNxt
	}
}

// due reports whether f starts a new round, and if so opens the next one.
func (p *perRTT) due(f *Feedback) bool {
	if p.started && f.Cum <= p.mark {
		return false
	}
	p.started = true
	p.mark = f.SndNxt
	return true
}
