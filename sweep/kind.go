package sweep

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// Kind runs one point of a sweep: a simulation or an analysis.
type Kind interface {
	// CheckKey fails on a key the kind does not read, naming it.
	CheckKey(key string) error
	// SeedKeys are the keys the sweep derives from the point's seed when
	// neither the base nor an axis sets them; config is the point's
	// configuration before they are (a key it makes unused is left out).
	SeedKeys(config map[string]string) []string
	// Run runs the configuration (sorted key → value pairs), writes its
	// result files into dir and returns its scalar metrics, in a fixed
	// order. A configuration error names the key.
	Run(ctx context.Context, config [][2]string, dir string) ([]Metric, error)
}

// Metric is one scalar result of a point.
type Metric struct {
	Name  string
	Value float64
}

var kinds = map[string]Kind{}

// Register adds a kind under name; it panics on a duplicate (kinds are
// registered at init).
func Register(name string, k Kind) {
	if _, dup := kinds[name]; dup {
		panic("sweep: kind " + name + " registered twice")
	}
	kinds[name] = k
}

// KindNames lists the registered kinds, sorted.
func KindNames() []string {
	out := make([]string, 0, len(kinds))
	for n := range kinds {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// LookupKind returns the kind registered under name.
func LookupKind(name string) (Kind, error) {
	k, ok := kinds[name]
	if !ok {
		return nil, errf("kind", "%q: unknown (want %s)", name, strings.Join(KindNames(), ", "))
	}
	return k, nil
}

// keyList is a Kind's fixed key set with their defaults.
type keyList []struct{ Name, Default, Doc string }

func (kl keyList) CheckKey(key string) error {
	for _, k := range kl {
		if k.Name == key {
			return nil
		}
	}
	names := make([]string, len(kl))
	for i, k := range kl {
		names[i] = k.Name
	}
	return fmt.Errorf("unknown key %q (known: %s)", key, strings.Join(names, ", "))
}

// resolve returns the value of every key: the config's, else the default.
func (kl keyList) resolve(config [][2]string) map[string]string {
	m := make(map[string]string, len(kl))
	for _, k := range kl {
		m[k.Name] = k.Default
	}
	for _, kv := range config {
		m[kv[0]] = kv[1]
	}
	return m
}
