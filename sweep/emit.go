package sweep

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ClusterJob describes a sweep run as a cluster's array job: Shards
// tasks, task i running "rdcn sweep --shard i/Shards".
type ClusterJob struct {
	Rdcn     string // the rdcn binary as the tasks see it
	SpecPath string // the spec file as the tasks see it (Slurm)
	SpecText []byte // the spec (Kubernetes: shipped in a ConfigMap)
	Dir      string // results directory (Slurm: shared file system path)
	Shards   int
	CPUs     int // CPUs per task, also its --jobs
	Name     string

	Image string // Kubernetes: a container image with rdcn on its PATH
	PVC   string // Kubernetes: the claim of the shared results volume
}

// Check reports the first unusable field.
func (j ClusterJob) Check(points int) error {
	switch {
	case j.Shards < 1:
		return errf("shards", "%d: want at least 1", j.Shards)
	case j.Shards > points:
		return errf("shards", "%d: more than the sweep's %d points", j.Shards, points)
	case j.CPUs < 1:
		return errf("cpus", "%d: want at least 1", j.CPUs)
	case j.Name == "" || strings.ContainsAny(j.Name, " \t\n'\"$`\\"):
		return errf("name", "%q: want a plain job name", j.Name)
	}
	return nil
}

// CheckSlurm refuses a path the Slurm script cannot carry: a control
// character (a newline would end the line it is quoted on) or, in the
// results directory, a backslash (it turns Slurm's %A_%a patterns off in
// the tasks' log name). Every other character is quoted.
func (j ClusterJob) CheckSlurm() error {
	if err := noControl("output", j.Dir, "spec", j.SpecPath, "rdcn", j.Rdcn); err != nil {
		return err
	}
	if strings.Contains(j.Dir, `\`) {
		return errf("output", "%q holds a backslash: Slurm would not expand %%A_%%a in the tasks' log name", j.Dir)
	}
	return nil
}

// noControl refuses the first of the (field, value) pairs whose value
// holds a control character.
func noControl(pairs ...string) error {
	for k := 0; k+1 < len(pairs); k += 2 {
		if i := strings.IndexFunc(pairs[k+1], unicode.IsControl); i >= 0 {
			r, _ := utf8.DecodeRuneInString(pairs[k+1][i:])
			return errf(pairs[k], "%q holds the control character %q: a script line cannot carry it", pairs[k+1], r)
		}
	}
	return nil
}

// sbatchQuote escapes s for an #SBATCH line: sbatch splits it at blanks,
// groups quotes, strips backslashes and ends it at an unescaped #.
// The result is a Slurm file name pattern, where "%%" is a literal %.
func sbatchQuote(s string) string {
	var b strings.Builder
	for i := range len(s) {
		switch c := s[i]; {
		case c == '%':
			b.WriteString("%%")
			continue
		case strings.IndexByte(" \t\n\v\f\r\"'\\#", c) >= 0:
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ShellQuote quotes s for a POSIX shell.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// WriteSlurm writes an sbatch script of a job array: one task per shard,
// each running its shard from $SLURM_ARRAY_TASK_ID into the shared
// results directory.
func WriteSlurm(w io.Writer, j ClusterJob) error {
	if err := j.CheckSlurm(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, `#!/bin/bash
# rdcn sweep as a Slurm job array: %d tasks, task i runs shard i/%d.
# Submit with: sbatch THIS_FILE; then: rdcn collect %s
#SBATCH --job-name=%s
#SBATCH --array=0-%d
#SBATCH --cpus-per-task=%d
#SBATCH --output=%s
set -euo pipefail
exec %s sweep --shard "${SLURM_ARRAY_TASK_ID}/%d" --jobs %d -o %s %s
`, j.Shards, j.Shards, ShellQuote(j.Dir), j.Name, j.Shards-1, j.CPUs,
		sbatchQuote(strings.TrimSuffix(j.Dir, "/"))+"/slurm-%A_%a.out",
		ShellQuote(j.Rdcn), j.Shards, j.CPUs, ShellQuote(j.Dir), ShellQuote(j.SpecPath))
	return err
}

// WriteKubernetes writes a ConfigMap holding the spec and an Indexed Job
// of Shards completions: pod i runs shard i/Shards (from
// $JOB_COMPLETION_INDEX) into the shared volume of claim PVC at /results.
func WriteKubernetes(w io.Writer, j ClusterJob) error {
	if err := noControl("image", j.Image, "pvc", j.PVC); err != nil {
		return err
	}
	for _, f := range [][2]string{{"image", j.Image}, {"pvc", j.PVC}, {"spec", string(j.SpecText)}} {
		if !utf8.ValidString(f[1]) {
			return errf(f[0], "%q is not UTF-8: a manifest cannot carry it", f[1])
		}
	}
	q := strconv.Quote
	cmd := fmt.Sprintf(`exec rdcn sweep --shard "$JOB_COMPLETION_INDEX/%d" --jobs %d -o /results /spec/sweep.toml`, j.Shards, j.CPUs)
	_, err := fmt.Fprintf(w, `# rdcn sweep as a Kubernetes Indexed Job: %d pods, pod i runs shard i/%d.
# Apply with: kubectl apply -f THIS_FILE; then collect the volume's results.
apiVersion: v1
kind: ConfigMap
metadata:
  name: %s
data:
  sweep.toml: %s
---
apiVersion: batch/v1
kind: Job
metadata:
  name: %s
spec:
  completionMode: Indexed
  completions: %d
  parallelism: %d
  backoffLimit: %d
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: rdcn
          image: %s
          command: ["/bin/sh", "-c"]
          args: [%s]
          resources:
            requests:
              cpu: "%d"
          volumeMounts:
            - name: results
              mountPath: /results
            - name: spec
              mountPath: /spec
              readOnly: true
      volumes:
        - name: results
          persistentVolumeClaim:
            claimName: %s
        - name: spec
          configMap:
            name: %s
`, j.Shards, j.Shards, j.Name, q(string(j.SpecText)), j.Name, j.Shards, j.Shards, 2*j.Shards,
		q(j.Image), q(cmd), j.CPUs, q(j.PVC), j.Name)
	return err
}
