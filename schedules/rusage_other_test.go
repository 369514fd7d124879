//go:build !unix

package schedules

import "time"

func processCPU() time.Duration { return 0 }

func peakRSSBytes() int64 { return 0 }
