package tor

import "github.com/rdcn/rdcn/rotor"

// Sonic is the SONiC-style MMU that Reverie's chapter takes as its
// baseline: each packet is counted twice, on its ingress queue (ingress
// port, class) against the ingress pool and on its egress queue against
// the egress pool of its kind, and admitted only if both DT checks pass,
// Γ = α × (pool size − pool occupancy). A lossless packet failing its
// checks goes to headroom and pauses its ingress queue. The pools follow
// the thesis's evaluation: the ingress pool is the shared pool b*, the
// egress lossless pool the whole buffer, the egress lossy pool 80 % of
// the ingress pool; operators bypass the lossy ingress and lossless
// egress checks with a large α (10000, as the authors' artifact).
type Sonic struct {
	inLossless, inLossy, outLossless, outLossy float64
	lossyPool, losslessPool                    float64 // egress pools, bytes
}

func (Sonic) Name() string { return "sonic" }

// egressOcc is the bytes in the egress queues of lossless (or lossy)
// classes: a sum over queue indices, never over queues.
func egressOcc(s *State, lossless bool) float64 {
	var b int64
	for k := 0; k < s.NQ; k++ {
		if (s.Lossless>>k&1 != 0) == lossless {
			b += s.PrioBytes[k]
		}
	}
	return float64(b)
}

func (m *Sonic) ingressOK(iq int32, size int64, alpha float64, s *State) bool {
	return float64(s.Ingress[iq].Shared+size) <= alpha*float64(s.SharedFree())
}

// Admit checks a lossy packet.
func (m *Sonic) Admit(_ rotor.Time, a *Arrival, q int32, s *State) bool {
	size := int64(a.Size)
	if s.Ingress != nil && !m.ingressOK(a.InPort*int32(s.NQ)+int32(s.Prio(q)), size, m.inLossy, s) {
		return false
	}
	return float64(s.Queues[q].Bytes+size) <= m.outLossy*(m.lossyPool-egressOcc(s, false))
}

// AdmitLossless checks a lossless packet: ingress against the ingress
// pool, egress against the egress lossless pool.
func (m *Sonic) AdmitLossless(_ rotor.Time, a *Arrival, iq int32, s *State) bool {
	size := int64(a.Size)
	q := a.Port*int32(s.NQ) + iq%int32(s.NQ)
	return m.ingressOK(iq, size, m.inLossless, s) &&
		float64(s.Queues[q].Bytes+size) <= m.outLossless*(m.losslessPool-egressOcc(s, true))
}

// Resume: the ingress check passes for a full packet again.
func (m *Sonic) Resume(_ rotor.Time, iq int32, s *State) bool {
	return m.ingressOK(iq, int64(s.MTU), m.inLossless, s)
}

func (m *Sonic) IngressDequeued(rotor.Time, int32, int32, *State) {}

// SonicABM is the second baseline of Reverie's chapter: ABM extended to
// lossless traffic within the SONiC buffer model, "accounting for the
// drain rate as well as the number of saturated queues in the ingress".
// It is Sonic with each DT threshold α·(pool − occupancy) replaced by
// ABM's α·(1/n_p)·γ·(pool − occupancy), α the unscheduled α for a flow's
// first-RTT packets:
//   - a lossless packet's ingress check uses n_p and γ of ingress queues:
//     n_p = Σ min(shared bytes/sat, 1) over the ingress queues of its class
//     (at least 1), γ = the ingress queue's bytes dequeued over the last
//     period over the ingress port's rate;
//   - a lossy packet's egress check uses ABM's own egress n_p and γ
//     against the egress lossy pool.
//
// The bypassed checks (lossy ingress, lossless egress) stay Sonic's DT
// with α = 10000. Decisions where the thesis is silent: like ABM's, n_p
// and γ are refreshed once per period (an RTT); an ingress queue that
// drained nothing in a period has γ = 1 if it holds no shared bytes
// (a new burst) and the floor 1/queues otherwise (it is blocked); γ is
// clamped to [1/queues, 1] as ABM's; a paused queue resumes when a full
// packet passes its ingress threshold with the class's α.
type SonicABM struct {
	Sonic
	*ABM
	inNP    [MaxQueues]float64
	inDeq   []int64   // per ingress queue: bytes dequeued this period
	inGamma []float64 // per ingress queue, snapshot
}

func (*SonicABM) Name() string { return "sonic-abm" }

func (m *SonicABM) alphaOf(base float64, a *Arrival) float64 {
	if a.Unsched {
		return m.unsched
	}
	return base
}

// Admit checks a lossy packet: Sonic's ingress check, then ABM's
// threshold in the egress lossy pool.
func (m *SonicABM) Admit(_ rotor.Time, a *Arrival, q int32, s *State) bool {
	size := int64(a.Size)
	if s.Ingress != nil && !m.ingressOK(a.InPort*int32(s.NQ)+int32(s.Prio(q)), size, m.inLossy, s) {
		return false
	}
	t := m.alphaOf(m.outLossy, a) / m.np[s.Prio(q)] * m.gamma[q] * (m.lossyPool - egressOcc(s, false))
	return float64(s.Queues[q].Bytes+size) <= t
}

func (m *SonicABM) ingressLimit(alpha float64, iq int32, s *State) float64 {
	return alpha / m.inNP[int(iq)%s.NQ] * m.inGamma[iq] * float64(s.SharedFree())
}

// AdmitLossless checks a lossless packet: ABM's threshold on its ingress
// queue in the ingress pool, then Sonic's egress check.
func (m *SonicABM) AdmitLossless(_ rotor.Time, a *Arrival, iq int32, s *State) bool {
	size := int64(a.Size)
	q := a.Port*int32(s.NQ) + iq%int32(s.NQ)
	return float64(s.Ingress[iq].Shared+size) <= m.ingressLimit(m.alphaOf(m.inLossless, a), iq, s) &&
		float64(s.Queues[q].Bytes+size) <= m.outLossless*(m.losslessPool-egressOcc(s, true))
}

// Resume: a full packet passes the ingress threshold again.
func (m *SonicABM) Resume(_ rotor.Time, iq int32, s *State) bool {
	return float64(s.Ingress[iq].Shared+int64(s.MTU)) <= m.ingressLimit(m.inLossless, iq, s)
}

func (m *SonicABM) IngressDequeued(_ rotor.Time, size int32, iq int32, _ *State) {
	m.inDeq[iq] += int64(size)
}

// Tick refreshes ABM's egress n_p and γ and their ingress counterparts
// (O(ports × queues) once per period).
func (m *SonicABM) Tick(now rotor.Time, s *State) {
	m.ABM.Tick(now, s)
	if s.Ingress == nil {
		return
	}
	var sum [MaxQueues]float64
	secs := m.period.Seconds()
	for iq := range m.inGamma {
		if iq >= len(s.Ingress) { // not created yet (SwitchConfig.OnDemand): empty, nothing sent
			m.inGamma[iq] = 1
			continue
		}
		in := &s.Ingress[iq]
		sum[iq%s.NQ] += m.satOf(in.Shared)
		g := float64(m.inDeq[iq]) * 8 / (float64(s.Ports[iq/s.NQ].Rate) * secs)
		if m.inDeq[iq] == 0 && in.Shared == 0 {
			g = 1
		}
		m.inGamma[iq] = min(max(g, 1/float64(s.NQ)), 1)
		m.inDeq[iq] = 0
	}
	for k := 0; k < s.NQ; k++ {
		m.inNP[k] = max(sum[k], 1)
	}
}
