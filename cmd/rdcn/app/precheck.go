package app

import (
	"os"
	"path/filepath"
)

// checkOutputPath checks, before any work, that the file path named by
// flag can be written: not a directory or a dangling link, in a directory
// that exists and takes a new file. "" and "-" (stdout) pass.
func checkOutputPath(flag, path string) error {
	if path == "" || path == "-" {
		return nil
	}
	target, special, err := outputTarget(path)
	if err != nil {
		return asInput(flag, err)
	}
	if special {
		return nil
	}
	dir := filepath.Dir(target)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return badInput(flag, "%q: the directory %q does not exist", path, dir)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(target)+".check*")
	if err != nil {
		return outputFailure(err, "cannot create %q: %v", path, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}
