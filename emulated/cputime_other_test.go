//go:build !unix

package emulated

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
