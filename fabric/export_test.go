package fabric

import (
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
	"github.com/rdcn/rdcn/workload"
)

// Hooks for the external tests (package fabric_test): they build their
// setups from configuration keys with package scenario, which imports
// fabric, so they cannot be internal tests; these give them what they
// inspect inside the engine.

// Sim is the emulator of one run.
type Sim = sim

// NewSim fills cfg's defaults, validates it and builds its emulator
// without running it.
func NewSim(cfg Config) (*Sim, error) { return newSimFor(cfg) }

// Run runs the emulation to its end.
func (s *sim) Run() (*Result, error) { return s.run() }

// Switches lists every switch: ToRs or leaves, the packet switch, spines.
func (s *sim) Switches() []*tor.ToR { return s.switches() }

// NextLeave is when the last packet booked on ToR t's host ports leaves
// (the pull transport's lazily settled room).
func (s *sim) NextLeave(t int) rotor.Time { return s.pull.nextLeave[t] }

// SkippedOffers counts the stored-packet offers skipped because no
// circuit could be up.
func (s *sim) SkippedOffers() int64 { return s.pull.skipped }

// Modes reports whether circuit traffic is pulled, NDP runs, and RotorLB
// relays directly (not pulled).
func (s *sim) Modes() (pulling, ndp, relay bool) { return s.pulling, s.ndp.on, s.relay != nil }

// Pulled reports whether flow f would be host-buffered and pulled.
func (s *sim) Pulled(f workload.Flow) bool { return s.pulled(&flowState{f: f}) }

// CredenceDefault is the built-in Credence model's file.
var CredenceDefault = credenceDefault

// BaseConfig is the hand-computed tests' Config (fabric_test.go).
var BaseConfig = baseConfig

// ApplyDefaults fills c's zero fields with their defaults, as Run does.
func ApplyDefaults(c *Config) { c.defaults() }

// PhantomTurns counts the booked ToR→host turns that held their port with
// nothing to send (a pushed-out packet's turn not given back).
func (s *sim) PhantomTurns() int64 { return s.m.phantomTurns }

// PulledPushOuts counts the queued packets pushed out to admit pulled ones.
func (s *sim) PulledPushOuts() int64 { return s.m.pulledPushOuts }

// HostPushOuts counts the packets pushed out of the rotor ToRs' host queues.
func (s *sim) HostPushOuts() int64 { return s.m.hostPushOuts }

// Rerouted reports the packets moved at nights to a new next hop, and what
// moving them changed in their ToR: buffer bytes lost (dropped on the
// way), packets marked for ECN, and bytes counted as sent by the queue they left.
func (s *sim) Rerouted() (moved, lost, marks, drained int64) {
	return s.m.rerouted, s.m.rerouteLost, s.m.rerouteMarks, s.m.rerouteDrained
}

// NoFillShortcut makes fill look at a pair's pull lists every time, as
// before mayPull (the outputs must not change).
func (s *sim) NoFillShortcut() { s.pull.noShortcut = true }

// ShadowStores keeps every stored relayed packet whole beside its store
// entry and checks each packet made from an entry against it
// (storeShadow).
func (s *sim) ShadowStores() { s.pull.shadow = &storeShadow{stored: map[[2]int][]shadowPkt{}} }

// ShadowCompared counts the packets made from store entries that
// ShadowStores compared, and the stored packets it still holds.
func (s *sim) ShadowCompared() (compared int64, held int) {
	for _, l := range s.pull.shadow.stored {
		held += len(l)
	}
	return s.pull.shadow.compared, held
}

// StoredNow counts the relayed packets the ToRs' hosts store now.
func (s *sim) StoredNow() (n int32) {
	for _, k := range s.pull.storedAt {
		n += k
	}
	return n
}

// StoredPeak is the most relayed packets one ToR's hosts stored at once.
func (s *sim) StoredPeak() int32 { return s.pull.storedPeak }

// CircuitTablesAgree reports the first ToR pair whose upTo or nextTo
// table entry differs from the scan of the uplinks' peers, or −1s if all
// agree (or the fabric keeps no tables).
func (s *sim) CircuitTablesAgree() (t, v int) {
	if s.upToTab == nil {
		return -1, -1
	}
	for t := 0; t < s.n; t++ {
		for v := 0; v < s.n; v++ {
			if s.upToTab[t*s.n+v] != s.upToPeers(t, v) || s.nextToTab[t*s.n+v] != s.nextToPeers(t, v) {
				return t, v
			}
		}
	}
	return -1, -1
}

// CircuitTables reports whether the fabric keeps upTo and nextTo in
// tables per ToR pair.
func (s *sim) CircuitTables() bool { return s.upToTab != nil }

// StoreErrors runs run.check's check of the relay stores on every pair
// now ("" if every store is in order and its storeLast is its tail's).
func (s *sim) StoreErrors() string {
	ps := &s.pull
	for t := range s.n {
		for v := range s.n {
			if pd := ps.dests.get(t, v); pd != nil {
				if err := s.checkStore(pd); err != "" {
					return err
				}
			}
		}
	}
	return ""
}

// StoresHeld counts the relay stores that hold packets.
func (s *sim) StoresHeld() (stores int) {
	ps := &s.pull
	for t := range s.n {
		for v := range s.n {
			if pd := ps.dests.get(t, v); pd != nil && pd.store.Len() > 0 {
				stores++
			}
		}
	}
	return stores
}

// StaleStoredPacket moves the ready time of the last relayed packet of
// the first store it finds that holds one a picosecond later, as a writer
// of the packet that forgot its store would; false if no store holds one.
func (s *sim) StaleStoredPacket() bool {
	ps := &s.pull
	for t := range s.n {
		for v := range s.n {
			if pd := ps.dests.get(t, v); pd != nil && pd.store.Len() > 0 {
				pd.store.At(pd.store.Len()-1).ready++
				return true
			}
		}
	}
	return false
}
