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

	"github.com/rdcn/rdcn/rotor"
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

// builtinCDFs lists the built-in flow-size distributions: the DCTCP
// web-search, VL2 data-mining and Facebook Hadoop inter-rack flow-size
// CDFs, as the buffer-sharing papers' ns-3 artifact ships them
// (docs/workloads.md).
var builtinCDFs = []string{"websearch", "datamining", "hadoop"}

// NamedCDF returns a built-in distribution by name: websearch,
// datamining or hadoop (SizeNames lists them with the registered ones).
func NamedCDF(name string) (*CDF, error) {
	for _, n := range builtinCDFs {
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
	return nil, fmt.Errorf("unknown distribution %q (built-in: %s)", name, strings.Join(builtinCDFs, ", "))
}

// Sizes turns a user's spec into a SizeDist, trying in turn a built-in name
// ("websearch", "datamining", "hadoop", case-insensitive), the path of an
// existing CDF file, and a constant size such as "1MB", "64KB", "1500B",
// "1MiB", "10pkt" (see rotor.ParseSize) or a plain number of bytes.
func Sizes(spec string) (SizeDist, error) {
	s := strings.TrimSpace(spec)
	if s == "" {
		return nil, fieldErr("workload.sizes", "is empty; want %s, a CDF file or a size like 1MB", strings.Join(SizeNames(), ", "))
	}
	if named, ok := sizeTable.Lookup(strings.ToLower(s)); ok {
		d, err := named.New()
		if err != nil {
			return nil, fieldErr("workload.sizes", "%s: %v", named.Name, err)
		}
		if m := d.Mean(); !(m >= 1) || math.IsInf(m, 0) {
			return nil, fieldErr("workload.sizes", "%s: mean flow size must be at least 1 byte, got %v", named.Name, m)
		}
		return d, nil
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
		return nil, fieldErr("workload.sizes", "%q is not %s, an existing CDF file or a size like 1MB (%v)", s, strings.Join(SizeNames(), ", "), err)
	}
	if n < 1 {
		return nil, fieldErr("workload.sizes", "constant size must be at least 1 byte, got %q", s)
	}
	if n > MaxFlowBytes {
		return nil, fieldErr("workload.sizes", "constant size %q exceeds the limit of %d bytes (1 TB) per flow", s, int64(MaxFlowBytes))
	}
	return Constant(n), nil
}

// parseBytes parses a constant flow size with rotor.ParseSize (SI units as
// in docs/formats.md: "20MB" = 20·10^6 B; KiB…TiB; pkt = rotor.DefaultMTU) or a
// plain integer number of bytes.
func parseBytes(s string) (int64, error) {
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, nil
	}
	v, err := rotor.ParseSize(s, rotor.DefaultMTU)
	return int64(v), err
}
