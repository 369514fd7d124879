package sweep

import (
	"fmt"
	"strings"
	"testing"
)

// longAxis is a throughput spec whose one axis has n distinct values and,
// with dup, the first value again at the end.
func longAxis(n int, dup bool) string {
	var b strings.Builder
	b.WriteString("kind = \"throughput\"\n[axes]\n\"throughput.gap\" = [")
	for i := range n {
		fmt.Fprintf(&b, "%d.5e-9, ", i)
	}
	if dup {
		b.WriteString("0.5e-9")
	}
	b.WriteString("]\n")
	return b.String()
}

// TestLongAxis: an axis of MaxPoints values parses, and a repeated value
// at its end is found (issue 25, defect 11: the check compared each value
// with all before it; 100 000 values took 20.8 s. BenchmarkParseAxis
// shows the time per value staying flat).
func TestLongAxis(t *testing.T) {
	s, err := Parse(strings.NewReader(longAxis(MaxPoints, false)))
	if err != nil || s.Size() != MaxPoints {
		t.Fatalf("size %v, err %v", s, err)
	}
	_, err = Parse(strings.NewReader(longAxis(MaxPoints-1, true)))
	if err == nil || !strings.Contains(err.Error(), `value "5e-10" appears twice`) {
		t.Errorf("the repeated value: %v", err)
	}
}

// BenchmarkParseAxis parses specs of one axis of 10⁴ and 10⁵ values: the
// time per value (ns/op ÷ n) stays flat when the check is linear.
func BenchmarkParseAxis(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		text := longAxis(n, false)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for range b.N {
				if _, err := Parse(strings.NewReader(text)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
