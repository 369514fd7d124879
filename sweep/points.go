package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// Point is one configuration of the sweep.
type Point struct {
	Index int    // position in the product, the first axis varying slowest
	Name  string // from the axis values: load=0.1_policy=dt (the directory name)
	// Values are the axis values (a compound axis: its variant's name), in
	// axis order.
	Values []string
	// Seed is the point's seed: a function of the sweep seed and the
	// point's replicate (its ReplicateAxis value, 0 without one), so points
	// that differ only in other axes share their random inputs.
	Seed uint64
	// Config is the resolved configuration, sorted by key: the base, the
	// axis settings and the derived seeds of the kind's seed keys that
	// neither sets.
	Config [][2]string
}

// Points expands the product of the axes. Names are unique: values are
// made file-name safe and an axis whose key's last part is shared with
// another is named in full.
func (s *Spec) Points() []Point {
	kind, _ := LookupKind(s.Kind)
	labels := axisLabels(s.Axes)
	n := s.Size()
	pts := make([]Point, n)
	idx := make([]int, len(s.Axes))
	for i := range n {
		// idx from i: the last axis varies fastest.
		r := i
		for a := len(s.Axes) - 1; a >= 0; a-- {
			idx[a] = r % len(s.Axes[a].Values)
			r /= len(s.Axes[a].Values)
		}
		p := Point{Index: i}
		cfg := map[string]string{}
		for _, kv := range s.Base {
			cfg[kv[0]] = kv[1]
		}
		var replicate uint64
		parts := make([]string, len(s.Axes))
		for a, ax := range s.Axes {
			v := ax.Values[idx[a]]
			p.Values = append(p.Values, v)
			parts[a] = labels[a] + "=" + safe(v)
			switch {
			case len(ax.Variants) > 0:
				for _, kv := range ax.Variants[idx[a]].Set {
					cfg[kv[0]] = kv[1]
				}
				if ax.Name == ReplicateAxis { // replicates that fix some seed keys
					replicate, _ = strconv.ParseUint(v, 10, 64)
				}
			case ax.Name == ReplicateAxis:
				replicate, _ = strconv.ParseUint(v, 10, 64)
			default:
				cfg[ax.Name] = v
			}
		}
		p.Seed = mix(s.Seed, replicate)
		for _, k := range kind.SeedKeys(cfg) {
			if _, given := cfg[k]; !given {
				cfg[k] = strconv.FormatUint(mix(p.Seed, strHash(k)), 10)
			}
		}
		p.Name = strings.Join(parts, "_")
		if p.Name == "" {
			p.Name = "base"
		}
		if len(p.Name) > 120 { // file names stay short; the hash keeps them unique
			h := sha256.Sum256([]byte(p.Name))
			p.Name = p.Name[:100] + "~" + hex.EncodeToString(h[:6])
		}
		for k, v := range cfg {
			p.Config = append(p.Config, [2]string{k, v})
		}
		slices.SortFunc(p.Config, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
		pts[i] = p
	}
	return pts
}

// ConfigHash identifies what a point runs: its kind and resolved
// configuration. A point directory's done marker holds it.
func (p Point) ConfigHash(kind string) string {
	h := sha256.New()
	fmt.Fprintf(h, "kind=%s\n", kind)
	for _, kv := range p.Config {
		fmt.Fprintf(h, "%s=%s\n", kv[0], kv[1])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// axisLabels names the axes in point names: the last dotted part of the
// key, or the whole key when two axes share a last part.
func axisLabels(axes []Axis) []string {
	short := func(n string) string { return n[strings.LastIndex(n, ".")+1:] }
	out := make([]string, len(axes))
	for i, a := range axes {
		out[i] = safe(short(a.Name))
		for j, b := range axes {
			if i != j && short(a.Name) == short(b.Name) {
				out[i] = safe(a.Name)
			}
		}
	}
	return out
}

// safe keeps letters, digits and . - + _ ; anything else becomes '-', and
// then a short hash of the value keeps different values apart
// (skew:0.5 → skew-0.5~1f2e3d).
func safe(v string) string {
	b := []byte(v)
	changed := false
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '-', c == '+', c == '_':
		default:
			b[i], changed = '-', true
		}
	}
	if len(b) == 0 || b[0] == '.' {
		b, changed = append([]byte("v"), b...), true
	}
	if changed {
		return fmt.Sprintf("%s~%06x", b, strHash(v)&0xffffff)
	}
	return string(b)
}

// mix combines two words by SplitMix64 finalisation of a keyed sum.
func mix(a, b uint64) uint64 {
	z := a*0x9e3779b97f4a7c15 + b + 0x632be59bd9b4e019
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func strHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// Shard is a deterministic part of a sweep for a cluster task: shard I of
// N (0 ≤ I < N) holds the points whose index is I modulo N, so every
// shard gets a share of every axis.
type Shard struct{ I, N int }

// ParseShard reads "I/N".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	switch {
	case !ok || err1 != nil || err2 != nil:
		return Shard{}, errf("shard", "%q: want I/N, e.g. 0/4", s)
	case n < 1:
		return Shard{}, errf("shard", "%q: N must be at least 1", s)
	case i < 0 || i >= n:
		return Shard{}, errf("shard", "%q: I must be in [0, %d) (shards are numbered from 0)", s, n)
	}
	return Shard{i, n}, nil
}

// Has reports whether the point of index i belongs to the shard.
func (sh Shard) Has(i int) bool { return sh.N <= 1 || i%sh.N == sh.I }
