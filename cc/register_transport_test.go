package cc_test

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/scenario"
	"github.com/rdcn/rdcn/workload"
)

// "sack-copy" is the window transport rebuilt from cc's exported parts
// (Sender, Receiver, MakeAck) as a researcher's module would, with a
// law: the fabric must run it exactly as it runs window.
func init() {
	cc.RegisterTransport(cc.TransportSpec{
		Name: "sack-copy", Doc: "the window transport from exported parts (test)", Law: true,
		Params: []string{"transport.cc", "transport.cc_params", "transport.window", "transport.dupthresh", "transport.sack",
			"transport.min_rto", "transport.max_rto", "transport.rto_clock", "transport.ack_size", "transport.mss", "transport.incast_mss"},
		New: func(f cc.Flow) (cc.Source, cc.Sink) {
			s := cc.NewSender(f.Size, f.MSS, true, f.Law, f.MinRTO)
			s.DupThresh, s.SACK, s.MaxRTO, s.Granularity = f.DupThresh, f.SACK, f.MaxRTO, f.RTOClock
			return s, &ackSink{r: cc.NewReceiver(f.Size, f.MSS), ackSize: f.AckSize}
		},
	})
}

type ackSink struct {
	r       *cc.Receiver
	ackSize int32
}

func (a *ackSink) Receive(_ rotor.Time, p *packet.Packet) cc.Verdict {
	cum, complete := a.r.OnData(p.Seq, p.Size)
	cc.MakeAck(p, cum, a.r.MSS, a.ackSize)
	if complete {
		return cc.Complete | cc.Reply
	}
	return cc.Reply
}
func (a *ackSink) AckTimer() rotor.Time       { return 0 }
func (a *ackSink) OnAckTimer(rotor.Time) bool { return false }
func (a *ackSink) Counts() (int64, int64)     { return a.r.Received(), a.r.Reordered }

// incastConfig is an 8-to-1 incast of 60 kB responses on a leaf-spine
// with a 40 kB buffer per switch: queues fill, DCTCP marks, drops and
// SACK recovery happen.
func incastConfig(transport string) fabric.Config {
	var flows []workload.Flow
	for i := range 8 {
		flows = append(flows, workload.Flow{ID: i, Src: i + 1, Dst: 0, Bytes: 60_000})
	}
	return fabric.Config{
		LeafSpine:   &fabric.LeafSpine{Leaves: 2, Spines: 2, LinksPerPair: 1, FabricLink: 10 * rotor.Gbps, FabricDelay: rotor.Microsecond},
		HostsPerToR: 5, HostLink: 10 * rotor.Gbps, HostDelay: rotor.Microsecond,
		Buffer: 40_000, Flows: &fabric.SliceSource{Flows: flows},
		SimTime: 20 * rotor.Millisecond, Check: true,
		Transport: transport, CC: "dctcp",
	}
}

// TestRegisteredLawTransportRunsAsWindow: a registered transport with a
// law whose ends behave as window's gets what window gets from the
// fabric (the law with its parameters, ECN marking for DCTCP, the
// retransmission timer, ACKs through the switches and their buffer
// policy): every flow's record and the packet counts equal window's, on
// a run with marks, drops and retransmissions.
func TestRegisteredLawTransportRunsAsWindow(t *testing.T) {
	want, err := fabric.Run(incastConfig(fabric.Windowed))
	if err != nil {
		t.Fatal(err)
	}
	got, err := fabric.Run(incastConfig("sack-copy"))
	if err != nil {
		t.Fatal(err)
	}
	if want.DroppedPackets == 0 || want.Retransmits == 0 || want.Timeouts+want.Retransmits == 0 {
		t.Fatalf("window: %d drops, %d retransmits: the run must lose packets", want.DroppedPackets, want.Retransmits)
	}
	if len(want.ECN) == 0 {
		t.Fatal("window with dctcp: the switches do not mark")
	}
	cfg := incastConfig(fabric.Windowed)
	cfg.CC = "newreno"
	if other, err := fabric.Run(cfg); err != nil || reflect.DeepEqual(other.Flows, want.Flows) {
		t.Fatalf("window with newreno: %v, flows equal dctcp's: the law does not show in the flows", err)
	}
	if !reflect.DeepEqual(got.Flows, want.Flows) {
		for i := range want.Flows {
			if got.Flows[i] != want.Flows[i] {
				t.Errorf("flow %d:\nsack-copy %+v\nwindow    %+v", i, got.Flows[i], want.Flows[i])
			}
		}
	}
	if got.InjectedPackets != want.InjectedPackets || got.DroppedPackets != want.DroppedPackets ||
		got.Retransmits != want.Retransmits || got.Timeouts != want.Timeouts || !reflect.DeepEqual(got.ECN, want.ECN) {
		t.Errorf("sack-copy: %d injected, %d dropped, %d retransmits, %d timeouts; window: %d, %d, %d, %d",
			got.InjectedPackets, got.DroppedPackets, got.Retransmits, got.Timeouts,
			want.InjectedPackets, want.DroppedPackets, want.Retransmits, want.Timeouts)
	}
}

// TestRegisteredTransportGoBackN: "paced" (ExampleRegisterTransport)
// recovers a loss by its timeout alone. Two hosts of one ToR send 10
// packets each at half the line rate to a third, whose port runs at the
// line rate, through a buffer of 2 packets: the two senders together
// offer exactly the port's rate, so the queue holds, and nothing is
// lost; a third sender makes the offered load 1.5×, so packets are
// dropped, a timeout resends from the cumulative point, and every flow
// still completes with all its bytes.
func TestRegisteredTransportGoBackN(t *testing.T) {
	run := func(senders int) *fabric.Result {
		var flows []workload.Flow
		for i := range senders {
			flows = append(flows, workload.Flow{ID: i, Src: i + 1, Dst: 0, Bytes: 15_000})
		}
		r, err := fabric.Run(fabric.Config{
			LeafSpine:   &fabric.LeafSpine{Leaves: 1, Spines: 1, LinksPerPair: 1, FabricLink: 10 * rotor.Gbps, FabricDelay: rotor.Microsecond},
			HostsPerToR: 4, HostLink: 10 * rotor.Gbps, HostDelay: rotor.Microsecond,
			Buffer: 3_000 + 4*64, Flows: &fabric.SliceSource{Flows: flows},
			SimTime: 100 * rotor.Millisecond, Check: true, SendJitter: fabric.NoSendJitter,
			Transport: "paced", MinRTO: 100 * rotor.Microsecond,
		})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := run(2); r.DroppedPackets != 0 || r.Timeouts != 0 {
		t.Errorf("2 senders at half the port's rate: %d drops, %d timeouts, want none", r.DroppedPackets, r.Timeouts)
	}
	r := run(3)
	t.Logf("3 senders: %d drops, %d timeouts, %d retransmits", r.DroppedPackets, r.Timeouts, r.Retransmits)
	if r.DroppedPackets == 0 || r.Timeouts == 0 || r.Retransmits == 0 {
		t.Errorf("1.5× the port's rate through 2 packets of buffer: %d drops, %d timeouts, %d retransmits, want some of each", r.DroppedPackets, r.Timeouts, r.Retransmits)
	}
	for _, f := range r.Flows {
		if !f.Done {
			t.Errorf("flow %d did not complete", f.ID)
		}
	}
}

// TestRegisteredTransportKeys: a registered transport is a choice of
// transport.kind with the keys it lists (Params), in the registry
// --keys and the key checks read; a key it does not read (a window
// key, a law key for a transport without a law, ndp's) is refused
// naming the key, and one it reads is taken.
func TestRegisteredTransportKeys(t *testing.T) {
	e, ok := fabric.Transports().Lookup("paced")
	if !ok {
		t.Fatalf("fabric.Transports() lacks paced: %v", fabric.Transports().Names())
	}
	if want := []string{"transport.mss", "transport.incast_mss", "transport.ack_size", "transport.min_rto"}; !slices.Equal(e.Reads, want) {
		t.Errorf("paced reads %v, want %v", e.Reads, want)
	}
	if law, _ := fabric.TransportFlows("paced"); law != "none" {
		t.Errorf("paced: the law drives %q, want none", law)
	}
	if law, _ := fabric.TransportFlows("sack-copy"); law != "every flow" {
		t.Errorf("sack-copy: the law drives %q, want every flow", law)
	}
	build := func(keys ...string) error {
		sp, err := scenario.With(append([]string{"topology.kind=leafspine", "run.sim_time=100us"}, keys...)...)
		if err != nil {
			return err
		}
		_, err = sp.Build()
		return err
	}
	if err := build("transport.kind=paced", "transport.mss=1000", "transport.min_rto=200us"); err != nil {
		t.Errorf("paced with its own keys: %v", err)
	}
	if err := build("transport.kind=sack-copy", "transport.cc=dctcp", "transport.init_window=4pkt"); err != nil {
		t.Errorf("sack-copy with a law: %v", err)
	}
	for _, key := range []string{"transport.cc=dctcp", "transport.handshake=true", "transport.acks=ideal", "transport.ndp_window=4", "transport.delayed_ack=2", "transport.init_window=4pkt"} {
		err := build("transport.kind=paced", key)
		name, _, _ := strings.Cut(key, "=")
		if err == nil || !strings.HasPrefix(err.Error(), name+":") {
			t.Errorf("paced with %s: %v, want an error naming %s", key, err, name)
		}
	}
}

// "asks-pull" is paced with a sink that asks for PULLs, which only ndp's
// pacers send: the run fails, naming the transport.
func init() {
	cc.RegisterTransport(cc.TransportSpec{
		Name: "asks-pull", Doc: "paced, whose sink asks for PULLs (test)",
		New: func(f cc.Flow) (cc.Source, cc.Sink) {
			return &pacedSource{size: f.Size, mss: f.MSS, rate: f.Line / 2, rto: f.MinRTO},
				pullAsker{&pacedSink{size: f.Size, mss: f.MSS, ackSize: f.AckSize}}
		},
	})
}

type pullAsker struct{ *pacedSink }

func (p pullAsker) Receive(now rotor.Time, pk *packet.Packet) cc.Verdict {
	return p.pacedSink.Receive(now, pk) | cc.WantPull
}

func TestRegisteredTransportAsksPull(t *testing.T) {
	cfg := incastConfig("asks-pull")
	cfg.CC = ""
	_, err := fabric.Run(cfg)
	if err == nil || !strings.Contains(err.Error(), "transport asks-pull: its Sink asked for a PULL") {
		t.Errorf("err %v, want the run refused naming asks-pull", err)
	}
}

// TestRegisteredTransportConfigRefusals: a fabric.Config built by hand
// is refused, naming the key, where it asks a registered transport for
// what only the built-in ones have (ideal ACKs, a handshake, delayed
// ACKs or an initial window it does not read).
func TestRegisteredTransportConfigRefusals(t *testing.T) {
	cfg := incastConfig("paced")
	cfg.CC = ""
	if err := cfg.Resolve(); err != nil {
		t.Fatalf("paced: %v", err)
	}
	for _, c := range []struct {
		key string
		set func(*fabric.Config)
	}{
		{"transport.acks", func(c *fabric.Config) { c.Acks = fabric.AcksIdeal }},
		{"transport.handshake", func(c *fabric.Config) { c.Handshake = fabric.HandshakeIdle }},
		{"transport.delayed_ack", func(c *fabric.Config) { c.DelayedAck = 2 }},
		{"transport.init_window", func(c *fabric.Config) { c.CC, c.InitWindow = "dctcp", 4000 }},
	} {
		cfg := incastConfig("paced")
		cfg.CC = ""
		c.set(&cfg)
		var ce *fabric.ConfigError
		if err := cfg.Resolve(); !errors.As(err, &ce) || ce.Field != c.key {
			t.Errorf("paced with %s set: %v, want an error naming it", c.key, err)
		}
	}
}
