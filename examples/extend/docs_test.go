package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docStep is one step of docs/extending.md: a file to write, or a command
// with its expected output and exit status.
type docStep struct {
	file, content string // a file
	cmd           string
	want          []string // expected output lines; "…" is a wildcard
	exit          int
}

var (
	fileMarker = regexp.MustCompile(`^<!-- file: (\S+) -->$`)
	exitSuffix = regexp.MustCompile(`\s+# exit (\d+)$`)
	trailingCd = regexp.MustCompile(`(?:^|&&\s*)cd (\S+)$`)
)

// parseDoc reads the walk-through: a fenced block after a file marker is a
// file; a console block holds "$ command" lines, each followed by its
// output.
func parseDoc(t *testing.T, text string) []docStep {
	var steps []docStep
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if m := fileMarker.FindStringSubmatch(lines[i]); m != nil {
			i += 2 // the fence
			var body strings.Builder
			for ; !strings.HasPrefix(lines[i], "```"); i++ {
				body.WriteString(lines[i] + "\n")
			}
			steps = append(steps, docStep{file: m[1], content: body.String()})
			continue
		}
		if lines[i] != "```console" {
			continue
		}
		for i++; !strings.HasPrefix(lines[i], "```"); i++ {
			if cmd, ok := strings.CutPrefix(lines[i], "$ "); ok {
				s := docStep{cmd: cmd}
				if m := exitSuffix.FindStringSubmatch(cmd); m != nil {
					s.exit, _ = strconv.Atoi(m[1])
					s.cmd = strings.TrimSuffix(cmd, m[0])
				}
				steps = append(steps, s)
				continue
			}
			if len(steps) == 0 || steps[len(steps)-1].cmd == "" {
				t.Fatalf("output line %q before any command", lines[i])
			}
			steps[len(steps)-1].want = append(steps[len(steps)-1].want, lines[i])
		}
	}
	return steps
}

// matchLines matches output against the expected lines: "…" alone skips
// any number of lines, "…" inside a line any text.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "…" {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	if len(got) == 0 {
		return false
	}
	parts := strings.Split(want[0], "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^"+strings.Join(parts, ".*")+"$").MatchString(got[0]) && matchLines(want[1:], got[1:])
}

// TestExtendingWalkthrough runs docs/extending.md from an empty directory:
// every file it shows is written, every command run, and every output
// compared. Its harmonic.go must be this module's, byte for byte.
func TestExtendingWalkthrough(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a module and runs a sweep (about a minute)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "extending.md"))
	if err != nil {
		t.Fatal(err)
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH:", err)
	}
	steps := parseDoc(t, string(doc))
	if len(steps) < 10 {
		t.Fatalf("only %d steps parsed from docs/extending.md", len(steps))
	}
	own, err := os.ReadFile("harmonic.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	env := append(os.Environ(), "RDCN="+root, "GOWORK=off", "PATH="+filepath.Dir(gobin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, s := range steps {
		if s.file != "" {
			if s.file == "harmonic.go" && s.content != string(own) {
				t.Errorf("docs/extending.md's harmonic.go differs from examples/extend/harmonic.go")
			}
			if err := os.WriteFile(filepath.Join(dir, s.file), []byte(s.content), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		cmd := exec.Command("bash", "-c", s.cmd)
		cmd.Dir, cmd.Env = dir, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", s.cmd, err)
		}
		if s.cmd == "go mod tidy" && code != 0 {
			t.Skipf("go mod tidy cannot fetch the dependencies here (offline?): %s", out.String())
		}
		got := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
		if out.Len() == 0 {
			got = nil
		}
		if code != s.exit || !matchLines(s.want, got) {
			t.Fatalf("$ %s\nexit %d (doc: %d), output:\n%s\ndoc shows:\n%s", s.cmd, code, s.exit, out.String(), strings.Join(s.want, "\n"))
		}
		if m := trailingCd.FindStringSubmatch(s.cmd); m != nil {
			dir = filepath.Join(dir, m[1])
		}
	}
}
