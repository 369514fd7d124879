package main

import (
	"github.com/rdcn/rdcn/rotor"
)

// maxTors caps --tors. The commands build dense n×n demand matrices,
// capacity matrices and schedules of about n² entries (8 bytes each: 512 MiB
// at n = 8192), so a larger n would exhaust memory rather than fail cleanly.
// The library packages take any n the machine can hold.
const maxTors = 8192

// checkTors checks --tors: at least 2 and at most maxTors; 0 is accepted when
// zeroOK (the size then comes from a file).
func checkTors(n int, zeroOK bool) error {
	switch {
	case n == 0 && zeroOK:
		return nil
	case n < 2:
		return badInput("tors", "%d, want at least 2", n)
	case n > maxTors:
		return badInput("tors", "%d exceeds the CLI's limit of %d ToRs (dense n×n matrices)", n, maxTors)
	}
	return nil
}

// checkUplinks checks --uplinks: at least 1 and at most maxTors (a ToR has
// fewer uplinks than there are ToRs in every design this tool builds).
func checkUplinks(u int) error {
	if u < 1 || u > maxTors {
		return badInput("uplinks", "%d, want 1 to %d", u, maxTors)
	}
	return nil
}

// parseSize reads a buffer size; "pkt" counts DefaultMTU-byte packets.
func parseSize(s string) (rotor.Bytes, error) { return rotor.ParseSize(s, rotor.DefaultMTU) }
