//go:build unix

package schedules

import (
	"syscall"
	"time"
)

// processCPU is the process's user + system CPU time so far.
func processCPU() time.Duration {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// peakRSSBytes is the process's peak resident set so far (Linux reports
// ru_maxrss in KiB).
func peakRSSBytes() int64 {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return 0
	}
	return int64(r.Maxrss) * 1024
}
