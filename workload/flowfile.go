package workload

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rdcn/rdcn/rotor"
)

// ReadFlows reads an htsim/opera-sim flow file: one flow a line,
//
//	src_host dst_host bytes start_ns [query]
//
// whitespace separated, hosts numbered from 0, start in nanoseconds (an
// integer as opera-sim writes it, or a decimal such as 12.345 for
// sub-nanosecond starts), at most MaxFlowBytes (1 TB) a flow. The optional fifth column is rdcn's incast query
// number (opera-sim ignores extra columns). Blank lines and lines starting
// with '#' are skipped. Flow IDs are the 0-based order of the flows in the
// file; the result is sorted by Start, stably, so ties keep file order.
// Errors name the line.
func ReadFlows(r io.Reader) ([]Flow, error) {
	fr := NewFlowReader(r)
	fr.unsorted = true
	var flows []Flow
	for {
		f, ok := fr.Next()
		if !ok {
			break
		}
		flows = append(flows, f)
	}
	if err := fr.Err(); err != nil {
		return nil, err
	}
	slices.SortStableFunc(flows, func(a, b Flow) int {
		switch {
		case a.Start < b.Start:
			return -1
		case a.Start > b.Start:
			return 1
		}
		return 0
	})
	return flows, nil
}

// FlowReader reads a flow file (ReadFlows's format) one flow at a time,
// for a run that takes its flows in order of start time without holding
// the file: a flow that starts before the line above it is an error
// (sort the file by its fourth column, `sort -g -k4`). Flow IDs are the
// 0-based order of the flows in the file, as with ReadFlows.
type FlowReader struct {
	sc       *bufio.Scanner
	line     int // lines read
	id       int // flows read
	last     rotor.Time
	lastLine int
	unsorted bool // ReadFlows: any order (it sorts afterwards)
	err      error
}

// NewFlowReader reads flows from r.
func NewFlowReader(r io.Reader) *FlowReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	return &FlowReader{sc: sc}
}

// Next returns the next flow; false at the end of the file or at the first
// error (Err).
func (fr *FlowReader) Next() (Flow, bool) {
	if fr.err != nil {
		return Flow{}, false
	}
	for fr.sc.Scan() {
		fr.line++
		text := strings.TrimSpace(fr.sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		f, err := parseFlowLine(text, fr.line)
		if err == nil && !fr.unsorted && fr.id > 0 && f.Start < fr.last {
			err = lineErr(fr.line, "start_ns %s is before line %d's %s: the file must be sorted by start (sort -g -k4)",
				appendNanos(nil, f.Start), fr.lastLine, appendNanos(nil, fr.last))
		}
		if err != nil {
			fr.err = err
			return Flow{}, false
		}
		f.ID = fr.id
		fr.id++
		fr.last, fr.lastLine = f.Start, fr.line
		return f, true
	}
	if err := fr.sc.Err(); err != nil {
		fr.err = lineErr(fr.line+1, "%v", err)
	}
	return Flow{}, false
}

// Err is the error that stopped Next, nil at a clean end of file.
func (fr *FlowReader) Err() error { return fr.err }

// parseFlowLine parses one non-blank, non-comment line (line n).
func parseFlowLine(text string, n int) (Flow, error) {
	var fields [6]string
	k := splitFields(text, fields[:])
	if k < 4 || k > 5 {
		return Flow{}, lineErr(n, "want 4 columns \"src_host dst_host bytes start_ns\" (and an optional query), got %d in %q", k, clip(text))
	}
	var f Flow
	var err error
	if f.Src, err = parseHost(fields[0]); err != nil {
		return Flow{}, lineErr(n, "src_host %q %v", clip(fields[0]), err)
	}
	if f.Dst, err = parseHost(fields[1]); err != nil {
		return Flow{}, lineErr(n, "dst_host %q %v", clip(fields[1]), err)
	}
	if f.Src == f.Dst {
		return Flow{}, lineErr(n, "src_host and dst_host are both %d", f.Src)
	}
	f.Bytes, err = strconv.ParseInt(fields[2], 10, 64)
	switch {
	case f.Bytes > MaxFlowBytes: // ParseInt returns MaxInt64 on positive overflow
		return Flow{}, lineErr(n, "bytes %q exceeds the limit of %d (1 TB) per flow", clip(fields[2]), int64(MaxFlowBytes))
	case err != nil || f.Bytes < 1:
		return Flow{}, lineErr(n, "bytes %q must be a positive integer", clip(fields[2]))
	}
	if f.Start, err = parseNanos(fields[3]); err != nil {
		return Flow{}, lineErr(n, "start_ns %q %v", clip(fields[3]), err)
	}
	if k == 5 {
		q, err := strconv.Atoi(fields[4])
		if err != nil || q < 0 {
			return Flow{}, lineErr(n, "query %q must be a non-negative integer", clip(fields[4]))
		}
		f.Query = q
	}
	return f, nil
}

// splitFields splits on spaces and tabs into dst and returns how many fields
// there are (counting past len(dst)).
func splitFields(s string, dst []string) int {
	k := 0
	for s != "" {
		i := strings.IndexAny(s, " \t\r")
		var f string
		if i < 0 {
			f, s = s, ""
		} else {
			f, s = s[:i], s[i+1:]
		}
		if f == "" {
			continue
		}
		if k < len(dst) {
			dst[k] = f
		}
		k++
	}
	return k
}

func parseHost(s string) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("must be a non-negative integer")
	}
	return v, nil
}

// maxNanos keeps start_ns·1000 inside rotor.Time.
const maxNanos = math.MaxInt64 / 1000

// parseNanos turns nanoseconds (integer or decimal) into picoseconds.
func parseNanos(s string) (rotor.Time, error) {
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		if v < 0 || v > maxNanos {
			return 0, fmt.Errorf("must be in [0, %d]", int64(maxNanos))
		}
		return rotor.Time(v) * rotor.Nanosecond, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) {
		return 0, fmt.Errorf("is not a number of nanoseconds")
	}
	if dot := strings.IndexByte(s, '.'); dot >= 0 && !strings.ContainsAny(s, "eE") {
		if frac := strings.TrimRight(s[dot+1:], "0"); len(frac) > 3 {
			return 0, fmt.Errorf("is finer than a picosecond (at most 3 decimals of a nanosecond)")
		}
	}
	// Compare the picoseconds, not v with maxNanos: float64(maxNanos) rounds
	// up to 9223372036854776, which passes v > maxNanos and then overflows
	// when multiplied by 1000. float64(math.MaxInt64) is exactly 2^63.
	ps := math.Round(v * 1000)
	if v < 0 || !(ps < 0x1p63) {
		return 0, fmt.Errorf("must be in [0, %d]", int64(maxNanos))
	}
	return rotor.Time(ps), nil
}

// WriteFlows writes flows in the format ReadFlows reads, in the given order.
// Starts that are whole nanoseconds are written as integers (what opera-sim
// expects); others as decimals with up to 3 fractional digits, so a
// write/read round trip is exact. The query column is written only for flows
// with Query > 0. Every line ends with a newline; opera-sim crashes on that
// final newline, so strip it for opera-sim (docs/workloads.md).
func WriteFlows(w io.Writer, flows []Flow) error {
	bw := bufio.NewWriter(w)
	buf := make([]byte, 0, 96)
	for _, f := range flows {
		if f.Start < 0 {
			return fmt.Errorf("flow %d: start %d ps is negative", f.ID, f.Start)
		}
		buf = buf[:0]
		buf = strconv.AppendInt(buf, int64(f.Src), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(f.Dst), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, f.Bytes, 10)
		buf = append(buf, ' ')
		buf = appendNanos(buf, f.Start)
		if f.Query > 0 {
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(f.Query), 10)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func appendNanos(buf []byte, t rotor.Time) []byte {
	ns, ps := int64(t/rotor.Nanosecond), int64(t%rotor.Nanosecond)
	buf = strconv.AppendInt(buf, ns, 10)
	if ps == 0 {
		return buf
	}
	frac := []byte{'.', byte('0' + ps/100), byte('0' + ps/10%10), byte('0' + ps%10)}
	for frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	return append(buf, frac...)
}

// CheckFlows verifies that every flow's hosts exist in a fabric of hosts
// hosts; use it after ReadFlows, which cannot know the host count.
func CheckFlows(flows []Flow, hosts int) error {
	for i, f := range flows {
		if f.Src < 0 || f.Src >= hosts || f.Dst < 0 || f.Dst >= hosts {
			return fmt.Errorf("flows[%d] (id %d): hosts %d→%d out of range [0,%d)", i, f.ID, f.Src, f.Dst, hosts)
		}
	}
	return nil
}
