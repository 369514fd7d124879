// Package schedules generates the periodic circuit schedules of
// demand-oblivious reconfigurable datacenter networks as rotor.Schedule
// values, and keeps the registry that turns a kind name plus Params into a
// schedule.
//
// A schedule connects n nodes (ToRs) through U circuit switches; in every
// slot each switch holds one matching. The generators here differ in which
// matchings they use and how they spread them over the switches:
//
//   - rotornet: the n−1 cyclic shifts u → u+i (mod n), dealt round-robin
//     over the U rotor switches; over one period every ordered pair is
//     connected exactly once (a complete graph emulated over time). With
//     SelfSlot the idle self-matching is counted too (n matchings, the
//     convention of the thesis and of Vermilion).
//   - sirius: the same shifts as a tunable-laser schedule: uplink s of every
//     node sweeps its own band of shifts, so the U uplinks of a node reach U
//     distinct destinations in every slot. Nanosecond defaults (3.84 ns
//     reconfiguration, 384 ns slots, duty cycle 0.99).
//   - opera: the n matchings of a random factorisation of K_n with loops,
//     round-robin over U rotors whose slot boundaries are staggered by Δ/U;
//     every slice (the circuits up while no switch changes state) is checked
//     to be connected and its spectral gap is recorded. Above 2048 ToRs
//     (when n = a·b with blocks a ≥ 8) the factorisation is lifted from one
//     of K_b with random Latin squares between blocks, and every sparse
//     slice's gap is certified ≥ half the Ramanujan gap of degree U−1.
//   - static: U edge-disjoint random derangements, a strongly connected
//     U-regular digraph with period 1.
//
// Every random choice comes from rand.NewPCG(Params.Seed, attempt), so the
// same Params always give the identical schedule. Build validates its
// result; bad parameters give a *ParamError naming the field. The
// demand-aware and degree-tuned kinds (mars, vermilion, bvn) live in their
// own packages and are registered in registry.go.
//
// # Registering a generator
//
// Register adds a schedule kind from outside this package, in an init
// function: a Generator with a unique Kind, a one-line Usage, its default
// Slot and Reconf, the optional Params fields it Reads (front ends refuse
// a flag or key that sets a field the chosen kind ignores; Nodes,
// Uplinks, Slot, Reconf and Seed are every kind's) and Build. Build
// should start with p.Timing(kind), draw every random choice from a
// *rand.Rand seeded with p.Seed, return a *ParamError naming the field
// for parameters it cannot use, and return p.Err() from long loops;
// package Build validates the schedule it returns. The kind then works in
// rdcn schedule, throughput, bounds and simulate (schedule.kind). A
// duplicate kind, or a Register after the registry has been read (a run
// has started), panics with the kind.
package schedules
