package app

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"
)

func TestFormatDirected(t *testing.T) {
	tests := []struct {
		x        float64
		digits   int
		down, up string
	}{
		// Sirius uniform: the solver's lower end sits 1e-14 above its upper.
		{0.9590625000000002, 6, "0.959062", "0.959063"},
		{0.9590624999999866, 6, "0.959062", "0.959063"},
		{0.5, 6, "0.500000", "0.500000"}, // exact in binary and decimal
		{0.1, 6, "0.100000", "0.100001"}, // the float64 0.1 is 0.1000000000000000055…
		{0.3, 2, "0.29", "0.30"},         // the float64 0.3 is 0.2999999999999999888…
		{2, 0, "2", "2"},
		{-1e-7, 6, "-0.000001", "0.000000"},
		{-0.25, 1, "-0.3", "-0.2"},
		{12345.678, 1, "12345.6", "12345.7"},
	}
	for _, tc := range tests {
		if got := formatDirected(tc.x, tc.digits, false); got != tc.down {
			t.Errorf("down(%v, %d) = %s, want %s", tc.x, tc.digits, got, tc.down)
		}
		if got := formatDirected(tc.x, tc.digits, true); got != tc.up {
			t.Errorf("up(%v, %d) = %s, want %s", tc.x, tc.digits, got, tc.up)
		}
	}
}

// TestFormatDirectedBrackets: for random x the printed down ≤ x ≤ up,
// compared exactly (big.Rat), and up − down is at most one unit of the
// last decimal.
func TestFormatDirectedBrackets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		x := (rng.Float64() - 0.3) * math.Pow(10, float64(rng.IntN(6)-3))
		d := rng.IntN(9)
		down, up := formatDirected(x, d, false), formatDirected(x, d, true)
		bx := new(big.Rat).SetFloat64(x) // exact, as are the decimals below
		bd, ok1 := new(big.Rat).SetString(down)
		bu, ok2 := new(big.Rat).SetString(up)
		if !ok1 || !ok2 {
			t.Fatalf("%v: unparsable %q %q", x, down, up)
		}
		if bd.Cmp(bx) > 0 || bu.Cmp(bx) < 0 {
			t.Fatalf("x = %v, %d digits: [%s, %s] does not bracket it", x, d, down, up)
		}
		unit, _ := new(big.Rat).SetString("1e-" + strconv.Itoa(d))
		if new(big.Rat).Sub(bu, bd).Cmp(unit) > 0 {
			t.Fatalf("x = %v: [%s, %s] wider than one unit", x, down, up)
		}
	}
}

// TestThroughputIntervalOutward: Sirius under uniform demand has the closed
// form θ = duty cycle · (n−1)/n = 0.99 · 31/32 = 0.9590625; the printed
// interval holds it with lower ≤ upper (round-to-nearest printed
// [0.959063, 0.959062]).
func TestThroughputIntervalOutward(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"rdcn", "throughput", "--kind", "sirius", "--tors", "32", "--uplinks", "4", "--demand", "uniform"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	m := regexp.MustCompile(`^theta (\S+)  \[(\S+), (\S+)\]`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("output %q", out.String())
	}
	lo, _ := strconv.ParseFloat(m[2], 64)
	hi, _ := strconv.ParseFloat(m[3], 64)
	if m[1] != m[2] || !(lo <= 0.9590625 && 0.9590625 <= hi) {
		t.Errorf("theta %s interval [%s, %s], want θ = lower and 0.9590625 inside", m[1], m[2], m[3])
	}
}
