package fabric

import (
	"slices"
	"strings"
	"sync"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/workload"
)

// Entry is one choice of a registry: its name, a one-line doc, and the
// configuration keys (parameters) only it reads among its registry's
// entries; package scenario's key table holds their defaults and docs.
type Entry struct {
	Name  string
	Doc   string
	Reads []string
}

// Registry is the table of the choices one key selects (routing.mode,
// transport.kind, …). Config.validate, package scenario's parser, rdcn
// simulate --keys, the docs' tables and the error messages all read it.
type Registry struct {
	Key     string // the key that selects an entry
	What    string // what an entry is, for messages: "routing mode"
	Entries []Entry
}

// Names lists the entries' names in table order.
func (r Registry) Names() []string {
	out := make([]string, len(r.Entries))
	for i, e := range r.Entries {
		out[i] = e.Name
	}
	return out
}

// Lookup returns the entry called name.
func (r Registry) Lookup(name string) (Entry, bool) {
	for _, e := range r.Entries {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// Check is nil for a known name, else a *ConfigError naming r.Key and
// listing the valid names.
func (r Registry) Check(name string) error {
	if _, ok := r.Lookup(name); ok {
		return nil
	}
	return cfgErr(r.Key, "unknown %s %q (want %s)", r.What, name, strings.Join(r.Names(), ", "))
}

// Readers lists the entries that read key; nil if no entry of r reads it
// (then r says nothing about key).
func (r Registry) Readers(key string) []string {
	var out []string
	for _, e := range r.Entries {
		if slices.Contains(e.Reads, key) {
			out = append(out, e.Name)
		}
	}
	return out
}

// Choices is the names joined for a key's doc: "a, b or c".
func (r Registry) Choices() string {
	n := r.Names()
	if len(n) == 1 {
		return n[0]
	}
	return strings.Join(n[:len(n)-1], ", ") + " or " + n[len(n)-1]
}

// BufferPolicies: how a switch's shared buffer is divided among its
// queues: package tor's registry (bufferPolicyEntries).
// Built on first use, after every init has registered its policies.
func BufferPolicies() Registry { return bufferPolicies() }

var bufferPolicies = sync.OnceValue(func() Registry {
	return Registry{Key: "buffer.policy", What: "buffer policy", Entries: bufferPolicyEntries()}
})

// Routers: how a ToR picks a packet's next hop (package routing's table
// of modes).
func Routers() Registry { return routers() }

var routers = sync.OnceValue(func() Registry {
	return Registry{Key: "routing.mode", What: "routing mode", Entries: routerEntries()}
})

// Transports: how hosts send. Its entries are package cc's transports
// (cc.Transports: each flow end's behaviour, doc and keys) with what the
// fabric adds to them (fabricTransports), then the transports registered
// with cc.RegisterTransport, which the fabric runs as it runs linerate
// and window at the switches (docs/extending.md). Built on first use,
// after every init has registered its transports.
func Transports() Registry { return transports() }

var transports = sync.OnceValue(transportRegistry)

// fabricTransport is one transport.kind: the cc transport of its flows,
// and what the fabric adds: ToRs that pull host-buffered flows (their
// ends are cc's pull transport), and keys the fabric reads for it.
type fabricTransport struct {
	name  string   // transport.kind
	flows string   // the cc transport of the flows the ToRs do not pull
	doc   string   // the entry's doc if not cc's: the fabric's side too
	more  string   // added to cc's doc
	reads []string // keys the fabric reads besides cc's
	// pulledReads: of reads, the keys read only for pulled flows (the
	// others, and cc's, only for the flows that are not pulled).
	pulledReads []string
	// law: the flows transport.cc drives; policy: the packets
	// buffer.policy decides for (docs/simulate.md's table).
	law, policy string
}

var fabricTransports = []fabricTransport{
	{name: Windowed, flows: cc.TransportWindow, reads: []string{"transport.acks", "transport.handshake", "transport.incast_handshake"},
		law: "every flow", policy: "every packet: data and ACKs"},
	{name: LineRate, flows: cc.TransportLineRate,
		law: "none (no window: every flow sends at the NIC rate)", policy: "every packet"},
	{name: Pull, flows: cc.TransportWindow,
		doc:   "circuit traffic waits at the hosts and ToRs pull it when a circuit can take it (lossless; with paths only bulk flows); the rest as window",
		reads: []string{"transport.pull_depth", "routing.offer", "transport.acks"}, pulledReads: []string{"transport.pull_depth", "routing.offer"},
		law:    "the flows not pulled: within a rack, and with routing.mode paths those below routing.bulk; with rotorlb or direct and no flow within a rack, none (then the law's keys are refused)",
		policy: "every packet; a pulled one twice: the ToR pulls it only if its policy admits it into the VOQ toward the circuit, and it leaves only if the next ToR's policy admits it into its host queue (a refused packet waits at its host or ToR; pulled packets are never dropped or pushed out)"},
	{name: NDP, flows: cc.TransportNDP, more: "; trimmed headers and control packets wait in a header queue per switch port outside the shared buffer (a header that overflows it returns to its sender); with paths, bulk flows are pulled as with pull",
		reads: []string{"transport.ndp_header_queue", "transport.ndp_dark", "transport.ndp_pull_pacing", "transport.ndp_nic", "transport.ndp_bulk_nic", "transport.ndp_pulls", "transport.ndp_ports", "transport.ndp_header", "transport.pull_depth", "routing.offer"}, pulledReads: []string{"transport.pull_depth", "routing.offer", "transport.ndp_bulk_nic"},
		law:    "none (receivers pace their pulls)",
		policy: "every data packet (a refused one is trimmed to its header); pulled bulk flows' packets as with pull; headers and control packets wait outside the shared buffer"},
}

// FlowKeys splits the keys transport.kind kind reads (its Transports
// entry's Reads) by the flows that read them: pulled, the keys read only
// for flows the ToRs pull; unpulled, the keys read only for the others
// (their congestion-control law, window, ACKs, timers). A run without
// such flows does not read those keys.
func FlowKeys(kind string) (pulled, unpulled []string) {
	e, ok := Transports().Lookup(kind)
	if !ok {
		return nil, nil
	}
	t, _ := builtinTransport(kind) // a registered transport pulls no flow
	for _, k := range e.Reads {
		if slices.Contains(t.pulledReads, k) {
			pulled = append(pulled, k)
		} else {
			unpulled = append(unpulled, k)
		}
	}
	return pulled, unpulled
}

// TransportFlows says, for transport.kind kind, which flows its
// congestion-control law (transport.cc) drives and which packets the
// buffer policy decides for.
func TransportFlows(kind string) (law, policy string) {
	if t, ok := builtinTransport(kind); ok {
		return t.law, t.policy
	}
	spec, ok := cc.LookupTransport(kind)
	switch {
	case !ok:
		return "", ""
	case spec.Law:
		return "every flow", registeredPolicy
	}
	return "none", registeredPolicy
}

// registeredPolicy is what a registered transport's packets meet at the
// switches.
const registeredPolicy = "every packet: data and replies (a registered transport: no pulling, no trimming)"

// builtinTransport is the built-in transport.kind called name; ok is
// false for a transport registered with cc.RegisterTransport.
func builtinTransport(name string) (fabricTransport, bool) {
	for _, t := range fabricTransports {
		if t.name == name {
			return t, true
		}
	}
	return fabricTransport{}, false
}

// Pulled reports whether the ToRs pull flow f (its data waits at its
// host, pull.go): with transport pull, and ndp under paths routing, every
// flow between racks, under paths only the bulk ones (routing.bulk).
// Defaults must be filled (Resolve).
func (c *Config) Pulled(f workload.Flow) bool {
	if !c.pulls() || f.Src/c.HostsPerToR == f.Dst/c.HostsPerToR {
		return false
	}
	return c.Routing != Paths || f.Bytes >= c.BulkBytes
}

// flowTransport is the cc transport of the flows of transport.kind name
// that the ToRs do not pull.
func flowTransport(name string) cc.TransportSpec {
	if t, ok := builtinTransport(name); ok {
		name = t.flows
	}
	spec, ok := cc.LookupTransport(name)
	if !ok {
		panic("fabric: no cc transport " + name)
	}
	return spec
}

// transportRegistry is Transports, built from cc's transports.
func transportRegistry() Registry {
	r := Registry{Key: "transport.kind", What: "transport"}
	for _, t := range fabricTransports {
		spec := flowTransport(t.name)
		e := Entry{Name: t.name, Doc: spec.Doc + t.more, Reads: append(t.reads[:len(t.reads):len(t.reads)], spec.Params...)}
		if t.doc != "" {
			e.Doc = t.doc
		}
		r.Entries = append(r.Entries, e)
	}
	for _, spec := range cc.Transports() {
		if _, ok := builtinTransport(spec.Name); !ok {
			r.Entries = append(r.Entries, Entry{Name: spec.Name, Doc: spec.Doc, Reads: spec.Params})
		}
	}
	return r
}

// CongestionControls: the controller of each windowed flow (package cc).
// Its entries are cc's registry of laws: fixed reads transport.window,
// every law with parameters reads transport.cc_params.
func CongestionControls() Registry { return congestionControls() }

var congestionControls = sync.OnceValue(ccRegistry)

// transportReads reports whether transport.kind kind reads key (its
// Transports entry's Reads).
func transportReads(kind, key string) bool {
	tp, _ := Transports().Lookup(kind)
	return slices.Contains(tp.Reads, key)
}
