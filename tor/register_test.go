package tor

import (
	"strings"
	"testing"
)

// TestRegisterDuplicate: registering a taken name panics with the name.
func TestRegisterDuplicate(t *testing.T) {
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, `buffer policy "dt" registered twice`) {
			t.Errorf("panic %q, want one naming dt", r)
		}
	}()
	Register(PolicySpec{Name: "dt", Build: builtinPolicies[0].Build})
}
