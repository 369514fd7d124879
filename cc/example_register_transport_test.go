package cc_test

import (
	"fmt"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// A transport registers itself in an init function: "paced" sends every
// segment in order at half its host's line rate, whatever the network
// says, and recovers losses by go-back-N: its receiver keeps only
// in-order data and ACKs every packet with the cumulative point, and a
// timeout (transport.min_rto after the last progress) resends from
// there. Its flow ends read the segment size (transport.mss), the ACK
// size and the timeout, so those are its Params; it takes no law.
func init() {
	cc.RegisterTransport(cc.TransportSpec{
		Name:   "paced",
		Doc:    "go-back-N at half the line rate: in-order receiver, cumulative ACKs, a timeout resends from the cumulative point",
		Params: []string{"transport.mss", "transport.incast_mss", "transport.ack_size", "transport.min_rto"},
		New: func(f cc.Flow) (cc.Source, cc.Sink) {
			return &pacedSource{size: f.Size, mss: f.MSS, rate: f.Line / 2, rto: f.MinRTO},
				&pacedSink{size: f.Size, mss: f.MSS, ackSize: f.AckSize}
		},
	})
}

type pacedSource struct {
	size           int64
	mss            int32
	rate           rotor.Rate
	rto            rotor.Time
	next, cum, top int64      // next byte to send, cumulative ACK, highest byte sent
	deadline       rotor.Time // 0: no timer
	retx, timeouts int64
}

func (s *pacedSource) CanSend() bool    { return s.next < s.size }
func (s *pacedSource) Pending() int64   { return s.size - s.top }
func (s *pacedSource) Rate() rotor.Rate { return s.rate }
func (s *pacedSource) Timer() rotor.Time {
	return s.deadline
}
func (s *pacedSource) OnCircuit(rotor.Time, bool) {}
func (s *pacedSource) Done() bool                 { return s.cum == s.size }
func (s *pacedSource) Counts() (int64, int64)     { return s.retx, s.timeouts }

func (s *pacedSource) Next(now rotor.Time) (seq int64, size int32, retx bool, ok bool) {
	if s.next >= s.size {
		return 0, 0, false, false
	}
	seq, size, retx = s.next, int32(min(int64(s.mss), s.size-s.next)), s.next < s.top
	s.next += int64(size)
	s.top = max(s.top, s.next)
	if retx {
		s.retx++
	}
	if s.deadline == 0 {
		s.deadline = now + s.rto
	}
	return seq, size, retx, true
}

func (s *pacedSource) OnReply(now rotor.Time, p *packet.Packet, _ *cc.Feedback) bool {
	if p.Seq <= s.cum {
		return false
	}
	s.cum, s.next = p.Seq, max(s.next, p.Seq)
	s.deadline = 0
	if s.cum < s.size {
		s.deadline = now + s.rto
	}
	return false // pacing, not ACKs, clocks the sends
}

func (s *pacedSource) OnTimeout(now rotor.Time) bool {
	if s.deadline == 0 || now < s.deadline {
		return false
	}
	s.timeouts++
	s.next, s.deadline = s.cum, now+s.rto
	return true
}

type pacedSink struct {
	size           int64
	mss, ackSize   int32
	cum, reordered int64
}

func (r *pacedSink) Receive(now rotor.Time, p *packet.Packet) cc.Verdict {
	var v cc.Verdict
	switch {
	case p.Seq == r.cum:
		r.cum += int64(p.Size)
		if r.cum == r.size {
			v = cc.Complete
		}
	case p.Seq > r.cum:
		r.reordered++ // dropped: go-back-N resends it
	}
	cc.MakeAck(p, r.cum, r.mss, r.ackSize)
	return v | cc.Reply
}

func (r *pacedSink) AckTimer() rotor.Time                { return 0 }
func (r *pacedSink) OnAckTimer(rotor.Time) bool          { return false }
func (r *pacedSink) Counts() (received, reordered int64) { return r.cum, r.reordered }

// Once registered, "paced" is a transport.kind like the built-in ones:
// here a 4,500-byte flow between two hosts of one ToR, in segments of
// 1,000 bytes (transport.mss), paced at 5 Gb/s on 10 Gb/s links. The
// last segment (500 bytes) leaves at 4 × 1.6 µs = 6.4 µs and takes
// 0.4 µs + 0.1 µs to the ToR and as long again to its host: FCT 7.4 µs.
func ExampleRegisterTransport() {
	r, err := fabric.Run(fabric.Config{
		Schedule: &rotor.Schedule{Nodes: 2, Switches: 1, Period: 1, Slot: 10 * rotor.Microsecond,
			Reconf: rotor.Microsecond, Matchings: [][][]int{{{1, 0}}}},
		HostsPerToR: 2, HostLink: 10 * rotor.Gbps, CircuitLink: 10 * rotor.Gbps,
		HostDelay: 100 * rotor.Nanosecond, LinkDelay: 100 * rotor.Nanosecond,
		Buffer: 1_000_000, Routing: fabric.Direct, Transport: "paced", MSS: 1000,
		SendJitter: fabric.NoSendJitter,
		Flows:      &fabric.SliceSource{Flows: []workload.Flow{{Src: 0, Dst: 1, Bytes: 4500}}},
		SimTime:    rotor.Millisecond, Check: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	f := r.Flows[0]
	fmt.Println("FCT", f.FCT, "retransmits", f.Retransmits)
	// Output:
	// FCT 7.4us retransmits 0
}
