package rotor

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// rotorSchedule is the true rotor for tests: cyclic shifts 1..n-1 dealt
// round-robin over u switches (n-1 must be a multiple of u).
func rotorSchedule(n, u int) *Schedule {
	period := (n - 1) / u
	s := &Schedule{
		Kind: "rotornet", Nodes: n, Switches: u, Period: period,
		Slot: 100 * Microsecond, Reconf: 10 * Microsecond,
		Matchings: make([][][]int, u),
		Meta:      map[string]any{"seed": json.Number("18446744073709551615"), "self_slot": false},
	}
	for sw := range u {
		s.Matchings[sw] = make([][]int, period)
		for t := range period {
			shift := 1 + t*u + sw
			m := make([]int, n)
			for x := range n {
				m[x] = (x + shift) % n
			}
			s.Matchings[sw][t] = m
		}
	}
	return s
}

// randomSchedule draws a valid schedule with random partial matchings,
// sometimes with variable slots and switch offsets.
func randomSchedule(rng *rand.Rand) *Schedule {
	n, u, period := 1+rng.IntN(7), 1+rng.IntN(3), 1+rng.IntN(5)
	s := &Schedule{
		Kind: "random", Nodes: n, Switches: u, Period: period,
		Slot: Time(2 + rng.IntN(20)),
	}
	if rng.IntN(2) == 0 {
		s.SlotDurations = make([]Time, period)
		for t := range s.SlotDurations {
			s.SlotDurations[t] = Time(2 + rng.IntN(20))
		}
	}
	shortest := s.Slot
	for _, d := range s.SlotDurations {
		shortest = min(shortest, d)
	}
	s.Reconf = Time(rng.IntN(int(shortest)))
	if rng.IntN(2) == 0 {
		s.SwitchOffsets = make([]Time, u)
		for i := range s.SwitchOffsets {
			s.SwitchOffsets[i] = Time(rng.IntN(60))
		}
	}
	s.Matchings = make([][][]int, u)
	for sw := range u {
		s.Matchings[sw] = make([][]int, period)
		for t := range period {
			perm := rng.Perm(n)
			for x := range perm {
				if rng.IntN(3) == 0 {
					perm[x] = Idle
				}
			}
			s.Matchings[sw][t] = perm
		}
	}
	return s
}

func encode(t testing.TB, s *Schedule) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, s); err != nil {
		t.Fatalf("WriteJSON: %v", err)
	}
	return buf.Bytes()
}

func TestJSONGolden(t *testing.T) {
	s := &Schedule{
		Kind: "rotornet", Nodes: 4, Switches: 1, Period: 3,
		Slot: 100 * Microsecond, Reconf: 10 * Microsecond,
		Matchings: [][][]int{{{1, 2, 3, 0}, {2, 3, 0, 1}, {3, 0, 1, Idle}}},
		Meta:      map[string]any{"self_slot": false, "a<b": "x&y"},
	}
	want := `{
  "format": "rdcn.schedule/v1",
  "kind": "rotornet",
  "nodes": 4,
  "switches": 1,
  "period": 3,
  "slot_ps": 100000000,
  "reconf_ps": 10000000,
  "slot_durations_ps": null,
  "switch_offsets_ps": null,
  "matchings": [
    [
      [1,2,3,0],
      [2,3,0,1],
      [3,0,1,-1]
    ]
  ],
  "meta": {"a<b":"x&y","self_slot":false}
}
`
	if diff := cmp.Diff(want, string(encode(t, s))); diff != "" {
		t.Errorf("WriteJSON (-want +got):\n%s", diff)
	}
	// The standard library agrees that it is JSON with these fields.
	var generic map[string]any
	if err := json.Unmarshal([]byte(want), &generic); err != nil {
		t.Fatalf("encoding/json rejects the output: %v", err)
	}
	if generic["slot_ps"] != 1e8 || len(generic["matchings"].([]any)) != 1 {
		t.Errorf("encoding/json reads %v", generic)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	cases := []*Schedule{rotorSchedule(16, 3), rotorSchedule(2, 1)}
	rng := rand.New(rand.NewPCG(7, 7))
	for range 200 {
		cases = append(cases, randomSchedule(rng))
	}
	withMeta := randomSchedule(rng)
	withMeta.Meta = map[string]any{
		"seed":   json.Number("42"),
		"trust":  json.Number("0.75"),
		"name":   "vermilion \"k=3\"\n",
		"nested": map[string]any{"list": []any{json.Number("1"), "two", nil, true}},
		"empty":  map[string]any{},
	}
	cases = append(cases, withMeta)
	empty := randomSchedule(rng)
	empty.Meta = map[string]any{}
	cases = append(cases, empty)
	for i, s := range cases {
		data := encode(t, s)
		got, err := ReadJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("case %d: ReadJSON: %v\n%s", i, err, data)
		}
		if diff := cmp.Diff(s, got); diff != "" {
			t.Fatalf("case %d: round trip (-want +got):\n%s", i, diff)
		}
		if again := encode(t, got); !bytes.Equal(again, data) {
			t.Fatalf("case %d: re-encoding differs", i)
		}
	}
}

// TestJSONMetaNumbers documents that meta numbers come back as json.Number.
func TestJSONMetaNumbers(t *testing.T) {
	s := rotorSchedule(4, 1)
	s.Meta = map[string]any{"seed": uint64(1<<63 + 1), "alpha": 0.5}
	got, err := ReadJSON(bytes.NewReader(encode(t, s)))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"seed": json.Number("9223372036854775809"), "alpha": json.Number("0.5")}
	if diff := cmp.Diff(want, got.Meta); diff != "" {
		t.Errorf("meta (-want +got):\n%s", diff)
	}
}

func TestWriteJSONRejectsInvalid(t *testing.T) {
	s := rotorSchedule(4, 1)
	s.Matchings[0][1][2] = s.Matchings[0][1][3]
	var buf bytes.Buffer
	err := WriteJSON(&buf, s)
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Field != "matchings[0][1]" {
		t.Errorf("WriteJSON(invalid) = %v, want a ValidationError on matchings[0][1]", err)
	}
	if buf.Len() != 0 {
		t.Errorf("WriteJSON(invalid) wrote %d bytes", buf.Len())
	}
	s = rotorSchedule(4, 1)
	s.Meta = map[string]any{"bad": func() {}}
	if err := WriteJSON(&buf, s); err == nil || !strings.HasPrefix(err.Error(), "meta:") {
		t.Errorf("WriteJSON(meta with func) = %v, want a meta error", err)
	}
}

func TestReadJSONErrors(t *testing.T) {
	good := string(encode(t, &Schedule{
		Kind: "x", Nodes: 2, Switches: 1, Period: 1, Slot: 10, Reconf: 1,
		Matchings: [][][]int{{{1, 0}}},
	}))
	tests := []struct {
		name, doc, field, problem string
	}{
		{"empty", "", "schedule", "empty input"},
		{"not object", "[1]", "schedule", "want '{'"},
		{"truncated", good[:len(good)/2], "", ""},
		{"truncated matchings", good[:strings.Index(good, "[1,0]")+3], "matchings[0][0][1]", "end of input"},
		{"format", strings.Replace(good, "rdcn.schedule/v1", "rdcn.schedule/v2", 1), "format", `unknown format "rdcn.schedule/v2"`},
		{"format type", strings.Replace(good, `"rdcn.schedule/v1"`, "1", 1), "format", "want a string"},
		{"missing nodes", strings.Replace(good, "\"nodes\": 2,\n", "", 1), "nodes", "missing"},
		{"missing matchings", strings.Replace(good, ",\n  \"matchings\": [\n    [\n      [1,0]\n    ]\n  ]", "", 1), "matchings", "missing"},
		{"nodes string", strings.Replace(good, `"nodes": 2`, `"nodes": "2"`, 1), "nodes", "want an integer"},
		{"nodes float", strings.Replace(good, `"nodes": 2`, `"nodes": 2.0`, 1), "nodes", "want an integer"},
		{"slot overflow", strings.Replace(good, `"slot_ps": 10`, `"slot_ps": 99999999999999999999`, 1), "slot_ps", "out of range"},
		{"durations type", strings.Replace(good, `"slot_durations_ps": null`, `"slot_durations_ps": 5`, 1), "slot_durations_ps", "want null or an array"},
		{"durations length", strings.Replace(good, `"slot_durations_ps": null`, `"slot_durations_ps": [5, 6]`, 1), "slot_durations_ps", "has 2 entries, period is 1"},
		{"matching value", strings.Replace(good, "[1,0]", "[1,x]", 1), "matchings[0][0][1]", "want an integer"},
		{"matching null", strings.Replace(good, "[\n    [\n      [1,0]\n    ]\n  ]", "null", 1), "matchings", "must be an array"},
		{"not a matching", strings.Replace(good, "[1,0]", "[1,1]", 1), "matchings[0][0]", "destination 1 is used twice"},
		{"out of range", strings.Replace(good, "[1,0]", "[1,2]", 1), "matchings[0][0][1]", "out of range"},
		{"short matching", strings.Replace(good, "[1,0]", "[1]", 1), "matchings[0][0]", "has 1 entries, want 2"},
		// A huge declared node count must fail on the short matching, not
		// allocate per declared node first (it did: 800 GB for 1e11 nodes).
		{"huge nodes", strings.Replace(good, `"nodes": 2`, `"nodes": 100000000000`, 1), "matchings[0][0]", "has 2 entries, want 100000000000"},
		{"max nodes", strings.Replace(good, `"nodes": 2`, `"nodes": 9223372036854775807`, 1), "matchings[0][0]", "has 2 entries"},
		{"unknown field", strings.Replace(good, `"kind"`, `"knid"`, 1), "knid", "unknown field"},
		{"duplicate field", strings.Replace(good, `"kind": "x"`, `"kind": "x", "kind": "y"`, 1), "kind", "appears twice"},
		{"meta type", strings.Replace(good, `"meta": null`, `"meta": [1]`, 1), "meta", "want an object or null"},
		{"meta syntax", strings.Replace(good, `"meta": null`, `"meta": {"a": tru}`, 1), "meta", "invalid"},
		{"trailing", good + "{}", "schedule", "trailing data"},
		{"reconf too long", strings.Replace(good, `"reconf_ps": 1`, `"reconf_ps": 10`, 1), "reconf_ps", "not shorter"},
		{"bad utf8", strings.Replace(good, `"kind": "x"`, "\"kind\": \"\xff\"", 1), "kind", "UTF-8"},
		// Cycles beyond MaxCycle (2^62 ps): they used to overflow int64.
		{"slot beyond MaxCycle", strings.Replace(good, `"slot_ps": 10`, `"slot_ps": 9000000000000000000`, 1), "slot_ps", "exceeds the longest cycle"},
		{"duration MaxInt64", strings.Replace(good, `"slot_durations_ps": null`, `"slot_durations_ps": [9223372036854775807]`, 1), "slot_durations_ps", "exceeds"},
		{"offset MaxInt64", strings.Replace(good, `"switch_offsets_ps": null`, `"switch_offsets_ps": [9223372036854775807]`, 1), "switch_offsets_ps[0]", "exceeds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ReadJSON(strings.NewReader(tt.doc))
			if err == nil {
				t.Fatalf("ReadJSON accepted %q: %+v", tt.doc, s)
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error %v is not a *ValidationError", err)
			}
			if tt.field != "" && ve.Field != tt.field || !strings.Contains(ve.Problem, tt.problem) {
				t.Errorf("error = %q; want field %q, problem containing %q", err, tt.field, tt.problem)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q spans lines", err)
			}
		})
	}
	// The good document itself reads fine.
	if _, err := ReadJSON(strings.NewReader(good)); err != nil {
		t.Fatalf("good document: %v", err)
	}
}

// TestReadJSONPositions checks the line and column in errors.
func TestReadJSONPositions(t *testing.T) {
	doc := "{\n  \"format\": \"rdcn.schedule/v1\",\n  \"nodes\": true\n}"
	_, err := ReadJSON(strings.NewReader(doc))
	if err == nil || !strings.Contains(err.Error(), "(line 3, column 12)") {
		t.Errorf("error %v, want position line 3, column 12", err)
	}
}

// TestReadJSONCompact reads a document in another layout (as another tool
// would write it) with fields in another order.
func TestReadJSONCompact(t *testing.T) {
	doc := `{"matchings":[[[1,0],[-1,-1]]],"meta":{"seed":3},"reconf_ps":0,"slot_ps":5,
	"slot_durations_ps":[5,7],"switch_offsets_ps":[2],"period":2,"switches":1,"nodes":2,"kind":"","format":"rdcn.schedule/v1"}`
	got, err := ReadJSON(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := &Schedule{
		Nodes: 2, Switches: 1, Period: 2, Slot: 5,
		SlotDurations: []Time{5, 7}, SwitchOffsets: []Time{2},
		Matchings: [][][]int{{{1, 0}, {Idle, Idle}}},
		Meta:      map[string]any{"seed": json.Number("3")},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func FuzzReadJSON(f *testing.F) {
	f.Add(encode(f, rotorSchedule(4, 3)))
	f.Add(encode(f, rotorSchedule(5, 2)))
	rng := rand.New(rand.NewPCG(1, 1))
	for range 5 {
		f.Add(encode(f, randomSchedule(rng)))
	}
	f.Add([]byte(`{"matchings":[[[1,0],[-1,-1]]],"meta":{"seed":3,"x":[1,{"y":null}]},"reconf_ps":0,"slot_ps":5,"slot_durations_ps":[5,7],"switch_offsets_ps":[2],"period":2,"switches":1,"nodes":2,"kind":"\u00e9","format":"rdcn.schedule/v1"}`))
	f.Add([]byte(`{"format":"rdcn.schedule/v1"`))
	// The audit's overflowing cycles: 2^62 + 2^62 + 10^8 and 3 × MaxInt64.
	f.Add([]byte(`{"format":"rdcn.schedule/v1","kind":"x","nodes":2,"switches":1,"period":3,"slot_ps":5,"reconf_ps":0,"slot_durations_ps":[4611686018427387904,4611686018427387904,100000000],"switch_offsets_ps":null,"matchings":[[[1,0],[1,0],[1,0]]],"meta":null}`))
	f.Add([]byte(`{"format":"rdcn.schedule/v1","kind":"x","nodes":2,"switches":1,"period":3,"slot_ps":5,"reconf_ps":0,"slot_durations_ps":[9223372036854775807,9223372036854775807,9223372036854775807],"switch_offsets_ps":null,"matchings":[[[1,0],[1,0],[1,0]]],"meta":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadJSON(bytes.NewReader(data))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted an invalid schedule: %v", err)
		}
		if c := s.CycleDuration(); c <= 0 || c > MaxCycle {
			t.Fatalf("accepted a cycle of %d ps, want (0, MaxCycle]", c)
		}
		var buf bytes.Buffer
		if err := WriteJSON(&buf, s); err != nil {
			t.Fatalf("cannot re-encode an accepted schedule: %v", err)
		}
		again, err := ReadJSON(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("cannot re-read: %v\n%s", err, buf.Bytes())
		}
		if diff := cmp.Diff(s, again); diff != "" {
			t.Fatalf("re-read differs (-first +second):\n%s", diff)
		}
	})
}

// benchSchedule is the n=1024 true rotor on one switch: 1023 matchings,
// about 1M integers.
func benchSchedule() *Schedule { return rotorSchedule(1024, 1) }

func BenchmarkWriteJSON(b *testing.B) {
	s := benchSchedule()
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := WriteJSON(&buf, s); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}

func BenchmarkReadJSON(b *testing.B) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, benchSchedule()); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadJSON(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
