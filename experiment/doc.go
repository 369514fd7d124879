// Package experiment holds the papers' figures as named, built-in sweeps
// (package sweep), each at a full and a quick scale, with the published
// values their report (package report) puts beside ours.
//
// Available:
//
//   - tradeoff: thesis Table 7.1 and Fig. 7.1 (kind tradeoff): 16 ToRs,
//     2 uplinks of 400 Gbps, 20 MB, 850 µs, across the degree d.
//   - mars-small-buffers: Mars (deBruijn d = 8, VLB) vs Opera (expander
//     slices) vs RotorNet (VLB) on websearch all-to-all across loads and
//     buffers of a few packets per port (thesis §7.5, Figs. 7.7–7.9), on
//     rdcn's packet emulator with its fixed-window transport (the thesis
//     uses NDP) and a smaller fabric (quick 16 ToRs, full 64).
//   - vermilion-noise: Vermilion (γ = 1, 3, 10), randomised Vermilion and
//     BvN designed from a noisy prediction of a ring demand (thesis
//     §9.6), certified any-routing θ on the truth.
//
// Experiments whose parts have not landed (the buffer policies ABM,
// Credence, FB, TDT, Protean and Reverie; PowerTCP vs reTCP vs HPCC) are
// registered with Available false and the Reason; Run refuses them.
// Register adds an experiment when its parts land.
package experiment
