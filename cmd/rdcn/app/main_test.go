package app

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
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

// TestBadFlagEveryCommand: every command and nested subcommand answers an
// unknown or malformed flag with status 2, nothing on stdout and one line
// on stderr (issue 25, defect 6: `credence train --bogus`, `experiment run
// --qiuck tradeoff` and `experiment run --jobs x tradeoff` exited 1 and
// printed the usage on stdout).
func TestBadFlagEveryCommand(t *testing.T) {
	var paths [][]string
	var walk func(prefix []string, cmds []*cli.Command)
	walk = func(prefix []string, cmds []*cli.Command) {
		for _, c := range cmds {
			p := append(slices.Clone(prefix), c.Name)
			paths = append(paths, p)
			walk(p, c.Subcommands)
		}
	}
	walk(nil, commands())
	cases := [][]string{{"experiment", "run", "--qiuck", "tradeoff"}, {"experiment", "run", "--jobs", "x", "tradeoff"}}
	for _, p := range paths {
		cases = append(cases, append(slices.Clone(p), "--bogus"))
	}
	for _, args := range cases {
		st, out, e := rdcnRun(args...)
		if st != 2 || out != "" || strings.Count(e, "\n") != 1 || !strings.HasPrefix(e, "rdcn: ") {
			t.Errorf("rdcn %s: status %d, stdout %d bytes, stderr %q; want 2, nothing, one line", strings.Join(args, " "), st, len(out), e)
		}
	}
}
