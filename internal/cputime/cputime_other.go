//go:build !unix

package cputime

import "time"

// Process reports nothing where getrusage does not exist.
func Process() (cpu time.Duration, peakRSS int64, ok bool) { return 0, 0, false }
