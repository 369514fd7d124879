package demand

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Read parses a demand matrix in text form: one row a line, entries
// separated by white space and/or commas (so both the plain format of the
// Vermilion and TopoOpt matrices and CSV work). A '#' starts a comment that
// runs to the end of the line; blank and comment-only lines are skipped.
// Every row must have as many entries as there are rows. Errors name the
// line and column (the entry's position in its row, from 1) and the value.
// A line longer than MaxLineBytes is an error (a matrix of any usable size
// has far shorter rows; a file of binary zeros has one endless line).
func Read(r io.Reader) (Matrix, error) {
	br := bufio.NewReader(r)
	var rows [][]float64
	width := -1
	for line := 1; ; line++ {
		text, err := readLine(br, MaxLineBytes)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("demand: line %d: %w", line, err)
		}
		eof := err != nil
		if line == 1 {
			text = strings.TrimPrefix(text, "\uFEFF") // byte order mark
		}
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		row, perr := parseRow(text, line)
		if perr != nil {
			return nil, perr
		}
		if row != nil {
			if width < 0 {
				width = len(row)
			} else if len(row) != width {
				return nil, fmt.Errorf("demand: line %d: has %d entries, earlier rows have %d (ragged matrix)", line, len(row), width)
			}
			rows = append(rows, row)
			if len(rows) > width {
				return nil, fmt.Errorf("demand: line %d: row %d of a matrix with %d columns (not square)", line, len(rows), width)
			}
		}
		if eof {
			break
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("demand: empty input: no matrix rows")
	}
	if len(rows) != width {
		return nil, fmt.Errorf("demand: %d rows of %d entries (not square)", len(rows), width)
	}
	m := New(width)
	for i, row := range rows {
		copy(m[i], row)
	}
	return m, nil
}

// MaxLineBytes caps a row's line in Read: 2048 bytes per column at the
// largest n rdcn's commands take (8192).
const MaxLineBytes = 16 << 20

// readLine reads up to and including the next '\n', failing once the line
// passes limit bytes.
func readLine(br *bufio.Reader, limit int) (string, error) {
	var b []byte
	for {
		frag, err := br.ReadSlice('\n')
		if len(b)+len(frag) > limit {
			return "", fmt.Errorf("longer than %d MiB", limit>>20)
		}
		b = append(b, frag...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return string(b), err
		}
	}
}

// parseRow splits a comment-free line into numbers; nil for a blank line.
func parseRow(text string, line int) ([]float64, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	// Split on commas first so that empty fields (",,") are caught, then
	// on white space within each comma-separated part.
	var row []float64
	col := 0
	parts := strings.Split(text, ",")
	for pi, part := range parts {
		fields := strings.Fields(part)
		if len(fields) == 0 {
			trailing := pi > 0 && pi == len(parts)-1 // "1,2,3," is fine
			if len(parts) > 1 && !trailing {
				return nil, fmt.Errorf("demand: line %d, column %d: empty entry between commas", line, col+1)
			}
			continue
		}
		for _, f := range fields {
			col++
			v, err := strconv.ParseFloat(f, 64)
			switch {
			case err != nil && !errors.Is(err, strconv.ErrRange):
				return nil, fmt.Errorf("demand: line %d, column %d: %q is not a number", line, col, f)
			case err != nil || math.IsInf(v, 0) || math.IsNaN(v):
				return nil, fmt.Errorf("demand: line %d, column %d: %q is not a finite number", line, col, f)
			case v < 0:
				return nil, fmt.Errorf("demand: line %d, column %d: %q is negative", line, col, f)
			}
			row = append(row, v)
		}
	}
	return row, nil
}

// Write writes m as text, one row a line, entries separated by one space,
// each number in the shortest form that reads back exactly.
func Write(w io.Writer, m Matrix) error { return write(w, m, ' ') }

// WriteCSV writes m as comma-separated rows without a header.
func WriteCSV(w io.Writer, m Matrix) error { return write(w, m, ',') }

// JSONFormat is the value of the "format" field of WriteJSON's document.
const JSONFormat = "rdcn.demand/v1"

// WriteJSON writes m as one JSON object, one matrix row a line:
//
//	{
//	  "format": "rdcn.demand/v1",
//	  "tors": 2,
//	  "matrix": [
//	    [0,1.5],
//	    [2,0]
//	  ]
//	}
//
// Numbers are in the same shortest form as Write's (1e-07, 1e+21 are JSON
// numbers too), so every entry reads back to the same float64 with
// encoding/json or strconv. It validates m first and writes nothing if m is
// invalid. Read does not parse this form: JSON is an export.
func WriteJSON(w io.Writer, m Matrix) error {
	if err := Validate(m); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	b := []byte("{\n  \"format\": \"" + JSONFormat + "\",\n  \"tors\": ")
	b = strconv.AppendInt(b, int64(len(m)), 10)
	b = append(b, ",\n  \"matrix\": ["...)
	for i, row := range m {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    ["...)
		for j, v := range row {
			if j > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendFloat(b, v, 'g', -1, 64)
		}
		b = append(b, ']')
		if _, err := bw.Write(b); err != nil {
			return err
		}
		b = b[:0]
	}
	b = append(b, "\n  ]\n}\n"...)
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

func write(w io.Writer, m Matrix, sep byte) error {
	if err := Validate(m); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	var b []byte
	for _, row := range m {
		b = b[:0]
		for j, v := range row {
			if j > 0 {
				b = append(b, sep)
			}
			b = strconv.AppendFloat(b, v, 'g', -1, 64)
		}
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}
