package stats

import (
	"math"
	"testing"
)

// TestMeanCIHand: the 95 % interval of {1, 3} is 2 ± t_{0.975,1}·√2/√2 =
// 2 ± 12.706 (Student's t table), of {1, 2, 3, 4} 2.5 ± 3.182·1.291/2.
func TestMeanCIHand(t *testing.T) {
	iv := MeanCI([]float64{1, 3, math.NaN()})
	if iv.N != 2 || iv.Mean != 2 || math.Abs(iv.Half-12.706) > 5e-4 {
		t.Errorf("{1, 3}: %+v, want 2 ± 12.706", iv)
	}
	iv = MeanCI([]float64{1, 2, 3, 4})
	if want := 3.182 * math.Sqrt(5.0/3) / 2; math.Abs(iv.Half-want) > 1e-3 {
		t.Errorf("{1, 2, 3, 4}: ± %v, want %v", iv.Half, want)
	}
	if iv := MeanCI([]float64{5}); iv.Mean != 5 || !math.IsNaN(iv.Half) {
		t.Errorf("one value: %+v", iv)
	}
	if iv := MeanCI(nil); iv.N != 0 || !math.IsNaN(iv.Mean) {
		t.Errorf("none: %+v", iv)
	}
}
