package emulated

import (
	"fmt"
	"math"
	"slices"

	"github.com/rdcn/rdcn/mars"
	"github.com/rdcn/rdcn/rotor"
)

// Tradeoff designs (TradeoffRow.Design): the four columns of thesis Table 7.1
// and one row per requested degree.
const (
	DesignStatic         = "static"                  // d = U, one matching per switch, never reconfigures
	DesignComplete       = "complete"                // d = n: RotorNet/Sirius, the complete graph with self-loops
	DesignCompleteBuffer = "complete-buffer-limited" // the complete graph run within the buffer
	DesignMars           = "mars"                    // d from ChooseDegree (Theorems 18, 19)
)

// TradeoffConfig is the network a tradeoff table describes (thesis §7.3–7.4).
type TradeoffConfig struct {
	Nodes   int         // n, ToRs
	Uplinks int         // U, circuit switches
	Link    rotor.Rate  // c, one uplink
	Slot    rotor.Time  // Δ
	Reconf  rotor.Time  // Δr
	Buffer  rotor.Bytes // B per ToR; 0: unlimited (no buffer-limited rows)
	Delay   rotor.Time  // L, Mars's delay requirement; 0: none
	Degrees []int       // extra "degree-d" rows (multiples of U in [U, n])

	// Exact also computes θ with the emulated-graph engine (theta_exact,
	// theta_vlb); otherwise those fields stay nil.
	Exact bool
	Gap   float64 // relative gap of the certified any-routing θ (0: DefaultGap)
	Seed  uint64  // seeds the Mars matchings' shuffle
}

// TradeoffRow is one design of the table. Closed forms follow the thesis:
// θ = 1/(2·log_d n) (Theorem 17, VLB, worst-case permutation, ignoring the
// duty cycle, as Table 7.1 does), ARD = ARL·Γ·Δ (Theorem 15) and the total
// buffer θ·M·ARD with M = n·U·c (Theorem 16).
type TradeoffRow struct {
	Design      string  `json:"design"`
	Degree      int     `json:"degree"`       // d of the emulated graph
	PeriodSlots int     `json:"period_slots"` // Γ = d/U (⌈n/U⌉ for the complete graph)
	RouteLength float64 `json:"route_length"` // ARL = 2·log_d n under VLB (0 for d = 1)

	Theta float64 `json:"theta"` // closed form 1/(2·log_d n)
	// ThetaExact is the certified any-routing θ of the emulated graph on the
	// worst-case permutation (duty cycle included); ThetaExactUpper its dual
	// bound. ThetaVLB is the engine's θ under Valiant load balancing.
	ThetaExact      *float64 `json:"theta_exact"`
	ThetaExactUpper *float64 `json:"theta_exact_upper"`
	ThetaVLB        *float64 `json:"theta_vlb"`
	// DutyCycle is 1 − Δr/Δ (1 for the static topology), the factor by
	// which the engine's θ trails the duty-cycle-free closed form.
	DutyCycle float64 `json:"duty_cycle"`
	// ThetaBufferLimited is min(θ, B/(U·c·ARD)): the throughput the per-node
	// buffer B sustains (θ itself without a buffer limit).
	ThetaBufferLimited float64 `json:"theta_buffer_limited"`

	Delay rotor.Time `json:"delay_ps"` // ARD = ARL·Γ·Δ (0 for the static topology)
	// BufferPerNode and BufferTotal are the buffer the design uses at its
	// operating throughput: θ, except θ_buffer_limited for
	// complete-buffer-limited (Theorem 16: total θ·n·U·c·ARD).
	BufferPerNode rotor.Bytes `json:"buffer_bytes_per_node"`
	BufferTotal   rotor.Bytes `json:"buffer_bytes_total"`
}

// validateNetwork checks what the tradeoff table and the design question
// share: n, U, c, B, L and the gap.
func validateNetwork(nodes, uplinks int, link rotor.Rate, buffer rotor.Bytes, delay rotor.Time, gap float64) error {
	switch {
	case nodes < 2:
		return fmt.Errorf("tors: must be at least 2, got %d", nodes)
	case uplinks < 1 || uplinks > nodes:
		return fmt.Errorf("uplinks: must be in [1, %d tors], got %d", nodes, uplinks)
	case link <= 0:
		return fmt.Errorf("link: must be positive, got %v", link)
	case buffer < 0:
		return fmt.Errorf("buffer: must not be negative, got %v", buffer)
	case delay < 0:
		return fmt.Errorf("delay: must not be negative, got %v", delay)
	case gap < 0 || gap >= 1 || math.IsNaN(gap):
		return fmt.Errorf("gap: must be in [0, 1), got %v", gap)
	}
	return nil
}

// Validate reports the first unusable field.
func (c TradeoffConfig) Validate() error {
	if err := validateNetwork(c.Nodes, c.Uplinks, c.Link, c.Buffer, c.Delay, c.Gap); err != nil {
		return err
	}
	switch {
	case c.Slot <= 0:
		return fmt.Errorf("slot: must be positive, got %v", c.Slot)
	case c.Slot > rotor.MaxCycle:
		return fmt.Errorf("slot: %v exceeds the longest cycle a schedule may have, %v (rotor.MaxCycle, 2^62 ps)", c.Slot, rotor.MaxCycle)
	case c.Reconf < 0 || c.Reconf >= c.Slot:
		return fmt.Errorf("reconf: %v must be in [0, slot %v)", c.Reconf, c.Slot)
	}
	for _, d := range c.Degrees {
		if d < c.Uplinks || d > c.Nodes || d%c.Uplinks != 0 {
			return fmt.Errorf("degrees: %d must be a multiple of the %d uplinks in [%d, %d]", d, c.Uplinks, c.Uplinks, c.Nodes)
		}
	}
	return nil
}

// Tradeoff tabulates throughput, delay and buffer across the design space
// of thesis Fig. 7.1 and Table 7.1: the static topology, the complete graph
// (and, with a buffer, the complete graph under it), Mars (when a buffer or
// delay is given) and one row per requested degree.
func Tradeoff(c TradeoffConfig) ([]TradeoffRow, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	n, u := c.Nodes, c.Uplinks
	var rows []TradeoffRow
	add := func(design string, d int) error {
		r, err := c.closedForm(design, d)
		if err != nil {
			return err
		}
		rows = append(rows, r)
		return nil
	}
	if err := add(DesignStatic, u); err != nil {
		return nil, err
	}
	if err := add(DesignComplete, n); err != nil {
		return nil, err
	}
	if c.Buffer > 0 {
		r := rows[len(rows)-1]
		r.Design = DesignCompleteBuffer
		if err := c.runWithinBuffer(&r); err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	if c.Buffer > 0 || c.Delay > 0 {
		ch, err := mars.ChooseDegree(mars.Limits{Nodes: n, Uplinks: u, Link: c.Link, Slot: c.Slot, Buffer: c.Buffer, Delay: c.Delay})
		if err != nil {
			return nil, fmt.Errorf("mars: %w", err)
		}
		if err := add(DesignMars, ch.Degree); err != nil {
			return nil, err
		}
	}
	for _, d := range c.Degrees {
		if err := add(fmt.Sprintf("degree-%d", d), d); err != nil {
			return nil, err
		}
	}
	if c.Exact {
		if err := c.exact(rows); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// closedForm fills a row from Theorems 15–17: θ = 1/ARL with
// ARL = 2·log_d n, ARD = ARL·Γ·Δ, per-node buffer θ·U·c·ARD (= c·d·Δ).
// A design with one matching per switch (d = U, Γ = 1) never reconfigures:
// like the thesis' static topology it has no delay and needs no buffer.
// A slot so long that the delay or the buffer does not fit 64 bits gives a
// *FieldError naming "slot".
func (c TradeoffConfig) closedForm(design string, d int) (TradeoffRow, error) {
	n, u := c.Nodes, c.Uplinks
	r := TradeoffRow{Design: design, Degree: d, PeriodSlots: (d + u - 1) / u, DutyCycle: 1}
	if r.PeriodSlots > 1 {
		r.DutyCycle = 1 - float64(c.Reconf)/float64(c.Slot)
	}
	if d >= 2 {
		r.RouteLength = mars.VLBRouteLength(n, d)
		r.Theta = 1 / r.RouteLength
	} // d = 1 (static with U = 1): B(n,1) is only self-loops, θ = 0, no route length
	if r.PeriodSlots > 1 && r.Theta > 0 {
		ard := r.RouteLength * float64(r.PeriodSlots) * float64(c.Slot)
		var ok bool
		if r.Delay, ok = timeOf(ard); !ok {
			return r, &FieldError{Field: "slot", Problem: fmt.Sprintf("%v gives design %s (d = %d) an average route delay ARL·Γ·Δ = %.4g s, beyond the largest time %v",
				c.Slot, c.designName(design, d), d, ard/float64(rotor.Second), rotor.MaxTime)}
		}
	}
	r.ThetaBufferLimited = r.Theta
	if c.Buffer > 0 && r.Delay > 0 {
		r.ThetaBufferLimited = math.Min(r.Theta, float64(c.Buffer)*8/(float64(u)*float64(c.Link)*r.Delay.Seconds()))
	}
	if err := c.setBuffer(&r, r.Theta); err != nil {
		return r, err
	}
	return r, nil
}

// designName is the design's label for error messages ("" in the plot's
// curve).
func (c TradeoffConfig) designName(design string, d int) string {
	if design == "" {
		return fmt.Sprintf("degree-%d", d)
	}
	return design
}

// runWithinBuffer lowers a row to the throughput its buffer sustains.
func (c TradeoffConfig) runWithinBuffer(r *TradeoffRow) error {
	return c.setBuffer(r, r.ThetaBufferLimited)
}

// setBuffer is Theorem 16 at throughput theta: θ·M·ARD in total with the
// hose-model total demand M = n·U·c, θ·U·c·ARD per node. A buffer too large
// for 64 bits (a huge slot times a fast link) gives a *FieldError naming
// "slot".
func (c TradeoffConfig) setBuffer(r *TradeoffRow, theta float64) error {
	total, perNode, err := BufferBound(theta, float64(c.Nodes*c.Uplinks), c.Link, r.Delay, c.Nodes)
	if err != nil {
		return &FieldError{Field: "slot", Problem: fmt.Sprintf("%v with link %v: design %s (d = %d): %v",
			c.Slot, c.Link, c.designName(r.Design, r.Degree), r.Degree, err)}
	}
	r.BufferTotal, r.BufferPerNode = total, perNode
	return nil
}

// exact computes the engine's θ for every row (once per degree).
func (c TradeoffConfig) exact(rows []TradeoffRow) error {
	done := map[int]exactResult{}
	degrees := make([]int, 0, len(rows))
	for _, r := range rows {
		degrees = append(degrees, r.Degree)
	}
	slices.Sort(degrees)
	degrees = slices.Compact(degrees)
	for _, d := range degrees {
		res, err := c.exactDegree(d)
		if err != nil {
			return err
		}
		done[d] = res
	}
	for i := range rows {
		res := done[rows[i].Degree]
		rows[i].ThetaExact, rows[i].ThetaExactUpper, rows[i].ThetaVLB = &res.any, &res.upper, &res.vlb
	}
	return nil
}
