package app

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// formatDirected prints x with digits decimals rounded toward −∞ (down) or
// +∞ (up), exactly: the float64 is converted to an exact big.Float, scaled
// by 10^digits exactly, and its integer part stepped outward if a fraction
// remains. A certified interval printed as [down(lower), up(upper)] then
// contains the true interval, so the printed lower end is never above the
// printed upper end (round-to-nearest printed Sirius's
// [0.95906249…, 0.95906251…] as [0.959063, 0.959062]).
func formatDirected(x float64, digits int, up bool) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'f', digits, 64)
	}
	scale := new(big.Float).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil))
	v := new(big.Float).SetPrec(0).SetFloat64(x) // exact
	v.SetPrec(2048).Mul(v, scale)                // exact: 53-bit mantissa × 10^digits fits
	i, acc := v.Int(nil)                         // truncates toward zero
	switch {
	case acc == big.Below && up: // v > i: i was truncated down
		i.Add(i, big.NewInt(1))
	case acc == big.Above && !up: // v < i (negative x): truncated up
		i.Sub(i, big.NewInt(1))
	}
	neg := i.Sign() < 0
	s := new(big.Int).Abs(i).String()
	if digits > 0 {
		if len(s) <= digits {
			s = strings.Repeat("0", digits-len(s)+1) + s
		}
		s = s[:len(s)-digits] + "." + s[len(s)-digits:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// formatInterval prints a certified interval outward with digits decimals:
// "[lower↓, upper↑]".
func formatInterval(lower, upper float64, digits int) string {
	return "[" + formatDirected(lower, digits, false) + ", " + formatDirected(upper, digits, true) + "]"
}
