package cc

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/rdcn/rdcn/internal/registry"
	"github.com/rdcn/rdcn/rotor"
)

// Kind is the type of a law parameter, which fixes how its text is parsed
// and the unit its range is stated in.
type Kind uint8

// Parameter kinds.
const (
	Float  Kind = iota // a plain number
	Int                // a whole number
	Bool               // true or false
	Time               // a duration ("24us"); range in picoseconds
	Rate               // a rate ("150Mbps"); range in bits per second
	Size               // a size ("10pkt", "64KB"); range in bytes
	Choice             // one of Choices; stored as its index
)

// Param describes one parameter of a law.
type Param struct {
	Key     string
	Kind    Kind
	Default string           // text form; "" when EnvDefault supplies it
	Env     func(Env) string // default taken from the network (τ, line rate), or nil
	EnvDoc  string           // the Env default in words for the docs; "": "base RTT"
	Lo, Hi  float64          // valid range, in the kind's base unit
	LoOpen  bool             // Lo itself is excluded
	Choices []string         // for Choice
	Doc     string
}

// Spec is one registered law.
type Spec struct {
	Name   string
	Doc    string // one line
	Params []Param
	// INT marks laws that read INT records: the engine must stamp them and
	// refuse paths with more hops than a packet carries (and than MaxHops).
	INT bool
	// ECE is what the law reads in an ACK's ECE bit, which decides what
	// the engine sets it from.
	ECE ECEUse
	// Marking is the switches' default marking for an ECECongestion law.
	Marking Marking
	// Check, if set, rejects an Env the law cannot run with.
	Check func(Env) error
	// New makes a law; it reads the Values it needs and keeps none of
	// them (the fabric reuses one map for many laws).
	New func(Env, Values) Law
}

// ECEUse is the meaning a law gives the ACKs' ECE bit.
type ECEUse uint8

// ECE meanings.
const (
	ECEIgnored    ECEUse = iota // the law ignores ECE
	ECECongestion               // the echo of a switch's ECN mark (DCTCP, DCQCN): switches must mark
	ECECircuit                  // circuit state, set by the ToR that forwards the ACK (reTCP)
)

// Values holds a law's resolved parameters, in base units (picoseconds,
// bits per second, bytes; a Choice's index; 1 for true).
type Values map[string]float64

// F returns parameter k as a float. A key the law did not declare is a
// programming error and panics (TestRegistryDefaults builds every law).
func (v Values) F(k string) float64 {
	x, ok := v[k]
	if !ok {
		panic("cc: parameter " + k + " read but not declared")
	}
	return x
}

// I returns parameter k as an integer.
func (v Values) I(k string) int64 { return int64(v.F(k)) }

// B returns parameter k as a bool.
func (v Values) B(k string) bool { return v.F(k) != 0 }

// T returns parameter k as a duration.
func (v Values) T(k string) rotor.Time { return rotor.Time(v.F(k)) }

// R returns parameter k as a rate.
func (v Values) R(k string) rotor.Rate { return rotor.Rate(v.F(k)) }

var laws = registry.New[Spec]("cc", "congestion-control law", func(s Spec) string { return s.Name })

// sorted is the frozen registry, sorted by name.
var sorted = sync.OnceValue(laws.Sorted)

// Register adds a law; call it from an init function. A name already
// taken, a missing New, or a call after the registry has been read (a run
// has started) panics with the name.
func Register(s Spec) {
	if s.New == nil {
		panic("cc: congestion-control law " + s.Name + " registered without New")
	}
	laws.Add(s)
}

// Laws lists the registered laws, sorted by name.
func Laws() []Spec { return sorted() }

// Lookup returns the law called name.
func Lookup(name string) (Spec, bool) {
	for _, s := range sorted() {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// Names lists the registered law names, sorted.
func Names() []string {
	var ns []string
	for _, s := range sorted() {
		ns = append(ns, s.Name)
	}
	return ns
}

// New builds the law called name for a host described by env, with params
// (key → text) overriding the defaults. An unknown name, a parameter the
// law does not read, or a value that does not parse or lies outside its
// range is an error naming the key.
func New(name string, env Env, params map[string]string) (Law, error) {
	s, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown congestion control %q (want one of %s)", name, strings.Join(Names(), ", "))
	}
	v, err := s.Resolve(env, params)
	if err != nil {
		return nil, err
	}
	return s.New(env, v), nil
}

// Resolve checks env and params against the law's parameters and returns
// every parameter's value.
func (s Spec) Resolve(env Env, params map[string]string) (Values, error) {
	if env.MSS <= 0 {
		return nil, fmt.Errorf("%s: mss %d: must be positive", s.Name, env.MSS)
	}
	if env.HostRate <= 0 {
		return nil, fmt.Errorf("%s: host rate %d: must be positive", s.Name, env.HostRate)
	}
	if s.Check != nil {
		if err := s.Check(env); err != nil {
			return nil, fmt.Errorf("%s: %v", s.Name, err)
		}
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if s.param(k) == nil {
			var known []string
			for _, p := range s.Params {
				known = append(known, p.Key)
			}
			reads := "no parameters"
			if len(known) > 0 {
				reads = strings.Join(known, ", ")
			}
			return nil, fmt.Errorf("%s: unknown parameter %q (%s reads %s)", s.Name, k, s.Name, reads)
		}
	}
	v := Values{}
	for _, p := range s.Params {
		text, given := params[p.Key]
		if !given {
			text = p.Default
			if p.Env != nil {
				text = p.Env(env)
			}
		}
		x, err := p.parse(text, env)
		if err != nil {
			return nil, fmt.Errorf("%s: %s = %q: %v", s.Name, p.Key, text, err)
		}
		v[p.Key] = x
	}
	return v, nil
}

// Has reports whether the law declares parameter k.
func (s Spec) Has(k string) bool { return s.param(k) != nil }

func (s Spec) param(k string) *Param {
	for i := range s.Params {
		if s.Params[i].Key == k {
			return &s.Params[i]
		}
	}
	return nil
}

// parse reads text as p's kind and checks the range.
func (p *Param) parse(text string, env Env) (float64, error) {
	var x float64
	switch p.Kind {
	case Float, Int:
		f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil {
			return 0, fmt.Errorf("not a number")
		}
		if p.Kind == Int && f != math.Trunc(f) {
			return 0, fmt.Errorf("not a whole number")
		}
		x = f
	case Bool:
		b, err := strconv.ParseBool(strings.TrimSpace(text))
		if err != nil {
			return 0, fmt.Errorf("want true or false")
		}
		if b {
			x = 1
		}
		return x, nil
	case Time:
		t, err := rotor.ParseTime(text)
		if err != nil {
			return 0, err
		}
		x = float64(t)
	case Rate:
		r, err := rotor.ParseRate(text)
		if err != nil {
			return 0, err
		}
		x = float64(r)
	case Size:
		b, err := rotor.ParseSize(text, rotor.Bytes(env.MSS))
		if err != nil {
			return 0, err
		}
		x = float64(b)
	case Choice:
		for i, c := range p.Choices {
			if c == text {
				return float64(i), nil
			}
		}
		return 0, fmt.Errorf("want one of %s", strings.Join(p.Choices, ", "))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("not a finite number")
	}
	if x < p.Lo || (p.LoOpen && x == p.Lo) || x > p.Hi {
		return 0, fmt.Errorf("must be in %s", p.Range())
	}
	return x, nil
}

// Range states the valid range, e.g. "(0, 1]".
func (p *Param) Range() string {
	open := "["
	if p.LoOpen {
		open = "("
	}
	hi := "∞)"
	if !math.IsInf(p.Hi, 1) {
		hi = p.format(p.Hi) + "]"
	}
	return open + p.format(p.Lo) + ", " + hi
}

func (p *Param) format(x float64) string {
	switch p.Kind {
	case Time:
		return rotor.Time(x).String()
	case Rate:
		return rotor.Rate(x).String()
	case Size:
		return rotor.Bytes(x).String()
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// writeParams writes one Markdown table per law of laws (Laws(): every
// registered one): its parameters, their defaults, valid ranges and
// meanings. docs/cc.md holds its output for rdcn's laws.
func writeParams(w io.Writer, laws []Spec) error {
	for _, s := range laws {
		if len(s.Params) == 0 {
			if _, err := fmt.Fprintf(w, "#### %s\n\n%s. No parameters.\n\n", s.Name, s.Doc); err != nil {
				return err
			}
			continue
		}
		if _, err := fmt.Fprintf(w, "#### %s\n\n%s.\n\n| parameter | default | range | meaning |\n|---|---|---|---|\n", s.Name, s.Doc); err != nil {
			return err
		}
		for _, p := range s.Params {
			def, rng := p.Default, p.Range()
			if p.Env != nil {
				def = cmp.Or(p.EnvDoc, "base RTT")
			}
			switch p.Kind {
			case Bool:
				rng = "true, false"
			case Choice:
				rng = strings.Join(p.Choices, ", ")
			}
			if _, err := fmt.Fprintf(w, "| `%s` | %s | %s | %s |\n", p.Key, def, rng, p.Doc); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	return nil
}

// Shared parameter declarations.
var inf = math.Inf(1)

func tauParam(doc string) Param {
	return Param{Key: "tau", Kind: Time, Env: func(e Env) string { return fmt.Sprintf("%dps", int64(e.BaseRTT)) },
		Lo: 0, LoOpen: true, Hi: float64(rotor.Second), Doc: doc}
}

func minRateParam() Param {
	return Param{Key: "min_rate", Kind: Rate, Default: "100Mbps", Lo: 0, LoOpen: true, Hi: inf,
		Doc: "floor of the pacing rate"}
}

// InitWindowKey is the initial-window parameter of the window laws; its
// default is DefaultInitWindow, RFC 6928's ten segments. The fabric sets
// it per traffic class (transport.init_window, transport.incast_init_window).
const (
	InitWindowKey     = "init_window"
	DefaultInitWindow = "10pkt"
)

func initWindowParam() Param {
	return Param{Key: InitWindowKey, Kind: Size, Default: DefaultInitWindow, Lo: 1, Hi: inf,
		Doc: "initial window (pkt = one MSS; in rdcn simulate: transport.init_window)"}
}
