package memlimit

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Limit is memory a process may still allocate, in bytes, and where the
// figure comes from (for the message that quotes it).
type Limit struct {
	Bytes  int64
	Source string // e.g. "MemAvailable in /proc/meminfo", "cgroup memory.max"
}

// Available returns the memory the process may still allocate: the
// smaller of MemAvailable and the cgroup's remaining limit. ok is false
// when neither can be read.
func Available() (Limit, bool) {
	var best Limit
	ok := false
	consider := func(b int64, src string) {
		if b >= 0 && (!ok || b < best.Bytes) {
			best, ok = Limit{b, src}, true
		}
	}
	if f, err := os.Open("/proc/meminfo"); err == nil {
		if b, err := ParseMeminfo(f); err == nil {
			consider(b, "MemAvailable in /proc/meminfo")
		}
		f.Close()
	}
	for _, cg := range []struct{ max, cur, src string }{
		{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current", "cgroup memory.max"},
		{"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes", "cgroup memory.limit_in_bytes"},
	} {
		limit, lerr := readValue(cg.max)
		used, uerr := readValue(cg.cur)
		if lerr == nil && uerr == nil && limit >= 0 {
			consider(max(limit-used, 0), cg.src)
		}
	}
	if as, ok := addressSpaceLimit(); ok {
		if f, err := os.Open("/proc/self/status"); err == nil {
			if vm, err := ParseVmSize(f); err == nil {
				consider(max(as-vm, 0), "the address-space limit (ulimit -v) less the process's virtual size")
			}
			f.Close()
		}
	}
	return best, ok
}

// noLimit is the v1 cgroup's "unlimited" (a page-rounded MaxInt64); any
// limit at or above 2^60 bytes is treated as none.
const noLimit = int64(1) << 60

// ParseCgroupValue reads a cgroup memory file: a byte count, or "max" (no
// limit, returned as −1). v1's huge "unlimited" value is −1 too.
func ParseCgroupValue(r io.Reader) (int64, error) {
	b, err := io.ReadAll(io.LimitReader(r, 64))
	if err != nil {
		return 0, err
	}
	s := strings.TrimSpace(string(b))
	if s == "max" {
		return -1, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("memlimit: cgroup value %q is not a byte count", s)
	}
	if v >= noLimit {
		return -1, nil
	}
	return v, nil
}

func readValue(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return ParseCgroupValue(f)
}

// ParseMeminfo returns MemAvailable from /proc/meminfo text, in bytes.
func ParseMeminfo(r io.Reader) (int64, error) { return parseKB(r, "MemAvailable") }

// ParseVmSize returns VmSize (the process's virtual size) from
// /proc/self/status text, in bytes.
func ParseVmSize(r io.Reader) (int64, error) { return parseKB(r, "VmSize") }

// parseKB reads the "field: N kB" line of a /proc file, in bytes.
func parseKB(r io.Reader, field string) (int64, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), field+":")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("memlimit: %s line %q, want \"N kB\"", field, sc.Text())
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb < 0 || kb > (1<<53) {
			return 0, fmt.Errorf("memlimit: %s %q is not a size", field, f[0])
		}
		return kb * 1024, nil
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("memlimit: no %s line", field)
}
