package des

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

// hugePages asks the kernel to back [p, p+n) with transparent huge pages
// (THP in madvise mode, the default of many distributions, gives them
// only to ranges that ask). The advice is a hint: an error (no THP) is
// ignored, and nothing the simulation computes depends on it.
func hugePages(p unsafe.Pointer, n uintptr) {
	_ = syscall.Madvise(unsafe.Slice((*byte)(p), n), syscall.MADV_HUGEPAGE)
}

// HugePagesOn reports whether the kernel gives transparent huge pages to
// ranges that ask (THP "always" or "madvise", not "never").
var HugePagesOn = sync.OnceValue(func() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && !strings.Contains(string(b), "[never]")
})

const (
	hugePage     = 2 << 20 // a transparent huge page on amd64 and arm64 (4 KiB base pages)
	basePage     = 4 << 10
	madvCollapse = 25 // MADV_COLLAPSE, Linux 6.1
	// collapseMin of a huge page's 512 base pages must be resident for
	// CollapseResident to make it one: resident memory grows by at most
	// 1/7 of what it collapses.
	collapseMin = hugePage / basePage * 7 / 8
	// collapseFrom: CollapseResident does nothing while less private
	// anonymous memory than this is resident, half what the second-level
	// TLB of current x86 cores (4,096 entries) covers in 4 KiB pages: its
	// pages stay in the TLB, and collapsing them costs more than it saves.
	collapseFrom = 8 << 20
)

// collapsing serialises CollapseResident (runs may go on in parallel)
// and guards what it keeps between calls: resident, its mincore vector,
// dense, the 2 MiB ranges it found resident enough, and mapsBuf, what it
// read of /proc/self/maps.
var (
	collapsing sync.Mutex
	resident   []byte
	dense      []uintptr
	mapsBuf    []byte
)

// CollapseResident asks the kernel to back with one transparent huge page
// each 2 MiB-aligned range of the process's private anonymous memory (the
// Go heap, mostly) of which at least 7/8 is resident: it advises the range
// (MADV_HUGEPAGE, which also merges the mappings the Go runtime and
// hugePages split it into) and collapses it (MADV_COLLAPSE, Linux 6.1 and
// later; THP "always" or "madvise"). Sparser ranges are left alone, so a
// sparse table stays sparse, and resident memory grows by at most 1/7 of
// what is collapsed. The Go runtime maps its heap in 4 KiB pages, which a
// simulation of tens of MB touches at random: most of its accesses then
// also miss the TLB. A call reads /proc/self/maps and costs a few system
// calls per 2 MiB. Like hugePages it is a hint: errors (an older kernel,
// no THP) are ignored, and nothing a caller computes may depend on it.
func CollapseResident() {
	if !HugePagesOn() {
		return
	}
	collapsing.Lock()
	defer collapsing.Unlock()
	maps := readMaps()
	dense = dense[:0]
	var in int              // resident pages
	var runLo, runHi uint64 // adjacent mappings make one run
	for len(maps) > 0 {
		line := maps
		if i := bytes.IndexByte(maps, '\n'); i >= 0 {
			line, maps = maps[:i], maps[i+1:]
		} else {
			maps = nil
		}
		a, z, ok := anonMapping(line)
		if !ok {
			continue
		}
		if a != runHi {
			in += denseIn(runLo, runHi)
			runLo = a
		}
		runHi = z
	}
	in += denseIn(runLo, runHi)
	if in*basePage < collapseFrom {
		return
	}
	for _, p := range dense {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, p, hugePage, syscall.MADV_HUGEPAGE)
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, p, hugePage, madvCollapse)
	}
}

// mapsPath is /proc/self/maps as the kernel takes it (syscall.Open would
// allocate the conversion at every call).
var mapsPath = []byte("/proc/self/maps\x00")

const atFDCWD = ^uintptr(99) // AT_FDCWD, −100

// readMaps reads /proc/self/maps into mapsBuf (grown as needed, kept, so
// that a call allocates nothing once warm); nil on an error.
func readMaps() []byte {
	r, _, e := syscall.Syscall6(syscall.SYS_OPENAT, atFDCWD, uintptr(unsafe.Pointer(&mapsPath[0])),
		syscall.O_RDONLY|syscall.O_CLOEXEC, 0, 0, 0)
	if e != 0 {
		return nil
	}
	fd := int(r)
	defer syscall.Close(fd)
	if len(mapsBuf) == 0 {
		mapsBuf = make([]byte, 64<<10)
	}
	n := 0
	for {
		if n == len(mapsBuf) {
			mapsBuf = append(mapsBuf, make([]byte, len(mapsBuf))...)
		}
		k, err := syscall.Read(fd, mapsBuf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil
		}
		if k == 0 {
			return mapsBuf[:n]
		}
		n += k
	}
}

// anonMapping parses a line of /proc/self/maps, "lo-hi perms offset dev
// inode [path]", and reports its range if it is private, writable,
// anonymous and unnamed.
func anonMapping(line []byte) (lo, hi uint64, ok bool) {
	var f [6][]byte // the fields
	n := 0
	for len(line) > 0 && n < len(f) {
		for len(line) > 0 && line[0] == ' ' {
			line = line[1:]
		}
		if len(line) == 0 {
			break
		}
		i := bytes.IndexByte(line, ' ')
		if i < 0 {
			i = len(line)
		}
		f[n], line = line[:i], line[i:]
		n++
	}
	if n != 5 || string(f[1]) != "rw-p" || string(f[4]) != "0" {
		return 0, 0, false
	}
	i := bytes.IndexByte(f[0], '-')
	if i < 0 {
		return 0, 0, false
	}
	lo, ok1 := parseHex(f[0][:i])
	hi, ok2 := parseHex(f[0][i+1:])
	return lo, hi, ok1 && ok2
}

// parseHex parses a hexadecimal number of at most 16 digits.
func parseHex(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 16 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | uint64(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | uint64(c-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// denseIn appends to dense the 2 MiB-aligned ranges of the mapped range
// [lo, hi) that are resident enough, and returns how many of their pages
// are resident.
func denseIn(lo, hi uint64) int {
	a, z := uintptr(lo+hugePage-1)&^(hugePage-1), uintptr(hi)&^(hugePage-1)
	if a >= z {
		return 0
	}
	n := int((z - a) / basePage)
	if cap(resident) < n {
		resident = make([]byte, n)
	}
	vec := resident[:n]
	if _, _, e := syscall.Syscall(syscall.SYS_MINCORE, a, z-a, uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		return 0
	}
	const per = hugePage / basePage
	all := 0
	for k := 0; k < n; k += per {
		in := 0
		for _, r := range vec[k : k+per] {
			in += int(r & 1)
		}
		all += in
		if in >= collapseMin {
			dense = append(dense, a+uintptr(k)*basePage)
		}
	}
	return all
}
