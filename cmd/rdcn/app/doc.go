// Package app is the rdcn command as a library: cmd/rdcn's main calls
// Main, and so does a researcher's own main after registering its
// components. rdcn designs, analyses and emulates reconfigurable
// datacenter network schedules. Run "rdcn --help" for the commands.
//
// The subcommands follow the order of a study:
//
//   - demo: RotorNet, Opera, a static expander and Mars on one websearch
//     workload, side by side.
//   - schedule: a periodic circuit schedule (bvn, mars, opera, rotornet,
//     sirius, static, vermilion) as text, rdcn.schedule/v1 JSON or CSV.
//   - demand: a demand matrix from a pattern or file, optionally perturbed
//     by prediction noise and hose-normalised.
//   - throughput: the certified throughput θ(D) of a schedule's emulated
//     graph.
//   - bounds: θ, the route-length, delay and buffer bounds of the Mars
//     chapter (Theorems 14-16).
//   - tradeoff: throughput, delay and buffer across emulated-graph degrees.
//   - predict: θ of Vermilion and BvN schedules built from noisy demand
//     predictions.
//   - simulate: a packet-level run of a rotor fabric (FCTs, utilisation,
//     buffers).
//   - sweep: the product of axes over a simulate, throughput, tradeoff or
//     predict configuration, on all cores, resumable; --shard I/N and
//     --emit slurm|k8s for clusters.
//   - collect: a sweep's points (from any number of shards) as one tidy
//     CSV.
//   - report: one self-contained HTML report of a sweep or a simulate run.
//   - experiment: the papers' figures as named sweeps with reports.
//   - version: the build's version.
//
// "rdcn COMMAND --help" lists a command's flags with examples. schedule,
// demand, throughput, bounds, tradeoff and predict take --format
// text|json|csv and -o FILE.
//
// Exit status: 0 on success; 2 on bad input (a flag, field or file the user
// gave), with one line on stderr of the form "rdcn: FIELD: what is wrong";
// 1 on any other failure, also one "rdcn: " line on stderr; 130 when
// Ctrl-C (SIGINT) or SIGTERM interrupted a command (simulate and demo
// write what they measured, marked "complete": false, or nothing when
// interrupted while building; throughput prints its best certified
// interval, marked stopped; the tradeoff design question prints its best
// recommendation so far, naming the designs not certified); 3 when
// throughput's or tradeoff's --time-limit stopped the solver (it prints
// the same). Results go to
// stdout or -o FILE and are byte-identical for identical inputs; wall
// time is only in simulate's perf.json and on stderr (simulate's last
// line there, throughput --timing).
package app
