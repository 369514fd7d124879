//go:build !unix

package main

// cpuAndRSS reports nothing where getrusage does not exist: perf.json then
// shows zero CPU seconds and peak RSS.
func cpuAndRSS() (cpu float64, rss int64) { return 0, 0 }
