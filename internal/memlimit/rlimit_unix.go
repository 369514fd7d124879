//go:build unix

package memlimit

import "syscall"

// addressSpaceLimit is the soft RLIMIT_AS (ulimit -v, prlimit --as) in
// bytes; ok is false when there is none.
func addressSpaceLimit() (int64, bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur >= uint64(noLimit) {
		return 0, false
	}
	return int64(rl.Cur), true
}
