package workload

import (
	"math"

	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
)

// Flow is one transfer: Bytes from host Src to host Dst, starting at Start.
type Flow struct {
	ID       int
	Src, Dst int // host indices; host h sits under ToR h / HostsPerTor
	Bytes    int64
	Start    rotor.Time
	// Query is the incast query a response flow belongs to (numbered from 1);
	// 0 for background flows. All flows of a query share Dst and Start.
	Query int
}

// MaxFlowBytes is the largest flow size rdcn accepts, 10^12 bytes (1 TB),
// in flow files (ReadFlows), constant and CDF size distributions and incast
// responses. It keeps every derived quantity well inside 64 bits (a
// terabyte takes 8·10^24 ps·bit/s to send, 8000 s at 1 Gbps) and a flow
// that size is already far beyond what a packet-level run can finish
// (6.7·10^8 packets of 1500 bytes).
const MaxFlowBytes = 1_000_000_000_000

// Config describes an open-loop workload: every host starts flows as a
// Poisson process whose rate makes it offer Load × HostRate on average.
type Config struct {
	Hosts, HostsPerTor int        // hosts are numbered tor*HostsPerTor + i
	HostRate           rotor.Rate // host link rate; Load is a fraction of it
	// Load is the offered background load per host as a fraction of
	// HostRate, in (0, 1]. It may be 0 only when Incast is set.
	Load  float64
	Sizes SizeDist
	// Pattern picks destinations: "all-to-all" (a uniformly random host on
	// another ToR), "permutation" (ToR i → ToR π(i) for a random derangement
	// π of the ToRs drawn once from the generator's rng, as the papers'
	// permutation traffic), "shift" (ToR i → ToR i+⌊T/2⌋ mod T, a fixed
	// permutation), "ring" (ToR i → ToR i+1 mod T) or "matrix" (ToR j with
	// probability ∝ Matrix[i][j]).
	// For the ToR-level patterns the host under the destination ToR is
	// uniform. Empty means "all-to-all".
	Pattern string
	// Matrix holds ToR-level weights for Pattern "matrix" (T×T, diagonal
	// ignored). It is hose-normalised: ToR i's hosts offer
	// Load × rowsum_i / max(row sums, column sums), so the busiest ToR
	// (sending or receiving) runs at Load. Ignored by the other patterns.
	Matrix demand.Matrix
	// AllowIntraRack lets "all-to-all" pick destinations under the sender's
	// own ToR (such flows never cross the circuit fabric). Off by default.
	AllowIntraRack bool
	// Flows start in [Start, Start+Duration).
	Start, Duration rotor.Time
	// Incast optionally adds query/response bursts on top of the
	// background flows.
	Incast *Incast
}

// Incast is a partition–aggregate query workload (the incast model of the
// ABM and Credence evaluations): every host issues queries as a Poisson
// process at Rate queries per second; each query picks Senders distinct hosts
// uniformly among the hosts on other ToRs, and each of them sends Bytes to
// the querying host, all starting at the query time.
type Incast struct {
	Senders int     // fan-in: responders per query
	Bytes   int64   // bytes each responder sends
	Rate    float64 // queries per second per querying host
}

// ToRs is the number of ToRs, Hosts / HostsPerTor.
func (c *Config) ToRs() int {
	if c.HostsPerTor <= 0 {
		return 0
	}
	return c.Hosts / c.HostsPerTor
}

// ArrivalRate is λ, background flows per second started by one host offering
// the full Load: Load·HostRate / (8·mean size). (With Pattern "matrix" a
// host of ToR i starts λ·rowsum_i/max line sum.)
func (c *Config) ArrivalRate() float64 {
	if c.Sizes == nil || c.Load == 0 {
		return 0
	}
	return c.Load * float64(c.HostRate) / (8 * c.Sizes.Mean())
}

// Validate checks the configuration; errors are *FieldError naming the
// field, e.g. "workload.load: must be in (0,1], got 1.5".
func (c *Config) Validate() error {
	if c.Hosts < 2 {
		return fieldErr("workload.hosts", "must be at least 2, got %d", c.Hosts)
	}
	if c.HostsPerTor < 1 {
		return fieldErr("workload.hosts_per_tor", "must be at least 1, got %d", c.HostsPerTor)
	}
	if c.Hosts%c.HostsPerTor != 0 {
		return fieldErr("workload.hosts_per_tor", "%d does not divide hosts %d", c.HostsPerTor, c.Hosts)
	}
	tors := c.ToRs()
	if c.HostRate <= 0 {
		return fieldErr("workload.host_rate", "must be positive, got %d bit/s", c.HostRate)
	}
	if math.IsNaN(c.Load) || c.Load < 0 || c.Load > 1 || (c.Load == 0 && c.Incast == nil) {
		if c.Incast != nil {
			return fieldErr("workload.load", "must be in [0,1], got %v", c.Load)
		}
		return fieldErr("workload.load", "must be in (0,1], got %v", c.Load)
	}
	if c.Load > 0 {
		if c.Sizes == nil {
			return fieldErr("workload.sizes", "is not set")
		}
		if m := c.Sizes.Mean(); !(m >= 1) || math.IsInf(m, 0) {
			return fieldErr("workload.sizes", "mean flow size must be at least 1 byte, got %v", m)
		}
		if err := checkMaxSize(c.Sizes); err != nil {
			return err
		}
		switch c.Pattern {
		case "", "all-to-all":
			if tors < 2 && !c.AllowIntraRack {
				return fieldErr("workload.pattern", "all-to-all needs at least 2 ToRs (or intra-rack flows), got %d", tors)
			}
		case "permutation", "shift", "ring":
			if tors < 2 {
				return fieldErr("workload.pattern", "%s needs at least 2 ToRs, got %d", c.Pattern, tors)
			}
		case "matrix":
			if err := checkMatrix(c.Matrix, tors); err != nil {
				return err
			}
		default:
			spec, ok := patternTable.Lookup(c.Pattern)
			if !ok {
				return fieldErr("workload.pattern", "unknown pattern %q (want %s)", c.Pattern, choices(Patterns()))
			}
			if tors < 2 {
				return fieldErr("workload.pattern", "%s needs at least 2 ToRs, got %d", spec.Name, tors)
			}
		}
	}
	if c.Start < 0 {
		return fieldErr("workload.start", "must not be negative, got %d ps", c.Start)
	}
	if c.Duration <= 0 {
		return fieldErr("workload.duration", "must be positive, got %d ps", c.Duration)
	}
	if c.Start > math.MaxInt64-c.Duration {
		return fieldErr("workload.duration", "start + duration overflows")
	}
	if in := c.Incast; in != nil {
		if in.Senders < 1 {
			return fieldErr("workload.incast_senders", "must be at least 1, got %d", in.Senders)
		}
		if others := c.Hosts - c.HostsPerTor; in.Senders > others {
			return fieldErr("workload.incast_senders", "%d exceeds the %d hosts on other ToRs", in.Senders, others)
		}
		if in.Bytes < 1 {
			return fieldErr("workload.incast_bytes", "must be at least 1, got %d", in.Bytes)
		}
		if in.Bytes > MaxFlowBytes {
			return fieldErr("workload.incast_bytes", "%d exceeds the limit of %d bytes (1 TB) per flow", in.Bytes, int64(MaxFlowBytes))
		}
		if !(in.Rate > 0) || math.IsInf(in.Rate, 0) {
			return fieldErr("workload.incast_rate", "must be a positive number of queries per second, got %v", in.Rate)
		}
	}
	return nil
}

// checkMaxSize rejects a Constant or a CDF whose largest size exceeds
// MaxFlowBytes (other SizeDists are the caller's responsibility).
func checkMaxSize(d SizeDist) error {
	var largest float64
	switch d := d.(type) {
	case Constant:
		largest = float64(d)
	case *CDF:
		largest = d.pts[len(d.pts)-1].Bytes
	}
	if largest > MaxFlowBytes {
		return fieldErr("workload.sizes", "largest flow size %.4g bytes exceeds the limit of %d (1 TB)", largest, int64(MaxFlowBytes))
	}
	return nil
}

func checkMatrix(m demand.Matrix, tors int) error {
	if len(m) != tors {
		return fieldErr("workload.matrix", "has %d rows, want one per ToR (%d)", len(m), tors)
	}
	total := 0.0
	for i, row := range m {
		if len(row) != tors {
			return fieldErr("workload.matrix", "row %d has %d entries, want %d", i, len(row), tors)
		}
		for j, v := range row {
			if i == j {
				continue
			}
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return fieldErr("workload.matrix", "entry [%d][%d] = %v must be a finite non-negative number", i, j, v)
			}
			total += v
		}
	}
	if !(total > 0) || math.IsInf(total, 0) {
		return fieldErr("workload.matrix", "has no positive off-diagonal entry")
	}
	return nil
}
