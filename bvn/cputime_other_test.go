//go:build !unix

package bvn

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
