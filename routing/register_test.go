package routing

import (
	"strings"
	"testing"
)

// TestRegisterDuplicate: registering a taken name panics with the name.
func TestRegisterDuplicate(t *testing.T) {
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, `routing mode "vlb" registered twice`) {
			t.Errorf("panic %q, want one naming vlb", r)
		}
	}()
	m, _ := Lookup(VLB)
	Register(m)
}
