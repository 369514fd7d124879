// Package docs_test checks that the documentation stands on its own: a
// clone has no design notes or shared folders beside it, so nothing may
// point there, and every relative link (and its #anchor) must resolve.
package docs_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// outside are the names of material that exists only outside the
// repository; they are split so this file does not match itself.
var outside = []string{"DESIGN" + ".md", "shared" + "/"}

// sources walks the repository (one level up) and returns its Markdown and
// Go files.
func sources(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if ext := filepath.Ext(p); !d.IsDir() && (ext == ".md" || ext == ".go") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("found only %d Markdown and Go files; is the test run from docs/?", len(files))
	}
	return files
}

func TestNoReferenceOutsideTheRepository(t *testing.T) {
	for _, p := range sources(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, o := range outside {
				if strings.Contains(line, o) {
					t.Errorf("%s:%d refers to %q, which a clone does not have: %s", p, i+1, o, strings.TrimSpace(line))
				}
			}
		}
	}
}

// link matches a Markdown link target: [text](target).
var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// heading matches a Markdown heading line.
var heading = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)

// anchor is GitHub's heading slug: lower case, drop everything but
// letters, marks, digits, connector punctuation, spaces and hyphens, then
// spaces become hyphens.
func anchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.Pc):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func anchors(md string) map[string]bool {
	out := map[string]bool{}
	inFence := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
		}
		if m := heading.FindStringSubmatch(line); m != nil && !inFence {
			out[anchor(m[1])] = true
		}
	}
	return out
}

func TestRelativeLinksResolve(t *testing.T) {
	checked := 0
	for _, p := range sources(t) {
		if filepath.Ext(p) != ".md" {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			dest := p
			if file != "" {
				dest = filepath.Join(filepath.Dir(p), file)
			}
			body, err := os.ReadFile(dest)
			if err != nil {
				t.Errorf("%s: link %q: %v", p, target, err)
				continue
			}
			if frag != "" && filepath.Ext(dest) == ".md" && !anchors(string(body))[frag] {
				t.Errorf("%s: link %q: %s has no heading with anchor #%s", p, target, dest, frag)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Errorf("only %d relative links checked", checked)
	}
}

func TestAnchor(t *testing.T) {
	for h, want := range map[string]string{
		"Golden values (tests, c = 1, Δr = 0)": "golden-values-tests-c--1-δr--0",
		"Schedule JSON: `rdcn.schedule/v1`":    "schedule-json-rdcnschedulev1",
		"The §9.6 figure, measured":            "the-96-figure-measured",
	} {
		if got := anchor(h); got != want {
			t.Errorf("anchor(%q) = %q, want %q", h, got, want)
		}
	}
}

// TestReadmeFirstCommands: the README's first commands (its first three
// sh blocks) write every output (-o, >) under out/, which .gitignore
// lists, and every file they read that is not one of those outputs
// (a sweep spec, a configuration) is in the repository.
func TestReadmeFirstCommands(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ignore, err := os.ReadFile("../.gitignore")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains("\n"+string(ignore)+"\n", "\n/out/\n") {
		t.Fatalf(".gitignore does not list /out/:\n%s", ignore)
	}
	blocks := strings.Split(string(readme), "```sh\n")
	if len(blocks) < 4 {
		t.Fatal("README has fewer than three sh blocks")
	}
	outputs, inputs := 0, 0
	for _, b := range blocks[1:4] {
		b, _, _ = strings.Cut(b, "```")
		b = strings.ReplaceAll(b, "\\\n", " ")
		for _, line := range strings.Split(b, "\n") {
			line, _, _ = strings.Cut(line, "#")
			for _, cmd := range strings.Split(line, "&&") {
				f := strings.Fields(cmd)
				if len(f) == 0 || f[0] != "./rdcn" {
					continue
				}
				for i := 1; i < len(f); i++ {
					switch {
					case (f[i] == "-o" || f[i] == "--output" || f[i] == ">") && i+1 < len(f):
						outputs++
						if !strings.HasPrefix(f[i+1], "out/") {
							t.Errorf("%q writes %s, not under out/", strings.TrimSpace(cmd), f[i+1])
						}
						i++
					case strings.HasSuffix(f[i], ".toml") || strings.HasSuffix(f[i], ".json"):
						if strings.HasPrefix(f[i], "out/") {
							continue // an earlier command's output
						}
						inputs++
						if _, err := os.Stat(filepath.Join("..", f[i])); err != nil {
							t.Errorf("%q reads %s, which the repository does not have", strings.TrimSpace(cmd), f[i])
						}
					}
				}
			}
		}
	}
	if outputs < 5 || inputs < 1 {
		t.Errorf("found %d outputs and %d input files in the README's first commands", outputs, inputs)
	}
}
