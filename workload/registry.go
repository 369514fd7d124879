package workload

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/rdcn/rdcn/internal/registry"
)

// SizeSpec is one named flow-size distribution (workload.sizes = Name).
type SizeSpec struct {
	Name string // lower case; workload.sizes matches it case-insensitively
	Doc  string // one line
	// New makes the distribution; Mean must be finite and at least 1 byte
	// and no sample may exceed MaxFlowBytes.
	New func() (SizeDist, error)
}

var sizeTable = registry.New("workload", "flow-size distribution", func(s SizeSpec) string { return s.Name },
	SizeSpec{"websearch", "DCTCP web search", func() (SizeDist, error) { return NamedCDF("websearch") }},
	SizeSpec{"datamining", "VL2 data mining", func() (SizeDist, error) { return NamedCDF("datamining") }},
	SizeSpec{"hadoop", "Facebook Hadoop", func() (SizeDist, error) { return NamedCDF("hadoop") }},
)

// RegisterSizes adds a named flow-size distribution; call it from an init
// function. A name already taken (or not lower case), a missing New, or a
// call after the registry has been read (a run has started) panics with
// the name.
func RegisterSizes(s SizeSpec) {
	if s.New == nil || s.Name != strings.ToLower(s.Name) {
		panic(fmt.Sprintf("workload: flow-size distribution %q registered without New or not in lower case", s.Name))
	}
	sizeTable.Add(s)
}

// SizeNames lists the named distributions: rdcn's (websearch, datamining,
// hadoop), then the registered ones.
func SizeNames() []string { return sizeTable.Names() }

// Pattern picks the destination ToR of each flow of a registered traffic
// pattern (workload.pattern); the host under it is uniform. It must not
// return src when the run has more than one ToR.
type Pattern interface {
	DstToR(src int, rng *rand.Rand) int
}

// PatternSpec is one registered traffic pattern.
type PatternSpec struct {
	Name string
	Doc  string // one line
	// New makes the pattern for tors ToRs (at least 2); it may draw from
	// rng (the workload's stream, so the same seed gives the same flows).
	New func(tors int, rng *rand.Rand) (Pattern, error)
}

// rdcn's own patterns have no New: the generator draws them itself.
var patternTable = registry.New("workload", "traffic pattern", func(p PatternSpec) string { return p.Name },
	PatternSpec{Name: "all-to-all", Doc: "a uniformly random host on another ToR (or any other host, with intra-rack flows)"},
	PatternSpec{Name: "permutation", Doc: "a random derangement of the ToRs, seeded"},
	PatternSpec{Name: "shift", Doc: "ToR i → i+T/2"},
	PatternSpec{Name: "ring", Doc: "ToR i → i+1"},
	PatternSpec{Name: "matrix", Doc: "destination ToRs weighted by Config.Matrix"},
)

// RegisterPattern adds a traffic pattern; call it from an init function.
// A name already taken, a missing New, or a call after the registry has
// been read (a run has started) panics with the name.
func RegisterPattern(p PatternSpec) {
	if p.New == nil {
		panic("workload: traffic pattern " + p.Name + " registered without New")
	}
	patternTable.Add(p)
}

// Patterns lists the destination patterns Config.Pattern accepts: rdcn's,
// then the registered ones.
func Patterns() []string { return patternTable.Names() }

// choices joins names for a message: "a, b or c".
func choices(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
