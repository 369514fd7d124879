//go:build !linux

package des

import "unsafe"

func hugePages(p unsafe.Pointer, n uintptr) {}

// HugePagesOn reports whether the kernel gives transparent huge pages to
// ranges that ask: never off Linux.
func HugePagesOn() bool { return false }

// CollapseResident asks for huge pages behind resident memory: a no-op
// off Linux.
func CollapseResident() {}
