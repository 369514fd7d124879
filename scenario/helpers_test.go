package scenario

import (
	"testing"
)

// specWith returns a Spec with the key=value overrides applied.
func specWith(tb testing.TB, keys ...string) *Spec {
	tb.Helper()
	s, err := With(keys...)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// buildSpec resolves a Spec with the given key=value settings on top of
// the defaults.
func buildSpec(tb testing.TB, keys ...string) *Setup {
	tb.Helper()
	setup, err := specWith(tb, keys...).Build()
	if err != nil {
		tb.Fatal(err)
	}
	return setup
}

// setupFromTOML builds the configuration file path with the key=value
// overrides on top.
func setupFromTOML(tb testing.TB, path string, keys ...string) *Setup {
	tb.Helper()
	sp, err := Load(path, keys...)
	if err != nil {
		tb.Fatal(err)
	}
	setup, err := sp.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return setup
}
