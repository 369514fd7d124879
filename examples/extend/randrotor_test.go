package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rdcn/rdcn/cmd/rdcn/app"
	"github.com/rdcn/rdcn/schedules"
)

// TestRandomRotorValid: schedules.Build runs the schedule validator on
// the registered kind; every ordered pair meets exactly once per cycle
// (RotorNet's property), the same seed gives the same schedule and
// another seed another.
func TestRandomRotorValid(t *testing.T) {
	for _, c := range []struct{ n, u int }{{2, 1}, {8, 2}, {9, 4}, {16, 3}} {
		s, err := schedules.Build("random-rotor", schedules.Params{Nodes: c.n, Uplinks: c.u, Seed: 7})
		if err != nil {
			t.Fatalf("n %d, U %d: %v", c.n, c.u, err)
		}
		meets := make([]int, c.n*c.n)
		for _, sw := range s.Matchings {
			for _, m := range sw {
				for i, j := range m {
					if j >= 0 {
						meets[i*c.n+j]++
					}
				}
			}
		}
		for i := 0; i < c.n; i++ {
			for j := 0; j < c.n; j++ {
				if want := map[bool]int{true: 0, false: 1}[i == j]; meets[i*c.n+j] != want {
					t.Errorf("n %d, U %d: %d→%d meets %d times per cycle, want %d", c.n, c.u, i, j, meets[i*c.n+j], want)
				}
			}
		}
		again, _ := schedules.Build("random-rotor", schedules.Params{Nodes: c.n, Uplinks: c.u, Seed: 7})
		if !reflect.DeepEqual(s.Matchings, again.Matchings) {
			t.Errorf("n %d, U %d: seed 7 twice gave two schedules", c.n, c.u)
		}
		if c.n >= 8 {
			other, _ := schedules.Build("random-rotor", schedules.Params{Nodes: c.n, Uplinks: c.u, Seed: 8})
			if reflect.DeepEqual(s.Matchings, other.Matchings) {
				t.Errorf("n %d, U %d: seeds 7 and 8 gave the same schedule", c.n, c.u)
			}
		}
	}
	if _, err := schedules.Build("random-rotor", schedules.Params{Nodes: 4, Uplinks: 4}); err == nil {
		t.Error("U = n accepted")
	}
}

// TestRandomRotorCertified: rdcn throughput certifies the new kind (its
// lower bound is a feasible routing), and since every pair meets once
// per cycle as in RotorNet its certified interval must overlap
// RotorNet's.
func TestRandomRotorCertified(t *testing.T) {
	dir := t.TempDir()
	theta := func(kind string) (lo, hi float64) {
		out := filepath.Join(dir, kind+".json")
		if code := app.Main([]string{"rdcn", "throughput", "--kind", kind, "-n", "8", "-u", "2", "--format", "json", "-o", out}); code != 0 {
			t.Fatalf("rdcn throughput --kind %s: exit %d", kind, code)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ Lower, Upper float64 }
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		return r.Lower, r.Upper
	}
	lo, hi := theta("random-rotor")
	rlo, rhi := theta("rotornet")
	if !(lo > 0 && lo <= hi && hi-lo <= 0.01) {
		t.Fatalf("random-rotor: certified [%v, %v], want a positive interval within 0.01", lo, hi)
	}
	if lo > rhi || rlo > hi {
		t.Errorf("random-rotor θ in [%v, %v], RotorNet's in [%v, %v]: the same pair coverage must certify the same θ", lo, hi, rlo, rhi)
	}
}
