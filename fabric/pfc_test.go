package fabric

import (
	"errors"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// pfcIncast is a 16-to-1 incast across a leaf-spine (2 leaves × 16 hosts,
// 2 spines, 10 Gbps hosts, 40 Gbps fabric, 1 µs links) of 150 kB per
// sender at line rate (no congestion control: only PFC can keep the
// buffer), 2 queues per port (ACKs, data), a 1 MB buffer per switch.
func pfcIncast(policy string, lossless uint8) Config {
	var flows []workload.Flow
	for i := 0; i < 16; i++ {
		flows = append(flows, workload.Flow{ID: i, Src: i, Dst: 16, Bytes: 150_000, Query: 1})
	}
	cfg := lsConfig(2, 2, 16, 1, 10*rotor.Gbps, 40*rotor.Gbps, flows)
	cfg.LeafSpine.Classes = 2
	cfg.Buffer = 1_000_000
	cfg.Transport = LineRate
	cfg.NewPolicy = NamedPolicy(policy, nil, nil, 1)
	cfg.Lossless = lossless
	return cfg
}

// TestPFCIncastLossless: with the data class lossless, the incast that
// overflows the buffer without PFC loses nothing: every flow completes,
// the data class drops nothing (run.check fails the run otherwise), pause
// frames were sent and resumed, every injected byte is delivered, and the
// bottleneck host link stays busy: the last byte arrives when 2.4 MB at
// 10 Gbps (1920 µs) plus the path says, within 2 % (the pauses only move
// the queue from the leaf to the senders' side).
func TestPFCIncastLossless(t *testing.T) {
	off, err := Run(pfcIncast("dt", 0))
	if err != nil {
		t.Fatal(err)
	}
	if off.DroppedPackets == 0 {
		t.Fatalf("without PFC the incast drops nothing: the test would show nothing")
	}
	const ideal = 1925*rotor.Microsecond + 800*rotor.Nanosecond // TestLeafSpineIncastLineRate's infinite buffer
	for _, pol := range []string{"dt", "reverie", "sonic"} {
		t.Run(pol, func(t *testing.T) {
			r, err := Run(pfcIncast(pol, 1<<1))
			if err != nil {
				t.Fatal(err)
			}
			var last rotor.Time
			for _, f := range r.Flows {
				if !f.Done || f.Received != f.Bytes {
					t.Fatalf("flow %d: done %v, received %d of %d B", f.ID, f.Done, f.Received, f.Bytes)
				}
				last = max(last, f.Start+f.FCT)
			}
			p := r.PFC
			if p == nil || p.PauseFrames == 0 || p.ResumeFrames != p.PauseFrames || p.PausedTime <= 0 || p.LosslessDropped != 0 {
				t.Fatalf("PFC stats %+v: want pauses, as many resumes, paused time, no lossless drops", p)
			}
			if r.DroppedData != 0 || r.InFlightPackets != 0 || r.DeliveredData != 16*150_000 || r.InjectedBytes != r.DeliveredBytes+r.DroppedBytes {
				t.Errorf("bytes: %d data dropped, %d packets in flight, %d data delivered of %d; injected %d = delivered %d + dropped %d?",
					r.DroppedData, r.InFlightPackets, r.DeliveredData, 16*150_000, r.InjectedBytes, r.DeliveredBytes, r.DroppedBytes)
			}
			if last < ideal || float64(last) > 1.02*float64(ideal) {
				t.Errorf("last byte at %v, want within 2 %% above %v (the bottleneck idled)", last, ideal)
			}
			t.Logf("%s: %d pauses, paused %v in all, last byte %v (without PFC: %d drops)", pol, p.PauseFrames, p.PausedTime, last, off.DroppedPackets)
		})
	}
}

// TestPFCConfigRefused: Config.Lossless with a policy that has no
// lossless classes is refused by Run, naming buffer.lossless.
func TestPFCConfigRefused(t *testing.T) {
	_, err := Run(pfcIncast("abm", 1<<1))
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Field != losslessKey {
		t.Errorf("abm with a lossless class: error %v, want one about %s", err, losslessKey)
	}
}

// TestPFCAllLossless: with every class lossless (ACKs too) on one queue
// per port, nothing at all is dropped.
func TestPFCAllLossless(t *testing.T) {
	cfg := pfcIncast("reverie", 1)
	cfg.LeafSpine.Classes = 1
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.DroppedPackets != 0 || r.FlowsComplete != 16 || r.PFC.PauseFrames == 0 {
		t.Errorf("%d dropped, %d of 16 flows complete, %d pauses", r.DroppedPackets, r.FlowsComplete, r.PFC.PauseFrames)
	}
}

// TestPFCHeadroomCatches: the run checker catches a lossless drop: with
// headroom of about one packet, less than what is in flight when a pause
// leaves, packets of the lossless class are lost and run.check fails the
// run naming PFC.
func TestPFCHeadroomCatches(t *testing.T) {
	cfg := pfcIncast("dt", 1<<1)
	s, err := newSimFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range s.switches() { // shrink each ingress queue's headroom behind the engine's back
		tr.Switch().Config().Headroom = 1600
	}
	_, err = s.run()
	if err == nil || !strings.Contains(err.Error(), "PFC") {
		t.Fatalf("run with too little headroom: error %v, want run.check's PFC failure", err)
	}
}

// TestPFCIncastClass: incast flows in a lossless queue of their own
// (topology.incast_queue) beside lossy background flows in a small
// buffer: the incast loses nothing, the background may.
func TestPFCIncastClass(t *testing.T) {
	cfg := pfcIncast("reverie", 1<<1)
	cfg.LeafSpine.Classes, cfg.LeafSpine.IncastClass = 3, 1
	cfg.Transport = Windowed
	flows := cfg.Flows.(*SliceSource).Flows
	for i := 0; i < 16; i++ { // background: leaf 0 to host 17, 300 kB each
		flows = append(flows, workload.Flow{ID: 16 + i, Src: i, Dst: 17, Bytes: 300_000})
	}
	cfg.Flows = &SliceSource{Flows: flows}
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var incast, lossy int64
	for _, f := range r.Flows {
		if !f.Done {
			t.Fatalf("flow %d did not complete", f.ID)
		}
		if f.Query != 0 {
			incast += f.Retransmits
		} else {
			lossy += f.Retransmits
		}
	}
	if r.PFC.PauseFrames == 0 || r.PFC.LosslessDropped != 0 || incast != 0 {
		t.Errorf("pauses %d, lossless drops %d, incast retransmissions %d: want pauses and no incast loss", r.PFC.PauseFrames, r.PFC.LosslessDropped, incast)
	}
	t.Logf("%d pauses, %d drops (lossy), background retransmissions %d", r.PFC.PauseFrames, r.DroppedPackets, lossy)
}
