package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rdcn/rdcn/operasim"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

func TestScheduleJSONRoundTrip(t *testing.T) {
	for _, kind := range []string{"rotornet", "sirius", "opera", "static"} {
		t.Run(kind, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.json")
			var stdout, stderr bytes.Buffer
			code := run([]string{"rdcn", "schedule", "--kind", kind, "--tors", "16", "--uplinks", "4", "--seed", "3", "--slot", "50us", "--reconf", "5us", "-o", path}, &stdout, &stderr)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := rotor.ReadJSON(f)
			if err != nil {
				t.Fatal(err)
			}
			want, err := schedules.Build(kind, schedules.Params{Nodes: 16, Uplinks: 4, Seed: 3, Slot: 50 * rotor.Microsecond, Reconf: 5 * rotor.Microsecond})
			if err != nil {
				t.Fatal(err)
			}
			// Meta numbers come back as json.Number; compare everything else.
			got.Meta, want.Meta = nil, nil
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("file differs from schedules.Build (-want +got):\n%s", d)
			}
		})
	}
}

func TestScheduleText(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"rdcn", "schedule", "--kind", "rotornet", "--tors", "4", "--uplinks", "2", "--self-slot"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		if !strings.HasPrefix(l, "# ") || strings.HasPrefix(l, "# kind") {
			lines = append(lines, l)
		}
	}
	want := []string{
		"# kind rotornet, 4 nodes, 2 switches, period 2, slot 100us, reconf 10us, duty cycle 0.9",
		"s0 t0  idle",
		"s0 t1  0→2 1→3 2→0 3→1",
		"s1 t0  0→1 1→2 2→3 3→0",
		"s1 t1  0→3 1→0 2→1 3→2",
	}
	if d := cmp.Diff(want, lines); d != "" {
		t.Errorf("text output (-want +got):\n%s", d)
	}
}

// TestScheduleOperaSim: --format opera-sim writes the topology of the
// schedule the same flags build, with the default guard (half the day).
func TestScheduleOperaSim(t *testing.T) {
	path := filepath.Join(t.TempDir(), "top.txt")
	runOK(t, "schedule", "--kind", "opera", "--tors", "8", "--uplinks", "4", "--slot", "400us", "--reconf", "10us", "--seed", "2", "--format", "opera-sim", "-o", path)
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := operasim.Read(bytes.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := schedules.Build("opera", schedules.Params{Nodes: 8, Uplinks: 4, Seed: 2, Slot: 400 * rotor.Microsecond, Reconf: 10 * rotor.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	want, err := operasim.FromSchedule(sc, 45*rotor.Microsecond)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("file differs from operasim.FromSchedule (-want +got):\n%s", d)
	}
}

func TestScheduleBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string // substring of the one-line error
	}{
		{[]string{"--tors", "8", "--uplinks", "2"}, "kind: missing"},
		{[]string{"--kind", "mesh", "--tors", "8", "--uplinks", "2"}, "opera, rotornet, sirius, static"},
		{[]string{"--kind", "rotornet", "--tors", "1", "--uplinks", "1"}, "tors: 1"},
		{[]string{"--kind", "rotornet", "--tors", "8", "--uplinks", "8"}, "uplinks: 8"},
		{[]string{"--kind", "rotornet", "--tors", "8", "--uplinks", "2", "--slot", "10us", "--reconf", "10us"}, "reconf: 10us"},
		{[]string{"--kind", "rotornet", "--tors", "8", "--uplinks", "2", "--slot", "fast"}, "slot:"},
		{[]string{"--kind", "rotornet", "--tors", "8", "--uplinks", "2", "--slot", "-5us"}, "slot:"},
		{[]string{"--kind", "rotornet", "--tors", "8", "--uplinks", "2", "--format", "xml"}, `format: "xml": want text, json, csv or opera-sim`},
		{[]string{"--kind", "opera", "--tors", "8", "--uplinks", "2", "--guard", "5us"}, "guard: is read only with --format opera-sim"},
		{[]string{"--kind", "rotornet", "--tors", "8", "--uplinks", "2", "--format", "opera-sim"}, "switch_offsets: switch 1 is offset by 0s"},
		{[]string{"--kind", "opera", "--tors", "8", "--uplinks", "4", "--slot", "400us", "--reconf", "10us", "--format", "opera-sim", "--guard", "90us"}, "guard: 90us must be in [0,"},
		{[]string{"--kind", "opera", "--tors", "8", "--uplinks", "4", "--format", "opera-sim", "--guard", "-1us"}, "guard: time \"-1us\": must not be negative"},
		{[]string{"--kind", "static", "--tors", "8", "--uplinks", "2", "--tries", "-2"}, "tries: -2"},
		{[]string{"--kind", "opera", "--tors", "8", "--uplinks", "1"}, "uplinks: 1"},
		{[]string{"--kind", "rotornet", "--tors", "x"}, "flags:"},
	}
	for _, tc := range tests {
		path := filepath.Join(t.TempDir(), "out.json")
		var stdout, stderr bytes.Buffer
		args := append([]string{"rdcn", "schedule", "-o", path}, tc.args...)
		code := run(args, &stdout, &stderr)
		msg := stderr.String()
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", tc.args, code, msg)
		}
		if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tc.want) {
			t.Errorf("%v: stderr %q, want one line containing %q", tc.args, msg, tc.want)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%v: output file exists after a failure", tc.args)
		}
		if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 0 {
			t.Errorf("%v: left %d files behind", tc.args, len(entries))
		}
	}
}

// TestBvNSlotPrinted: a BvN schedule splits its cycle into slots of its
// own length (32 ToRs, U = 4, uniform demand: 2.4 ms over 31 slots,
// 77.419354 µs up to rounding), and the schedule header and simulate's
// schedule line print that length, not the nominal 100 µs.
func TestBvNSlotPrinted(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"rdcn", "schedule", "--kind", "bvn", "--tors", "32", "--uplinks", "4", "--demand", "uniform", "--format", "text"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	cycle := 2400 * rotor.Microsecond
	want := (cycle / 31).String() // the shorter of the two rounded lengths
	if header, _, _ := strings.Cut(out.String(), "\n"); !strings.Contains(header, "period 31, slot "+want+",") {
		t.Errorf("header %q, want slot %s", header, want)
	}
	out.Reset()
	if code := run([]string{"rdcn", "simulate", "--set", "schedule.kind=bvn", "--set", "schedule.demand=uniform", "--set", "run.sim_time=100us",
		"-o", filepath.Join(t.TempDir(), "o")}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "period 31 slots of "+want+" (reconf 10us)") {
		t.Errorf("simulate prints %q, want slots of %s", out.String(), want)
	}
}
