package scenario

import (
	"errors"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
)

// TestNDPPortsKeys: transport.ndp_ports = operasim reads buffer.per_port
// as each port's private data queue (8 packets of the MTU here), runs
// the shared buffer under cs when buffer.policy is unset or cs, and is
// refused, with one line naming the key, where a key would not count: a
// shared-buffer policy, a transport other than ndp, a leaf-spine.
func TestNDPPortsKeys(t *testing.T) {
	opera := []string{"schedule.kind=opera", "topology.tors=16", "topology.uplinks=4", "transport.kind=ndp", "transport.ndp_ports=operasim", "buffer.per_port=8"}
	for _, extra := range [][]string{nil, {"buffer.policy=cs"}} {
		s := specWith(t, append(append([]string(nil), opera...), extra...)...)
		setup, err := s.Build()
		if err != nil {
			t.Fatalf("%v: %v", extra, err)
		}
		if c := setup.Config; c.NDPPorts != fabric.NDPPortsOperaSim || c.NDPPortData != rotor.Bytes(8*1500) {
			t.Errorf("%v: ndp_ports %q, private queue %d B: want operasim, 12000 B", extra, c.NDPPorts, c.NDPPortData)
		}
		if got := s.val("buffer.policy"); got != "cs" {
			t.Errorf("%v: buffer.policy resolved to %q, want cs", extra, got)
		}
	}
	refused := []struct {
		keys []string
		key  string
	}{
		{append(append([]string(nil), opera...), "buffer.policy=dt"), "buffer.policy"},
		{append(append([]string(nil), opera...), "transport.kind=pull"), "transport.ndp_ports"},
		{[]string{"topology.kind=leafspine", "topology.queues_per_port=2", "transport.kind=ndp", "transport.ndp_ports=operasim"}, "transport.ndp_ports"},
		{[]string{"transport.kind=ndp", "transport.ndp_ports=shared-buffer"}, "transport.ndp_ports"},
	}
	for _, c := range refused {
		_, err := specWith(t, c.keys...).Build()
		var ce *fabric.ConfigError
		if !errors.As(err, &ce) || ce.Field != c.key || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: got %v, want one line naming %s", c.keys, err, c.key)
		}
	}
}
