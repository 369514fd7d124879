package app

import (
	"bytes"
	"testing"
)

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"tor", "tors", 1}, {"kidn", "kind", 2}, {"kitten", "sitting", 3}, {"abc", "", 3}} {
		if got := editDistance(tc.a, tc.b); got != tc.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
		if got := editDistance(tc.b, tc.a); got != tc.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d (symmetry)", tc.b, tc.a, got, tc.d)
		}
	}
}

// TestFlagTypoSuggestion: an unknown flag gets the nearest flag of its
// command, and nothing when no flag is near.
func TestFlagTypoSuggestion(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"schedule", "--kind", "rotornet", "-tor", "8"}, "rdcn: flags: flag provided but not defined: -tor; did you mean --tors?\n"},
		{[]string{"throughput", "--kidn", "rotornet"}, "rdcn: flags: flag provided but not defined: -kidn; did you mean --kind?\n"},
		{[]string{"schedule", "--design-demnd", "ring"}, "rdcn: flags: flag provided but not defined: -design-demnd; did you mean --design-demand?\n"},
		{[]string{"simulate", "--sett", "x=1"}, "rdcn: flags: flag provided but not defined: -sett; did you mean --set?\n"},
		{[]string{"bounds", "--zzzzzz", "3"}, "rdcn: flags: flag provided but not defined: -zzzzzz\n"},
	} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"rdcn"}, tc.args...), &out, &errb); code != 2 || errb.String() != tc.want {
			t.Errorf("%v: exit %d, stderr %q; want 2, %q", tc.args, code, errb.String(), tc.want)
		}
	}
}

func TestHopsLine(t *testing.T) {
	got := hopsLine([]int64{0, 157716, 1015859})
	if want := "delivered data packets by circuit hops (hops:packets): 0:0 1:157716 2:1015859"; got != want {
		t.Errorf("hopsLine = %q, want %q", got, want)
	}
}
