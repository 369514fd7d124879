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

// mustPanic runs f and checks that it panics with a message holding want.
func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		if r, _ := recover().(string); !strings.Contains(r, want) {
			t.Errorf("panic %q, want one saying %q", r, want)
		}
	}()
	f()
}

// TestRegisterTransportRefusals: RegisterTransport panics, naming the
// transport, on a taken name, on keys no Flow field carries (naming
// each), on law keys without Law and on Law without them, on a missing
// New, and after the registry has been read.
func TestRegisterTransportRefusals(t *testing.T) {
	newEnds := func(f Flow) (Source, Sink) { return NewPulledSource(f.Size, f.MSS), NewLosslessReceiver(f.Size, f.MSS) }
	mustPanic(t, `cc: transport "ndp" registered twice`, func() {
		RegisterTransport(TransportSpec{Name: TransportNDP, New: newEnds})
	})
	mustPanic(t, `cc: transport "x" reads transport.pull_depth, transport.bogus, which no Flow field carries`, func() {
		RegisterTransport(TransportSpec{Name: "x", Params: []string{"transport.mss", "transport.pull_depth", "transport.bogus"}, New: newEnds})
	})
	mustPanic(t, `cc: transport "x" reads transport.cc, the keys of a law, without Law`, func() {
		RegisterTransport(TransportSpec{Name: "x", Params: []string{"transport.cc"}, New: newEnds})
	})
	mustPanic(t, `cc: transport "x" takes a law (Law) but does not list transport.cc_params, transport.window in Params`, func() {
		RegisterTransport(TransportSpec{Name: "x", Law: true, Params: []string{"transport.cc"}, New: newEnds})
	})
	mustPanic(t, `cc: transport "x" registered without New`, func() {
		RegisterTransport(TransportSpec{Name: "x"})
	})
	Transports() // a run has started
	mustPanic(t, `cc: transport "late" registered after the registry was read`, func() {
		RegisterTransport(TransportSpec{Name: "late", New: newEnds})
	})
	if _, ok := LookupTransport("late"); ok {
		t.Error("the late transport was kept")
	}
}
