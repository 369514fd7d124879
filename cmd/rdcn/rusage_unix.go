//go:build unix

package main

import (
	"runtime"
	"syscall"
)

// cpuAndRSS returns the process's CPU seconds (user + system) and peak
// resident set size in bytes.
func cpuAndRSS() (cpu float64, rss int64) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	rss = int64(ru.Maxrss) * 1024 // kilobytes on Linux
	if runtime.GOOS == "darwin" {
		rss = int64(ru.Maxrss) // bytes on macOS
	}
	return tv(ru.Utime) + tv(ru.Stime), rss
}
