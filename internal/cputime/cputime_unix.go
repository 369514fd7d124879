//go:build unix

package cputime

import (
	"runtime"
	"syscall"
	"time"
)

// Process returns the user+system CPU time this process has used so far
// and its peak resident set size in bytes; ok is false where the system
// does not report them.
func Process() (cpu time.Duration, peakRSS int64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, false
	}
	peakRSS = int64(ru.Maxrss) * 1024 // kilobytes on Linux and the BSDs
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		peakRSS = int64(ru.Maxrss) // bytes on Apple's systems
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), peakRSS, true
}
