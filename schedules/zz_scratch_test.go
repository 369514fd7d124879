package schedules

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func cpuNow() time.Duration {
	var r syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

func TestScratchLift(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("N"))
	max, _ := strconv.Atoi(os.Getenv("MAX"))
	c0 := cpuNow()
	s, err := opera(Params{Nodes: n, Uplinks: 8, Seed: 1}, max)
	if err != nil {
		t.Fatal(err)
	}
	var r syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	fmt.Fprintf(os.Stderr, "n=%d max=%d cpu %v maxrss %d MB meta %v\n", n, max, cpuNow()-c0, r.Maxrss/1024, s.Meta)
}
