// Package experiment holds the papers' figures as named, built-in sweeps
// (package sweep), each at a full and a quick scale, with the published
// values their report (package report) puts beside ours.
//
// Available:
//
//   - tradeoff: thesis Table 7.1 and Fig. 7.1 (kind tradeoff): 16 ToRs,
//     2 uplinks of 400 Gbps, 20 MB, 850 µs, across the degree d.
//
//   - mars-small-buffers: thesis §7.5 (Figs. 7.7–7.9): Mars (deBruijn
//     d = 8, vlb-slice) vs Opera (slice shortest paths, sprayed; bulk flows
//     single-hop) vs RotorNet (VLB) vs a static expander, NDP for all, 1 µs
//     reconfiguration, 9.6 µs slots (Theorem 19's slot for d = 8 at 8
//     packets per port), websearch all-to-all and permutation at 1–20 %
//     load, 4 and 8 packets per port (quick 16 ToRs, full 64 × 4 hosts);
//     every number of the section's text beside ours, and the figures as
//     figure.png (PlotMarsSmallBuffers).
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
//     scale's replicate 1 is run.sh's runs, seeds included, and its
//     replicate 2 derives its seeds; the full scale runs 3 replicates,
//     longer runs and more values. An experiment's Inputs (the
//     TDT trace) are written to DIR/inputs and named in the spec by
//     absolute path.
//
//   - abm-load: the thesis's ABM load sweep (§4.4.2, Fig. 4.6) with
//     replicates: ABM's reduction of the incast and short-flow p99
//     slowdown against DT, FAB, CS and IB at 20, 40 and 80 % load, per
//     seed, reported as the mean over seeds with its per-seed 95 %
//     confidence interval.
//
//   - powertcp-rdcn: the PowerTCP thesis's RDCN case study (§2.4), the
//     schemes of docs/cc.md's table over scenario.RDCNSetup (rdcn.toml and
//     its flow file, an Input): circuit utilisation on demand days and
//     tail queueing latency.
//
// Every published value carries a report.Tolerance beside it (band,
// direction, why); the report and WritePublished show the verdict
// computed from it and the tally "k of n published values reproduced, m
// same direction only". Each experiment runs at least 3 seeds at the full
// scale and 2 at the quick one (unless Deterministic says why not);
// QuickFixedSeed marks a quick scale whose replicate 1 keeps the seeds of
// runs compared point for point (run.sh's, docs/cc.md's).
//
// Experiments not built yet (FB: its set-up has landed, but simulate
// points do not report its mean QCT and leaf uplink load)
// are registered with Available false and a Reason saying what they need;
// Run refuses them. Register adds an experiment when its parts land.
package experiment
