// Package operasim exports an rdcn schedule to opera-sim, the htsim-based
// packet simulator of Opera ("Expanding across time to deliver bandwidth
// efficiency and low latency", NSDI 2020), so that both simulators run the
// same circuits, the same paths and the same flows (workload.WriteFlows
// writes the flows in opera-sim's format).
//
// opera-sim reads its network from a topology file that the Opera authors'
// MATLAB scripts write. FromSchedule builds the same content from a
// rotor.Schedule and Write writes it (rdcn schedule --format opera-sim):
//
//   - Time is cut into superslices of Δ/U. Superslice j begins when rotor
//     j mod U takes its next matching (opera-sim's RotorLB commits to that
//     rotor then) and ends with rotor (j+1) mod U dark for r. Each
//     superslice has three slices: ε (every rotor up), δ (every rotor up,
//     but new packets take paths that avoid the rotor about to go dark) and
//     r (that rotor dark). rdcn's Opera and rotornet --stagger have exactly
//     this timing; other schedules are refused with the field at fault.
//   - Each slice lists, per ToR and uplink, the ToR the circuit reaches
//     (the ToR itself when the port is idle, −1 when dark), and per ordered
//     ToR pair the uplink ports of its path. The path is rdcn's own:
//     routing.PathTable's shortest path for the slice's circuits, as
//     routing.mode = paths with routing.paths_k = 1 routes, so a direct
//     circuit is always the path (RotorLB sends on path 0, the direct one).
//
// Decisions where opera-sim's format was silent or differs from rdcn:
//
//   - δ. rdcn routes hop by hop and a packet queued for a dark circuit
//     waits; opera-sim source-routes at the sender's NIC and drops
//     ("clips") a packet that reaches a rotor while it is dark, and NDP
//     then waits for its 1 ms timeout. δ is what keeps packets off a rotor
//     about to go dark, so the export has it (DefaultGuard: half of the
//     day). It costs opera-sim's RotorLB δ of sending per slot (it stops at
//     the end of ε) and puts δ of every superslice on the sparser graph.
//   - One path per pair and slice (rdcn's paths_k = 1); opera-sim picks
//     among the listed paths at random, so a file with one path makes that
//     choice deterministic.
//   - No final newline: opera-sim's reader takes an empty last line for a
//     path and crashes (its flow file reader does the same).
//   - Hosts per ToR = uplinks: opera-sim's RotorLB hard-codes it.
//
// Read parses the format back and Check verifies the invariants every
// export keeps: each uplink's circuits form a matching in every slice
// (or are all dark), every pair has a path in every slice, and every path
// is a simple walk over the circuits up in its slice.
package operasim
