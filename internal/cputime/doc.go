// Package cputime reads the process's CPU time and peak memory, for
// benchmarks on a shared machine (where wall time is noisy) and for the
// simulator's perf report. It is getrusage behind a build tag, so that
// code using it builds everywhere; off Unix it reports nothing.
package cputime
