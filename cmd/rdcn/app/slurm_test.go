package app

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSlurmLocal runs scripts/slurm-local.sh: a single-node Slurm (Debian's
// slurm-wlm and munge) runs a sweep as a job array, and its collected CSV
// must equal a local run's. It skips where Slurm or root is missing.
func TestSlurmLocal(t *testing.T) {
	for _, tool := range []string{"munged", "slurmctld", "slurmd", "sbatch", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: install slurm-wlm and munge (apt-get install slurm-wlm munge) to run a real Slurm job array", tool)
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("not root: scripts/slurm-local.sh starts munged, slurmctld and slurmd as root")
	}
	script, _ := filepath.Abs("../../../scripts/slurm-local.sh")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "bash", script).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "slurm-local: CSV equal") {
		t.Fatalf("slurm-local.sh: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	t.Log(lines[len(lines)-1])
}
