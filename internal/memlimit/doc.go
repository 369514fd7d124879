// Package memlimit tells how much memory a process may still allocate, so
// that a command can refuse a job whose estimated memory exceeds it up
// front, with one line, instead of dying with "fatal error: out of memory"
// and a goroutine dump halfway through.
//
// Available takes the smaller of the kernel's MemAvailable (/proc/meminfo:
// free memory plus the page cache and reclaimable slabs it can drop) and,
// when the process runs in a memory-limited cgroup, the cgroup's limit less
// its current usage (cgroup v2 memory.max − memory.current, or v1
// memory.limit_in_bytes − memory.usage_in_bytes). "max" or an absurdly
// large v1 limit means no cgroup limit. Under an address-space limit
// (ulimit -v, prlimit --as) it also takes that limit less the process's
// virtual size (VmSize in /proc/self/status: a Go process reserves
// about 1.6 GB of address space before it allocates anything). Where no
// source exists (not Linux), Available reports ok = false and callers skip
// the check.
//
// The parsers take readers, so tests feed them fixed text; the CLI lets a
// test replace the whole lookup with a small fake limit.
package memlimit
