package cc

import (
	"strings"
	"testing"
)

// TestRegisterDuplicate: registering a taken name panics with the name.
func TestRegisterDuplicate(t *testing.T) {
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, `congestion-control law "dctcp" registered twice`) {
			t.Errorf("panic %q, want one naming dctcp", r)
		}
	}()
	s, _ := Lookup("dctcp")
	Register(s)
}
