// Package limits holds the size limits the command line and the sweep
// kinds share, and readers that stop at a byte limit.
//
// A dense n×n matrix or schedule of n² entries takes 512 MiB at
// n = MaxTors, so the front ends (rdcn's commands and sweep points) refuse
// a larger n with one line instead of running out of memory; the library
// packages take any size the machine holds.
//
// Files a user names (a sweep spec, a --config, a schedule, a demand
// matrix) are read through Reader, which fails with a *TooLargeError
// naming the file once more than its limit would be read: /dev/zero or a
// mistyped path to a disk image ends with one line, not an out-of-memory
// crash.
package limits

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxTors caps ToRs (and uplinks) in the analysis front ends.
const MaxTors = 8192

// Byte limits of the files rdcn reads whole.
const (
	// MaxTextBytes: a TOML sweep spec or configuration (100 000 axis
	// values take about 1 MB).
	MaxTextBytes = 16 << 20
	// MaxScheduleBytes: an rdcn.schedule/v1 file; a rotornet or opera
	// schedule of MaxTors ToRs and 4 uplinks takes about 270 MB.
	MaxScheduleBytes = 1 << 30
	// MaxMatrixBytes: a demand matrix file; MaxTors² entries of up to 24
	// characters each.
	MaxMatrixBytes = 2 << 30
)

// TooLargeError is a file longer than the limit for its use.
type TooLargeError struct {
	Name  string // the file, as the user named it
	Limit int64  // bytes
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, the limit for this input", e.Name, Bytes(e.Limit))
}

// Bytes prints a limit in bytes, MiB or GiB.
func Bytes(b int64) string {
	if b < 1<<20 {
		return fmt.Sprintf("%d bytes", b)
	}
	if b >= 1<<30 && b%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB", b>>30)
	}
	return fmt.Sprintf("%d MiB", b>>20)
}

// Reader returns r reading at most limit bytes; one more gives a
// *TooLargeError naming name.
func Reader(r io.Reader, name string, limit int64) io.Reader {
	return &capped{r: r, name: name, limit: limit, left: limit}
}

type capped struct {
	r           io.Reader
	name        string
	limit, left int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, &TooLargeError{c.name, c.limit}
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return n - 1, &TooLargeError{c.name, c.limit}
	}
	return n, err
}

// ReadFile reads the file path whole, refusing one longer than limit
// before reading it when its size is known (a regular file) and once the
// limit is passed otherwise (a pipe, a device).
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(512)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		if fi.Size() > limit {
			return nil, &TooLargeError{path, limit}
		}
		size = fi.Size() + 1
	}
	b := make([]byte, 0, size)
	r := Reader(f, path, limit)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Open opens path for reading through Reader: Close closes the file.
func Open(path string, limit int64) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
		f.Close()
		return nil, &TooLargeError{path, limit}
	}
	return struct {
		io.Reader
		io.Closer
	}{Reader(f, path, limit), f}, nil
}
