package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/fabric"
)

// TestBufferBadInput: a bad buffer setting is refused by Spec.Build with
// a ConfigError naming its key.
func TestBufferBadInput(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.model")
	if err := os.WriteFile(bad, []byte("rdcn-forest 1\ntree\nleaf 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		keys []string
		key  string
	}{
		{[]string{"buffer.policy=harmonic"}, "buffer.policy"},
		{[]string{"buffer.alpha=0"}, "buffer.alpha"},
		{[]string{"buffer.alpha=-1"}, "buffer.alpha"},
		{[]string{"buffer.alpha=Inf"}, "buffer.alpha"},
		{[]string{"buffer.policy=tdt", "buffer.dec=0"}, "buffer.dec"},
		{[]string{"buffer.policy=lqd", "buffer.alpha=1"}, "buffer.alpha"},
		{[]string{"buffer.policy=dt", "buffer.gamma=0.5"}, "buffer.gamma"},
		{[]string{"buffer.policy=credence", "buffer.credence_model=/does/not/exist"}, "buffer.credence_model"},
		{[]string{"buffer.policy=credence", "buffer.credence_model=" + bad}, "buffer.credence_model"},
		{[]string{"buffer.policy=fb", "buffer.lossless=0"}, "buffer.lossless"},
		{[]string{"buffer.policy=sonic", "buffer.lossless=0"}, "buffer.lossless"},
	} {
		_, err := specWith(t, c.keys...).Build()
		var ce *fabric.ConfigError
		if !errors.As(err, &ce) || ce.Field != c.key || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error %v, want one line about %s", c.keys, err, c.key)
		}
	}
}

// TestBufferExperimentConfigs: every experiment of
// testdata/buffers/run.sh builds (its keys exist, its values are valid),
// with the flow file run.sh gives the TDT test.
func TestBufferExperimentConfigs(t *testing.T) {
	files, err := filepath.Glob("testdata/buffers/*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no configs: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			var keys []string
			if strings.HasPrefix(filepath.Base(f), "tdt") {
				keys = append(keys, "workload.flows_file=testdata/buffers/tdt/tdt.flows")
			}
			if s := setupFromTOML(t, f, keys...); len(s.Flows) == 0 {
				t.Errorf("no flows")
			}
		})
	}
}

// TestPFCBadInput: buffer.lossless is refused, naming the key, on a
// policy without lossless classes, a class the ports do not have, a
// rotor fabric, a buffer too small for the headroom and a typo; a device
// queue (topology.device_queue) negative, under PFC, with ndp or on the
// rotor.
func TestPFCBadInput(t *testing.T) {
	ls := []string{"topology.kind=leafspine", "topology.leaves=2", "topology.spines=2", "topology.hosts_per_tor=4",
		"topology.fabric_link=10Gbps", "topology.queues_per_port=2", "buffer.size=4MB"}
	for _, keys := range [][]string{
		append(ls, "buffer.policy=abm", "buffer.lossless=1"),
		append(ls, "buffer.policy=dt", "buffer.lossless=2"),
		append(ls, "buffer.policy=dt", "buffer.lossless=one"),
		append(ls, "buffer.policy=dt", "buffer.lossless=1,-1"),
		append(ls, "buffer.policy=reverie", "buffer.lossless=1", "buffer.size=40KB"),
		{"buffer.policy=reverie", "buffer.lossless=0"},
	} {
		_, err := specWith(t, keys...).Build()
		var ce *fabric.ConfigError
		if !errors.As(err, &ce) || ce.Field != keyLossless || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error %v, want one line about %s", keys, err, keyLossless)
		}
	}
	for _, v := range []string{"0", "2", "x"} { // queue 0 carries ACKs; the ports have 2 queues
		_, err := specWith(t, append(ls, "topology.incast_queue="+v)...).Build()
		var ce *fabric.ConfigError
		if !errors.As(err, &ce) || ce.Field != "topology.incast_queue" {
			t.Errorf("topology.incast_queue=%s: error %v, want one about the key", v, err)
		}
	}
	for _, keys := range [][]string{ // a FIFO outside the buffer: not negative, not under PFC or ndp, not on the rotor
		append(ls, "topology.device_queue=-1"),
		append(ls, "topology.device_queue=100", "buffer.policy=dt", "buffer.lossless=1"),
		append(ls, "topology.device_queue=100", "transport.kind=ndp"),
		{"topology.device_queue=100"},
	} {
		_, err := specWith(t, keys...).Build()
		var ce *fabric.ConfigError
		if !errors.As(err, &ce) || ce.Field != "topology.device_queue" || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error %v, want one line about topology.device_queue", keys, err)
		}
	}
	if _, err := specWith(t, append(ls, "buffer.policy=sonic", "buffer.lossless=0,1")...).Build(); err != nil {
		t.Errorf("sonic with both classes lossless: %v", err)
	}
}
