package des

import (
	"os"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

// hugePages asks the kernel to back [p, p+n) with transparent huge pages
// (THP in madvise mode, the default of many distributions, gives them
// only to ranges that ask). The advice is a hint: an error (no THP) is
// ignored, and nothing the simulation computes depends on it.
func hugePages(p unsafe.Pointer, n uintptr) {
	_ = syscall.Madvise(unsafe.Slice((*byte)(p), n), syscall.MADV_HUGEPAGE)
}

// HugePagesOn reports whether the kernel gives transparent huge pages to
// ranges that ask (THP "always" or "madvise", not "never").
var HugePagesOn = sync.OnceValue(func() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && !strings.Contains(string(b), "[never]")
})
