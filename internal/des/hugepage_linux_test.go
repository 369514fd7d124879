package des

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// anonHuge reads the AnonHugePages of the mapping that starts at a from
// /proc/self/smaps, in kB (−1: no such mapping).
func anonHuge(t *testing.T, a uintptr) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if lo, _, ok := strings.Cut(strings.Fields(l)[0], "-"); ok && !strings.HasSuffix(l, ":") && len(strings.Fields(l)) >= 5 {
			var v uintptr
			_, err := fmt.Sscanf(lo, "%x", &v)
			in = err == nil && v == a
			continue
		}
		if in && strings.HasPrefix(l, "AnonHugePages:") {
			var kb int
			fmt.Sscanf(strings.TrimPrefix(l, "AnonHugePages:"), "%d", &kb)
			return kb
		}
	}
	return -1
}

// residentPages counts the resident pages of b (mincore).
func residentPages(t *testing.T, b []byte) int {
	t.Helper()
	vec := make([]byte, len(b)/basePage)
	if _, _, e := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatal(e)
	}
	n := 0
	for _, r := range vec {
		n += int(r & 1)
	}
	return n
}

// hugeMapping maps size + 2 MiB of private anonymous memory and returns
// its first 2 MiB-aligned size bytes, touching every step-th page. The
// rest is made read-only, so the size bytes are a mapping of their own in
// smaps (anonHuge), whatever lies next to them.
func hugeMapping(t *testing.T, size, step int) []byte {
	t.Helper()
	m, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { syscall.Munmap(m) })
	off := int((hugePage - uintptr(unsafe.Pointer(&m[0]))%hugePage) % hugePage)
	b := m[off : off+size]
	for _, r := range [][]byte{m[:off], m[off+size:]} {
		if len(r) > 0 {
			if err := syscall.Mprotect(r, syscall.PROT_READ); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := 0; i < len(b); i += step * basePage {
		b[i] = 1
	}
	return b
}

// TestCollapseResident: CollapseResident backs a fully touched range of
// 8 MiB (collapseFrom) with huge pages (AnonHugePages from the kernel's
// smaps; at least one: the kernel may lack a free huge page for another)
// and leaves a range with one page in four touched as it was (its
// resident pages counted by mincore before and after). It fails if the
// call does nothing, or if it collapses sparse ranges (which would make
// their untouched pages resident).
func TestCollapseResident(t *testing.T) {
	if !HugePagesOn() {
		t.Skip("no transparent huge pages")
	}
	probe := hugeMapping(t, hugePage, 1)
	p := uintptr(unsafe.Pointer(&probe[0]))
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, p, hugePage, madvCollapse); e != 0 {
		t.Skipf("MADV_COLLAPSE: %v", e)
	}
	dense, sparse := hugeMapping(t, collapseFrom, 1), hugeMapping(t, 4<<20, 4)
	before := residentPages(t, sparse)
	CollapseResident()
	d := uintptr(unsafe.Pointer(&dense[0]))
	if kb := anonHuge(t, d); kb < hugePage>>10 {
		t.Errorf("a fully resident range of %d kB has %d kB of huge pages after CollapseResident, want some", collapseFrom>>10, kb)
	}
	if after := residentPages(t, sparse); after != before {
		t.Errorf("a range with one page in four resident: %d resident pages before CollapseResident, %d after", before, after)
	}
	if kb := anonHuge(t, uintptr(unsafe.Pointer(&sparse[0]))); kb > 0 {
		t.Errorf("a range with one page in four resident has %d kB of huge pages", kb)
	}
	for i, c := range dense { // what was written is there, the rest zero
		if want := byte(1 - min(i%basePage, 1)); c != want {
			t.Fatalf("byte %d of the collapsed range is %d, want %d", i, c, want)
		}
	}
}

// TestAnonMapping compares anonMapping with a parse by strings.Fields and
// strconv on every line of this process's /proc/self/maps, and on lines
// it must refuse.
func TestAnonMapping(t *testing.T) {
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skip(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	lines = append(lines,
		"7f0000000000-7f0000200000 rw-p 00000000 00:00 0 ",
		"7f0000000000-7f0000200000 rw-s 00000000 00:00 0",
		"7f0000000000-7f0000200000 rw-p 00000000 00:00 0 [stack]",
		"7f0000000000-7f0000200000 rw-p 00001000 08:01 1234 /lib/x.so",
		"7g0000000000-7f0000200000 rw-p 00000000 00:00 0",
		"7f0000000000 rw-p 00000000 00:00 0")
	anon := 0
	for _, l := range lines {
		lo, hi, ok := anonMapping([]byte(l))
		f := strings.Fields(l)
		want := len(f) == 5 && f[1] == "rw-p" && f[4] == "0"
		var wlo, whi uint64
		if want {
			a, z, cut := strings.Cut(f[0], "-")
			var e1, e2 error
			wlo, e1 = strconv.ParseUint(a, 16, 64)
			whi, e2 = strconv.ParseUint(z, 16, 64)
			want = cut && e1 == nil && e2 == nil
		}
		if ok != want || ok && (lo != wlo || hi != whi) {
			t.Errorf("%q: anonMapping %x-%x %v, want %x-%x %v", l, lo, hi, ok, wlo, whi, want)
		}
		if ok {
			anon++
		}
	}
	if anon == 0 {
		t.Error("no private anonymous mapping found")
	}
}

// TestCollapseResidentNoAlloc: once warm, a call allocates nothing (runs
// call it while their allocation counts are checked).
func TestCollapseResidentNoAlloc(t *testing.T) {
	CollapseResident()
	if n := testing.AllocsPerRun(5, CollapseResident); n != 0 {
		t.Errorf("CollapseResident allocates %v times a call once warm", n)
	}
}
