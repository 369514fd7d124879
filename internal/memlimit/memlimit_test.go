package memlimit

import (
	"strings"
	"testing"
)

func TestParseMeminfo(t *testing.T) {
	const text = "MemTotal:       24000000 kB\nMemFree:         1000000 kB\nMemAvailable:   23616920 kB\nBuffers: 1 kB\n"
	b, err := ParseMeminfo(strings.NewReader(text))
	if err != nil || b != 23616920*1024 {
		t.Errorf("got %d, %v; want %d", b, err, 23616920*1024)
	}
	for _, bad := range []string{"", "MemTotal: 5 kB\n", "MemAvailable: 5 MB\n", "MemAvailable: x kB\n", "MemAvailable: -5 kB\n"} {
		if _, err := ParseMeminfo(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseCgroupValue(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		bad  bool
	}{
		{"max\n", -1, false},
		{"4294967296\n", 4294967296, false},
		{"9223372036854771712\n", -1, false}, // cgroup v1 "unlimited"
		{"", 0, true},
		{"-3", 0, true},
		{"lots", 0, true},
	} {
		got, err := ParseCgroupValue(strings.NewReader(tc.in))
		if (err != nil) != tc.bad || (!tc.bad && got != tc.want) {
			t.Errorf("%q: %d, %v; want %d (error %v)", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

// TestAvailable: on Linux the limit is positive and at most MemTotal-ish;
// elsewhere it may be unknown.
func TestAvailable(t *testing.T) {
	l, ok := Available()
	if !ok {
		t.Skip("no /proc/meminfo or cgroup here")
	}
	if l.Bytes < 0 || l.Source == "" {
		t.Errorf("Available() = %+v", l)
	}
}
