package tor

import "math/rand/v2"

// Oracles for Credence. PerfectOracle and Flipped serve open-loop arrival
// sequences (the buffer lab), where LQD's decisions on the same arrivals
// are known in advance; a Forest serves closed-loop simulations.

// PerfectOracle replays LQD's decisions: Drops[id] is true iff LQD dropped
// or pushed out packet id. Ids beyond it are predicted "accept".
type PerfectOracle struct{ Drops []bool }

// Drop implements Oracle.
func (o PerfectOracle) Drop(a *Arrival, _ *Features) bool {
	return a.ID >= 0 && a.ID < int64(len(o.Drops)) && o.Drops[a.ID]
}

// Flipped inverts each prediction of Inner independently with
// probability P (the Credence paper's error model).
type Flipped struct {
	Inner Oracle
	P     float64
	Rand  *rand.Rand
}

// Drop implements Oracle.
func (o *Flipped) Drop(a *Arrival, f *Features) bool {
	d := o.Inner.Drop(a, f)
	if o.P > 0 && o.Rand.Float64() < o.P {
		return !d
	}
	return d
}

// Drop implements Oracle: the forest's vote.
func (m *Forest) Drop(_ *Arrival, f *Features) bool { return m.Predict(f) }
