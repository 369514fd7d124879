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
