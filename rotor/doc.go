// Package rotor models periodic circuit schedules of reconfigurable
// datacenter networks (RDCNs) and the physical units the rest of rdcn uses.
//
// # Schedules
//
// A Schedule connects n nodes (ToRs) through U circuit switches. Every node
// has one uplink and one downlink on each switch. Switch s plays the
// matchings Matchings[s][0], …, Matchings[s][Period−1] in a loop:
// Matchings[s][t][u] = v means that during slot t the uplink of u on switch
// s reaches v (Idle = −1: no circuit). A matching is injective, so every
// slot of a switch is a partial permutation.
//
// A slot lasts Slot (Δ), or SlotDurations[t] when slots differ. Its first
// Δ − Reconf is the "day", when circuits carry traffic; the last Reconf (Δr)
// is the "night", when the switch reconfigures. SwitchOffsets[s] shifts the
// slot boundaries of switch s (Opera staggers its rotors this way): switch s
// starts slot 0 at SwitchOffsets[s] + k·CycleDuration() for every integer k.
// The queries SlotAt, CircuitUp, CircuitsAt and NextConnection answer "what
// is connected when" under exactly these rules.
//
// Validate checks a schedule's shape; its errors are *ValidationError
// values naming the field (for example "matchings[1][3]").
//
// # Units
//
// Time is an int64 number of picoseconds, Rate an int64 number of bits per
// second and Bytes an int64 number of bytes, so simulations are exact and
// deterministic. ParseTime ("100us", "9.9us", "3.84ns"), ParseRate
// ("400Gbps", "25G") and ParseSize ("20MB" = 20·10^6 bytes, "1MiB",
// "8pkt") read them from flags and files, rejecting values that are not a
// whole number of the base unit; the String methods print them back exactly.
// Rate.TransmitTime and Rate.BytesIn convert between bytes and time without
// rounding surprises (serialization times round up).
//
// # Files
//
// WriteJSON and ReadJSON store a schedule as an "rdcn.schedule/v1" JSON
// document (see docs/formats.md): integer picoseconds, one matching a line,
// deterministic bytes.
package rotor
