//go:build !unix

package sweep

import "os"

// tryLock: no flock here; results directories are not locked.
func tryLock(*os.File, bool) (bool, error) { return true, nil }
