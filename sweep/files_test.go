package sweep

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestManifestModeFollowsUmask: sweep.json and sweep.toml get the mode
// the points' files get, 0644 less the umask, so that collect on a shared
// results volume can read them (issue 25, defect 16: they were 0600).
func TestManifestModeFollowsUmask(t *testing.T) {
	for _, umask := range []int{0o022, 0o002, 0o077} {
		old := syscall.Umask(umask)
		dir := filepath.Join(t.TempDir(), "res")
		err := Prepare(mustParse(t, small), dir, []byte(small))
		probe := filepath.Join(t.TempDir(), "probe")
		os.WriteFile(probe, nil, 0o644) // as a point's files are written
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		want := mode(t, probe)
		if umask == 0o022 && want != 0o644 {
			t.Fatalf("os.WriteFile under umask 022 gave %v", want)
		}
		for _, name := range []string{ManifestFile, SpecFile} {
			if got := mode(t, filepath.Join(dir, name)); got != want {
				t.Errorf("umask %03o: %s has mode %v, want %v", umask, name, got, want)
			}
		}
	}
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}
