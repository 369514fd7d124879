package cc

import (
	"container/heap"

	"github.com/rdcn/rdcn/rotor"
)

// This file is a small deterministic packet-level model of one bottleneck,
// independent of the laws it drives: N senders, each behind its own NIC of
// rate H, reach one FIFO link of rate C after a propagation delay; the
// link serves one packet at a time, and when it starts a packet it stamps
// an INT record from its own state (queued bytes left, bytes dequeued so
// far, its rate). The data reaches the receiver and its ACK, carrying the
// INT record and the ECN mark (queue above K on arrival), returns after a
// further fixed delay. A sender sends while its window allows and no
// faster than its pacing rate and its NIC.

type bnEvent struct {
	t    rotor.Time
	seq  uint64
	kind uint8
	pkt  bnPacket
}

const (
	evSend     uint8 = iota // a sender may send (pacing timer)
	evArrive                // a data packet reaches the bottleneck queue
	evLinkFree              // the link finished serialising a packet
	evAck                   // an ACK reaches its sender
)

type bnPacket struct {
	flow int
	seq  int64
	size int64
	sent rotor.Time
	ecn  bool
	hop  Hop
}

type bnQueue []bnEvent

func (q bnQueue) Len() int { return len(q) }
func (q bnQueue) Less(i, j int) bool {
	if q[i].t != q[j].t {
		return q[i].t < q[j].t
	}
	return q[i].seq < q[j].seq
}
func (q bnQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *bnQueue) Push(x any)   { *q = append(*q, x.(bnEvent)) }
func (q *bnQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// bottleneck is the model's configuration.
type bottleneck struct {
	C, H       rotor.Rate
	MSS        int64
	Fwd, Back  rotor.Time // sender NIC → queue; link → receiver → sender
	K          int64      // ECN marking threshold in bytes (0: never mark)
	Starts     []rotor.Time
	End        rotor.Time
	Sample     rotor.Time // queue sampling period
	MeasureAt  rotor.Time // throughput and queue statistics from here on
	Laws       []Law
	FlowWindow []int64    // optional: overrides the law's window (0: law's)
	Step       rotor.Time // if > 0, the link rate becomes C2 at Step
	C2         rotor.Rate
	RateAt     func(rotor.Time) rotor.Rate // if set, the link rate at each time (overrides C, Step)
	Bin        rotor.Time                  // if > 0, acknowledged bytes are also counted per Bin of time
}

// rate is the link rate at now.
func (b *bottleneck) rate(now rotor.Time) rotor.Rate {
	if b.RateAt != nil {
		return b.RateAt(now)
	}
	if b.Step > 0 && now >= b.Step {
		return b.C2
	}
	return b.C
}

// BaseRTT is the RTT of a packet that finds the queue empty.
func (b *bottleneck) BaseRTT() rotor.Time {
	return b.H.TransmitTime(rotor.Bytes(b.MSS)) + b.Fwd + b.C.TransmitTime(rotor.Bytes(b.MSS)) + b.Back
}

// bnResult is what a run measured after MeasureAt.
type bnResult struct {
	Bytes    []int64              // bytes acknowledged per flow
	QMean    float64              // mean queue (bytes), sampled
	QMax     int64                // largest queue after MeasureAt
	Windows  []float64            // mean window per flow (sampled)
	Busy     float64              // fraction of time the link was serialising
	Samples  []int64              // queue samples
	MaxQueue int64                // over the whole run
	Bins     []int64              // bytes acknowledged per Bin (all flows), from time 0
	ByRate   map[rotor.Rate]int64 // bytes the link started after MeasureAt, by its rate then
}

type bnFlow struct {
	law      Law
	sndNxt   int64
	cum      int64
	inflight int64
	next     rotor.Time // earliest next send (pacing and NIC)
	pending  bool       // an evSend is scheduled
	started  bool
}

func (b *bottleneck) run() bnResult {
	var (
		q       bnQueue
		seq     uint64
		fifo    []bnPacket
		qBytes  int64
		txBytes int64
		busy    bool
		busyT   rotor.Time
		res     bnResult
	)
	n := len(b.Laws)
	flows := make([]bnFlow, n)
	res.Bytes = make([]int64, n)
	res.Windows = make([]float64, n)
	res.ByRate = map[rotor.Rate]int64{}
	push := func(t rotor.Time, kind uint8, p bnPacket) {
		seq++
		heap.Push(&q, bnEvent{t: t, seq: seq, kind: kind, pkt: p})
	}
	for i := range flows {
		flows[i].law = b.Laws[i]
		push(b.Starts[i], evSend, bnPacket{flow: i})
		flows[i].pending = true
	}
	for t := rotor.Time(0); t < b.End; t += b.Sample {
		push(t, 255, bnPacket{})
	}
	window := func(i int) int64 {
		if b.FlowWindow != nil && b.FlowWindow[i] > 0 {
			return b.FlowWindow[i]
		}
		return flows[i].law.Window()
	}
	trySend := func(now rotor.Time, i int) {
		f := &flows[i]
		for {
			w := window(i)
			if w > 0 && f.inflight+b.MSS > max(w, b.MSS) {
				return
			}
			if now < f.next {
				if !f.pending {
					f.pending = true
					push(f.next, evSend, bnPacket{flow: i})
				}
				return
			}
			p := bnPacket{flow: i, seq: f.sndNxt, size: b.MSS, sent: now}
			f.sndNxt += b.MSS
			f.inflight += b.MSS
			gap := b.H.TransmitTime(rotor.Bytes(b.MSS))
			if r := f.law.Rate(); r > 0 && r < b.H {
				gap = r.TransmitTime(rotor.Bytes(b.MSS))
			}
			f.next = now + gap
			push(now+b.H.TransmitTime(rotor.Bytes(b.MSS))+b.Fwd, evArrive, p)
		}
	}
	startLink := func(now rotor.Time) {
		if busy || len(fifo) == 0 {
			return
		}
		p := fifo[0]
		fifo = fifo[1:]
		qBytes -= p.size
		txBytes += p.size
		c := b.rate(now)
		p.hop = Hop{Ts: now, Qlen: qBytes, TxBytes: txBytes, Rate: c, Port: 1}
		ser := c.TransmitTime(rotor.Bytes(p.size))
		busy = true
		if now >= b.MeasureAt {
			busyT += ser
			res.ByRate[c] += p.size
		}
		push(now+ser, evLinkFree, bnPacket{})
		push(now+ser+b.Back, evAck, p)
	}
	var qSum float64
	var qN int
	var hops [1]Hop
	for q.Len() > 0 {
		e := heap.Pop(&q).(bnEvent)
		if e.t >= b.End {
			break
		}
		now := e.t
		switch e.kind {
		case evSend:
			f := &flows[e.pkt.flow]
			f.pending, f.started = false, true
			trySend(now, e.pkt.flow)
		case evArrive:
			p := e.pkt
			p.ecn = b.K > 0 && qBytes > b.K
			fifo = append(fifo, p)
			qBytes += p.size
			res.MaxQueue = max(res.MaxQueue, qBytes)
			if now >= b.MeasureAt {
				res.QMax = max(res.QMax, qBytes)
			}
			startLink(now)
		case evLinkFree:
			busy = false
			startLink(now)
		case evAck:
			p := e.pkt
			f := &flows[p.flow]
			f.cum = p.seq + p.size // FIFO, no loss: in order
			f.inflight -= p.size
			hops[0] = p.hop
			fb := Feedback{Now: now, Acked: p.size, Cum: f.cum, SndNxt: f.sndNxt, RTT: now - p.sent, ECE: p.ecn, Hops: hops[:]}
			f.law.OnAck(&fb)
			if now >= b.MeasureAt {
				res.Bytes[p.flow] += p.size
			}
			if b.Bin > 0 {
				k := int(now / b.Bin)
				for len(res.Bins) <= k {
					res.Bins = append(res.Bins, 0)
				}
				res.Bins[k] += p.size
			}
			trySend(now, p.flow)
		case 255:
			if now >= b.MeasureAt {
				qSum += float64(qBytes)
				qN++
				res.Samples = append(res.Samples, qBytes)
				for i := range flows {
					res.Windows[i] += float64(window(i))
				}
			}
		}
	}
	if qN > 0 {
		res.QMean = qSum / float64(qN)
		for i := range res.Windows {
			res.Windows[i] /= float64(qN)
		}
	}
	res.Busy = float64(busyT) / float64(b.End-b.MeasureAt)
	return res
}

// jain is Jain's fairness index (Σx)²/(n·Σx²).
func jain(xs []int64) float64 {
	var s, s2 float64
	for _, x := range xs {
		s += float64(x)
		s2 += float64(x) * float64(x)
	}
	return s * s / (float64(len(xs)) * s2)
}
