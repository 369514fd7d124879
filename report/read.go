package report

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"strconv"
)

// DamagedError is an output file that exists but cannot be read as
// rdcn wrote it: not CSV, a truncated row, a column missing, a cell that
// is not a number. Line is 0 when the whole file is at fault.
type DamagedError struct {
	Path    string
	Line    int
	Problem string
}

func (e *DamagedError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s line %d: damaged: %s", e.Path, e.Line, e.Problem)
	}
	return fmt.Sprintf("%s: damaged: %s", e.Path, e.Problem)
}

// table is a CSV file's named columns, read and checked by readColumns.
type table struct {
	path string
	rows [][]string // the requested columns, in the order asked
}

// readColumns reads the CSV file path, whose header must name cols, and
// keeps those columns of every row. A file that does not exist gives nil
// and no error (an output written without it); a damaged one — not CSV,
// a row of another width (a truncated last line), a column missing — is
// an error naming the file and the line.
func readColumns(path string, cols ...string) (*table, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, &DamagedError{path, pe.Line, pe.Err.Error()}
		}
		return nil, &DamagedError{path, 0, err.Error()}
	}
	if len(recs) == 0 {
		return nil, &DamagedError{path, 0, "empty, not even a header"}
	}
	idx := make([]int, len(cols))
	for i, c := range cols {
		if idx[i] = slices.Index(recs[0], c); idx[i] < 0 {
			return nil, &DamagedError{path, 1, fmt.Sprintf("the header has no column %q", c)}
		}
	}
	t := &table{path: path, rows: make([][]string, len(recs)-1)}
	for r, rec := range recs[1:] {
		row := make([]string, len(cols))
		for i, j := range idx {
			row[i] = rec[j]
		}
		t.rows[r] = row
	}
	return t, nil
}

// maxValue bounds the magnitude of a number in an output table: far
// beyond any time (µs), size (bytes) or fraction rdcn writes, and far
// enough below the float64 range that a plot's axis arithmetic stays
// finite (±1e308 hung the tick computation).
const maxValue = 1e15

// number parses column c of row r, naming the file, line and column of a
// cell that is not a number, infinite, or beyond maxValue (NaN passes:
// rdcn writes it for an undefined value, and the plots leave it out).
func (t *table) number(r, c int, name string) (float64, error) {
	x, err := strconv.ParseFloat(t.rows[r][c], 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, &DamagedError{t.path, r + 2, fmt.Sprintf("%s %q is not a number", name, t.rows[r][c])}
	case math.Abs(x) > maxValue:
		return 0, &DamagedError{t.path, r + 2, fmt.Sprintf("%s %q is beyond ±%g, more than rdcn writes", name, t.rows[r][c], maxValue)}
	}
	return x, nil
}
