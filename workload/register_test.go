package workload

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRegisterDuplicate: registering a taken name panics with the name.
func TestRegisterDuplicate(t *testing.T) {
	for _, c := range []struct {
		f    func()
		want string
	}{
		{func() {
			RegisterSizes(SizeSpec{Name: "hadoop", New: func() (SizeDist, error) { return Constant(1), nil }})
		}, `flow-size distribution "hadoop" registered twice`},
		{func() {
			RegisterPattern(PatternSpec{Name: "ring", New: func(int, *rand.Rand) (Pattern, error) { return nil, nil }})
		}, `traffic pattern "ring" registered twice`},
	} {
		func() {
			defer func() {
				if r, _ := recover().(string); !strings.Contains(r, c.want) {
					t.Errorf("panic %q, want %q", r, c.want)
				}
			}()
			c.f()
		}()
	}
}
