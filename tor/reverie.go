package tor

import "github.com/rdcn/rdcn/rotor"

// Reverie shares one pool b* = B − headroom between lossless and lossy
// traffic, each packet accounted once: a lossless packet to its ingress
// queue, a lossy one to its egress queue. A packet enters the pool iff the
// low-pass-filtered length q̂ of its queue plus its size is at most
// Γ = α_p·(1/n_p)·(b* − q*), q* the pool's occupancy and n_p the congested
// queues of its priority (counted fractionally from q̂, as ABM). q̂ ←
// γ·q̂ + (1−γ)·q at every departure of the queue, never above q (the
// authors' artifact). A lossy packet that fails is dropped; a lossless one
// goes to headroom and pauses its ingress queue, which resumes once its
// headroom drained and a full packet passes again.
type Reverie struct {
	alpha  classAlpha
	gamma  float64
	sat    float64
	qhat   []float64 // egress queues (lossy)
	ihat   []float64 // ingress queues (lossless)
	satSum [MaxQueues]float64
}

func (Reverie) Name() string { return "reverie" }

func (r *Reverie) limit(p int, s *State) float64 {
	return r.alpha[p] / max(r.satSum[p], 1) * float64(s.SharedFree())
}

func (r *Reverie) Admit(_ rotor.Time, a *Arrival, q int32, s *State) bool {
	return r.qhat[q]+float64(a.Size) <= r.limit(s.Prio(q), s)
}

func (r *Reverie) AdmitLossless(_ rotor.Time, a *Arrival, iq int32, s *State) bool {
	return r.ihat[iq]+float64(a.Size) <= r.limit(int(iq)%s.NQ, s)
}

func (r *Reverie) Resume(_ rotor.Time, iq int32, s *State) bool {
	return r.ihat[iq]+float64(s.MTU) <= r.limit(int(iq)%s.NQ, s)
}

// filter moves *h toward q and keeps n_p's fractional count in step.
func (r *Reverie) filter(h *float64, q float64, p int) {
	old := *h
	*h = min(r.gamma*old+(1-r.gamma)*q, q)
	r.satSum[p] += min(*h/r.sat, 1) - min(old/r.sat, 1)
}

func (r *Reverie) Dequeued(_ rotor.Time, _ int32, q int32, s *State) {
	if s.IsLossless(q) {
		return // accounted to its ingress queue: IngressDequeued
	}
	r.filter(&r.qhat[q], float64(s.Queues[q].Bytes), s.Prio(q))
}

// Moved filters the queue a packet left (as at a departure); the queue it
// joined is filtered at its next departure, as after an arrival.
func (r *Reverie) Moved(_ rotor.Time, _ int32, from, _ int32, s *State) {
	if !s.IsLossless(from) {
		r.filter(&r.qhat[from], float64(s.Queues[from].Bytes), s.Prio(from))
	}
}

func (r *Reverie) IngressDequeued(_ rotor.Time, _ int32, iq int32, s *State) {
	r.filter(&r.ihat[iq], float64(s.Ingress[iq].Shared), int(iq)%s.NQ)
}
