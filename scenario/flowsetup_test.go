package scenario

import (
	"errors"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/fabric"
)

// TestFlowSetupKeys: the per-class keys reach the Config: "response",
// sizes in packets, the incast handshake following the background one
// unless set, send_jitter = 0 as off.
func TestFlowSetupKeys(t *testing.T) {
	incast := []string{"transport.kind=window", "workload.incast_senders=2", "workload.incast_bytes=20KB", "workload.incast_rate=1000"}
	c := buildSpec(t, append(incast, "transport.cc=cubic", "transport.init_window=55pkt",
		"transport.incast_init_window=response", "transport.handshake=true", "transport.incast_handshake=false",
		"run.slowdown=ns3")...).Config
	if c.InitWindow != 55*1500 || c.IncastInitWindow != fabric.InitWindowResponse || !c.Handshake || c.IncastHandshake || c.Slowdown != fabric.SlowdownNS3 {
		t.Errorf("got init %d, incast %d, handshake %v/%v, slowdown %q", c.InitWindow, c.IncastInitWindow, c.Handshake, c.IncastHandshake, c.Slowdown)
	}
	c = buildSpec(t, append(incast, "transport.handshake=true", "transport.send_jitter=0")...).Config
	if !c.IncastHandshake || c.SendJitter != fabric.NoSendJitter || c.InitWindow != 0 {
		t.Errorf("got incast handshake %v (want as transport.handshake), jitter %g (want off), init %d (want the law's default)", c.IncastHandshake, c.SendJitter, c.InitWindow)
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
