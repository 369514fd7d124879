// Package experiment holds the papers' figures as named, built-in sweeps
// (package sweep), each at a full and a quick scale, with the published
// values their report (package report) puts beside ours.
//
// Available:
//
//   - tradeoff: thesis Table 7.1 and Fig. 7.1 (kind tradeoff): 16 ToRs,
//     2 uplinks of 400 Gbps, 20 MB, 850 µs, across the degree d.
//
//   - mars-small-buffers: Mars (deBruijn d = 8, VLB) vs Opera (expander
//     slices) vs RotorNet (VLB) on websearch all-to-all across loads and
//     buffers of a few packets per port (thesis §7.5, Figs. 7.7–7.9), on
//     rdcn's packet emulator with its fixed-window transport (the thesis
//     uses NDP) and a smaller fabric (quick 16 ToRs, full 64).
//
//   - vermilion-noise: Vermilion (γ = 1, 3, 10), randomised Vermilion and
//     BvN designed from a noisy prediction of a ring demand (thesis
//     §9.6), certified any-routing θ on the truth.
//
//   - abm, credence, protean, tdt, reverie: the buffer papers' headline
//     figures (incast p99 slowdown against load; incast p95 FCT against DT,
//     ABM, LQD and flipped predictions; tail incast FCT; lossless UDP
//     bursts; PFC pauses against load),
//     sweeps over the set-ups of scenario/testdata/buffers read from
//     scenario.BufferSetups, so each value is written once. Their quick
//     scale is run.sh's runs, seeds included; the full scale adds
//     replicates, longer runs and more values. An experiment's Inputs (the
//     TDT trace) are written to DIR/inputs and named in the spec by
//     absolute path.
//
//   - abm-load: the thesis's ABM load sweep (§4.4.2, Fig. 4.6) with
//     replicates: ABM's reduction of the incast and short-flow p99
//     slowdown against DT, FAB, CS and IB at 20, 40 and 80 % load, per
//     seed, reported as the mean over seeds with its range
//     (report.Published.Spread).
//
//   - powertcp-rdcn: the PowerTCP thesis's RDCN case study (§2.4), the
//     schemes of docs/cc.md's table over scenario.RDCNSetup (rdcn.toml and
//     its flow file, an Input): circuit utilisation on demand days and
//     tail queueing latency.
//
// Experiments not built yet (FB: its set-up has landed, but simulate
// points do not report its mean QCT and leaf uplink load)
// are registered with Available false and a Reason saying what they need;
// Run refuses them. Register adds an experiment when its parts land.
package experiment
