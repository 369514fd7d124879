package rotor

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestParseTime(t *testing.T) {
	tests := []struct {
		in   string
		want Time
	}{
		{"100us", 100 * Microsecond},
		{"9.9us", 9_900_000},
		{"3.84ns", 3840},
		{"1ms", Millisecond},
		{"500ps", 500},
		{"2s", 2 * Second},
		{"10µs", 10 * Microsecond},
		{"10μs", 10 * Microsecond},
		{"0", 0},
		{"0us", 0},
		{"0.000001us", 1},
		{"1e-6s", Microsecond},
		{"1.5E3ns", 1500 * Nanosecond},
		{".5ns", 500},
		{"5.ns", 5000},
		{" 100 us ", 100 * Microsecond},
		{"+7ns", 7000},
		{"9223372036854775807ps", math.MaxInt64},
		{"9223372.036854775807s", math.MaxInt64},
	}
	for _, tt := range tests {
		got, err := ParseTime(tt.in)
		if err != nil {
			t.Errorf("ParseTime(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseTime(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestParseTimeErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "not a number"},
		{"us", "not a number"},
		{"-1us", "must not be negative"},
		{"100", "missing unit"},
		{"100xs", `unknown unit "xs"`},
		{"100 u s", `unknown unit`},
		{"NaN", "not a number"},
		{"NaNus", "not a number"},
		{"Infs", "not a number"},
		{"1.2.3us", "not a number"},
		{"0.1ps", "not a whole number of picoseconds"},
		{"9223372036854775808ps", "too large"},
		{"10000000s", "too large"},
		{"1e999999999s", "too large"},
		{"1e-999999999s", "not a whole number"},
		{"1e+s", "not a number"},
		{"1/3us", "unknown unit"},
		{"0x10ns", "unknown unit"},
	}
	for _, tt := range tests {
		_, err := ParseTime(tt.in)
		if err == nil {
			t.Errorf("ParseTime(%q) succeeded, want error containing %q", tt.in, tt.want)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tt.want) || !strings.Contains(msg, `"`+tt.in+`"`) || strings.Contains(msg, "\n") {
			t.Errorf("ParseTime(%q) error %q: want one line naming the value and containing %q", tt.in, msg, tt.want)
		}
	}
}

func TestTimeString(t *testing.T) {
	tests := []struct {
		in   Time
		want string
	}{
		{0, "0s"},
		{1, "1ps"},
		{999, "999ps"},
		{3840, "3.84ns"},
		{100 * Microsecond, "100us"},
		{9_900_000, "9.9us"},
		{1500 * Millisecond, "1.5s"},
		{Second + 1, "1.000000000001s"},
		{-3840, "-3.84ns"},
		{math.MaxInt64, "9223372.036854775807s"},
		{math.MinInt64, "-9223372.036854775808s"},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("Time(%d).String() = %q, want %q", int64(tt.in), got, tt.want)
		}
	}
}

// TestUnitRoundTrip checks Parse(String(x)) == x over random magnitudes.
func TestUnitRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		v := rng.Int64() >> rng.IntN(63)
		if got, err := ParseTime(Time(v).String()); err != nil || got != Time(v) {
			t.Fatalf("ParseTime(%q) = %d, %v; want %d", Time(v).String(), got, err, v)
		}
		if got, err := ParseRate(Rate(v).String()); err != nil || got != Rate(v) {
			t.Fatalf("ParseRate(%q) = %d, %v; want %d", Rate(v).String(), got, err, v)
		}
		if got, err := ParseSize(Bytes(v).String(), DefaultMTU); err != nil || got != Bytes(v) {
			t.Fatalf("ParseSize(%q) = %d, %v; want %d", Bytes(v).String(), got, err, v)
		}
	}
}

func TestParseRate(t *testing.T) {
	tests := []struct {
		in   string
		want Rate
	}{
		{"400Gbps", 400 * Gbps},
		{"25G", 25 * Gbps},
		{"10Gbps", 10 * Gbps},
		{"100Mbps", 100 * Mbps},
		{"1Tbps", Tbps},
		{"2.5Gb/s", 2_500_000_000},
		{"64kbps", 64_000},
		{"1bps", 1},
	}
	for _, tt := range tests {
		got, err := ParseRate(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseRate(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "400", "-1G", "400GB", "0.5bps", "1e10Tbps", "fast"} {
		if _, err := ParseRate(bad); err == nil {
			t.Errorf("ParseRate(%q) succeeded, want an error", bad)
		}
	}
}

func TestRateString(t *testing.T) {
	tests := []struct {
		in   Rate
		want string
	}{
		{400 * Gbps, "400Gbps"},
		{2_500_000_000, "2.5Gbps"},
		{100 * Mbps, "100Mbps"},
		{Tbps, "1Tbps"},
		{0, "0bps"},
		{999, "999bps"},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("Rate(%d).String() = %q, want %q", int64(tt.in), got, tt.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		mtu  Bytes
		want Bytes
	}{
		{"20MB", DefaultMTU, 20_000_000},
		{"1KB", DefaultMTU, 1000},
		{"1kB", DefaultMTU, 1000},
		{"2GB", DefaultMTU, 2_000_000_000},
		{"1500B", DefaultMTU, 1500},
		{"1MiB", DefaultMTU, 1 << 20},
		{"64KiB", DefaultMTU, 64 << 10},
		{"1.5GiB", DefaultMTU, 3 << 29},
		{"8pkt", DefaultMTU, 12000},
		{"8pkt", 9000, 72000},
		{"8pkt", 0, 12000},
		{"0.5pkt", 9000, 4500},
		{"0", DefaultMTU, 0},
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in, tt.mtu)
		if err != nil || got != tt.want {
			t.Errorf("ParseSize(%q, %d) = %d, %v; want %d", tt.in, tt.mtu, got, err, tt.want)
		}
	}
	bad := []struct {
		in  string
		mtu Bytes
	}{
		{"20", DefaultMTU}, {"20Mb", DefaultMTU}, {"-1MB", DefaultMTU},
		{"0.5B", DefaultMTU}, {"1pkt", -1}, {"0.3pkt", 1001}, {"NaN", DefaultMTU},
		{"10000000TiB", DefaultMTU},
	}
	for _, tt := range bad {
		if got, err := ParseSize(tt.in, tt.mtu); err == nil {
			t.Errorf("ParseSize(%q, %d) = %d, want an error", tt.in, tt.mtu, got)
		}
	}
}

func TestBytesString(t *testing.T) {
	tests := []struct {
		in   Bytes
		want string
	}{
		{0, "0B"},
		{1500, "1.5KB"},
		{20_000_000, "20MB"},
		{1 << 20, "1MiB"},
		{64 << 10, "64KiB"},
		{1025, "1.025KB"},
		{-2000, "-2KB"},
		{-(1 << 20), "-1MiB"},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("Bytes(%d).String() = %q, want %q", int64(tt.in), got, tt.want)
		}
	}
}

// TestTransmitTime compares with exact big-integer arithmetic.
func TestTransmitTime(t *testing.T) {
	tests := []struct {
		r    Rate
		b    Bytes
		want Time
	}{
		{400 * Gbps, 1500, 30 * Nanosecond},
		{100 * Gbps, 1500, 120 * Nanosecond},
		{10 * Gbps, 64, 51200},
		{3, 1, 2_666_666_666_667}, // 8/3 s rounded up
		{Gbps, 0, 0},
		{0, 1, MaxTime},
		{-5, 1, MaxTime},
		{1, math.MaxInt64, MaxTime},
	}
	for _, tt := range tests {
		if got := tt.r.TransmitTime(tt.b); got != tt.want {
			t.Errorf("Rate(%d).TransmitTime(%d) = %d, want %d", tt.r, tt.b, got, tt.want)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 10000 {
		r := Rate(rng.Int64N(int64(10*Tbps)) + 1)
		b := Bytes(rng.Int64() >> rng.IntN(63))
		num := new(big.Int).Mul(big.NewInt(int64(b)), big.NewInt(8*int64(Second)))
		den := big.NewInt(int64(r))
		q, m := new(big.Int).QuoRem(num, den, new(big.Int))
		if m.Sign() != 0 {
			q.Add(q, big.NewInt(1))
		}
		want := MaxTime
		if q.IsInt64() {
			want = Time(q.Int64())
		}
		if got := r.TransmitTime(b); got != want {
			t.Fatalf("Rate(%d).TransmitTime(%d) = %d, want %d", r, b, got, want)
		}
		// BytesIn inverts TransmitTime: the bytes fit, one more does not.
		if want != MaxTime && b < math.MaxInt64/2 {
			if got := r.BytesIn(want); got < b {
				t.Fatalf("Rate(%d).BytesIn(%d) = %d < %d", r, want, got, b)
			}
			if want > 0 {
				if got := r.BytesIn(want - 1); got >= b {
					t.Fatalf("Rate(%d).BytesIn(%d) = %d ≥ %d", r, want-1, got, b)
				}
			}
		}
	}
}

func TestBytesIn(t *testing.T) {
	if got := (400 * Gbps).BytesIn(100 * Microsecond); got != 5_000_000 {
		t.Errorf("400Gbps over 100us = %d bytes, want 5000000", got)
	}
	if got := (400 * Gbps).BytesIn(29999); got != 1499 {
		t.Errorf("400Gbps over 29999ps = %d bytes, want 1499", got)
	}
	if got := Rate(0).BytesIn(Second); got != 0 {
		t.Errorf("0bps over 1s = %d, want 0", got)
	}
}

// TestFitsBeforeIsBudget checks the duality the fabric relies on to skip
// a division per departure: b bytes do not fit in the bytes r serialises
// in d (BytesIn rounds down) exactly when their transmit time (rounded
// up) exceeds d; and at least one byte fits exactly when d reaches the
// transmit time of one byte.
func TestFitsBeforeIsBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 0))
	rates := []Rate{1, 7 * Mbps, 10 * Gbps, 25 * Gbps, 400 * Gbps, 3 * Tbps, Rate(1 + rng.Int64N(1e13))}
	for i := 0; i < 20000; i++ {
		r := rates[i%len(rates)]
		if i%len(rates) == len(rates)-1 {
			r = Rate(1 + rng.Int64N(1e13))
		}
		b := Bytes(1 + rng.Int64N(1<<20))
		tt := r.TransmitTime(b)
		if tt > 1<<60 {
			continue // 1 bps: no day is that long
		}
		d := Time(rng.Int64N(2*int64(tt) + 3)) // around the boundary, d = tt included
		if i%3 == 0 {
			d = tt - 1 + Time(rng.IntN(3))
		}
		if got, want := r.TransmitTime(b) > d, b > r.BytesIn(d); got != want {
			t.Fatalf("r=%d b=%d d=%d: TransmitTime>d = %v, b>BytesIn = %v", r, b, d, got, want)
		}
		if got, want := d >= r.TransmitTime(1), r.BytesIn(d) >= 1; got != want {
			t.Fatalf("r=%d d=%d: d≥TransmitTime(1) = %v, BytesIn≥1 = %v", r, d, got, want)
		}
	}
}

var timeSink Time

func BenchmarkTransmitTime(b *testing.B) {
	b.ReportAllocs()
	r := 400 * Gbps
	var sum Time
	for i := range b.N {
		sum += r.TransmitTime(Bytes(64 + i%1500))
		r += Rate(sum & 1) // defeat hoisting the division out of the loop
	}
	timeSink = sum
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"100us", "9.9us", "3.84ns", "1ms", "500ps", "2s", "1e-6s", "-1us", "0", "0.1ps", "1e99s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseTime(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if v < 0 {
			t.Fatalf("ParseTime(%q) = %d < 0", s, v)
		}
		if back, err := ParseTime(v.String()); err != nil || back != v {
			t.Fatalf("ParseTime(%q) = %d; its String %q parses to %d, %v", s, v, v.String(), back, err)
		}
	})
}
