package limits

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReaderBoundary: exactly limit bytes read whole; one more is a
// *TooLargeError naming the input, whatever the read sizes.
func TestReaderBoundary(t *testing.T) {
	for _, chunk := range []int{1, 3, 7, 4096} {
		for _, n := range []int{0, 9, 10, 11, 100} {
			r := Reader(io.LimitReader(strings.NewReader(strings.Repeat("x", n)), int64(n)), "in.txt", 10)
			var got bytes.Buffer
			buf := make([]byte, chunk)
			var err error
			for {
				var k int
				k, err = r.Read(buf)
				got.Write(buf[:k])
				if err != nil {
					break
				}
			}
			var tl *TooLargeError
			if n <= 10 {
				if !errors.Is(err, io.EOF) || got.Len() != n {
					t.Errorf("chunk %d, %d bytes: read %d, err %v; want all and EOF", chunk, n, got.Len(), err)
				}
			} else if !errors.As(err, &tl) || tl.Name != "in.txt" || got.Len() > 10 {
				t.Errorf("chunk %d, %d bytes: read %d, err %v; want at most 10 and a TooLargeError", chunk, n, got.Len(), err)
			}
		}
	}
}

// TestReadFile: a regular file at the limit is read; past it, refused;
// a device is cut at the limit.
func TestReadFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("0123456789"), 0o644)
	if b, err := ReadFile(p, 10); err != nil || string(b) != "0123456789" {
		t.Errorf("ReadFile at the limit = %q, %v", b, err)
	}
	var tl *TooLargeError
	if _, err := ReadFile(p, 9); !errors.As(err, &tl) || err.Error() != p+" is larger than 9 bytes, the limit for this input" {
		t.Errorf("ReadFile past the limit: %v", err)
	}
	if _, err := ReadFile("/dev/zero", 1<<20); !errors.As(err, &tl) || tl.Name != "/dev/zero" {
		t.Errorf("ReadFile(/dev/zero): %v", err)
	}
}
