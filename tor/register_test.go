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

// TestRegisterAfterRead: once a run has read the registry, a new name
// panics with the name, and the registry stays as it was.
func TestRegisterAfterRead(t *testing.T) {
	before := PolicyNames()
	func() {
		defer func() {
			if r, _ := recover().(string); !strings.Contains(r, `buffer policy "late" registered after the registry was read`) {
				t.Errorf("panic %q, want one naming late", r)
			}
		}()
		Register(PolicySpec{Name: "late", Build: builtinPolicies[0].Build})
	}()
	if got := PolicyNames(); len(got) != len(before) {
		t.Errorf("names %v after a refused registration, want %v", got, before)
	}
}
