package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// ReplicateAxis is the pseudo-key of an axis of replicate numbers: its
// values set no key, they change the point's derived seeds.
const ReplicateAxis = "seed"

// MaxPoints caps the product of the axes: a sweep is run point by point,
// each in its own directory.
const MaxPoints = 100_000

// Spec is a parsed sweep: a kind, a base configuration and axes.
type Spec struct {
	Kind string // a registered Kind's name
	Seed uint64 // the sweep seed; every point's derived seeds depend on it
	// Base holds the configuration every point starts from, key → value,
	// sorted by key.
	Base [][2]string
	Axes []Axis // in the order of the spec file; the first varies slowest
}

// Axis is one dimension of the sweep. A plain axis sets its key Name to
// each of Values. A compound axis (Variants non-empty) is named freely and
// each of its values sets several keys at once; Values then holds the
// variants' names.
type Axis struct {
	Name     string
	Values   []string
	Variants []Variant
}

// Variant is one value of a compound axis: a label and the keys it sets.
type Variant struct {
	Name string
	Set  [][2]string // sorted by key
}

// Numeric reports whether every value of the axis parses as a number (the
// report plots metrics against numeric axes and draws one line per value
// of the others).
func (a Axis) Numeric() bool {
	if len(a.Variants) > 0 {
		return false
	}
	for _, v := range a.Values {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return false
		}
	}
	return true
}

// Error is a problem with a sweep spec or its use, naming the field.
type Error struct {
	Field, Problem string
}

func (e *Error) Error() string { return e.Field + ": " + e.Problem }

func errf(field, format string, args ...any) error {
	return &Error{Field: field, Problem: fmt.Sprintf(format, args...)}
}

// Parse reads a sweep spec (TOML):
//
//	kind = "simulate"      # simulate, throughput, tradeoff or predict
//	seed = 1               # the sweep seed (default 1)
//	[base]                 # the configuration every point starts from
//	"run.sim_time" = "5ms" # dotted keys, or [base.run] tables
//	[axes]
//	"workload.load" = [0.1, 0.3]
//	seed = [1, 2, 3]       # replicates
//	[[axes.design]]        # a compound axis: each entry sets several keys
//	name = "opera"
//	"schedule.kind" = "opera"
//	"routing.mode" = "paths"
//
// Keys are checked against the kind; an unknown key, an empty axis, a
// repeated value or a key set by two axes is an error naming it.
func Parse(r io.Reader) (*Spec, error) {
	var raw map[string]any
	md, err := toml.NewDecoder(r).Decode(&raw)
	if err != nil {
		return nil, errf("spec", "%s", strings.ReplaceAll(err.Error(), "\n", " "))
	}
	s := &Spec{Seed: 1}
	for k := range raw {
		switch k {
		case "kind", "seed", "base", "axes":
		default:
			return nil, errf(strconv.Quote(k), "unknown top-level key (want kind, seed, [base], [axes])")
		}
	}
	kindName, ok := raw["kind"].(string)
	if !ok {
		return nil, errf("kind", "missing or not a string (one of %s)", strings.Join(KindNames(), ", "))
	}
	kind, err := LookupKind(kindName)
	if err != nil {
		return nil, err
	}
	s.Kind = kindName
	if v, ok := raw["seed"]; ok {
		n, ok := v.(int64)
		if !ok || n < 0 {
			return nil, errf("seed", "must be a non-negative integer, got %v", v)
		}
		s.Seed = uint64(n)
	}
	if b, ok := raw["base"]; ok {
		tab, ok := b.(map[string]any)
		if !ok {
			return nil, errf("base", "must be a table")
		}
		if err := flatten("", tab, func(k, v string) error {
			if err := kind.CheckKey(k); err != nil {
				return errf("base."+k, "%v", err)
			}
			s.Base = append(s.Base, [2]string{k, v})
			return nil
		}); err != nil {
			return nil, err
		}
		slices.SortFunc(s.Base, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	}
	axesRaw, _ := raw["axes"].(map[string]any)
	if _, ok := raw["axes"]; ok && axesRaw == nil {
		return nil, errf("axes", "must be a table")
	}
	// The axes in file order (md.Keys lists keys as they appear).
	var order []string
	for _, k := range md.Keys() {
		if len(k) == 2 && k[0] == "axes" && !slices.Contains(order, k[1]) {
			order = append(order, k[1])
		}
	}
	setBy := map[string]string{}
	total := 1
	for _, name := range order {
		field := "axes." + strconv.Quote(name)
		if strings.TrimSpace(name) == "" {
			return nil, errf(field, "empty axis name")
		}
		ax, err := parseAxis(kind, name, axesRaw[name])
		if err != nil {
			return nil, err
		}
		keys := []string{name}
		if len(ax.Variants) > 0 {
			keys = nil
			for _, v := range ax.Variants {
				for _, kv := range v.Set {
					if !slices.Contains(keys, kv[0]) {
						keys = append(keys, kv[0])
					}
				}
			}
		}
		for _, k := range keys {
			if other, dup := setBy[k]; dup {
				return nil, errf(field, "sets %s, which axis %q sets too", k, other)
			}
			setBy[k] = name
		}
		s.Axes = append(s.Axes, ax)
		total *= len(ax.Values)
		if total > MaxPoints {
			return nil, errf(field, "the sweep has more than %d points", MaxPoints)
		}
	}
	return s, nil
}

func parseAxis(kind Kind, name string, v any) (Axis, error) {
	field := "axes." + strconv.Quote(name)
	ax := Axis{Name: name}
	switch list := v.(type) {
	case []map[string]any: // [[axes.NAME]] tables
		if kind.CheckKey(name) == nil {
			return ax, errf(field, "is a configuration key: give it a list of values, not tables")
		}
		if len(list) == 0 {
			return ax, errf(field, "empty axis: give at least one value")
		}
		for i, tab := range list {
			lbl, ok := tab["name"].(string)
			if !ok || strings.TrimSpace(lbl) == "" {
				return ax, errf(fmt.Sprintf("%s[%d].name", field, i), "missing: each variant needs a name")
			}
			va := Variant{Name: lbl}
			for _, k := range sortedKeys(tab) {
				if k == "name" {
					continue
				}
				val, err := scalar(tab[k])
				if err != nil {
					return ax, errf(fmt.Sprintf("%s[%d].%s", field, i, k), "%v", err)
				}
				if err := kind.CheckKey(k); err != nil {
					return ax, errf(fmt.Sprintf("%s[%d].%s", field, i, k), "%v", err)
				}
				va.Set = append(va.Set, [2]string{k, val})
			}
			switch {
			case name == ReplicateAxis: // a replicate with its own seed keys; one that sets none derives them all
				if _, err := strconv.ParseUint(lbl, 10, 64); err != nil {
					return ax, errf(fmt.Sprintf("%s[%d].name", field, i), "replicate %q: want a non-negative integer", lbl)
				}
			case len(va.Set) == 0:
				return ax, errf(fmt.Sprintf("%s[%d]", field, i), "variant %q sets no key", lbl)
			}
			ax.Variants = append(ax.Variants, va)
			ax.Values = append(ax.Values, lbl)
		}
	case []any:
		if len(list) == 0 {
			return ax, errf(field, "empty axis: give at least one value")
		}
		if name != ReplicateAxis {
			if err := kind.CheckKey(name); err != nil {
				return ax, errf(field, "%v", err)
			}
		}
		for i, x := range list {
			if _, isTab := x.(map[string]any); isTab {
				return ax, errf(field, "mixes values and tables; a compound axis is [[axes.NAME]] tables with a name each")
			}
			val, err := scalar(x)
			if err != nil {
				return ax, errf(fmt.Sprintf("%s[%d]", field, i), "%v", err)
			}
			if name == ReplicateAxis {
				if _, err := strconv.ParseUint(val, 10, 64); err != nil {
					return ax, errf(fmt.Sprintf("%s[%d]", field, i), "replicate %q: want a non-negative integer", val)
				}
			}
			ax.Values = append(ax.Values, val)
		}
	default:
		return ax, errf(field, "must be a list of values, e.g. [0.1, 0.3], got %s", describe(v))
	}
	seen := make(map[string]bool, len(ax.Values))
	for _, a := range ax.Values {
		if seen[a] {
			return ax, errf(field, "value %q appears twice", a)
		}
		seen[a] = true
	}
	return ax, nil
}

func describe(v any) string {
	switch v.(type) {
	case string, int64, float64, bool:
		return fmt.Sprintf("the single value %v", v)
	}
	return fmt.Sprintf("%T", v)
}

// scalar formats a TOML scalar as a configuration value (as fabric's
// TOML loader does).
func scalar(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "", fmt.Errorf("%v is not a usable value", x)
		}
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case bool:
		return strconv.FormatBool(x), nil
	}
	return "", fmt.Errorf("must be a string, number or boolean, got %T", v)
}

// flatten walks nested tables, calling set with dotted keys.
func flatten(prefix string, tab map[string]any, set func(k, v string) error) error {
	for _, k := range sortedKeys(tab) {
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		if sub, ok := tab[k].(map[string]any); ok {
			if err := flatten(key, sub, set); err != nil {
				return err
			}
			continue
		}
		v, err := scalar(tab[k])
		if err != nil {
			return errf("base."+key, "%v", err)
		}
		if err := set(key, v); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// Hash identifies the spec: two specs with the same kind, seed, base and
// axes (in order) have the same hash. A results directory records it and
// refuses a different spec's points.
func (s *Spec) Hash() string {
	b, _ := json.Marshal(s)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Size is the number of points.
func (s *Spec) Size() int {
	n := 1
	for _, a := range s.Axes {
		n *= len(a.Values)
	}
	return n
}
