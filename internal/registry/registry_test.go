package registry

import (
	"strings"
	"testing"
)

type entry struct{ name string }

func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("no panic, want one saying %q", want)
		}
		if msg, _ := r.(string); !strings.Contains(msg, want) {
			t.Fatalf("panic %v, want one saying %q", r, want)
		}
	}()
	f()
}

// TestDuplicateAndLate: a taken name panics naming it (before and after
// the first read), a new name after the first read panics naming it, an
// empty name panics; reads see registration order.
func TestDuplicateAndLate(t *testing.T) {
	tb := New("pkg", "widget", func(e entry) string { return e.name }, entry{"a"}, entry{"b"})
	mustPanic(t, `pkg: widget "a" registered twice`, func() { tb.Add(entry{"a"}) })
	tb.Add(entry{"c"})
	mustPanic(t, "empty name", func() { tb.Add(entry{""}) })
	if got := strings.Join(tb.Names(), " "); got != "a b c" {
		t.Fatalf("names %q, want registration order a b c", got)
	}
	mustPanic(t, `pkg: widget "b" registered twice`, func() { tb.Add(entry{"b"}) })
	mustPanic(t, `pkg: widget "d" registered after the registry was read`, func() { tb.Add(entry{"d"}) })
	if _, ok := tb.Lookup("d"); ok {
		t.Error("a late entry was kept")
	}
	if e, ok := tb.Lookup("c"); !ok || e.name != "c" {
		t.Errorf("Lookup(c) = %v, %v", e, ok)
	}
}

// TestFreezeOnLookup: a Lookup alone freezes the table.
func TestFreezeOnLookup(t *testing.T) {
	tb := New[entry]("pkg", "widget", func(e entry) string { return e.name })
	tb.Lookup("x")
	mustPanic(t, `"x" registered after`, func() { tb.Add(entry{"x"}) })
}

// TestSorted sorts by name, stably.
func TestSorted(t *testing.T) {
	tb := New("pkg", "widget", func(e entry) string { return e.name }, entry{"b"}, entry{"c"}, entry{"a"})
	var got []string
	for _, e := range tb.Sorted() {
		got = append(got, e.name)
	}
	if strings.Join(got, " ") != "a b c" {
		t.Errorf("sorted %v", got)
	}
}
