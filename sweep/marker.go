package sweep

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A point's done marker is its config hash on the first line, then one
// line per file of the point, "SHA256  NAME" as sha256sum writes them
// (sorted by name), so that `tail -n +2 done | sha256sum -c` checks a
// point by hand. A marker of the config hash alone (rdcn before issue
// 25's defect 8) is accepted unchecked.

// writeMarker fsyncs every file of the point directory dir, writes its
// done marker (config hash and each file's SHA-256), fsyncs the marker
// and then dir: once the directory is renamed into place, a power loss
// leaves the point whole or without a marker, never half-written.
func writeMarker(dir, configHash string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(configHash + "\n")
	for _, e := range entries { // ReadDir sorts by name
		if e.Name() == DoneFile || !e.Type().IsRegular() {
			continue
		}
		sum, err := hashFile(filepath.Join(dir, e.Name()), true)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s  %s\n", sum, e.Name())
	}
	f, err := os.OpenFile(filepath.Join(dir, DoneFile), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b.Bytes())
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return syncDir(dir)
}

// hashFile is the hex SHA-256 of the file at path; with sync it fsyncs
// the file too.
func hashFile(path string, sync bool) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	if sync {
		if err := f.Sync(); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// syncDir fsyncs a directory, so that the entries created or renamed in
// it survive a power loss.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// errNoMarker is a point directory without a done marker.
var errNoMarker = fmt.Errorf("no %s marker: unfinished or damaged", DoneFile)

// checkMarker checks the point directory dir against its done marker:
// the config hash (when want is not empty) and every file's SHA-256. The
// error names what does not match.
func checkMarker(dir, want string) error {
	b, err := os.ReadFile(filepath.Join(dir, DoneFile))
	if errors.Is(err, fs.ErrNotExist) {
		return errNoMarker
	}
	if err != nil {
		return fmt.Errorf("%s marker: %v", DoneFile, errText(err))
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	if !sc.Scan() || (want != "" && strings.TrimSpace(sc.Text()) != want) {
		return fmt.Errorf("%s marker does not match the point's configuration", DoneFile)
	}
	var names []string
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 2*sha256.Size || name == "" || name != filepath.Base(name) || slices.Contains(names, name) {
			return fmt.Errorf("%s marker: line %q is not \"SHA256  FILE\"", DoneFile, sc.Text())
		}
		names = append(names, name)
		got, err := hashFile(filepath.Join(dir, name), false)
		if err != nil {
			return fmt.Errorf("%s: %v (listed in %s)", name, errText(err), DoneFile)
		}
		if got != sum {
			return fmt.Errorf("%s: its content differs from the SHA-256 in %s (damaged)", name, DoneFile)
		}
	}
	return nil
}
