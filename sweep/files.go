package sweep

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/rdcn/rdcn/stats"
)

func writeJSONFile(dir, name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), append(b, '\n'), 0o644)
}

// table is a CSV file's content.
type table struct {
	header []string
	rows   [][]string
}

func tableOf(header []string, rows [][]string) table { return table{header, rows} }

func writeCSVFile(dir, name string, t table) error {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	if err := stats.WriteCSV(f, t.header, t.rows); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// WriteFileAtomic writes dir/name through a temporary file of a unique
// name and a rename: readers, and concurrent writers of the same content,
// never see half of it, and a failed write leaves nothing behind. The
// file's mode is 0644 less the umask, as os.WriteFile(…, 0o644) gives.
func WriteFileAtomic(dir, name string, b []byte) error {
	f, err := createUnique(dir, "."+name+".tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

var tempSeq atomic.Uint64

// createUnique creates a new file dir/prefix-PID-N with mode 0644 less
// the umask (os.CreateTemp's files are 0600).
func createUnique(dir, prefix string) (*os.File, error) {
	for {
		name := filepath.Join(dir, fmt.Sprintf("%s-%d-%d", prefix, os.Getpid(), tempSeq.Add(1)))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
}
