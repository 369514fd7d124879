package mars

import (
	"fmt"
	"math"
	"math/big"

	"github.com/rdcn/rdcn/rotor"
)

// Limits are the inputs of Mars's degree choice. Buffer and Delay are
// optional (zero: no limit); with neither, the degree is the largest that the
// nodes allow (the complete graph maximises unconstrained throughput, Thm 17).
type Limits struct {
	Nodes   int         // n_t, ToRs
	Uplinks int         // n_u, circuit switches (uplinks per ToR)
	Link    rotor.Rate  // c, capacity of one uplink
	Slot    rotor.Time  // Δ, timeslot including reconfiguration
	Buffer  rotor.Bytes // B, buffer per ToR; 0: no buffer limit
	Delay   rotor.Time  // L, delay requirement; 0: no delay limit
}

// Choice is the degree Mars picks and the bounds it came from.
type Choice struct {
	Degree int // d: a multiple of Uplinks in [Uplinks, Nodes]

	// DelayDegree is the real-valued largest degree meeting the delay
	// requirement, e^{−W₋₁(k)} of Theorem 18 (+Inf without a delay limit).
	DelayDegree float64
	// BufferDegree is ⌊B/(c·Δ)⌋ of Theorem 19 (math.MaxInt without a buffer limit).
	BufferDegree int
	// Bound names what set Degree: "delay", "buffer" or "nodes".
	Bound string
}

func (l Limits) validate() error {
	switch {
	case l.Nodes < 2:
		return bad("nodes", l.Nodes, "must be at least 2")
	case l.Uplinks < 1:
		return bad("uplinks", l.Uplinks, "must be at least 1")
	case l.Uplinks > l.Nodes:
		return bad("uplinks", l.Uplinks, "exceeds the %d nodes; Mars needs uplinks ≤ d ≤ nodes", l.Nodes)
	case l.Slot <= 0:
		return bad("slot", l.Slot, "must be positive")
	case l.Buffer < 0:
		return bad("buffer", l.Buffer, "must not be negative")
	case l.Delay < 0:
		return bad("delay", l.Delay, "must not be negative")
	case l.Buffer > 0 && l.Link <= 0:
		return bad("link", l.Link, "must be positive to turn a buffer into a degree")
	}
	return nil
}

// ChooseDegree picks Mars's degree d from the delay requirement (Theorem 18)
// and the per-node buffer (Theorem 19): the smaller of ⌊e^{−W₋₁(k)}⌋ and
// ⌊B/(c·Δ)⌋, capped at n, then rounded down to a multiple of the uplinks U so
// that every switch holds d/U matchings. It fails when no multiple of U in
// [U, n] meets the limits: a buffer below U·c·Δ, or a delay requirement below
// what any degree reaches (2e·ln n·Δ/U at the real optimum d = e).
func ChooseDegree(l Limits) (Choice, error) {
	if err := l.validate(); err != nil {
		return Choice{}, err
	}
	ch := Choice{DelayDegree: math.Inf(1), BufferDegree: math.MaxInt, Bound: "nodes"}
	d := l.Nodes
	if l.Delay > 0 {
		dd, err := DelayDegree(l.Nodes, l.Uplinks, l.Slot, l.Delay)
		if err != nil {
			return Choice{}, err
		}
		ch.DelayDegree = dd
		// The relative slack keeps an exact optimum (e.g. d* = 16 for
		// L = 2·Δ·n/U) from flooring to 15 through rounding in W₋₁.
		if f := math.Floor(dd * (1 + 1e-12)); f < float64(d) {
			d, ch.Bound = int(f), "delay"
		}
	}
	if l.Buffer > 0 {
		bd, err := BufferDegree(l.Link, l.Slot, l.Buffer)
		if err != nil {
			return Choice{}, err
		}
		ch.BufferDegree = bd
		if bd < d {
			d, ch.Bound = bd, "buffer"
		}
	}
	d -= d % l.Uplinks
	if d < l.Uplinks {
		switch ch.Bound {
		case "buffer":
			return Choice{}, bad("buffer", l.Buffer, "allows degree %d < %d uplinks; Mars needs at least U·c·Δ = %v per node (or use the static topology, degree %d)",
				ch.BufferDegree, l.Uplinks, rotor.Bytes(math.Ceil(float64(l.Uplinks)*float64(l.Link)*float64(l.Slot)/float64(rotor.Second)/8)), l.Uplinks)
		default:
			return Choice{}, bad("delay", l.Delay, "allows degree %.3g, below the %d uplinks", ch.DelayDegree, l.Uplinks)
		}
	}
	if l.Delay > 0 {
		// ⌊d*⌋ meets the delay only where d/ln d increases (d ≥ e); rounding
		// down to 2 (or to a multiple of U below e) can overshoot L.
		if got := VLBDelay(l.Nodes, l.Uplinks, d, l.Slot); got > float64(l.Delay)*(1+1e-12) {
			return Choice{}, bad("delay", l.Delay, "cannot be met by a multiple of %d uplinks: degree %d needs %v (the real optimum is %.3g)",
				l.Uplinks, d, rotor.Time(math.Ceil(got)), ch.DelayDegree)
		}
	}
	ch.Degree = d
	return ch, nil
}

// DelayDegree is Theorem 18: the largest real degree d whose delay under
// Valiant load balancing, 2·log_d(n)·(d/U)·Δ, does not exceed L. Setting the
// delay equal to L gives ln(d)/d = 2·ln(n)·Δ/(U·L), i.e. y·ln y = k for
// y = 1/d and k = −2·ln(n)·Δ/(U·L), so d = e^{−W(k)}. For −1/e ≤ k < 0 there
// are two real solutions; the lower branch W₋₁ gives the larger d (≥ e), the
// one that maximises throughput. For k < −1/e no degree meets L (the thesis
// claims k > −1/e always, but its last step, −2·ln n > −1/e, is false for
// every n ≥ 2; L = Δ, for instance, is infeasible).
func DelayDegree(n, uplinks int, slot, delay rotor.Time) (float64, error) {
	if n < 2 || uplinks < 1 || slot <= 0 || delay <= 0 {
		return 0, fmt.Errorf("mars: delay degree needs n ≥ 2, uplinks ≥ 1, slot > 0, delay > 0 (got n=%d, U=%d, Δ=%v, L=%v)", n, uplinks, slot, delay)
	}
	k := -2 * math.Log(float64(n)) * float64(slot) / (float64(uplinks) * float64(delay))
	if k < branchPoint-branchSlack {
		minL := 2 * math.E * math.Log(float64(n)) * float64(slot) / float64(uplinks)
		return 0, bad("delay", delay, "is below %v, the least delay any degree reaches (at d = e) for %d nodes, %d uplinks, slot %v",
			rotor.Time(math.Ceil(minL)), n, uplinks, slot)
	}
	w, err := LambertWm1(k)
	if err != nil {
		return 0, fmt.Errorf("mars: delay degree: %w", err)
	}
	return math.Exp(-w), nil
}

// BufferDegree is Theorem 19: with B bytes of buffer per node, Mars's
// emulated graph may have degree ⌊B/(c·Δ)⌋, since a d-regular Mars needs
// c·d·Δ per node at its Theorem-17 throughput. It is computed exactly in
// integers (B in bytes, c in bit/s, Δ in ps).
func BufferDegree(link rotor.Rate, slot rotor.Time, buffer rotor.Bytes) (int, error) {
	if link <= 0 || slot <= 0 || buffer < 0 {
		return 0, fmt.Errorf("mars: buffer degree needs link > 0, slot > 0, buffer ≥ 0 (got c=%v, Δ=%v, B=%v)", link, slot, buffer)
	}
	num := new(big.Int).Mul(big.NewInt(int64(buffer)), big.NewInt(8e12)) // bits·ps/s
	den := new(big.Int).Mul(big.NewInt(int64(link)), big.NewInt(int64(slot)))
	q := new(big.Int).Quo(num, den)
	if !q.IsInt64() || q.Int64() > math.MaxInt32 {
		return math.MaxInt32, nil
	}
	return int(q.Int64()), nil
}

// VLBRouteLength is the average route length of a d-regular Mars graph under
// Valiant load balancing and a worst-case permutation (Theorem 17):
// 2·log_d(n).
func VLBRouteLength(n, d int) float64 {
	return 2 * math.Log(float64(n)) / math.Log(float64(d))
}

// VLBDelay is the average route delay in picoseconds of Theorem 15 for a
// d-regular Mars graph under Valiant load balancing: ARL·Γ·Δ with
// ARL = 2·log_d(n) and period Γ = d/U slots, the delay Theorem 18 bounds.
func VLBDelay(n, uplinks, d int, slot rotor.Time) float64 {
	return VLBRouteLength(n, d) * float64(d) / float64(uplinks) * float64(slot)
}
