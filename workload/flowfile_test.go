package workload

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/rotor"
)

// Lines in the layout of opera-sim's published flow files (src dst bytes
// start_ns, hosts from 0).
const operaSample = `62 66 560 182729
585 596 400000 221013
146 549 1870 247063
`

func TestReadFlowsOpera(t *testing.T) {
	flows, err := ReadFlows(strings.NewReader(operaSample))
	if err != nil {
		t.Fatal(err)
	}
	want := []Flow{
		{ID: 0, Src: 62, Dst: 66, Bytes: 560, Start: 182729 * rotor.Nanosecond},
		{ID: 1, Src: 585, Dst: 596, Bytes: 400000, Start: 221013 * rotor.Nanosecond},
		{ID: 2, Src: 146, Dst: 549, Bytes: 1870, Start: 247063 * rotor.Nanosecond},
	}
	if diff := cmp.Diff(want, flows); diff != "" {
		t.Fatal(diff)
	}
}

func TestReadFlowsSortsStably(t *testing.T) {
	in := "# src dst bytes start_ns\n\n5 6 100 300\n1 2 100 100\n\t3  4 100 300 \n7 8 100 100.25 9\n"
	flows, err := ReadFlows(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Flow{
		{ID: 1, Src: 1, Dst: 2, Bytes: 100, Start: 100 * rotor.Nanosecond},
		{ID: 3, Src: 7, Dst: 8, Bytes: 100, Start: 100250, Query: 9},
		{ID: 0, Src: 5, Dst: 6, Bytes: 100, Start: 300 * rotor.Nanosecond},
		{ID: 2, Src: 3, Dst: 4, Bytes: 100, Start: 300 * rotor.Nanosecond},
	}
	if diff := cmp.Diff(want, flows); diff != "" {
		t.Fatal(diff)
	}
	if err := CheckFlows(flows, 9); err != nil {
		t.Fatal(err)
	}
	if err := CheckFlows(flows, 8); err == nil || !strings.Contains(err.Error(), "7→8 out of range [0,8)") {
		t.Fatalf("CheckFlows: %v", err)
	}
}

func TestReadFlowsErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"three columns", "1 2 3\n", "line 1: want 4 columns"},
		{"six columns", "1 2 3 4 5 6\n", "line 1: want 4 columns"},
		{"bad src", "# c\nx 2 3 4\n", `line 2: src_host "x" must be a non-negative integer`},
		{"negative dst", "1 -2 3 4\n", `line 1: dst_host "-2"`},
		{"self", "1 2 3 4\n3 3 3 4\n", "line 2: src_host and dst_host are both 3"},
		{"zero bytes", "1 2 0 4\n", `line 1: bytes "0" must be a positive integer`},
		{"float bytes", "1 2 1.5 4\n", `line 1: bytes "1.5"`},
		{"negative start", "1 2 3 -4\n", `line 1: start_ns "-4" must be in [0,`},
		{"NaN start", "1 2 3 NaN\n", `line 1: start_ns "NaN" is not a number`},
		{"huge start", "1 2 3 9223372036854776\n", `line 1: start_ns "9223372036854776" must be in`},
		// float64(maxNanos) rounds up to 9223372036854776: this passed the
		// range check and overflowed to a negative start when scaled to ps.
		{"decimal start rounding past maxNanos", "1 2 3 9223372036854775.0\n", `line 1: start_ns "9223372036854775.0" must be in [0, 9223372036854775]`},
		{"decimal start beyond int64 ps", "1 2 3 9.3e15\n", `line 1: start_ns "9.3e15" must be in`},
		{"start finer than a picosecond", "1 2 3 1.2345\n", `line 1: start_ns "1.2345" is finer than a picosecond`},
		// Sizes beyond MaxFlowBytes (1 TB): MaxInt64 panicked in the
		// receiver's makeslice, 1 PB ran out of memory.
		{"max bytes", "0 3 9223372036854775807 0\n", `line 1: bytes "9223372036854775807" exceeds the limit of 1000000000000 (1 TB)`},
		{"bytes beyond int64", "0 3 99999999999999999999 0\n", `line 1: bytes "99999999999999999999" exceeds the limit`},
		{"petabyte", "0 3 1000000000000000 0\n", `line 1: bytes "1000000000000000" exceeds the limit`},
		{"negative bytes beyond int64", "0 3 -99999999999999999999 0\n", `line 1: bytes "-99999999999999999999" must be a positive integer`},
		{"bad query", "1 2 3 4 -1\n", `line 1: query "-1"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadFlows(strings.NewReader(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// Generated flows (picosecond starts, incast queries) survive a write/read
// round trip exactly.
func TestFlowFileRoundTrip(t *testing.T) {
	cfg := baseConfig(t)
	cfg.Duration = 50 * rotor.Millisecond
	cfg.Incast = &Incast{Senders: 5, Bytes: 7000, Rate: 300}
	flows, err := Generate(cfg, rand.New(rand.NewPCG(12, 0)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteFlows(&buf, flows); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFlows(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(flows, back); diff != "" {
		t.Fatalf("round trip differs:\n%s", diff)
	}
	// And the text is stable: writing again gives the same bytes.
	var a, b bytes.Buffer
	WriteFlows(&a, flows)
	WriteFlows(&b, back)
	if a.String() != b.String() {
		t.Fatal("rewriting changed the text")
	}
}

func TestWriteFlowsNanos(t *testing.T) {
	for _, tc := range []struct {
		t    rotor.Time
		want string
	}{{0, "0"}, {1, "0.001"}, {10, "0.01"}, {120, "0.12"}, {999, "0.999"}, {1000, "1"}, {1234567, "1234.567"}, {5 * rotor.Second, "5000000000"}} {
		var buf bytes.Buffer
		if err := WriteFlows(&buf, []Flow{{Src: 0, Dst: 1, Bytes: 1, Start: tc.t}}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Fields(buf.String())[3]; got != tc.want {
			t.Errorf("start %d ps written as %q, want %q", tc.t, got, tc.want)
		}
	}
	if err := WriteFlows(&bytes.Buffer{}, []Flow{{Start: -1}}); err == nil {
		t.Error("negative start: no error")
	}
}

func FuzzReadFlows(f *testing.F) {
	f.Add(operaSample)
	f.Add("# c\n\n1 2 3 4.5 6\n")
	f.Add("1 2 3 4\n1 2 3\n")
	f.Add("0 1 1 9223372036854\n")
	f.Add("0 1 1 1e3\n")
	f.Add("0 3 1000 9223372036854775.0\n")
	f.Add("0 3 9223372036854775807 0\n")
	f.Add("0 3 1000000000000 9223372036854774\n")
	f.Fuzz(func(t *testing.T, text string) {
		flows, err := ReadFlows(strings.NewReader(text))
		if err != nil {
			return
		}
		for i, fl := range flows {
			if fl.Src < 0 || fl.Dst < 0 || fl.Src == fl.Dst || fl.Bytes < 1 || fl.Bytes > MaxFlowBytes || fl.Start < 0 || fl.Query < 0 {
				t.Fatalf("invalid flow accepted: %+v", fl)
			}
			if i > 0 && fl.Start < flows[i-1].Start {
				t.Fatal("not sorted")
			}
		}
		// What was read writes and reads back to the same flows.
		var buf bytes.Buffer
		if err := WriteFlows(&buf, flows); err != nil {
			t.Fatal(err)
		}
		back, err := ReadFlows(&buf)
		if err != nil {
			t.Fatalf("re-read: %v", err)
		}
		for i := range back {
			back[i].ID = flows[i].ID
		}
		if diff := cmp.Diff(flows, back); diff != "" {
			t.Fatalf("round trip:\n%s", diff)
		}
	})
}
