package scenario

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// TestRegistries: every registry's key and every key an entry reads is a
// run-configuration key; names are unique; every buffer policy and
// congestion control named builds in its package; an unknown choice's
// error lists the table (fabric's TestDesignedRegistered: the designed
// defaults are registered choices).
func TestRegistries(t *testing.T) {
	known := map[string]bool{}
	for _, k := range Keys() {
		known[k.Name] = true
	}
	for _, r := range Registries() {
		if !known[r.Key] || r.What == "" {
			t.Errorf("registry %q: not a key, or no What", r.Key)
		}
		names := map[string]bool{}
		for _, e := range r.Entries {
			if names[e.Name] || e.Doc == "" || strings.Contains(e.Doc, "\n") {
				t.Errorf("%s %q: duplicate, or doc not one line", r.Key, e.Name)
			}
			names[e.Name] = true
			for _, k := range e.Reads {
				if !known[k] {
					t.Errorf("%s %q reads %q, which is not a key", r.Key, e.Name, k)
				}
			}
			if len(Params(e)) != len(e.Reads) {
				t.Errorf("%s %q: %d params for %d keys read", r.Key, e.Name, len(Params(e)), len(e.Reads))
			}
		}
		err := r.Check("bogus")
		ce, ok := err.(*fabric.ConfigError)
		if !ok || ce.Field != r.Key || !strings.Contains(ce.Problem, strings.Join(r.Names(), ", ")) {
			t.Errorf("%s: unknown choice gives %v", r.Key, err)
		}
	}
	if diff := cmp.Diff(tor.PolicyNames(), fabric.BufferPolicies().Names()); diff != "" {
		t.Errorf("buffer policies are not tor's registry (-tor +fabric):\n%s", diff)
	}
	for _, name := range fabric.CongestionControls().Names() {
		if _, err := cc.New(name, cc.Env{MSS: 1500, HostRate: rotor.Gbps, BaseRTT: rotor.Microsecond, Window: 15000}, nil); err != nil {
			t.Errorf("congestion control %s: %v", name, err)
		}
	}
}

// TestRegistryReadsChecked: a key an entry reads, set while another entry
// is chosen, is an error naming the key and the entries that read it.
func TestRegistryReadsChecked(t *testing.T) {
	for _, tc := range []struct {
		keys      []string
		key, want string
	}{
		{[]string{"buffer.policy=cs", "buffer.alpha=2"}, "buffer.alpha", "read only with buffer.policy dt or edt or fab or ib or fb or fba or abm or reverie or tdt, not cs"},
		{[]string{"routing.mode=earliest", "routing.bulk=1MB"}, "routing.bulk", "read only with routing.mode paths, not earliest"},
		{[]string{"transport.kind=linerate", "transport.min_rto=2ms"}, "transport.min_rto", "read only with transport.kind window or pull or ndp, not linerate"},
	} {
		_, err := specWith(t, append(tc.keys, "run.sim_time=1ms")...).Build()
		ce, ok := err.(*fabric.ConfigError)
		if !ok || ce.Field != tc.key || !strings.Contains(ce.Problem, tc.want) {
			t.Errorf("%v: got %v; want %s: …%s", tc.keys, err, tc.key, tc.want)
		}
	}
}
