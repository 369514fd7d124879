package fabric

import (
	"fmt"
	"math/bits"
	"runtime"
	rtmetrics "runtime/metrics"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/tor"
)

type metrics struct {
	injectedPkts, injectedBytes, injectedData    int64
	deliveredPkts, deliveredBytes, deliveredData int64
	droppedPkts, droppedBytes, droppedData       int64
	hopLimitDrops                                int64 // source-routed packets dropped at kspHopLimit hops
	prebufferDrops                               int64 // packets refused at a VOQ's prebuffer capacity
	phantomTurns, hostPushOuts                   int64 // booked ToR→host turns that held the port with nothing to send; host-queue push-outs
	pulledPushOuts                               int64 // queued packets pushed out to admit pulled ones
	// re-routing at nights: packets moved, and what moving them changed
	// in their ToR: buffer bytes lost, ECN marks, bytes the policy heard
	// as dequeued
	rerouted, rerouteLost, rerouteMarks, rerouteDrained int64
	lawFlows, pulledFlows                               int // flows started with a congestion-control law, and pulled ones
	// The run's last quarter (from tailFrom): the payload bytes each host
	// received and sent (hostBytes: −1 at tailFrom, +1 at the end), and
	// what each ToR's circuit uplinks sent (Diagnose).
	tailFrom               rotor.Time
	tailRx, tailTx, tailUp []int64
	idealInFlight          int64
	heldAcks               int64 // delayed ACKs the sinks hold back
	syn                    synStats
	circuitBytes, psBytes  int64
	capBytes               int64 // circuit capacity during days so far
	dayPorts               []int
	hops                   [256]int64 // data packets delivered by circuit hops taken (Packet.Hops is a uint8)
	completed              int

	hostSeries, circuitSeries, bufferSeries *stats.TimeSeries
	voqSeries                               *stats.TimeSeries // summed per sample like bufferSeries
	sampleCount                             *stats.TimeSeries // samples per bin of bufferSeries
	bufferHist, voqHist                     *stats.Histogram
	sampledPeak                             int64   // buffer peak at samples, pulled packets included
	voqPulled                               []int64 // scratch: pulled bytes per VOQ of one ToR

	memory   []MemorySample
	memReads []rtmetrics.Sample
}

// MemorySample is the Go heap at a simulated time.
type MemorySample struct {
	SimTime    rotor.Time `json:"sim_time_ps"`
	HeapBytes  uint64     `json:"heap_bytes"`  // heap objects, garbage not yet collected included (runtime/metrics /memory/classes/heap/objects:bytes)
	TotalBytes uint64     `json:"total_bytes"` // all memory mapped by the Go runtime (/memory/classes/total:bytes)
	LiveBytes  uint64     `json:"live_bytes"`  // heap objects right after a forced garbage collection: what the run really holds
}

func (m *metrics) init(s *sim) error {
	maxBins := int(s.cfg.SimTime/s.cfg.SeriesInterval) + 2
	var err error
	mk := func() *stats.TimeSeries {
		ts, e := stats.NewTimeSeries(0, s.cfg.SeriesInterval, maxBins)
		if e != nil {
			err = e
		}
		return ts
	}
	m.hostSeries, m.circuitSeries, m.bufferSeries, m.voqSeries, m.sampleCount = mk(), mk(), mk(), mk(), mk()
	if err != nil {
		return cfgErr("run.series_interval", "%v", err)
	}
	if m.bufferHist, err = stats.NewHistogram(0, float64(s.cfg.Buffer), 100); err != nil {
		return cfgErr("buffer.size", "%v", err)
	}
	if m.voqHist, err = stats.NewHistogram(0, float64(s.cfg.Buffer), 100); err != nil {
		return cfgErr("buffer.size", "%v", err)
	}
	m.dayPorts = make([]int, s.U)
	m.tailFrom = s.cfg.SimTime - s.cfg.SimTime/4
	m.tailRx, m.tailTx, m.tailUp = make([]int64, s.n*s.H), make([]int64, s.n*s.H), make([]int64, s.n)
	m.voqPulled = make([]int64, s.n)
	m.memory = make([]MemorySample, len(s.cfg.MemoryAt))
	m.memReads = []rtmetrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/total:bytes"}}
	return nil
}

func (m *metrics) circuitCapacity(s *sim, sw int, from, to rotor.Time) {
	if to > from {
		m.capBytes += int64(m.dayPorts[sw]) * int64(s.rates[linkCircuit].BytesIn(to-from))
	}
}

func (m *metrics) sampleMemory(i int, now rotor.Time) {
	rtmetrics.Read(m.memReads)
	m.memory[i] = MemorySample{SimTime: now, HeapBytes: m.memReads[0].Value.Uint64(), TotalBytes: m.memReads[1].Value.Uint64()}
	runtime.GC()
	rtmetrics.Read(m.memReads[:1])
	m.memory[i].LiveBytes = m.memReads[0].Value.Uint64()
}

// sample records buffer and VOQ occupancy and, with Check, verifies packet
// conservation.
func (s *sim) sample() {
	m := &s.m
	now := s.q.Now()
	w := 1 / float64(s.n)
	m.sampleCount.Add(now, 1)
	pulled := m.voqPulled // all zero between ToRs: only the entries pulledPresent set are cleared
	var voqs float64      // bytes in all VOQs
	for _, tr := range s.tors {
		// operasim's private data queues are buffer too; pulled packets are
		// tracked by the fabric, not in the ToR's queues.
		used := tr.Used() + tr.PrivateBytes()
		if s.pulling {
			s.settle(tr.ID)
			used += s.pulledPresent(tr.ID, pulled)
		}
		m.sampledPeak = max(m.sampledPeak, used)
		m.bufferHist.Add(float64(used), 1)
		m.bufferSeries.Add(now, float64(used)*w)
		var empty int // empty VOQs are added at once: most are, and the counts stay exact
		if tr.VOQPackets() > 0 {
			empty = s.sampleVOQs(tr, pulled, &voqs)
		} else {
			empty = s.samplePulled(tr.ID, pulled, &voqs)
		}
		if empty > 0 {
			m.voqHist.Add(0, float64(empty))
		}
	}
	if s.n > 1 {
		m.voqSeries.Add(now, voqs/float64(s.n*(s.n-1)))
	}
	s.pairSample(now)
	if s.cfg.Check {
		s.checkConservation(false)
	}
}

// sampleVOQs adds ToR tr's VOQs (with pulled, the pulled bytes per
// destination, which it clears) to the VOQ histogram and *voqs, in order
// of destination, and returns how many are empty: O(n) for a ToR with
// packets in its VOQs.
func (s *sim) sampleVOQs(tr *tor.ToR, pulled []int64, voqs *float64) (empty int) {
	for v := 0; v < s.n; v++ {
		if v == tr.ID {
			continue
		}
		b := pulled[v] + tr.VOQBytes(v)
		pulled[v] = 0
		if b == 0 {
			empty++
			continue
		}
		s.m.voqHist.Add(float64(b), 1)
		*voqs += float64(b)
	}
	return empty
}

// samplePulled is sampleVOQs for a ToR whose VOQs are empty: only the
// destinations with staged pulled packets (waitBits) can hold bytes, so it
// reads those, in the same order, instead of all n (the sample was O(n²)
// a time, issue 26).
func (s *sim) samplePulled(t int, pulled []int64, voqs *float64) (empty int) {
	held := 0
	if s.pulling {
		ps := &s.pull
		for k, b := range ps.waitBits[t*ps.words : (t+1)*ps.words] {
			for ; b != 0; b &= b - 1 {
				v := k<<6 + bits.TrailingZeros64(b)
				b := pulled[v]
				pulled[v] = 0
				if v == t || b == 0 {
					continue
				}
				held++
				s.m.voqHist.Add(float64(b), 1)
				*voqs += float64(b)
			}
		}
	}
	return s.n - 1 - held
}

// checkConservation verifies injected = delivered + dropped + in flight,
// in packets (against the pool) and, if full, in bytes against an
// independent count of what sits in buffers and on the wires.
func (s *sim) checkConservation(full bool) {
	m := &s.m
	waiting := int64(0)
	for i := range s.hosts {
		waiting += int64(s.hosts[i].acks.Len())
	}
	if s.ndp.made {
		for i := range s.ndp.hosts {
			waiting += int64(s.ndp.hosts[i].fresh.Len() + s.ndp.hosts[i].retx.Len())
		}
	}
	live := int64(s.pool.Live()) - m.idealInFlight - m.heldAcks - waiting
	if ps := &s.pull; ps.waitBits != nil {
		for t := range s.n {
			for v := range s.n {
				n := 0
				if h := ps.hops.get(t, v); h != nil {
					n = h.waiting.Len()
				}
				if set := ps.waitBits[t*ps.words+v>>6]>>(v&63)&1 == 1; set != (n > 0) {
					s.fail("ToR %d: the bitmap of waiting lists says %v for %d, which holds %d packets", t, set, v, n)
					return
				}
				flows := 0
				if pd := ps.dests.get(t, v); pd != nil {
					flows = pd.pend.count(s.flows)
				}
				if set := ps.pending.has(t, v); set != (flows > 0) || set && ps.pending.next(t, v) != v {
					s.fail("ToR %d: the set of pending destinations says %v for %d, whose list holds %d flows", t, set, v, flows)
					return
				}
			}
			if ps.storedAt == nil {
				continue
			}
			stored, bad := 0, ""
			ps.dests.each(t, func(x int, pd *pullDest) {
				stored += pd.store.Len()
				if err := s.checkStore(pd); err != "" && bad == "" {
					bad = fmt.Sprintf("its relay store for %d %s", x, err)
				}
			})
			if bad != "" {
				s.fail("ToR %d: %s", t, bad)
				return
			}
			if int(ps.storedAt[t]) != stored {
				s.fail("ToR %d: its hosts store %d relayed packets, but storedAt counts %d", t, stored, ps.storedAt[t])
				return
			}
			if ps.shadow == nil { // entries, not packets of the pool (storedPkt)
				live += int64(stored)
			}
		}
	}
	if got := m.injectedPkts - m.deliveredPkts - m.droppedPkts; got != live {
		s.fail("conservation: injected %d − delivered %d − dropped %d = %d packets, but %d are in the network",
			m.injectedPkts, m.deliveredPkts, m.droppedPkts, got, live)
		return
	}
	if !full {
		return
	}
	s.checkSwitches()
	var inNet int64
	for _, tr := range s.switches() {
		inNet += tr.Used() + tr.HeaderBytes() + tr.PrivateBytes()
	}
	inNet += s.pull.stored + s.pull.late
	if s.pulling {
		for t := range s.n {
			s.pull.hops.each(t, func(_ int, h *pullHop) {
				for i := 0; i < h.waiting.Len(); i++ {
					inNet += int64(h.waiting.At(i).size)
				}
			})
		}
	}
	for _, e := range s.q.Pending() {
		switch e.Kind {
		case evToRArrive, evHostArrive, evPSArrive, evSpineArrive:
			inNet += int64(s.pool.At(e.Arg).Size)
		}
	}
	if m.injectedBytes != m.deliveredBytes+m.droppedBytes+s.ndp.trimmedBytes+inNet {
		s.fail("conservation: injected %d B ≠ delivered %d B + dropped %d B + trimmed %d B + in flight %d B",
			m.injectedBytes, m.deliveredBytes, m.droppedBytes, s.ndp.trimmedBytes, inNet)
	}
}
