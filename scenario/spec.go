package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/internal/limits"
	"github.com/rdcn/rdcn/rotor"
)

// Spec holds a run configuration as key → value strings.
type Spec struct {
	values map[string]string
	set    map[string]bool // keys given by Set (a TOML file or an override), default or not
	// resolved holds what the last Build made of keys left to it (the
	// designed routing and transport, a schedule file's n, U and kind):
	// Values shows them, and a later Build starts again from values.
	resolved map[string]string
}

// val is key's value as the current Build resolved it.
func (s *Spec) val(key string) string {
	if v, ok := s.resolved[key]; ok {
		return v
	}
	return s.values[key]
}

// NewSpec returns a Spec with every key at its default.
func NewSpec() *Spec {
	s := &Spec{values: make(map[string]string, len(Keys())), set: make(map[string]bool)}
	for _, k := range Keys() {
		s.values[k.Name] = k.Default
	}
	return s
}

// With returns a Spec at the defaults with the key=value overrides kv
// applied in order (SetArg): the form of rdcn simulate --set.
func With(kv ...string) (*Spec, error) {
	return NewSpec().with(kv)
}

// Load returns the Spec of the TOML configuration file path with the
// key=value overrides kv applied on top, in order: the form of rdcn
// simulate --config path --set kv….
func Load(path string, kv ...string) (*Spec, error) {
	text, err := limits.ReadFile(path, limits.MaxTextBytes)
	if err != nil {
		return nil, err
	}
	s := NewSpec()
	if err := s.LoadTOML(bytes.NewReader(text)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s.with(kv)
}

// with applies the key=value overrides kv to s in order.
func (s *Spec) with(kv []string) (*Spec, error) {
	for _, a := range kv {
		if err := s.SetArg(a); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Get returns the value of key, as the last Build resolved it (a
// designed routing.mode for an empty one, a schedule file's n and U).
func (s *Spec) Get(key string) string { return s.val(key) }

// Set overrides one key; an unknown key is an error naming it, quoted
// (an empty key or one holding control characters stays visible and the
// error on one line).
func (s *Spec) Set(key, value string) error {
	if _, ok := s.values[key]; !ok {
		return &fabric.ConfigError{Field: strconv.Quote(key), Problem: "unknown key" + suggest(key)}
	}
	s.values[key] = value
	s.set[key] = true
	return nil
}

// SetArg applies a "key=value" override.
func (s *Spec) SetArg(kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		return &fabric.ConfigError{Field: "set", Problem: fmt.Sprintf("%q is not key=value", kv)}
	}
	return s.Set(strings.TrimSpace(k), strings.TrimSpace(v))
}

func suggest(key string) string {
	sec, _, _ := strings.Cut(key, ".")
	var same []string
	for _, k := range Keys() {
		if strings.HasPrefix(k.Name, sec+".") {
			same = append(same, k.Name)
		}
	}
	if len(same) == 0 {
		return " (sections: topology, schedule, buffer, routing, transport, workload, run)"
	}
	return " (" + sec + " has " + strings.Join(same, ", ") + ")"
}

// LoadTOML reads a TOML file of [section] tables of scalar keys.
func (s *Spec) LoadTOML(r io.Reader) error {
	var raw map[string]any
	if _, err := toml.NewDecoder(r).Decode(&raw); err != nil {
		return &fabric.ConfigError{Field: "config", Problem: strings.ReplaceAll(err.Error(), "\n", " ")}
	}
	secs := make([]string, 0, len(raw))
	for k := range raw {
		secs = append(secs, k)
	}
	sort.Strings(secs)
	for _, sec := range secs {
		tab, ok := raw[sec].(map[string]any)
		if !ok {
			return &fabric.ConfigError{Field: sec, Problem: "must be a [table]"}
		}
		names := make([]string, 0, len(tab))
		for k := range tab {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			key := sec + "." + k
			var v string
			switch x := tab[k].(type) {
			case string:
				v = x
			case int64:
				v = strconv.FormatInt(x, 10)
			case float64:
				v = strconv.FormatFloat(x, 'g', -1, 64)
			case bool:
				v = strconv.FormatBool(x)
			default:
				return &fabric.ConfigError{Field: key, Problem: fmt.Sprintf("must be a string, number or boolean, got %T", x)}
			}
			if err := s.Set(key, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// Values returns the resolved configuration, sorted by key (for echoing
// into results).
func (s *Spec) Values() [][2]string {
	out := make([][2]string, 0, len(Keys()))
	for _, k := range Keys() {
		out = append(out, [2]string{k.Name, s.val(k.Name)})
	}
	return out
}

type specParser struct {
	s   *Spec
	err error
}

func (p *specParser) fail(key, format string, args ...any) {
	if p.err == nil {
		p.err = &fabric.ConfigError{Field: key, Problem: fmt.Sprintf("%q: ", p.s.values[key]) + fmt.Sprintf(format, args...)}
	}
}

func (p *specParser) int(key string, lo int) int {
	v, err := strconv.Atoi(p.s.values[key])
	if err != nil {
		p.fail(key, "not an integer")
		return 0
	}
	if v < lo {
		p.fail(key, "must be at least %d", lo)
	}
	return v
}

// intIn parses an integer in [lo, hi]; the range is checked before the
// value is narrowed (a 32-bit field must not wrap around).
func (p *specParser) intIn(key string, lo, hi int, hiName string) int {
	v := p.int(key, lo)
	if v > hi {
		p.fail(key, "must be at most %s%d", hiName, hi)
	}
	return v
}

// positive fails on an explicit zero of a key whose zero the Config
// reads as "use the default" (or that makes no sense): only a key left
// at its default (or empty) takes the default. unset says what leaving
// it empty does.
func (p *specParser) positive(key string, zero bool, unset string) {
	if zero && p.s.values[key] != "" {
		if unset != "" {
			unset = " (" + unset + ")"
		}
		p.fail(key, "must be positive%s", unset)
	}
}

// dupThresh reads transport.dupthresh: empty is the Config's default
// (0), 0 (timeouts only) becomes −1.
func (p *specParser) dupThresh(key string) int {
	if strings.TrimSpace(p.s.values[key]) == "" {
		return 0
	}
	if v := p.int(key, 0); v > 0 {
		return v
	}
	return -1
}

func (p *specParser) posTime(key string, optional bool, unset string) rotor.Time {
	t := p.time(key, optional)
	p.positive(key, t == 0, unset)
	return t
}

func (p *specParser) posSize(key string, mtu rotor.Bytes, optional bool, unset string) rotor.Bytes {
	b := p.size(key, mtu, optional)
	p.positive(key, b == 0, unset)
	return b
}

func (p *specParser) float(key string) float64 {
	v, err := strconv.ParseFloat(p.s.values[key], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		p.fail(key, "not a finite number")
	}
	return v
}

// optFloat is a positive float key that may be empty (0: the default).
func (p *specParser) optFloat(key string, unset string) float64 {
	if strings.TrimSpace(p.s.values[key]) == "" {
		return 0
	}
	v := p.float(key)
	p.positive(key, v <= 0, unset)
	return v
}

func (p *specParser) bool(key string) bool {
	v, err := strconv.ParseBool(p.s.values[key])
	if err != nil {
		p.fail(key, "not true or false")
	}
	return v
}

// prebuffer reads buffer.prebuffer and its capacities; nil when unset.
// A negative τ_pre is kept for Config's validation to refuse.
func (p *specParser) prebuffer(mtu rotor.Bytes) *fabric.PrebufferConfig {
	if strings.TrimSpace(p.s.values["buffer.prebuffer"]) == "" {
		for _, k := range []string{"buffer.prebuffer_small", "buffer.prebuffer_big"} {
			if p.s.values[k] != defaultOf(k) {
				p.fail(k, "is read only with buffer.prebuffer set")
			}
		}
		return nil
	}
	lead, err := rotor.ParseTime(p.s.values["buffer.prebuffer"])
	if err != nil {
		p.fail("buffer.prebuffer", "%v", err)
	}
	return &fabric.PrebufferConfig{Lead: lead, Small: p.posSize("buffer.prebuffer_small", mtu, false, ""), Big: p.posSize("buffer.prebuffer_big", mtu, false, "")}
}

// pair reads "src,dst": two distinct ToRs below tors; nil when empty.
func (p *specParser) pair(key string, tors int) *[2]int {
	v := strings.TrimSpace(p.s.values[key])
	if v == "" {
		return nil
	}
	a, b, ok := strings.Cut(v, ",")
	x, err1 := strconv.Atoi(strings.TrimSpace(a))
	y, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || x < 0 || y < 0 || x >= tors || y >= tors || x == y {
		p.fail(key, "want two different ToRs src,dst in [0, %d)", tors)
		return nil
	}
	return &[2]int{x, y}
}

// ccParams reads a law's parameter list (cc.ParseParams).
func (p *specParser) ccParams(key string) map[string]string {
	m, err := cc.ParseParams(p.s.values[key])
	if err != nil {
		p.fail(key, "%v", err)
	}
	return m
}

func (p *specParser) uint(key string) uint64 {
	v, err := strconv.ParseUint(p.s.values[key], 10, 64)
	if err != nil {
		p.fail(key, "not a non-negative integer")
	}
	return v
}

func (p *specParser) time(key string, optional bool) rotor.Time {
	v := p.s.values[key]
	if v == "" && optional {
		return 0
	}
	t, err := rotor.ParseTime(v)
	if err != nil {
		p.fail(key, "%v", err)
	} else if t < 0 {
		p.fail(key, "must not be negative")
	}
	return t
}

func (p *specParser) rate(key string, optional bool) rotor.Rate {
	v := p.s.values[key]
	if v == "" && optional {
		return 0
	}
	r, err := rotor.ParseRate(v)
	if err != nil {
		p.fail(key, "%v", err)
	} else if r <= 0 {
		p.fail(key, "must be positive")
	}
	return r
}

func (p *specParser) size(key string, mtu rotor.Bytes, optional bool) rotor.Bytes {
	v := p.s.values[key]
	if v == "" && optional {
		return 0
	}
	b, err := parseSize(v, mtu)
	if err != nil {
		p.fail(key, "%v", err)
	}
	return b
}

// cfgErr is a *fabric.ConfigError: the one error type of a bad key,
// whether this package's parser or Config's validation finds it.
func cfgErr(field, format string, args ...any) error {
	return &fabric.ConfigError{Field: field, Problem: fmt.Sprintf(format, args...)}
}

// parseSize reads a non-negative size: a plain number of bytes or a
// number with a unit (rotor.ParseSize; pkt is mtu bytes).
func parseSize(v string, mtu rotor.Bytes) (rotor.Bytes, error) {
	b, err := rotor.ParseSize(v, mtu)
	if n, ierr := strconv.ParseInt(v, 10, 64); ierr == nil {
		b, err = rotor.Bytes(n), nil
	}
	if err == nil && b < 0 {
		err = errors.New("must not be negative")
	}
	return b, err
}
