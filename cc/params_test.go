package cc

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseParams(t *testing.T) {
	got, err := ParseParams(" gamma=0.9, mode = per-rtt ")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"gamma": "0.9", "mode": "per-rtt"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, bad := range []string{"gamma", "gamma=", "=1", "a=1,,b=2", "a=1,a=2"} {
		if _, err := ParseParams(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// FuzzParseParams: any text either fails with a one-line error or gives
// keys and values without separators, and the law constructor then
// accepts or refuses them with a one-line error.
func FuzzParseParams(f *testing.F) {
	for _, s := range []string{"", "gamma=0.9", "mode=per-rtt,gamma=1", "a=1,a=2", "x", "tau=24us, min_rate=1Gbps"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseParams(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		for k, v := range m {
			if k == "" || v == "" || strings.ContainsAny(k, ",=") || strings.Contains(v, ",") {
				t.Fatalf("%q: bad pair %q=%q", s, k, v)
			}
		}
		if _, err := New("powertcp", testEnv, m); err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("multi-line error %q", err)
		}
	})
}
