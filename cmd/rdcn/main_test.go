package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

func TestExitStatus(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		status int
		stderr string
	}{
		{"version", []string{"rdcn", "version"}, 0, ""},
		{"unknown command", []string{"rdcn", "bogus"}, 2, "rdcn: command: unknown command 'bogus' (see rdcn --help)\n"},
		{"unknown flag", []string{"rdcn", "--bogus"}, 2, "rdcn: flags: flag provided but not defined: -bogus\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errw bytes.Buffer
			if got := run(tc.args, &out, &errw); got != tc.status {
				t.Fatalf("status %d, want %d (stderr %q)", got, tc.status, errw.String())
			}
			if errw.String() != tc.stderr {
				t.Errorf("stderr %q, want %q", errw.String(), tc.stderr)
			}
		})
	}
}

func TestWriteOutputLeavesNoFileOnFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	err := writeOutput(nil, path, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return badInput("x", "fails half way")
	})
	if err == nil {
		t.Fatal("want error")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Fatalf("directory holds %d entries after a failed write, want 0", len(entries))
	}
	if err := writeOutput(nil, path, func(w io.Writer) error {
		_, err := w.Write([]byte("whole"))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "whole" {
		t.Fatalf("read %q, %v", b, err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
}

// TestEveryCommandHasExample keeps the README's promise: every command's
// --help shows an example.
func TestEveryCommandHasExample(t *testing.T) {
	for _, c := range commands() {
		var out, errw bytes.Buffer
		if code := run([]string{"rdcn", c.Name, "--help"}, &out, &errw); code != 0 {
			t.Fatalf("%s --help: exit %d: %s", c.Name, code, errw.String())
		}
		if !regexp.MustCompile(`(?m)^\s*example[^:\n]*: rdcn ` + c.Name + `\b`).MatchString(out.String()) {
			t.Errorf("%s --help lacks an example:\n%s", c.Name, out.String())
		}
	}
}
