package sweep

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// hostilePaths are results directories and spec paths that try to run
// `touch PWNED` from the Slurm script.
var hostilePaths = []string{
	"r\ntouch PWNED\n#",
	"r'$(touch PWNED)'",
	"r$(touch PWNED)",
	"r`touch PWNED`",
	`r"; touch PWNED; "`,
	`r'; touch PWNED; '`,
	"a b#c %A %% d",
	"r\rtouch PWNED",
	`r\`,
	"it's",
	"/",
	"",
}

// stubRdcn writes an executable that records its arguments, NUL
// separated, into $RDCN_ARGS.
func stubRdcn(t testing.TB) string {
	t.Helper()
	stub := filepath.Join(t.TempDir(), "rdcn")
	if err := os.WriteFile(stub, []byte("#!/bin/sh\nprintf '%s\\0' \"$@\" > \"$RDCN_ARGS\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return stub
}

// sbatchArgument reads an #SBATCH line's argument as sbatch does: a
// backslash escapes the next character, quotes group, an unescaped # ends
// the line, a blank ends the argument.
func sbatchArgument(line string) string {
	var b strings.Builder
	var quote byte
	escaped := false
	for i := range len(line) {
		r := line[i]
		switch {
		case escaped:
			escaped = false
		case r == '\\':
			escaped = true
			continue
		case quote != 0:
			if r == quote {
				quote = 0
				continue
			}
		case r == '"' || r == '\'':
			quote = r
			continue
		case r == '#' || r == ' ' || r == '\t':
			return b.String()
		}
		b.WriteByte(r)
	}
	return b.String()
}

// checkSlurmScript checks an emitted script: bash -n passes; run as task 0
// in an empty directory, it runs only rdcn with the job's arguments and
// creates nothing; sbatch reads the results directory's log pattern back.
func checkSlurmScript(t *testing.T, bash, script string, j ClusterJob) {
	t.Helper()
	work := t.TempDir()
	file := filepath.Join(t.TempDir(), "job.sh")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bash, "-n", file).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v\n%s\n%s", err, out, script)
	}
	argsFile := filepath.Join(t.TempDir(), "args")
	cmd := exec.Command(bash, file)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID=0", "RDCN_ARGS="+argsFile)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("running the script: %v\n%s\n%s", err, out, script)
	}
	if entries, _ := os.ReadDir(work); len(entries) > 0 {
		t.Errorf("the script created %s in its directory:\n%s", entries[0].Name(), script)
	}
	raw, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatalf("rdcn did not run: %v\n%s", err, script)
	}
	got := strings.Split(strings.TrimSuffix(string(raw), "\x00"), "\x00")
	want := []string{"sweep", "--shard", "0/" + strconv.Itoa(j.Shards), "--jobs", strconv.Itoa(j.CPUs), "-o", j.Dir, j.SpecPath}
	if !slices.Equal(got, want) {
		t.Errorf("rdcn ran with %q, want %q\n%s", got, want, script)
	}
	wantLog := strings.ReplaceAll(strings.TrimSuffix(j.Dir, "/"), "%", "%%") + "/slurm-%A_%a.out"
	for line := range strings.Lines(script) {
		if v, ok := strings.CutPrefix(line, "#SBATCH --output="); ok {
			if got := sbatchArgument(strings.TrimSuffix(v, "\n")); got != wantLog {
				t.Errorf("sbatch reads --output=%q, want %q", got, wantLog)
			}
		}
	}
}

// TestSlurmHostilePaths: a results directory or spec path holding a
// newline, quotes, $() or backticks is refused or quoted; no script runs
// anything but rdcn (issue 25, defect 3).
func TestSlurmHostilePaths(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	stub := stubRdcn(t)
	for _, p := range hostilePaths {
		for _, j := range []ClusterJob{
			{Rdcn: stub, SpecPath: "/s.toml", Dir: p, Shards: 2, CPUs: 3, Name: "n"},
			{Rdcn: stub, SpecPath: p, Dir: "/res", Shards: 2, CPUs: 3, Name: "n"},
		} {
			var b bytes.Buffer
			if err := WriteSlurm(&b, j); err != nil {
				if j.CheckSlurm() == nil {
					t.Errorf("%q: WriteSlurm: %v, but CheckSlurm passes", p, err)
				}
				if strings.Count(err.Error(), "\n") > 0 {
					t.Errorf("%q: a multi-line error %q", p, err)
				}
				continue
			}
			if strings.ContainsAny(p, "\n\r") {
				t.Errorf("%q: a path with a line break was accepted", p)
			}
			checkSlurmScript(t, bash, b.String(), j)
		}
	}
}

func FuzzSlurmScript(f *testing.F) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		f.Skip("bash not found")
	}
	stub := stubRdcn(f)
	for _, p := range hostilePaths {
		f.Add(p, "/spec.toml", 1, 1)
		f.Add("/res", p, 4, 2)
	}
	f.Fuzz(func(t *testing.T, dir, spec string, shards, cpus int) {
		j := ClusterJob{Rdcn: stub, SpecPath: spec, Dir: dir, Shards: shards, CPUs: cpus, Name: "n"}
		if j.Check(1<<20) != nil {
			return
		}
		var b bytes.Buffer
		if err := WriteSlurm(&b, j); err != nil {
			if j.CheckSlurm() == nil {
				t.Fatalf("WriteSlurm: %v, but CheckSlurm passes", err)
			}
			return
		}
		checkSlurmScript(t, bash, b.String(), j)
	})
}

// FuzzKubernetesManifest: the manifest parses as YAML and carries the
// image, the claim and the spec unchanged, whatever they hold.
func FuzzKubernetesManifest(f *testing.F) {
	for _, p := range hostilePaths {
		f.Add(p, "rdcn-results", "kind = \"simulate\"\n")
		f.Add("rdcn:latest", p, p)
	}
	f.Fuzz(func(t *testing.T, image, pvc, spec string) {
		j := ClusterJob{SpecText: []byte(spec), Shards: 2, CPUs: 1, Name: "n", Image: image, PVC: pvc}
		var b bytes.Buffer
		if err := WriteKubernetes(&b, j); err != nil {
			if noControl("image", image, "pvc", pvc) == nil && utf8.ValidString(image) && utf8.ValidString(pvc) && utf8.ValidString(spec) {
				t.Fatalf("WriteKubernetes: %v", err)
			}
			return
		}
		dec := yaml.NewDecoder(&b)
		var cm, job struct {
			Data map[string]string
			Spec struct {
				Template struct {
					Spec struct {
						Containers []struct{ Image string }
						Volumes    []struct {
							PersistentVolumeClaim struct {
								ClaimName string `yaml:"claimName"`
							} `yaml:"persistentVolumeClaim"`
						}
					}
				}
			}
		}
		if err := dec.Decode(&cm); err != nil {
			t.Fatalf("ConfigMap: %v", err)
		}
		if err := dec.Decode(&job); err != nil {
			t.Fatalf("Job: %v", err)
		}
		pod := job.Spec.Template.Spec
		if cm.Data["sweep.toml"] != spec || pod.Containers[0].Image != image || pod.Volumes[0].PersistentVolumeClaim.ClaimName != pvc {
			t.Errorf("spec %q image %q claim %q; want %q %q %q", cm.Data["sweep.toml"], pod.Containers[0].Image,
				pod.Volumes[0].PersistentVolumeClaim.ClaimName, spec, image, pvc)
		}
	})
}
