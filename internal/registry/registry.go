// Package registry is the table behind every public Register of rdcn's
// pluggable kinds (buffer policies, congestion-control laws, transports,
// routing modes, schedule generators, flow-size distributions, traffic
// patterns). A table takes entries while the program initialises and
// freezes the first time it is read: a duplicate name, or a name added
// after a read, panics with the name, so a misspelt or late registration
// fails at start-up rather than in the middle of a sweep.
package registry

import (
	"fmt"
	"slices"
	"sync"
)

// Table holds the entries of one kind, in registration order.
type Table[T any] struct {
	pkg, what string // for messages: "tor", "buffer policy"
	name      func(T) string
	mu        sync.Mutex
	items     []T
	frozen    bool
}

// New makes a table of entries named by name, holding builtins.
func New[T any](pkg, what string, name func(T) string, builtins ...T) *Table[T] {
	t := &Table[T]{pkg: pkg, what: what, name: name}
	for _, b := range builtins {
		t.Add(b)
	}
	return t
}

// Add registers v. It panics, naming v, if the name is empty or taken, or
// if the table has been read.
func (t *Table[T]) Add(v T) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.name(v)
	if n == "" {
		panic(fmt.Sprintf("%s: %s registered with an empty name", t.pkg, t.what))
	}
	for _, o := range t.items {
		if t.name(o) == n {
			panic(fmt.Sprintf("%s: %s %q registered twice", t.pkg, t.what, n))
		}
	}
	if t.frozen {
		panic(fmt.Sprintf("%s: %s %q registered after the registry was read (register in an init function, before the run)", t.pkg, t.what, n))
	}
	t.items = append(t.items, v)
}

// All returns the entries in registration order and freezes the table.
// The slice is the table's own: callers must not modify it.
func (t *Table[T]) All() []T {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.frozen = true
	return t.items[:len(t.items):len(t.items)]
}

// Lookup returns the entry called n and freezes the table.
func (t *Table[T]) Lookup(n string) (T, bool) {
	for _, v := range t.All() {
		if t.name(v) == n {
			return v, true
		}
	}
	var zero T
	return zero, false
}

// Names lists the entries' names in registration order (freezing).
func (t *Table[T]) Names() []string {
	all := t.All()
	out := make([]string, len(all))
	for i, v := range all {
		out[i] = t.name(v)
	}
	return out
}

// Sorted returns the entries sorted by name (freezing).
func (t *Table[T]) Sorted() []T {
	out := slices.Clone(t.All())
	slices.SortStableFunc(out, func(a, b T) int {
		if t.name(a) < t.name(b) {
			return -1
		}
		if t.name(a) > t.name(b) {
			return 1
		}
		return 0
	})
	return out
}
