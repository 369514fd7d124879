//go:build !amd64

package des

import "unsafe"

func prefetch(p unsafe.Pointer) {}
