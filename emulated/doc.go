// Package emulated analyses periodic circuit schedules through their
// emulated graph.
//
// A periodic schedule is an evolving graph: switch s connects u to
// M_{s,t}(u) during the day of slot t (the first Δ_t − Δr of it) and the
// pattern repeats every period. Theorem 13 of the Mars chapter shows that it
// has exactly the throughput of one static graph, the emulated graph
// (Corollary 1), whose arc u→v has capacity
//
//	c · Σ_s Σ_t [M_{s,t}(u) = v] · (Δ_t − Δr) / Σ_t Δ_t,
//
// the average rate at which the schedule offers u→v circuits. FromSchedule
// builds it (capacities in units of the link rate c; switch offsets shift
// time but not averages, self-maps carry nothing).
//
// Throughput θ(D) is the largest factor such that θ·D is routable, with D
// the demand normalised to the hose model (busiest row or column = U·c).
// Throughput solves this maximum concurrent flow problem over any routing
// in its net-flow form (simple paths: no commodity re-enters its source)
// and returns a certificate: a feasible flow that routes Lower·D and a dual
// length function l that proves
//
//	θ ≤ Upper = Σ_e c_e·l_e / Σ_{s,t} D_st·dist_l(s,t).
//
// On graphs of 256 nodes or more the solver's first upper bound comes
// from the hop structure (hopLengths: the first arcs of each commodity's
// fewest-hop paths count one hop more), about (1 + d/n)/3 on a diameter-2
// deBruijn graph, where its own bound starts near 1/2.
//
// Verify re-checks a certificate with independent code (Floyd–Warshall for
// the distances). SingleHop (direct circuits only) and VLB (Valiant load
// balancing over shortest paths) are the two fixed routings. Routings
// lists every routing under the name rdcn throughput's --routing takes,
// with its solver and whether it is certified to a gap or exact.
//
// A long solve can be watched and stopped: Options.Progress receives the
// certified interval after every iteration, and when Options.Context is
// done Throughput returns the best certificate so far (valid, only wider;
// Result.Interrupted). Flow certificates are sparse per source
// (SourceFlow), so they take memory in proportion to the arcs they use.
//
// Recommend answers the design question "which design, at which slot
// length, gives the highest throughput within a buffer B and a delay
// budget L?": for the static topology, RotorNet, Opera and Mars at every
// multiple of U it solves Theorems 18–19 for the slots at which the design
// meets B and L, certifies its θ once (the duty cycle 1 − Δr/Δ scales it
// exactly) and picks the feasible (design, slot) with the highest
// certified θ. Without a fixed Reconf, Δr is ReconfFraction of each slot.
// The designs are refined in rounds, best first, each only while it could
// still be recommended under Δr or any of ReconfAlternatives and that
// recommendation is not yet settled within the gap (branch and bound over
// designs; the others keep a certified, wider interval, Status CannotWin
// or Settled); RefineAll certifies every one to the gap, with the same
// recommended designs and slots where no two designs lie within the gap
// of each other.
//
// Units: capacities and flows are in multiples of the link rate c; times
// are rotor.Time picoseconds, buffers bytes.
package emulated
