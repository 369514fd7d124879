package des

import "unsafe"

// prefetch asks the CPU to start loading the cache line at p, without
// waiting for it (PREFETCHT0).
//
//go:noescape
func prefetch(p unsafe.Pointer)
