package scenario

import (
	"errors"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
)

// TestFlowSetupKeys: the per-class keys reach the Config: "response",
// sizes in packets, the incast handshake following the background one
// unless set, send_jitter = 0 as off.
func TestFlowSetupKeys(t *testing.T) {
	incast := []string{"transport.kind=window", "workload.incast_senders=2", "workload.incast_bytes=20KB", "workload.incast_rate=1000"}
	c := buildSpec(t, append(incast, "transport.cc=cubic", "transport.init_window=55pkt",
		"transport.incast_init_window=response", "transport.handshake=true", "transport.incast_handshake=false",
		"run.slowdown=ns3")...).Config
	if c.InitWindow != 55*1500 || c.IncastInitWindow != fabric.InitWindowResponse || c.Handshake != fabric.HandshakeIdle || c.IncastHandshake != fabric.HandshakeNone || c.Slowdown != fabric.SlowdownNS3 {
		t.Errorf("got init %d, incast %d, handshake %v/%v, slowdown %q", c.InitWindow, c.IncastInitWindow, c.Handshake, c.IncastHandshake, c.Slowdown)
	}
	c = buildSpec(t, append(incast, "transport.handshake=true", "transport.send_jitter=0")...).Config
	if c.IncastHandshake != fabric.HandshakeIdle || c.SendJitter != fabric.NoSendJitter || c.InitWindow != 0 {
		t.Errorf("got incast handshake %v (want as transport.handshake), jitter %g (want off), init %d (want the law's default)", c.IncastHandshake, c.SendJitter, c.InitWindow)
	}
	// The queued handshake and its SYN timer's keys.
	c = buildSpec(t, append(incast, "transport.handshake=queued", "transport.incast_handshake=idle", "transport.syn_timeout=3ms", "transport.syn_tries=2")...).Config
	if c.Handshake != fabric.HandshakeQueued || c.IncastHandshake != fabric.HandshakeIdle || c.SynTimeout != 3*rotor.Millisecond || c.SynTries != 2 {
		t.Errorf("got handshake %q/%q, SYN timeout %v, tries %d", c.Handshake, c.IncastHandshake, c.SynTimeout, c.SynTries)
	}
	// Per-class MSS: pkt is a segment of the class's MSS.
	c = buildSpec(t, append(incast, "transport.cc=cubic", "transport.mss=1000", "transport.incast_mss=400",
		"transport.init_window=20pkt", "transport.incast_init_window=4pkt")...).Config
	if c.MSS != 1000 || c.IncastMSS != 400 || c.InitWindow != 20_000 || c.IncastInitWindow != 1600 {
		t.Errorf("got mss %d/%d, init %d/%d; want 1000/400, 20000/1600", c.MSS, c.IncastMSS, c.InitWindow, c.IncastInitWindow)
	}
	if c := buildSpec(t, "transport.kind=window", "transport.delayed_ack=2", "transport.delayed_ack_timeout=50us").Config; c.DelayedAck != 2 || c.DelayedAckTimeout != 50*rotor.Microsecond {
		t.Errorf("got delayed ACK %d, %v; want 2, 50µs", c.DelayedAck, c.DelayedAckTimeout)
	}
	if c := buildSpec(t).Config; c.SendJitter != fabric.DefaultSendJitter || c.Slowdown != fabric.DefaultSlowdown {
		t.Errorf("defaults: jitter %g, slowdown %q", c.SendJitter, c.Slowdown)
	}
}

// TestFlowSetupKeysRefused: a set-up key the run would not read fails
// before it, in one line naming the key.
func TestFlowSetupKeysRefused(t *testing.T) {
	cases := []struct {
		keys []string
		key  string
	}{
		{[]string{"transport.incast_init_window=response", "transport.cc=cubic"}, "transport.incast_init_window"}, // no incast
		{[]string{"transport.incast_handshake=true"}, "transport.incast_handshake"},                               // no incast
		{[]string{"transport.init_window=20pkt"}, "transport.init_window"},                                        // fixed law
		{[]string{"transport.cc=hpcc", "transport.init_window=20pkt"}, "transport.init_window"},                   // no initial window
		{[]string{"transport.cc=cubic", "transport.cc_params=init_window=20pkt"}, "transport.cc_params"},          // the fabric's key
		{[]string{"transport.kind=linerate", "transport.handshake=true"}, "transport.handshake"},
		{[]string{"transport.kind=ndp", "transport.send_jitter=0.5", "topology.kind=leafspine", "topology.queues_per_port=2"}, ""},
		{[]string{"transport.send_jitter=-1"}, "transport.send_jitter"},
		{[]string{"transport.cc=cubic", "transport.init_window=0"}, "transport.init_window"},
		{[]string{"run.slowdown=fast"}, "run.slowdown"},
		{[]string{"transport.mss=0"}, "transport.mss"},
		{[]string{"transport.mss=-1"}, "transport.mss"},
		{[]string{"transport.mss=1501"}, "transport.mss"}, // above topology.mtu
		{[]string{"transport.mss=NaN"}, "transport.mss"},
		{[]string{"transport.kind=window", "transport.mss=1460"}, ""},
		{[]string{"transport.incast_mss=1000"}, "transport.incast_mss"},                           // no incast
		{[]string{"transport.kind=linerate", "transport.mss=1000"}, "transport.mss"},              // not windowed
		{[]string{"transport.delayed_ack=0"}, "transport.delayed_ack"},                            // 1 is off
		{[]string{"transport.delayed_ack_timeout=1ms"}, "transport.delayed_ack_timeout"},          // ACKs not delayed
		{[]string{"transport.kind=linerate", "transport.delayed_ack=2"}, "transport.delayed_ack"}, // no ACKs
		{[]string{"transport.delayed_ack=2", "transport.delayed_ack_timeout=-1ms"}, "transport.delayed_ack_timeout"},
	}
	for _, c := range cases {
		_, err := specWith(t, c.keys...).Build()
		if c.key == "" { // read: no error
			if err != nil {
				t.Errorf("%v: %v", c.keys, err)
			}
			continue
		}
		var ce *fabric.ConfigError
		if !errors.As(err, &ce) || ce.Field != c.key || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: got %v, want one line naming %s", c.keys, err, c.key)
		}
	}
}
