package workload

import (
	"bytes"
	"embed"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

// SizeDist is a flow-size distribution in bytes.
type SizeDist interface {
	Sample(rng *rand.Rand) int64
	Mean() float64
}

// Constant is a SizeDist that always returns the same size.
type Constant int64

// Sample returns c.
func (c Constant) Sample(*rand.Rand) int64 { return int64(c) }

// Mean returns c.
func (c Constant) Mean() float64 { return float64(c) }

//go:embed cdfs/*.cdf
var embedded embed.FS

// Named lists the built-in flow-size distributions (copies of
// shared/data/workloads/*.cdf): the DCTCP web-search, VL2 data-mining and
// Facebook Hadoop inter-rack flow-size CDFs.
var Named = []string{"websearch", "datamining", "hadoop"}

// NamedCDF returns a built-in distribution by name (see Named).
func NamedCDF(name string) (*CDF, error) {
	for _, n := range Named {
		if n == name {
			b, err := embedded.ReadFile("cdfs/" + n + ".cdf")
			if err != nil {
				return nil, err
			}
			c, err := ParseCDF(bytes.NewReader(b))
			if err != nil {
				return nil, fmt.Errorf("built-in %s: %w", n, err)
			}
			return c, nil
		}
	}
	return nil, fmt.Errorf("unknown distribution %q (built-in: %s)", name, strings.Join(Named, ", "))
}

// Sizes turns a user's spec into a SizeDist: a built-in name ("websearch",
// "datamining", "hadoop", case-insensitive), the path of a CDF file, or a
// constant size such as "1MB", "64KB", "1500B", "1MiB", "10pkt" or a plain
// number of bytes.
func Sizes(spec string) (SizeDist, error) {
	s := strings.TrimSpace(spec)
	if s == "" {
		return nil, fieldErr("workload.sizes", "is empty; want websearch, datamining, hadoop, a CDF file or a size like 1MB")
	}
	lower := strings.ToLower(s)
	for _, n := range Named {
		if lower == n {
			return NamedCDF(n)
		}
	}
	if _, err := os.Stat(s); err == nil {
		c, err := LoadCDF(s)
		if err != nil {
			return nil, fieldErr("workload.sizes", "%v", err)
		}
		return c, nil
	}
	n, err := parseBytes(s)
	if err != nil {
		return nil, fieldErr("workload.sizes", "%q is not websearch, datamining, hadoop, an existing CDF file or a size like 1MB (%v)", s, err)
	}
	if n < 1 {
		return nil, fieldErr("workload.sizes", "constant size must be at least 1 byte, got %q", s)
	}
	return Constant(n), nil
}

// sizeUnits are the suffixes parseBytes accepts (SI, binary, packets).
var sizeUnits = []struct {
	suffix string
	mult   float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"pkt", 1500}, {"b", 1},
}

// parseBytes parses a size: a number with an optional unit (B, KB, MB, GB,
// TB in SI; KiB, MiB, GiB, TiB; pkt = 1500 B). Sizes are SI as in DESIGN.md
// §2 ("20MB" = 20·10^6 B).
func parseBytes(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := 1.0
	for _, u := range sizeUnits {
		if strings.HasSuffix(t, u.suffix) {
			t = strings.TrimSpace(strings.TrimSuffix(t, u.suffix))
			mult = u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("not a size")
	}
	b := v * mult
	if b < 0 || b > 9e18 {
		return 0, fmt.Errorf("out of range")
	}
	if r := math.Round(b); math.Abs(b-r) > 1e-6*math.Max(1, b) {
		return 0, fmt.Errorf("not a whole number of bytes")
	}
	return int64(math.Round(b)), nil
}
