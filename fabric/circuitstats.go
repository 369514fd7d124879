package fabric

import (
	"math/bits"

	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/tor"
)

// Circuit utilisation where there is demand, per-packet queueing latency,
// and the time series of one watched ToR pair.
//
// A circuit day of ToR pair t→v carries demand if some flow from a host of
// t to a host of v has started and not completed when the day starts; the
// pair's circuit utilisation is the bytes its circuit sent during such
// days over circuit rate × their duration (the day, without the night).
//
// A data packet's queueing latency is its one-way delay (injection to
// arrival at the receiving host) minus the delay of its path on an idle
// fabric: serialisation and propagation on every link it crossed (host
// links, its circuit hops or the packet switch's two links, leaf-spine
// links). It is the time it waited in queues, waiting for a circuit
// included. Host-buffered (pulled) packets are left out: they wait at
// their hosts by design.

type pairStats struct {
	n, U    int
	rows    pairTable[pairStat] // t→v: per ToR v that t has started flows to
	demand  []bool              // [t·U+sw]: the uplink's current day carries demand
	dayFrom []rotor.Time        // [t·U+sw]: its current demand day, not yet in capB
	dayTo   []rotor.Time
	dayPair []int32
	qlat    latencyHist

	watch                int // t·n+v of the watched pair; −1: none
	delivered, onCircuit *stats.TimeSeries
	voqSum               *stats.TimeSeries // watched VOQ bytes summed per sample
	watchSrc, watchDst   int
}

// pairStat is what pairStats keeps for ToR pair t→v (rows[t], key v).
type pairStat struct {
	active      int32 // flows t→v started and not complete
	bytes, capB int64 // circuit bytes and capacity on demand days
}

func (s *sim) initPairStats() error {
	ps := &s.pairs
	ps.n, ps.U, ps.watch = s.n, s.U, -1
	ps.rows = newPairTable[pairStat](s.n, s.pairRows())
	ps.demand = make([]bool, s.n*s.U)
	ps.dayFrom, ps.dayTo, ps.dayPair = make([]rotor.Time, s.n*s.U), make([]rotor.Time, s.n*s.U), make([]int32, s.n*s.U)
	if w := s.cfg.WatchPair; w != nil {
		ps.watch, ps.watchSrc, ps.watchDst = w[0]*s.n+w[1], w[0], w[1]
		maxBins := int(s.cfg.SimTime/s.cfg.SeriesInterval) + 2
		var err error
		for _, ts := range []**stats.TimeSeries{&ps.delivered, &ps.onCircuit, &ps.voqSum} {
			if *ts, err = stats.NewTimeSeries(0, s.cfg.SeriesInterval, maxBins); err != nil {
				return cfgErr("run.series_interval", "%v", err)
			}
		}
	}
	return nil
}

// pairFlowStart and pairFlowDone count the flows between ToR pairs.
func (s *sim) pairFlowStart(fs *flowState) {
	if fs.srcToR != fs.dstToR {
		s.pairs.rows.at(int(fs.srcToR), int(fs.dstToR)).active++
	}
}

func (s *sim) pairFlowDone(fs *flowState) {
	if fs.srcToR != fs.dstToR {
		s.pairs.rows.at(int(fs.srcToR), int(fs.dstToR)).active--
	}
}

// pairDay notes the start of a day of ToR t's uplink sw, whose circuit
// reaches v until night.
func (s *sim) pairDay(t, sw int, v int32, now, night rotor.Time) {
	ps := &s.pairs
	i := t*s.U + sw
	s.pairCapacity(i, rotor.MaxTime)
	pair := t*s.n + int(v)
	st := ps.rows.get(t, int(v))
	d := st != nil && st.active > 0
	ps.demand[i] = d
	if d {
		ps.dayFrom[i], ps.dayTo[i], ps.dayPair[i] = now, night, int32(pair)
	}
}

// pairCapacity adds uplink i's pending demand day, up to stop, to its
// pair's capacity.
func (s *sim) pairCapacity(i int, stop rotor.Time) {
	ps := &s.pairs
	if to := min(ps.dayTo[i], stop); to > ps.dayFrom[i] {
		pair := int(ps.dayPair[i])
		ps.rows.at(pair/s.n, pair%s.n).capB += int64(s.rates[linkCircuit].BytesIn(to - ps.dayFrom[i]))
	}
	ps.dayFrom[i], ps.dayTo[i] = 0, 0
}

// pairSent counts size bytes sent at now on ToR t's uplink i (t·U+sw)
// to v.
func (s *sim) pairSent(t, i int, v int32, size int32, now rotor.Time) {
	ps := &s.pairs
	if ps.demand[i] { // the pair has flows: it has a row entry
		ps.rows.at(t, int(v)).bytes += int64(size)
	}
	if t*s.n+int(v) == ps.watch {
		ps.onCircuit.Add(now, float64(size))
	}
}

// pairDelivered records data packet p's arrival at its host at time at.
func (s *sim) pairDelivered(fs *flowState, p *packet.Packet, at rotor.Time) {
	ps := &s.pairs
	if ps.watch >= 0 && int(fs.srcToR)*s.n+int(fs.dstToR) == ps.watch {
		ps.delivered.Add(at, float64(p.Size))
	}
	if p.Has(packet.Pulled) || !s.cfg.Measure.Contains(p.Sent) {
		return
	}
	ps.qlat.add(int64(max(0, at-p.Sent-s.idleDelay(fs, p))))
}

// idleDelay is the one-way delay of data packet p on its path through an
// idle fabric (store and forward on every link).
func (s *sim) idleDelay(fs *flowState, p *packet.Packet) rotor.Time {
	d := 2 * (s.ser(linkHost, p.Size) + s.cfg.HostDelay)
	switch {
	case s.ls != nil:
		d += rotor.Time(p.Hops) * (s.ser(linkFabric, p.Size) + s.cfg.LeafSpine.FabricDelay)
	case p.Has(packet.Circuit): // circuit hops only (a packet-switch path has none)
		d += rotor.Time(p.Hops) * (s.ser(linkCircuit, p.Size) + s.cfg.LinkDelay)
	case fs.srcToR != fs.dstToR: // through the packet switch: two links, one hop
		d += 2 * (s.ser(linkPS, p.Size) + s.cfg.PacketSwitchDelay)
	}
	return d
}

// pairSample adds the watched VOQ's bytes to its series (sample()).
func (s *sim) pairSample(now rotor.Time) {
	ps := &s.pairs
	if ps.watch < 0 {
		return
	}
	tr := s.tors[ps.watchSrc]
	ps.voqSum.Add(now, float64(tr.VOQBytes(ps.watchDst)))
}

// PairCircuit is the circuit utilisation of one ToR pair on the days that
// carried demand.
type PairCircuit struct {
	Src           int     `json:"src"`
	Dst           int     `json:"dst"`
	Bytes         int64   `json:"bytes"`          // sent on the pair's circuits during those days
	CapacityBytes int64   `json:"capacity_bytes"` // circuit rate × those days' duration
	Utilization   float64 `json:"utilization"`    // Bytes / CapacityBytes
}

// PairSeries is the watched pair's time series (run.watch_pair), in bins
// of Result.SeriesInterval.
type PairSeries struct {
	Src, Dst  int
	Delivered []float64 // data bytes of flows Src→Dst arriving at their hosts
	Circuit   []float64 // bytes sent on circuits Src→Dst
	VOQ       []float64 // mean bytes in ToR Src's VOQ toward Dst (Poisson samples)
	Days      []tor.Day // the pair's circuit days that start before the end of the run
}

// LatencyQuantiles are queueing-latency percentiles in µs.
type LatencyQuantiles struct {
	Packets                  int64
	P50, P90, P99, P999, Max float64
}

// fillPairs puts the pair statistics into r.
func (s *sim) fillPairs(r *Result, stop rotor.Time) {
	ps := &s.pairs
	for i := range ps.dayTo {
		s.pairCapacity(i, stop)
	}
	var b, c int64
	for t := range s.n {
		ps.rows.each(t, func(x int, st *pairStat) {
			if st.capB == 0 {
				return
			}
			b, c = b+st.bytes, c+st.capB
			r.PairCircuits = append(r.PairCircuits, PairCircuit{Src: t, Dst: x, Bytes: st.bytes,
				CapacityBytes: st.capB, Utilization: float64(st.bytes) / float64(st.capB)})
		})
	}
	r.DemandCircuitUtilization = -1
	if c > 0 {
		r.DemandCircuitUtilization = float64(b) / float64(c)
	}
	h := &ps.qlat
	us := func(q float64) float64 { return float64(h.quantile(q)) / float64(rotor.Microsecond) }
	r.QueueingLatency = LatencyQuantiles{Packets: h.n, P50: us(0.5), P90: us(0.9), P99: us(0.99), P999: us(0.999),
		Max: float64(h.max) / float64(rotor.Microsecond)}
	if ps.watch < 0 {
		return
	}
	bins := int(stop/s.cfg.SeriesInterval) + 1
	w := &PairSeries{Src: ps.watchSrc, Dst: ps.watchDst}
	for _, x := range []struct {
		ts  *stats.TimeSeries
		out *[]float64
	}{{ps.delivered, &w.Delivered}, {ps.onCircuit, &w.Circuit}, {ps.voqSum, &w.VOQ}} {
		x.ts.Extend(bins)
		*x.out = append([]float64(nil), x.ts.Bins()[:bins]...)
	}
	count := s.m.sampleCount
	count.Extend(bins)
	for i := range w.VOQ {
		if n := count.Bins()[i]; n > 0 {
			w.VOQ[i] /= n
		}
	}
	if days, cycle, err := tor.CircuitDays(s.sched, ps.watchSrc, ps.watchDst); err == nil {
		for k := rotor.Time(0); k*cycle < stop; k++ {
			for _, d := range days {
				if d.Start+k*cycle < stop {
					w.Days = append(w.Days, tor.Day{Start: d.Start + k*cycle, End: d.End + k*cycle})
				}
			}
		}
	}
	r.Watch = w
}

// latencyHist is a log-linear histogram of non-negative picosecond
// values: 64 linear sub-buckets per power of two, so a quantile is within
// 1/64 (1.6 %) of the true value. Adding allocates nothing.
type latencyHist struct {
	counts [128 * 64]int64
	n      int64
	max    int64
}

// latencyBucket is v itself below 128, else e·128 + v>>e with v>>e in
// [64, 128).
func latencyBucket(v int64) int {
	if v < 128 {
		return int(v)
	}
	e := bits.Len64(uint64(v)) - 7
	return e*128 + int(v>>e)
}

func (h *latencyHist) add(v int64) {
	h.counts[latencyBucket(v)]++
	h.n++
	h.max = max(h.max, v)
}

// quantile is the upper edge of the bucket holding the q-quantile
// (nearest rank), at most the maximum.
func (h *latencyHist) quantile(q float64) int64 {
	if h.n == 0 {
		return 0
	}
	rank := int64(q*float64(h.n-1)) + 1
	var seen int64
	for b, c := range h.counts {
		if seen += c; seen >= rank {
			if b < 128 {
				return int64(b)
			}
			e := b / 128
			return min(h.max, int64(b%128+1)<<e-1)
		}
	}
	return h.max
}
