// Package sweep runs grids of rdcn configurations: a base configuration
// plus axes (lists of values for any keys), expanded to their product and
// run point by point on local cores or, shard by shard, on a cluster.
//
// A spec (Parse) names a Kind — "simulate" (package fabric, the keys of
// rdcn simulate), "throughput" (the certified θ of package emulated),
// "tradeoff" (thesis Table 7.1, emulated.Tradeoff) or "predict" (one
// point of the thesis §9.6 prediction study, package predict) — a sweep
// seed, a [base] table and [axes]:
//
//	kind = "simulate"
//	seed = 1
//	[base]
//	"run.sim_time" = "20ms"
//	[axes]
//	"workload.load" = [0.1, 0.3, 0.5]
//	seed = [1, 2, 3]          # replicates
//	[[axes.design]]           # a compound axis: each value sets several keys
//	name = "opera"
//	"schedule.kind" = "opera"
//	"routing.mode" = "paths"
//
// Every key is checked against the kind before anything runs.
//
// Decisions the issue left open:
//
//   - Point names are axis=value pairs joined by "_", the axis named by
//     its key's last dotted part (the whole key when two axes share it);
//     a value with characters other than letters, digits and . - + _ has
//     them replaced and a short hash of the value appended.
//   - Seeds: a point's seed mixes (SplitMix64) the sweep seed with its
//     replicate, the value of the "seed" axis (0 without one). Points that
//     differ only in other axes share their seeds (common random numbers:
//     dt and cs see the same flows). Each of the kind's seed keys
//     (simulate: workload.seed, run.seed) that neither the base nor an
//     axis sets gets its own value derived from the point's seed.
//   - Shard I/N (0 ≤ I < N) holds the points whose index is I mod N, so
//     every shard gets a share of every axis; indices follow the axes'
//     order in the file, the last axis varying fastest.
//   - A results directory records the spec's hash (sweep.json) and the
//     spec as given (sweep.toml); a different spec is refused. The hash
//     covers the parsed spec, so comments and spacing do not count.
//   - A point is written into a temporary directory and renamed into
//     points/NAME when complete; its last file, "done", holds a hash of
//     the kind and the resolved configuration, then each other file's
//     SHA-256 ("SHA256  NAME", as sha256sum writes). The files, the marker
//     and both directories are fsynced before and after the rename, so a
//     power loss leaves a point whole or without its marker. Anything
//     without a matching marker, or with a file missing or differing from
//     its hash, is run again from scratch; failures are recorded in
//     failed/NAME.txt and retried by the next run; a record is removed
//     once its point has finished.
//   - A run flocks LockFile in the results directory (unsharded:
//     exclusively; a shard: shared, and its own shard's lock file
//     exclusively), so two runs of the same points refuse to share it.
//   - Collect reads any number of results directories of the same spec
//     (the shards) into a tidy table: one row per point and metric, the
//     axis values as columns (a compound axis: its variant's name),
//     points in sweep order, metrics in the kind's order, numbers as
//     stats.FormatFloat writes them (shortest exact decimal).
//
// WriteSlurm and WriteKubernetes describe the same run as a Slurm job
// array ($SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job
// ($JOB_COMPLETION_INDEX): the cluster schedules the shards, which share
// a results directory or volume.
package sweep
