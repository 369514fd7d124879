package cc

import (
	"testing"

	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// TestMakeAck: the ACK answers the data segment, carries the cumulative
// point, echoes ECN as ECE, keeps Retx, Circuit, the send time and the
// INT records, goes back to the sender unrouted, and drops the rest.
func TestMakeAck(t *testing.T) {
	p := packet.Packet{Kind: packet.Data, Seq: 3000, Size: 1500, Sent: 7, Flow: 4, SrcHost: 2, DstHost: 9,
		DstToR: 3, Via: 5, Route: 6, Hops: 2, IntN: 3, Flags: packet.ECN | packet.Retx | packet.Circuit}
	MakeAck(&p, 1500, 1500, 64)
	want := packet.Packet{Kind: packet.Ack, Seq: 1500, EchoSeg: 2, Size: 64, Sent: 7, Flow: 4, SrcHost: 9, DstHost: 2,
		DstToR: packet.NoToR, Via: packet.NoToR, Route: packet.NoRoute, IntN: 3, Flags: packet.ECE | packet.Retx | packet.Circuit}
	if p != want {
		t.Errorf("ack\n got %+v\nwant %+v", p, want)
	}
	q := packet.Packet{Kind: packet.Data, Seq: 0, Size: 1500, SrcHost: 1, DstHost: 0, Flags: packet.Pulled}
	MakeAck(&q, 1500, 1500, 64)
	if q.Flags != 0 {
		t.Errorf("flags %v: an unmarked data packet's ACK carries none", q.Flags)
	}
}

// TestNDPSink: data gets an ACK and a PULL until the flow is complete, a
// trimmed header a NACK (without INT records) and a PULL, and nothing
// once the flow is complete.
func TestNDPSink(t *testing.T) {
	spec, _ := LookupTransport(TransportNDP)
	_, sink := spec.New(Flow{Size: 2000, MSS: 1000, AckSize: 64, Window: 1, MinRTO: rotor.Millisecond})
	hdr := packet.Packet{Kind: packet.Trimmed, Seq: 1000, Size: 64, SrcHost: 1, DstHost: 2, IntN: 2, Flags: packet.Retx | packet.Circuit}
	if v := sink.Receive(0, &hdr); v != Reply|WantPull || hdr.Kind != packet.Nack || hdr.EchoSeg != 1 || hdr.IntN != 0 ||
		hdr.Flags != packet.Retx || hdr.DstHost != 1 || hdr.Size != 64 {
		t.Errorf("header: verdict %b, reply %+v", v, hdr)
	}
	d := packet.Packet{Kind: packet.Data, Seq: 0, Size: 1000, SrcHost: 1, DstHost: 2}
	if v := sink.Receive(0, &d); v != Reply|WantPull || d.Kind != packet.Ack || d.Seq != 1000 {
		t.Errorf("first data: verdict %b, reply %+v", v, d)
	}
	d = packet.Packet{Kind: packet.Data, Seq: 1000, Size: 1000, SrcHost: 1, DstHost: 2}
	if v := sink.Receive(0, &d); v != Reply|Complete || d.Seq != 2000 {
		t.Errorf("last data: verdict %b, reply %+v", v, d)
	}
	hdr = packet.Packet{Kind: packet.Trimmed, Seq: 0, Size: 64}
	if v := sink.Receive(0, &hdr); v != 0 {
		t.Errorf("header after completion: verdict %b, want nothing", v)
	}
}

// TestTransportsDeliver drives every built-in transport over a wire
// that reorders (the newest packet first) but loses nothing, until the
// source is done: every byte arrives exactly once, the flow completes on
// exactly one packet, and the source hands out each byte once. (The
// transports this test binary registers, go-back-N among them, are
// tested by their own tests.)
func TestTransportsDeliver(t *testing.T) {
	for _, name := range []string{TransportWindow, TransportLineRate, TransportPull, TransportNDP} {
		spec, _ := LookupTransport(name)
		for _, size := range []int64{1, 999, 1000, 4321, 100_000} {
			f := Flow{Size: size, MSS: 1000, AckSize: 64, Line: 10 * rotor.Gbps, MinRTO: rotor.Millisecond, Window: 2, Start: 0}
			if spec.Law {
				f.Law = &Fixed{Bytes: 3000}
			}
			src, sink := spec.New(f)
			var wire []packet.Packet // LIFO: reorders
			var fb Feedback
			now, sent, completions := rotor.Time(0), int64(0), 0
			for step := 0; step < 10_000 && !(src.Done() && len(wire) == 0); step++ {
				now += rotor.Microsecond
				for src.CanSend() {
					seq, sz, retx, ok := src.Next(now)
					if !ok {
						break
					}
					if retx {
						t.Fatalf("%s %d B: a retransmission on a lossless wire", spec.Name, size)
					}
					sent += int64(sz)
					wire = append(wire, packet.Packet{Kind: packet.Data, Seq: seq, Size: sz, Sent: now, SrcHost: 0, DstHost: 1})
				}
				if len(wire) == 0 {
					continue
				}
				p := wire[len(wire)-1]
				wire = wire[:len(wire)-1]
				if p.Kind != packet.Data { // a PULL
					src.OnReply(now, &p, &fb)
					continue
				}
				v := sink.Receive(now, &p)
				if v&Complete != 0 {
					completions++
				}
				if v&WantPull != 0 {
					var pull packet.Packet
					MakePull(&pull, 0, 1, 0, 64, now)
					wire = append([]packet.Packet{pull}, wire...)
				}
				if v&Reply != 0 {
					if p.DstHost != 0 {
						t.Fatalf("%s: reply to host %d, want the sender 0", spec.Name, p.DstHost)
					}
					src.OnReply(now, &p, &fb)
				}
			}
			got, _ := sink.Counts()
			if got != size || sent != size || completions != 1 || !src.Done() || src.Pending() != 0 {
				t.Errorf("%s %d B: received %d, sent %d, %d completions, done %v, pending %d",
					spec.Name, size, got, sent, completions, src.Done(), src.Pending())
			}
		}
	}
}

// TestFlowEndsAllocateNothing: once a windowed flow runs, a send, its
// ACK and the ACK's return allocate nothing.
func TestFlowEndsAllocateNothing(t *testing.T) {
	spec, _ := LookupTransport(TransportWindow)
	src, sink := spec.New(Flow{Size: 1 << 40, MSS: 1000, AckSize: 64, MinRTO: rotor.Millisecond, Law: &Fixed{Bytes: 10_000}})
	var fb Feedback
	now := rotor.Time(0)
	var p packet.Packet
	step := func() {
		now += rotor.Microsecond
		seq, size, _, _ := src.Next(now)
		p = packet.Packet{Kind: packet.Data, Seq: seq, Size: size, Sent: now, DstHost: 1}
		sink.Receive(0, &p)
		src.OnReply(now, &p, &fb)
	}
	for range 100 {
		step()
	}
	if a := testing.AllocsPerRun(1000, step); a != 0 {
		t.Errorf("%v allocations per packet, want 0", a)
	}
}

// TestTransportNames: every transport has a doc and a constructor, and
// the names are unique.
func TestTransportNames(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Transports() {
		if s.Doc == "" || s.New == nil || seen[s.Name] {
			t.Errorf("transport %q: doc %q, New set %v, duplicate %v", s.Name, s.Doc, s.New != nil, seen[s.Name])
		}
		seen[s.Name] = true
	}
	for _, n := range []string{TransportWindow, TransportLineRate, TransportPull, TransportNDP} {
		if _, ok := LookupTransport(n); !ok {
			t.Errorf("%s is not registered", n)
		}
	}
}

// BenchmarkFlowEnds: one packet of each transport through its two ends:
// the source hands out a segment, the sink answers it, the source hears
// the reply. ns/op is the transport's cost per packet; 0 allocs/op.
func BenchmarkFlowEnds(b *testing.B) {
	type variant struct {
		name   string
		spec   TransportSpec
		delAck int
	}
	var vs []variant
	for _, spec := range Transports() {
		vs = append(vs, variant{spec.Name, spec, 0})
	}
	window, _ := LookupTransport(TransportWindow)
	vs = append(vs, variant{"window-delayed-ack", window, 2})
	for _, v := range vs {
		spec := v.spec
		b.Run(v.name, func(b *testing.B) {
			f := Flow{Size: 1 << 50, MSS: 1500, AckSize: 64, Line: 10 * rotor.Gbps, MinRTO: rotor.Millisecond, Window: 1 << 30,
				DelAck: v.delAck, DelAckTimeout: rotor.Millisecond}
			if spec.Law {
				f.Law = &Fixed{Bytes: 1 << 40}
			}
			src, sink := spec.New(f)
			var fb Feedback
			var p packet.Packet
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				now := rotor.Time(i) * rotor.Microsecond
				seq, size, _, _ := src.Next(now)
				p = packet.Packet{Kind: packet.Data, Seq: seq, Size: size, Sent: now, DstHost: 1}
				if sink.Receive(now, &p)&Reply != 0 {
					src.OnReply(now, &p, &fb)
				}
			}
		})
	}
}
