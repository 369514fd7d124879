package app

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDemoOptions: the demo takes --tors, --uplinks and --load, writes its
// table to -o and its plot to --plot (nothing on stdout), and the periods
// match the designs: rotornet ⌈(n−1)/U⌉, static 1, Mars d/U with d = 2·U.
func TestDemoOptions(t *testing.T) {
	dir := t.TempDir()
	table, svg := filepath.Join(dir, "demo.txt"), filepath.Join(dir, "demo.svg")
	var stdout, stderr bytes.Buffer
	args := []string{"rdcn", "demo", "--tors", "16", "--uplinks", "4", "--load", "0.2", "--sim-time", "2ms", "-o", table, "--plot", svg}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q with -o", stdout.String())
	}
	b, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if !strings.HasPrefix(text, "n = 16 ToRs × 4 hosts, 4 uplinks, 10 Gbps links, websearch at 20 % load") {
		t.Errorf("header: %q", strings.SplitN(text, "\n", 2)[0])
	}
	for name, period := range map[string]string{"rotornet": "4", "opera": "4", "static": "1", "mars": "2"} {
		if !regexp.MustCompile(`(?m)^` + name + ` +` + period + ` `).MatchString(text) {
			t.Errorf("no %s row with period %s:\n%s", name, period, text)
		}
	}
	if p, err := os.ReadFile(svg); err != nil || !bytes.Contains(p, []byte("<svg")) || !bytes.Contains(p, []byte("mars")) {
		t.Errorf("plot: %v, %d bytes", err, len(p))
	}
}

func TestDemoBadInput(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		field string
	}{
		{[]string{"--tors", "1"}, "tors"},
		{[]string{"--uplinks", "1"}, "uplinks"},
		{[]string{"--tors", "4", "--uplinks", "4"}, "uplinks"},
		{[]string{"--load", "0"}, "load"},
		{[]string{"--load", "NaN"}, "load"},
		{[]string{"--load", "1.5"}, "load"},
		{[]string{"--plot", "x.pdf"}, "plot"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"rdcn", "demo", "--sim-time", "1ms"}, tc.args...), &stdout, &stderr)
		if code != 2 || !namesField(stderr.String(), tc.field) {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %s", tc.args, code, stderr.String(), tc.field)
		}
	}
}

// TestDemoHelpStatesSettings: the help names every fixed setting the demo
// passes to rdcn simulate.
func TestDemoHelpStatesSettings(t *testing.T) {
	d := demoCommand().Description
	for _, s := range []string{"4 hosts", "10 Gbps", "500 ns", "20-packet", "websearch", "tries = 4", "window = 40 packets",
		"RotorLB", "transport pull", "d = 2·U", "earliest-arrival", "100 µs slots with 10 µs", "no reconfiguration"} {
		if !strings.Contains(d, s) {
			t.Errorf("demo help does not state %q", s)
		}
	}
	// The constants the help quotes.
	if demoHostsPerTor != 4 || demoLink != "10Gbps" || demoDelay != "500ns" || demoPortBuffer != 20 || demoWindow != "40pkt" || demoStaticTries != 4 {
		t.Error("a demo setting changed without its help")
	}
}
