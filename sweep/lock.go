package sweep

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// LockFile is the results directory's lock: an unsharded run holds it
// exclusively, a shard shares it and holds its own shard's lock file
// (LockFile + "-shard-I-of-N") exclusively. Shards of one N run side by
// side; a second run of the same points is refused while the first runs.
const LockFile = ".lock"

// dirLock is the locks a run holds; release closes them (so does the
// process's exit, even by SIGKILL).
type dirLock struct{ files []*os.File }

func (l *dirLock) release() {
	for _, f := range l.files {
		f.Close()
	}
}

// lockResults takes the locks of shard in dir, or fails with one line
// naming the directory (and the holder's pid when it wrote one).
func lockResults(dir string, shard Shard) (*dirLock, error) {
	l := &dirLock{}
	main := filepath.Join(dir, LockFile)
	if shard.N <= 1 {
		return l, l.take(dir, main, true)
	}
	if err := l.take(dir, main, false); err != nil {
		return nil, err
	}
	own := fmt.Sprintf("%s-shard-%d-of-%d", main, shard.I, shard.N)
	if err := l.take(dir, own, true); err != nil {
		l.release()
		return nil, err
	}
	return l, nil
}

// take locks path (exclusive: and writes this process's pid into it).
func (l *dirLock) take(dir, path string, exclusive bool) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return outputErr(err)
	}
	held, err := tryLock(f, exclusive)
	if err != nil {
		f.Close()
		return errf("output", "lock %s: %v", path, err)
	}
	if !held {
		b, _ := os.ReadFile(path)
		f.Close()
		holder := ""
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
			holder = fmt.Sprintf(" (pid %d)", pid)
		}
		return fmt.Errorf("output: %s is in use by another rdcn sweep%s; wait for it to end or use another directory", dir, holder)
	}
	f.Truncate(0) // a pid left by an earlier holder
	if exclusive {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	l.files = append(l.files, f)
	return nil
}
