package schedules

import (
	"strings"
	"testing"
)

// TestRegisterDuplicate: registering a taken kind panics with the kind,
// and so does a Reads entry that is no optional Params field.
func TestRegisterDuplicate(t *testing.T) {
	for _, c := range []struct {
		g    Generator
		want string
	}{
		{Generator{Kind: "opera", Build: Opera}, `schedule generator "opera" registered twice`},
		{Generator{Kind: "fresh", Reads: []string{"Nodes"}, Build: Opera}, `schedule generator fresh reads "Nodes"`},
	} {
		func() {
			defer func() {
				if r, _ := recover().(string); !strings.Contains(r, c.want) {
					t.Errorf("panic %q, want %q", r, c.want)
				}
			}()
			Register(c.g)
		}()
	}
}
