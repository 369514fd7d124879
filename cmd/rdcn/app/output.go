package app

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/rdcn/rdcn/stats"
)

// writeOutput writes one output (see writeOutputs). An empty path or "-"
// writes to stdout.
func writeOutput(stdout io.Writer, path string, write func(io.Writer) error) error {
	return writeOutputs(stdout, outputFile{path, write})
}

// outputFile is one output of a command: a path ("" or "-": stdout) and
// what to write there.
type outputFile struct {
	path  string
	write func(io.Writer) error
}

// writeOutputs writes several outputs all or nothing (a table and its
// plot, say). A regular file, or a name that does not exist yet, is
// written to a temporary sibling first and renamed into place only when
// every output succeeded, so a failed command leaves no half-written file.
// A symlink is followed: the file it points to is replaced the same way
// and the link stays (a dangling link is refused). A device, FIFO or
// socket (/dev/null, /dev/stdout, a named pipe) is written directly, with
// no rename, after the staged files and stdout succeeded. A failed write
// anywhere is an error (exit status 1), the staged files are removed.
func writeOutputs(stdout io.Writer, outs ...outputFile) error {
	type staged struct{ tmp, path string }
	var files []staged
	defer func() {
		for _, f := range files {
			os.Remove(f.tmp) // gone already if it was renamed
		}
	}()
	var direct []outputFile
	for _, o := range outs {
		if o.path == "" || o.path == "-" {
			continue
		}
		target, special, err := outputTarget(o.path)
		if err != nil {
			return err
		}
		if special {
			direct = append(direct, outputFile{target, o.write})
			continue
		}
		tmp, err := stage(target, o.write)
		if err != nil {
			return err
		}
		files = append(files, staged{tmp, target})
	}
	for _, o := range outs {
		if o.path == "" || o.path == "-" {
			if err := o.write(stdout); err != nil {
				return fmt.Errorf("stdout: %w", err)
			}
		}
	}
	for _, o := range direct {
		if err := writeDirect(o.path, o.write); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := os.Rename(f.tmp, f.path); err != nil {
			return fmt.Errorf("output %q: %w", f.path, err)
		}
	}
	return nil
}

// outputTarget resolves path: the file a symlink points to, and whether
// it is a special file (neither regular nor missing) to write directly.
// A directory or a dangling symlink is bad input.
func outputTarget(path string) (target string, special bool, err error) {
	target = path
	if st, err := os.Lstat(path); err == nil && st.Mode()&os.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", false, badInput("output", "%q is a symlink to a missing or unreachable file: %v", path, err)
		}
	}
	st, err := os.Stat(target)
	switch {
	case err != nil:
		return target, false, nil // a new file (stage reports a bad directory)
	case st.IsDir():
		return "", false, badInput("output", "%q is a directory, want a file name", path)
	}
	return target, !st.Mode().IsRegular(), nil
}

// writeDirect writes to an existing special file in place.
func writeDirect(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("output %q: %w", path, err)
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("output %q: %w", path, err)
	}
	return nil
}

// stage writes a temporary file next to path and returns its name.
func stage(path string, write func(io.Writer) error) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return "", outputFailure(err, "cannot create %q: %v", path, err)
	}
	err = write(tmp)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("output %q: %w", path, cerr)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// writeJSON writes v as indented JSON with a trailing newline.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// writeRecordCSV writes v, a struct whose fields all carry json tags, as
// CSV: a header row of the JSON field names and one data row, so the
// columns mirror writeJSON(w, v) field for field. A cell holds the JSON
// text of a number (the same shortest round-trip form) and a string
// unquoted; a field JSON omits (omitempty and zero) is an empty cell, so
// every run has the same columns.
func writeRecordCSV(w io.Writer, v any) error {
	rv := reflect.ValueOf(v)
	rt := rv.Type()
	if rt.Kind() != reflect.Struct {
		return fmt.Errorf("csv: %s is not a struct", rt)
	}
	header := make([]string, 0, rt.NumField())
	row := make([]string, 0, rt.NumField())
	for i := range rt.NumField() {
		name, opts, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			return fmt.Errorf("csv: field %s of %s has no JSON name", rt.Field(i).Name, rt)
		}
		header = append(header, name)
		f := rv.Field(i)
		if opts == "omitempty" && f.IsZero() {
			row = append(row, "")
			continue
		}
		switch f.Kind() {
		case reflect.String:
			row = append(row, f.String())
		case reflect.Int, reflect.Int64, reflect.Float64:
			b, err := json.Marshal(f.Interface())
			if err != nil {
				return fmt.Errorf("csv: field %s: %w", name, err)
			}
			row = append(row, string(b))
		default:
			return fmt.Errorf("csv: field %s has kind %s", name, f.Kind())
		}
	}
	return stats.WriteCSV(w, header, [][]string{row})
}
