package stats

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
)

// FormatFloat formats x for CSV and text output: the shortest decimal that
// parses back to exactly x (strconv precision −1), so output is
// deterministic and lossless. Plain notation ('f') is used for 0 and
// 1e-4 ≤ |x| < 1e15 (1000000, not 1e+06), exponent notation ('g') outside;
// NaN is "NaN" and infinities "+Inf"/"-Inf".
func FormatFloat(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	if a := math.Abs(x); a == 0 || (a >= 1e-4 && a < 1e15) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// WriteCSV writes a header and rows as RFC 4180 CSV (fields quoted only when
// needed). Every row must have as many fields as the header.
func WriteCSV(w io.Writer, header []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	for i, r := range rows {
		if len(r) != len(header) {
			return fmt.Errorf("csv row %d has %d fields, header has %d", i, len(r), len(header))
		}
		if err := cw.Write(r); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
