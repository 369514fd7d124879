package fabric

import "testing"

// TestDesignedRegistered: the designed defaults are registered choices
// (package scenario's TestRegistries checks the registries' keys).
func TestDesignedRegistered(t *testing.T) {
	for _, d := range []Designed{designed["rotornet"], designed["sirius"], designed["opera"], rotorLike, multiHop} {
		kind := d.Why
		if _, ok := Routers().Lookup(d.Routing); !ok {
			t.Errorf("%s: designed routing %q unregistered", kind, d.Routing)
		}
		if _, ok := Transports().Lookup(d.Transport); !ok {
			t.Errorf("%s: designed transport %q unregistered", kind, d.Transport)
		}
	}
}
