package tor

import (
	"math/bits"
	"math/rand/v2"

	"github.com/rdcn/rdcn/rotor"
)

// Shared-buffer policies. Every drop-tail policy here answers only its own
// threshold test; the Switch adds the physical check Q + size ≤ B. Rules,
// defaults and the decisions taken where the papers are silent are in
// doc.go and docs/buffers.md.

// classAlpha is the per-queue-index α of the DT family: queues below
// hiQueues are high priority (α_hi), the others low (α).
type classAlpha [MaxQueues]float64

func newClassAlpha(alpha, alphaHi float64, hiQueues int) classAlpha {
	var a classAlpha
	for k := range a {
		a[k] = alpha
		if k < hiQueues {
			a[k] = alphaHi
		}
	}
	return a
}

// CompleteSharingPolicy (cs) admits whatever fits.
type CompleteSharingPolicy struct{}

func (CompleteSharingPolicy) Name() string { return "cs" }

func (CompleteSharingPolicy) Admit(rotor.Time, *Arrival, int32, *State) bool { return true }

// StaticPartition (cp) gives every queue B/(ports·queues).
type StaticPartition struct{ share int64 }

func (StaticPartition) Name() string { return "cp" }

func (c *StaticPartition) Admit(_ rotor.Time, a *Arrival, q int32, s *State) bool {
	return s.Queues[q].Bytes+int64(a.Size) <= c.share
}

// DT is Choudhury and Hahne's Dynamic Thresholds: T = α·(B − Q).
type DT struct{ alpha classAlpha }

func (DT) Name() string { return "dt" }

func (d *DT) Admit(_ rotor.Time, a *Arrival, q int32, s *State) bool {
	return float64(s.Queues[q].Bytes+int64(a.Size)) <= d.alpha[s.Prio(q)]*float64(s.SharedFree())
}

// AdmitLossless is DT on the lossless class's ingress queue (its bytes in
// the shared pool): PFC pauses the ingress port instead of dropping.
func (d *DT) AdmitLossless(_ rotor.Time, a *Arrival, iq int32, s *State) bool {
	return float64(s.Ingress[iq].Shared+int64(a.Size)) <= d.alpha[int(iq)%s.NQ]*float64(s.SharedFree())
}

// Resume lets a drained ingress queue go once a full packet passes DT.
func (d *DT) Resume(_ rotor.Time, iq int32, s *State) bool {
	return float64(s.Ingress[iq].Shared+int64(s.MTU)) <= d.alpha[int(iq)%s.NQ]*float64(s.SharedFree())
}

func (d *DT) IngressDequeued(rotor.Time, int32, int32, *State) {}

// FB is Flexible Buffer management: T = α_c·(1/N_p)·γ·(B − Q), N_p the
// non-empty queues of the packet's priority (its queue index) counting its
// own, γ the queue's round-robin share of its port (1 under strict
// priority).
type FB struct {
	alpha classAlpha
	rr    bool
}

func (FB) Name() string { return "fb" }

func (f *FB) Admit(_ rotor.Time, a *Arrival, q int32, s *State) bool {
	c := &s.Queues[q]
	k := s.Prio(q)
	np, active := s.PrioActive[k], uint32(s.Ports[c.Port].Active)
	if c.Packets == 0 {
		np++
		active |= 1 << k
	}
	gamma := 1.0
	if f.rr {
		gamma = 1 / float64(bits.OnesCount32(active))
	}
	t := f.alpha[k] / float64(np) * gamma * float64(s.Free())
	return float64(c.Bytes+int64(a.Size)) <= t
}

// FBA is FB approximated on DT: every Period a controller sets each
// queue's DT α to α_c·(1/N_p)·γ from the counters it reads then.
type FBA struct {
	fb     FB
	period rotor.Time
	alpha  []float64 // per queue, the α last set
}

func (FBA) Name() string { return "fba" }

func (f *FBA) Admit(_ rotor.Time, a *Arrival, q int32, s *State) bool {
	return float64(s.Queues[q].Bytes+int64(a.Size)) <= f.alpha[q]*float64(s.Free())
}

func (f *FBA) Every() rotor.Time { return f.period }

func (f *FBA) Tick(_ rotor.Time, s *State) {
	for q := range f.alpha { // queues not created yet (SwitchConfig.OnDemand) are empty
		k := q % s.NQ
		np := max(s.PrioActive[k], 1)
		gamma := 1.0
		if f.fb.rr && q < len(s.Queues) {
			gamma = 1 / float64(max(bits.OnesCount8(s.Ports[s.Queues[q].Port].Active), 1))
		}
		f.alpha[q] = f.fb.alpha[k] / float64(np) * gamma
	}
}

// ABM is Active Buffer Management: T = α_p·(1/n_p)·γ·(B − Q), with α_p
// replaced by α_unsched for a flow's first-RTT packets. n_p (congested
// queues of priority p, counted fractionally as Σ min(q/sat, 1), at least
// 1) and γ (the queue's measured drain rate over its port rate) are
// refreshed once per Period (an RTT); between refreshes the per-queue
// saturation sum is kept exact in O(1) per packet.
//
// Two rules of ns-3's GenQueueDisc (the ABM paper's public code) may
// replace rdcn's: with np_at_arrivals a queue's saturation is the one
// its last arrival found before joining (ns-3 records it only at
// arrivals, so a queue that drained keeps counting), and with gamma_ns3 a
// measured γ below 1/queues or above 1 becomes 1 (rdcn clamps it to
// [1/queues, 1]).
type ABM struct {
	alpha   classAlpha
	unsched float64
	sat     float64 // bytes at which a queue counts as fully congested
	period  rotor.Time

	satSum [MaxQueues]float64 // live Σ min(q/sat,1) per priority
	np     [MaxQueues]float64 // snapshot used by Admit
	deq    []int64            // bytes dequeued per queue this period
	gamma  []float64          // per queue, snapshot
	nq     int

	// arrivalSat (np_at_arrivals; nil: off): each queue's saturation as
	// its last arrival found it, arrivalSum its sum per priority.
	arrivalSat []float64
	arrivalSum [MaxQueues]float64
	gammaNS3   bool
}

func (ABM) Name() string { return "abm" }

func (m *ABM) Admit(_ rotor.Time, a *Arrival, q int32, s *State) bool {
	k := s.Prio(q)
	if m.arrivalSat != nil {
		sat := m.satOf(s.Queues[q].Bytes)
		m.arrivalSum[k] += sat - m.arrivalSat[q]
		m.arrivalSat[q] = sat
	}
	alpha := m.alpha[k]
	if a.Unsched {
		alpha = m.unsched
	}
	t := alpha / m.np[k] * m.gamma[q] * float64(s.Free())
	return float64(s.Queues[q].Bytes+int64(a.Size)) <= t
}

func (m *ABM) satOf(b int64) float64 { return min(float64(b)/m.sat, 1) }

func (m *ABM) Enqueued(_ rotor.Time, a *Arrival, q int32, s *State) {
	b := s.Queues[q].Bytes
	m.satSum[s.Prio(q)] += m.satOf(b) - m.satOf(b-int64(a.Size))
}

func (m *ABM) Dequeued(_ rotor.Time, size int32, q int32, s *State) {
	b := s.Queues[q].Bytes
	m.satSum[s.Prio(q)] += m.satOf(b) - m.satOf(b+int64(size))
	m.deq[q] += int64(size)
}

// Moved re-counts the saturation of both queues; the bytes did not drain.
func (m *ABM) Moved(_ rotor.Time, size int32, from, to int32, s *State) {
	b := s.Queues[from].Bytes
	m.satSum[s.Prio(from)] += m.satOf(b) - m.satOf(b+int64(size))
	b = s.Queues[to].Bytes
	m.satSum[s.Prio(to)] += m.satOf(b) - m.satOf(b-int64(size))
}

func (m *ABM) Dropped(_ rotor.Time, _ *Arrival, size int32, q int32, pushed bool, s *State) {
	if pushed {
		b := s.Queues[q].Bytes
		m.satSum[s.Prio(q)] += m.satOf(b) - m.satOf(b+int64(size))
	}
}

func (m *ABM) Every() rotor.Time { return m.period }

// Tick refreshes n_p and γ. It recomputes the saturation sums from the
// queues (O(queues) once per RTT) so that float rounding cannot drift.
func (m *ABM) Tick(_ rotor.Time, s *State) {
	m.satSum = [MaxQueues]float64{}
	for q := range s.Queues {
		m.satSum[q%m.nq] += m.satOf(s.Queues[q].Bytes)
	}
	sum := &m.satSum
	if m.arrivalSat != nil {
		m.arrivalSum = [MaxQueues]float64{}
		for q, sat := range m.arrivalSat {
			m.arrivalSum[q%m.nq] += sat
		}
		sum = &m.arrivalSum
	}
	for k := 0; k < m.nq; k++ {
		m.np[k] = max(sum[k], 1)
	}
	secs := m.period.Seconds()
	for q := range m.gamma {
		if q >= len(s.Queues) { // not created yet (SwitchConfig.OnDemand): empty, nothing sent
			m.gamma[q] = 1
			continue
		}
		p := &s.Ports[s.Queues[q].Port]
		g := float64(m.deq[q]) * 8 / (float64(p.Rate) * secs)
		switch {
		case m.gammaNS3 && (g < 1/float64(m.nq) || g > 1):
			g = 1
		case m.gammaNS3:
		case m.deq[q] == 0:
			g = 1 / float64(max(bits.OnesCount8(p.Active), 1))
		}
		m.gamma[q] = min(max(g, 1/float64(m.nq)), 1)
		m.deq[q] = 0
	}
}

// FAB is Flow-Aware Buffer: DT whose α is α_high while the packet's flow
// has sent fewer than Threshold bytes within the last Window.
type FAB struct {
	alpha     classAlpha
	high      float64
	window    rotor.Time
	threshold int64
	flows     []flowBytes // by flow id
}

type flowBytes struct {
	bytes int64
	last  rotor.Time
}

func (FAB) Name() string { return "fab" }

func growFlows[T any](f []T, id int32) []T {
	if int(id) < len(f) {
		return f
	}
	return append(f, make([]T, int(id)+1-len(f)+len(f)/2)...)
}

func (f *FAB) Admit(now rotor.Time, a *Arrival, q int32, s *State) bool {
	alpha := f.alpha[s.Prio(q)]
	if a.Flow >= 0 {
		f.flows = growFlows(f.flows, a.Flow)
		st := &f.flows[a.Flow]
		if now-st.last > f.window {
			st.bytes = 0
		}
		st.last = now
		st.bytes += int64(a.Size)
		if st.bytes < f.threshold {
			alpha = f.high
		}
	}
	return float64(s.Queues[q].Bytes+int64(a.Size)) <= alpha*float64(s.Free())
}

// IB is Cisco's Intelligent Buffer as in the papers' artifact: DT plus
// Approximate Fair Dropping per queue. Every Window, M_fair moves against
// the queue's distance from Qref; an arrival is dropped with probability
// 1 − min(15·M_prev, M_fair)/(15·M_prev) once its queue exceeds MinQueue.
type IB struct {
	alpha    classAlpha
	window   rotor.Time
	qref     float64
	minQueue int64
	a1, a2   float64
	rng      *rand.Rand
	mCur     []float64
	mPrev    []float64
	mFair    []float64
	qOld     []float64
}

func (IB) Name() string { return "ib" }

func (b *IB) Admit(_ rotor.Time, a *Arrival, q int32, s *State) bool {
	c := s.Queues[q].Bytes
	if float64(c+int64(a.Size)) > b.alpha[s.Prio(q)]*float64(s.Free()) {
		return false
	}
	b.mCur[q] += float64(a.Size)
	if c <= b.minQueue || b.mPrev[q] <= 0 {
		return true
	}
	drop := 1 - min(15*b.mPrev[q], b.mFair[q])/(15*b.mPrev[q])
	return !(drop > 0 && b.rng.Float64() < drop)
}

func (b *IB) Every() rotor.Time { return b.window }

func (b *IB) Tick(_ rotor.Time, s *State) {
	for q := range b.mCur {
		b.mPrev[q], b.mCur[q] = b.mCur[q], 1
		now := 0.0 // a queue not created yet (SwitchConfig.OnDemand) is empty
		if q < len(s.Queues) {
			now = float64(s.Queues[q].Bytes)
		}
		b.mFair[q] = max(0, b.mFair[q]-b.a1*(now-b.qref)+b.a2*(b.qOld[q]-b.qref))
		b.qOld[q] = now
	}
}
