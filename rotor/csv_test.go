package rotor

import (
	"bytes"
	"encoding/csv"
	"errors"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCSVRandom writes random schedules (variable slots, offsets, idle
// ports) as CSV, reads the rows back with encoding/csv and checks them
// against the schedule: the matchings rebuilt from the rows, each row's
// duration, and its start against SlotAt's timing model (switch sw is at
// the very beginning of slot t at start_ps).
func TestCSVRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 200 {
		s := randomSchedule(rng)
		var buf bytes.Buffer
		if err := WriteCSV(&buf, s); err != nil {
			t.Fatalf("schedule %d: %v", i, err)
		}
		first := bytes.Clone(buf.Bytes())
		recs, err := csv.NewReader(&buf).ReadAll()
		if err != nil {
			t.Fatalf("schedule %d: not CSV: %v", i, err)
		}
		if d := cmp.Diff(CSVHeader, recs[0]); d != "" {
			t.Fatalf("schedule %d: header (-want +got):\n%s", i, d)
		}
		if got, want := len(recs)-1, s.Switches*s.Period*s.Nodes; got != want {
			t.Fatalf("schedule %d: %d rows, want %d", i, got, want)
		}
		got := make([][][]int, s.Switches)
		for sw := range got {
			got[sw] = make([][]int, s.Period)
			for slot := range got[sw] {
				got[sw][slot] = make([]int, s.Nodes)
			}
		}
		for _, r := range recs[1:] {
			var f [7]int64
			for j, x := range r {
				if f[j], err = strconv.ParseInt(x, 10, 64); err != nil {
					t.Fatalf("schedule %d: row %q: %v", i, r, err)
				}
			}
			sw, slot, start, dur, reconf, src, dst := int(f[0]), int(f[1]), Time(f[2]), Time(f[3]), Time(f[4]), int(f[5]), int(f[6])
			got[sw][slot][src] = dst
			if dur != s.SlotDuration(slot) || reconf != s.Reconf {
				t.Errorf("schedule %d: row %q: duration %d, reconf %d; want %d, %d", i, r, dur, reconf, s.SlotDuration(slot), s.Reconf)
			}
			if at, since := s.SlotAt(sw, start); at != slot || since != 0 {
				t.Errorf("schedule %d: row %q: SlotAt(%d, %d) = slot %d + %d ps, want the start of slot %d", i, r, sw, start, at, since, slot)
			}
		}
		if d := cmp.Diff(s.Matchings, got); d != "" {
			t.Errorf("schedule %d: matchings from the rows (-want +got):\n%s", i, d)
		}
		var again bytes.Buffer
		if err := WriteCSV(&again, s); err != nil || !bytes.Equal(again.Bytes(), first) {
			t.Errorf("schedule %d: second write differs (%v)", i, err)
		}
	}
}

func TestWriteCSVRejectsInvalid(t *testing.T) {
	s := rotorSchedule(4, 1)
	s.Matchings[0][1][2] = s.Matchings[0][1][3]
	var buf bytes.Buffer
	err := WriteCSV(&buf, s)
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Field != "matchings[0][1]" {
		t.Errorf("WriteCSV(invalid) = %v, want a ValidationError on matchings[0][1]", err)
	}
	if buf.Len() != 0 {
		t.Errorf("WriteCSV(invalid) wrote %d bytes", buf.Len())
	}
}
