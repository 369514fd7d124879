package rotor

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Format is the value of the "format" field of a schedule JSON document.
const Format = "rdcn.schedule/v1"

// WriteJSON writes s as an rdcn.schedule/v1 document: one field a line, one
// matching a line, meta keys sorted, so equal schedules give identical bytes
// and diffs stay readable. It validates s first and writes nothing if s is
// invalid. Times are integer picoseconds; Idle ports are -1.
func WriteJSON(w io.Writer, s *Schedule) error {
	if err := s.Validate(); err != nil {
		return err
	}
	var meta []byte
	if s.Meta != nil {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s.Meta); err != nil {
			return invalid("meta", "cannot be encoded as JSON: %v", err)
		}
		meta = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	} else {
		meta = []byte("null")
	}
	kind, _ := json.Marshal(s.Kind) // a string always marshals

	bw := bufio.NewWriterSize(w, 64<<10)
	b := make([]byte, 0, 256)
	b = append(b, "{\n  \"format\": \""+Format+"\",\n  \"kind\": "...)
	b = append(b, kind...)
	b = appendField(b, "nodes", int64(s.Nodes))
	b = appendField(b, "switches", int64(s.Switches))
	b = appendField(b, "period", int64(s.Period))
	b = appendField(b, "slot_ps", int64(s.Slot))
	b = appendField(b, "reconf_ps", int64(s.Reconf))
	b = append(b, ",\n  \"slot_durations_ps\": "...)
	b = appendTimes(b, s.SlotDurations)
	b = append(b, ",\n  \"switch_offsets_ps\": "...)
	b = appendTimes(b, s.SwitchOffsets)
	b = append(b, ",\n  \"matchings\": ["...)
	for sw, slots := range s.Matchings {
		if sw > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    ["...)
		for t, m := range slots {
			if t > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n      ["...)
			for u, v := range m {
				if u > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(v), 10)
			}
			b = append(b, ']')
			if len(b) > 32<<10 {
				if _, err := bw.Write(b); err != nil {
					return err
				}
				b = b[:0]
			}
		}
		b = append(b, "\n    ]"...)
	}
	b = append(b, "\n  ],\n  \"meta\": "...)
	b = append(b, meta...)
	b = append(b, "\n}\n"...)
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

func appendField(b []byte, name string, v int64) []byte {
	b = append(b, ",\n  \""...)
	b = append(b, name...)
	b = append(b, "\": "...)
	return strconv.AppendInt(b, v, 10)
}

func appendTimes(b []byte, ts []Time) []byte {
	if ts == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, t := range ts {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(t), 10)
	}
	return append(b, ']')
}

// ReadJSON reads one rdcn.schedule/v1 document and validates it. Every
// field except slot_durations_ps, switch_offsets_ps and meta is required;
// unknown or repeated fields, a wrong format string, wrong types, truncated
// input and trailing data are errors. Errors are *ValidationError values
// naming the field (e.g. "matchings[1][0][5]") and the line and column.
//
// Meta is decoded into map[string]any with numbers as json.Number, so
// integers such as 64-bit seeds survive exactly; a value that was an int
// when written comes back as json.Number (use its Int64 or Float64 method).
// A nil Meta is written as null and read back as nil.
//
// Input that does not start with '{' (after white space) is refused
// before the rest is read: binary data or the wrong file fails at once.
func ReadJSON(r io.Reader) (*Schedule, error) {
	br := bufio.NewReader(r)
	var lead []byte
	for {
		b, err := br.ReadByte()
		if errors.Is(err, io.EOF) {
			return decodeSchedule(lead)
		}
		if err != nil {
			return nil, fmt.Errorf("reading schedule: %w", err)
		}
		lead = append(lead, b)
		if b == ' ' || b == '\t' || b == '\n' || b == '\r' {
			continue
		}
		if b != '{' {
			return decodeSchedule(lead) // the error at b's line and column
		}
		break
	}
	buf := bytes.NewBuffer(lead)
	if _, err := buf.ReadFrom(br); err != nil {
		return nil, fmt.Errorf("reading schedule: %w", err)
	}
	return decodeSchedule(buf.Bytes())
}

// scanner is a minimal JSON reader over a byte slice. It is hand-written so
// that a million-entry matching array decodes without reflection.
type scanner struct {
	data []byte
	pos  int
}

// fail builds an error for field at the current position.
func (sc *scanner) fail(field, format string, args ...any) error {
	line, col := 1, 1
	for _, c := range sc.data[:min(sc.pos, len(sc.data))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	if strings.ContainsFunc(field, unicode.IsControl) {
		field = strconv.Quote(field) // a key read from the input: keep the error on one line
	}
	return invalid(field, "%s (line %d, column %d)", fmt.Sprintf(format, args...), line, col)
}

func (sc *scanner) ws() {
	for sc.pos < len(sc.data) {
		switch sc.data[sc.pos] {
		case ' ', '\t', '\n', '\r':
			sc.pos++
		default:
			return
		}
	}
}

// peek skips white space and returns the next byte, or 0 at the end.
func (sc *scanner) peek() byte {
	sc.ws()
	if sc.pos >= len(sc.data) {
		return 0
	}
	return sc.data[sc.pos]
}

// got describes the token at the current position for error messages.
func (sc *scanner) got() string {
	if sc.pos >= len(sc.data) {
		return "end of input (truncated?)"
	}
	end := sc.pos
	for end < len(sc.data) && end-sc.pos < 20 {
		c := sc.data[end]
		if c == ',' || c == ']' || c == '}' || c == '\n' || (end > sc.pos && (c == '[' || c == '{')) {
			break
		}
		end++
	}
	if end == sc.pos {
		end++
	}
	return strconv.Quote(string(sc.data[sc.pos:end]))
}

func (sc *scanner) expect(field string, c byte) error {
	if sc.peek() != c {
		return sc.fail(field, "want %q, got %s", c, sc.got())
	}
	sc.pos++
	return nil
}

// null consumes a null literal if one is next.
func (sc *scanner) null() bool {
	if sc.peek() == 'n' && bytes.HasPrefix(sc.data[sc.pos:], []byte("null")) {
		sc.pos += 4
		return true
	}
	return false
}

// str reads a JSON string.
func (sc *scanner) str(field string) (string, error) {
	if sc.peek() != '"' {
		return "", sc.fail(field, "want a string, got %s", sc.got())
	}
	start := sc.pos
	escaped := false
	for i := sc.pos + 1; i < len(sc.data); i++ {
		switch c := sc.data[i]; {
		case c == '\\':
			escaped = true
			i++
		case c < 0x20:
			sc.pos = i
			return "", sc.fail(field, "control character in string")
		case c == '"':
			raw := sc.data[start : i+1]
			sc.pos = i + 1
			if !utf8.Valid(raw) {
				sc.pos = start
				return "", sc.fail(field, "string is not valid UTF-8")
			}
			if !escaped {
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				sc.pos = start
				return "", sc.fail(field, "bad string: %v", err)
			}
			return s, nil
		}
	}
	sc.pos = len(sc.data)
	return "", sc.fail(field, "unterminated string")
}

// readInt reads a JSON integer that fits an int64. On failure it leaves the
// position at the offending token and returns what is wrong.
func (sc *scanner) readInt() (int64, string) {
	sc.ws()
	start, i := sc.pos, sc.pos
	neg := false
	if i < len(sc.data) && sc.data[i] == '-' {
		neg = true
		i++
	}
	digits := i
	var v uint64
	for ; i < len(sc.data) && sc.data[i] >= '0' && sc.data[i] <= '9'; i++ {
		d := uint64(sc.data[i] - '0')
		if v > (1<<63-d)/10 { // v*10+d would exceed 2^63
			sc.pos = start
			return 0, "integer " + sc.got() + " out of range"
		}
		v = v*10 + d
	}
	if i == digits || (sc.data[digits] == '0' && i-digits > 1) {
		return 0, "want an integer, got " + sc.got()
	}
	if i < len(sc.data) {
		if c := sc.data[i]; c == '.' || c == 'e' || c == 'E' {
			return 0, "want an integer, got " + sc.got()
		}
	}
	if !neg && v > 1<<63-1 {
		return 0, "integer " + sc.got() + " out of range"
	}
	sc.pos = i
	if neg {
		return -int64(v), "" // -2^63 wraps to itself, which is right
	}
	return int64(v), ""
}

// integer reads a JSON integer that fits an int64.
func (sc *scanner) integer(field string) (int64, error) {
	v, problem := sc.readInt()
	if problem != "" {
		return 0, sc.fail(field, "%s", problem)
	}
	return v, nil
}

// intField reads an integer that must also fit an int.
func (sc *scanner) intField(field string) (int, error) {
	start := sc.pos
	v, err := sc.integer(field)
	if err != nil {
		return 0, err
	}
	if int64(int(v)) != v {
		sc.pos = start
		return 0, sc.fail(field, "integer %d out of range", v)
	}
	return int(v), nil
}

// times reads null or an array of picosecond integers.
func (sc *scanner) times(field string) ([]Time, error) {
	if sc.null() {
		return nil, nil
	}
	if sc.peek() != '[' {
		return nil, sc.fail(field, "want null or an array of integers, got %s", sc.got())
	}
	sc.pos++
	ts := []Time{}
	if sc.peek() == ']' {
		sc.pos++
		return ts, nil
	}
	for {
		v, err := sc.integer(fmt.Sprintf("%s[%d]", field, len(ts)))
		if err != nil {
			return nil, err
		}
		ts = append(ts, Time(v))
		switch sc.peek() {
		case ',':
			sc.pos++
		case ']':
			sc.pos++
			return ts, nil
		default:
			return nil, sc.fail(field, "want ',' or ']', got %s", sc.got())
		}
	}
}

// list reads a JSON array, calling item for each element.
func (sc *scanner) list(field string, item func(i int) error) error {
	if err := sc.expect(field, '['); err != nil {
		return err
	}
	if sc.peek() == ']' {
		sc.pos++
		return nil
	}
	for i := 0; ; i++ {
		if err := item(i); err != nil {
			return err
		}
		switch sc.peek() {
		case ',':
			sc.pos++
		case ']':
			sc.pos++
			return nil
		default:
			return sc.fail(field, "want ',' or ']' after element %d, got %s", i, sc.got())
		}
	}
}

// matchings reads the [switch][slot][node] array. Field names are built
// only on failure: formatting one per element would dominate decoding time.
func (sc *scanner) matchings(nodesHint int) ([][][]int, error) {
	scratch := make([]int, 0, max(0, min(nodesHint, 1<<20)))
	var out [][][]int
	if sc.peek() != '[' {
		return nil, sc.fail("matchings", "want an array, got %s", sc.got())
	}
	sc.pos++
	for sw := 0; ; sw++ {
		if sw == 0 && sc.peek() == ']' {
			sc.pos++
			return out, nil
		}
		if sc.peek() != '[' {
			return nil, sc.fail(fmt.Sprintf("matchings[%d]", sw), "want an array of matchings, got %s", sc.got())
		}
		sc.pos++
		slots := [][]int{}
		for t := 0; ; t++ {
			if t == 0 && sc.peek() == ']' {
				break
			}
			if sc.peek() != '[' {
				return nil, sc.fail(fmt.Sprintf("matchings[%d][%d]", sw, t), "want an array of node indices, got %s", sc.got())
			}
			sc.pos++
			scratch = scratch[:0]
			for u := 0; ; u++ {
				if u == 0 && sc.peek() == ']' {
					break
				}
				v, problem := sc.readInt()
				if problem == "" && int64(int(v)) != v {
					problem = fmt.Sprintf("integer %d out of range", v)
				}
				if problem != "" {
					return nil, sc.fail(fmt.Sprintf("matchings[%d][%d][%d]", sw, t, u), "%s", problem)
				}
				scratch = append(scratch, int(v))
				if c := sc.peek(); c == ',' {
					sc.pos++
				} else if c == ']' {
					break
				} else {
					return nil, sc.fail(fmt.Sprintf("matchings[%d][%d]", sw, t), "want ',' or ']' after element %d, got %s", u, sc.got())
				}
			}
			sc.pos++ // the ']' of the matching
			slots = append(slots, append(make([]int, 0, len(scratch)), scratch...))
			if c := sc.peek(); c == ',' {
				sc.pos++
			} else if c == ']' {
				break
			} else {
				return nil, sc.fail(fmt.Sprintf("matchings[%d]", sw), "want ',' or ']' after slot %d, got %s", t, sc.got())
			}
		}
		sc.pos++ // the ']' of the switch
		out = append(out, slots)
		if c := sc.peek(); c == ',' {
			sc.pos++
		} else if c == ']' {
			sc.pos++
			return out, nil
		} else {
			return nil, sc.fail("matchings", "want ',' or ']' after switch %d, got %s", sw, sc.got())
		}
	}
}

// skipValue consumes any JSON value and returns its bytes.
func (sc *scanner) skipValue(field string, depth int) ([]byte, error) {
	if depth > 1000 {
		return nil, sc.fail(field, "nested too deeply")
	}
	start := sc.pos
	switch c := sc.peek(); {
	case c == '{':
		sc.pos++
		if sc.peek() == '}' {
			sc.pos++
			break
		}
		for {
			if _, err := sc.str(field); err != nil {
				return nil, err
			}
			if err := sc.expect(field, ':'); err != nil {
				return nil, err
			}
			if _, err := sc.skipValue(field, depth+1); err != nil {
				return nil, err
			}
			if sc.peek() == ',' {
				sc.pos++
				continue
			}
			if err := sc.expect(field, '}'); err != nil {
				return nil, err
			}
			break
		}
	case c == '[':
		if err := sc.list(field, func(int) error {
			_, err := sc.skipValue(field, depth+1)
			return err
		}); err != nil {
			return nil, err
		}
	case c == '"':
		if _, err := sc.str(field); err != nil {
			return nil, err
		}
	default:
		// A literal or number: consume up to the next delimiter; the JSON
		// decoder that reads the value checks its syntax.
		i := sc.pos
		for i < len(sc.data) && bytes.IndexByte([]byte(",]} \t\r\n"), sc.data[i]) < 0 {
			i++
		}
		if i == sc.pos {
			return nil, sc.fail(field, "want a value, got %s", sc.got())
		}
		sc.pos = i
	}
	return sc.data[start:sc.pos], nil
}

func (sc *scanner) meta() (map[string]any, error) {
	if sc.null() {
		return nil, nil
	}
	if sc.peek() != '{' {
		return nil, sc.fail("meta", "want an object or null, got %s", sc.got())
	}
	start := sc.pos
	raw, err := sc.skipValue("meta", 0)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	m := map[string]any{}
	if err := dec.Decode(&m); err != nil {
		sc.pos = start
		return nil, sc.fail("meta", "%v", err)
	}
	return m, nil
}

func decodeSchedule(data []byte) (*Schedule, error) {
	sc := &scanner{data: data}
	if sc.peek() == 0 && sc.pos >= len(sc.data) {
		return nil, sc.fail("schedule", "empty input")
	}
	if err := sc.expect("schedule", '{'); err != nil {
		return nil, err
	}
	s := &Schedule{}
	seen := map[string]bool{}
	for first := true; ; first = false {
		if first && sc.peek() == '}' {
			sc.pos++
			break
		}
		keyPos := sc.pos
		key, err := sc.str("schedule")
		if err != nil {
			return nil, err
		}
		if seen[key] {
			sc.pos = keyPos
			return nil, sc.fail(key, "appears twice")
		}
		seen[key] = true
		if err := sc.expect(key, ':'); err != nil {
			return nil, err
		}
		switch key {
		case "format":
			start := sc.pos
			f, err := sc.str(key)
			if err != nil {
				return nil, err
			}
			if f != Format {
				sc.pos = start
				return nil, sc.fail(key, "unknown format %q, want %q", f, Format)
			}
		case "kind":
			s.Kind, err = sc.str(key)
		case "nodes":
			s.Nodes, err = sc.intField(key)
		case "switches":
			s.Switches, err = sc.intField(key)
		case "period":
			s.Period, err = sc.intField(key)
		case "slot_ps":
			var v int64
			v, err = sc.integer(key)
			s.Slot = Time(v)
		case "reconf_ps":
			var v int64
			v, err = sc.integer(key)
			s.Reconf = Time(v)
		case "slot_durations_ps":
			s.SlotDurations, err = sc.times(key)
		case "switch_offsets_ps":
			s.SwitchOffsets, err = sc.times(key)
		case "matchings":
			if sc.null() {
				sc.pos -= 4
				return nil, sc.fail(key, "must be an array, got null")
			}
			s.Matchings, err = sc.matchings(s.Nodes)
		case "meta":
			s.Meta, err = sc.meta()
		default:
			sc.pos = keyPos
			return nil, sc.fail(key, "unknown field")
		}
		if err != nil {
			return nil, err
		}
		if sc.peek() == ',' {
			sc.pos++
			continue
		}
		if sc.peek() != '}' {
			return nil, sc.fail("schedule", "want ',' or '}' after %q, got %s", key, sc.got())
		}
		sc.pos++
		break
	}
	if sc.peek() != 0 {
		return nil, sc.fail("schedule", "trailing data %s after the document", sc.got())
	}
	for _, f := range []string{"format", "kind", "nodes", "switches", "period", "slot_ps", "reconf_ps", "matchings"} {
		if !seen[f] {
			return nil, invalid(f, "missing")
		}
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}
