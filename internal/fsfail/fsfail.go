// Package fsfail tells a file system's failure from a user's mistake.
package fsfail

import (
	"errors"
	"syscall"
)

// Runtime reports whether err is the file system failing — read-only,
// full, out of quota, or an I/O error — rather than a bad path (missing,
// not a directory, no permission): a runtime failure (exit status 1), not
// bad input (2).
func Runtime(err error) bool {
	for _, e := range []syscall.Errno{syscall.EROFS, syscall.ENOSPC, syscall.EDQUOT, syscall.EIO} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
