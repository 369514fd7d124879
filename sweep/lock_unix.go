//go:build unix

package sweep

import (
	"errors"
	"os"
	"syscall"
)

// tryLock flocks f without waiting; held is false when another open file
// holds a conflicting lock. A file system that has no locks is not an
// error: the run goes on unlocked.
func tryLock(f *os.File, exclusive bool) (held bool, err error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err = syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	switch {
	case errors.Is(err, syscall.EWOULDBLOCK):
		return false, nil
	case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.ENOSYS):
		return true, nil // a file system without locks: run unlocked, as before
	}
	return err == nil, err
}
