package fabric

import (
	"slices"
	"strings"
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
var BufferPolicies = Registry{Key: "buffer.policy", What: "buffer policy", Entries: bufferPolicyEntries()}

// Routers: how a ToR picks a packet's next hop (package routing's table
// of modes).
var Routers = Registry{Key: "routing.mode", What: "routing mode", Entries: routerEntries()}

// windowKeys are the keys of the windowed flows' transport.
var windowKeys = []string{"transport.cc", "transport.cc_params", "transport.dupthresh", "transport.window", "transport.min_rto", "transport.acks", "transport.ack_size"}

// Transports: how hosts send.
var Transports = Registry{Key: "transport.kind", What: "transport", Entries: []Entry{
	{Name: Windowed, Doc: "reliable: a window (or a congestion controller), ACKs, retransmission on timeout",
		Reads: windowKeys},
	{Name: LineRate, Doc: "unreliable: no window, no ACKs, sends at the NIC rate"},
	{Name: Pull, Doc: "circuit traffic waits at the hosts and ToRs pull it when a circuit can take it (lossless; with paths only bulk flows); the rest as window",
		Reads: append([]string{"transport.pull_depth", "routing.offer"}, windowKeys...)},
	{Name: NDP, Doc: "NDP (Handley et al., SIGCOMM 2017): first window at line rate, then one packet per PULL the receiver paces at its line rate; full switch queues trim data to headers, which with control packets wait in a header queue per port outside the shared buffer (high priority; a header that overflows it returns to its sender), NACKs trigger retransmission; with paths, bulk flows are pulled as with pull",
		Reads: []string{"transport.ndp_window", "transport.ndp_header_queue", "transport.min_rto", "transport.ack_size", "transport.pull_depth", "routing.offer"}},
}}

// CongestionControls: the controller of each windowed flow (package cc).
// Its entries are cc's registry of laws: fixed reads transport.window,
// every law with parameters reads transport.cc_params.
var CongestionControls = ccRegistry()
