package rotor

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"
)

// Time is simulated time or a duration, in integer picoseconds.
type Time int64

// Time units.
const (
	Picosecond  Time = 1
	Nanosecond       = 1000 * Picosecond
	Microsecond      = 1000 * Nanosecond
	Millisecond      = 1000 * Microsecond
	Second           = 1000 * Millisecond
)

// MaxTime is the largest representable time (about 106 days); TransmitTime
// returns it when a transfer never completes.
const MaxTime Time = math.MaxInt64

// Rate is a link rate in bits per second.
type Rate int64

// Rate units.
const (
	BitPerSecond Rate = 1
	Kbps              = 1000 * BitPerSecond
	Mbps              = 1000 * Kbps
	Gbps              = 1000 * Mbps
	Tbps              = 1000 * Gbps
)

// Bytes is a size in bytes.
type Bytes int64

// Size units: SI (powers of 1000) and binary (powers of 1024).
const (
	Byte Bytes = 1
	KB         = 1000 * Byte
	MB         = 1000 * KB
	GB         = 1000 * MB
	TB         = 1000 * GB
	KiB        = 1024 * Byte
	MiB        = 1024 * KiB
	GiB        = 1024 * MiB
	TiB        = 1024 * GiB
)

// DefaultMTU is the packet size that the unit "pkt" stands for.
const DefaultMTU Bytes = 1500

// unit is one suffix a quantity may carry: its name, its multiplier
// 10^exp10 · 2^exp2 (or the MTU for "pkt") and accepted spellings.
type unit struct {
	name    string
	exp10   int
	exp2    int
	perPkt  bool
	aliases []string
}

var timeUnits = []unit{
	{name: "ps", exp10: 0},
	{name: "ns", exp10: 3},
	{name: "us", exp10: 6, aliases: []string{"µs", "μs"}},
	{name: "ms", exp10: 9},
	{name: "s", exp10: 12},
}

var rateUnits = []unit{
	{name: "bps", exp10: 0, aliases: []string{"b/s"}},
	{name: "Kbps", exp10: 3, aliases: []string{"kbps", "K", "k", "Kb/s", "kb/s"}},
	{name: "Mbps", exp10: 6, aliases: []string{"M", "Mb/s"}},
	{name: "Gbps", exp10: 9, aliases: []string{"G", "Gb/s"}},
	{name: "Tbps", exp10: 12, aliases: []string{"T", "Tb/s"}},
}

var sizeUnits = []unit{
	{name: "B", exp10: 0},
	{name: "KB", exp10: 3, aliases: []string{"kB"}},
	{name: "MB", exp10: 6},
	{name: "GB", exp10: 9},
	{name: "TB", exp10: 12},
	{name: "KiB", exp2: 10},
	{name: "MiB", exp2: 20},
	{name: "GiB", exp2: 30},
	{name: "TiB", exp2: 40},
	{name: "pkt", perPkt: true, aliases: []string{"pkts"}},
}

func unitNames(us []unit) string {
	names := make([]string, len(us))
	for i, u := range us {
		names[i] = u.name
	}
	return strings.Join(names, ", ")
}

func findUnit(us []unit, s string) (unit, bool) {
	for _, u := range us {
		if s == u.name {
			return u, true
		}
		for _, a := range u.aliases {
			if s == a {
				return u, true
			}
		}
	}
	return unit{}, false
}

// splitQuantity splits "9.9us" into the decimal number "9.9" and the unit
// "us"; one blank between them is allowed.
func splitQuantity(s string) (num, unit string) {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= '0' && c <= '9' || c == '.' || c == '+' || c == '-' {
			i++
			continue
		}
		// An exponent "e" or "E" followed by a digit or sign belongs to the number.
		if (c == 'e' || c == 'E') && i > 0 && i+1 < len(s) {
			n := s[i+1]
			if n >= '0' && n <= '9' || n == '+' || n == '-' {
				i += 2
				continue
			}
		}
		break
	}
	return s[:i], strings.TrimSpace(s[i:])
}

// parseDecimal reads an unsigned decimal number with optional fraction and
// exponent ("9.9", "3.84", "1e-3") as mantissa · 10^exp.
func parseDecimal(s string) (mant *big.Int, exp int, ok bool) {
	if s == "" {
		return nil, 0, false
	}
	digits := make([]byte, 0, len(s))
	i, frac, sawDigit := 0, 0, false
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		digits = append(digits, s[i])
		sawDigit = true
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			digits = append(digits, s[i])
			frac++
			sawDigit = true
		}
	}
	if !sawDigit {
		return nil, 0, false
	}
	e := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		neg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			neg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return nil, 0, false
		}
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if e < 1_000_000 {
				e = e*10 + int(s[i]-'0')
			}
		}
		if neg {
			e = -e
		}
	}
	if i != len(s) {
		return nil, 0, false
	}
	mant, _ = new(big.Int).SetString(string(digits), 10)
	return mant, e - frac, true
}

var ten = big.NewInt(10)

// scaleExact returns mant · 10^exp10 · 2^exp2 · mul as an int64, or an
// explanation why it is not a whole number or does not fit.
func scaleExact(mant *big.Int, exp10, exp2 int, mul int64) (int64, string) {
	if mant.Sign() == 0 {
		return 0, ""
	}
	// A non-zero mantissa times 10^400 overflows int64 whatever it is; this
	// also bounds the big.Int work for hostile exponents.
	if exp10 > 400 {
		return 0, "is too large"
	}
	if exp10 < -400 {
		return 0, "is not a whole number"
	}
	v := new(big.Int).Set(mant)
	v.Mul(v, big.NewInt(mul))
	v.Lsh(v, uint(exp2))
	p := new(big.Int).Exp(ten, big.NewInt(int64(abs(exp10))), nil)
	if exp10 >= 0 {
		v.Mul(v, p)
	} else {
		q, r := new(big.Int).QuoRem(v, p, new(big.Int))
		if r.Sign() != 0 {
			return 0, "is not a whole number"
		}
		v = q
	}
	if !v.IsInt64() {
		return 0, "is too large"
	}
	return v.Int64(), ""
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// parseQuantity parses "<decimal><unit>" against a unit table.
func parseQuantity(kind, s string, units []unit, base string, mtu Bytes) (int64, error) {
	in := strings.TrimSpace(s)
	num, suffix := splitQuantity(in)
	if strings.HasPrefix(num, "-") {
		return 0, fmt.Errorf("%s %q: must not be negative", kind, s)
	}
	num = strings.TrimPrefix(num, "+")
	mant, exp, ok := parseDecimal(num)
	if !ok {
		return 0, fmt.Errorf("%s %q: not a number followed by a unit (%s)", kind, s, unitNames(units))
	}
	if suffix == "" {
		if mant.Sign() == 0 {
			return 0, nil // a bare 0 needs no unit
		}
		return 0, fmt.Errorf("%s %q: missing unit (one of %s)", kind, s, unitNames(units))
	}
	u, ok := findUnit(units, suffix)
	if !ok {
		return 0, fmt.Errorf("%s %q: unknown unit %q (want one of %s)", kind, s, suffix, unitNames(units))
	}
	mul := int64(1)
	if u.perPkt {
		if mtu == 0 {
			mtu = DefaultMTU
		}
		if mtu < 0 {
			return 0, fmt.Errorf("%s %q: unit pkt needs a positive MTU, got %d", kind, s, mtu)
		}
		mul = int64(mtu)
	}
	v, problem := scaleExact(mant, u.exp10+exp, u.exp2, mul)
	if problem != "" {
		if problem == "is not a whole number" {
			problem += " of " + base
		}
		return 0, fmt.Errorf("%s %q: %s", kind, s, problem)
	}
	return v, nil
}

// ParseTime parses a duration such as "100us", "9.9us", "3.84ns", "1ms",
// "500ps" or "2s" (units ps, ns, us or µs, ms, s; an optional decimal
// exponent as in "1e-6s"). The result must be a whole, non-negative number
// of picoseconds that fits an int64. A bare "0" needs no unit.
func ParseTime(s string) (Time, error) {
	v, err := parseQuantity("time", s, timeUnits, "picoseconds", 0)
	return Time(v), err
}

// ParseRate parses a link rate such as "400Gbps", "25G", "100Mbps" or
// "1Tbps" (units bps, Kbps, Mbps, Gbps, Tbps; K, M, G, T alone mean the
// same). The result must be a whole, non-negative number of bits per second.
func ParseRate(s string) (Rate, error) {
	v, err := parseQuantity("rate", s, rateUnits, "bits per second", 0)
	return Rate(v), err
}

// ParseSize parses a size such as "20MB" (SI: 20·10^6 bytes), "64KiB"
// (binary), "1500B" or "8pkt" (8 packets of mtu bytes; mtu 0 means
// DefaultMTU). Units B, KB, MB, GB,
// TB, KiB, MiB, GiB, TiB, pkt. The result must be a whole, non-negative
// number of bytes.
func ParseSize(s string, mtu Bytes) (Bytes, error) {
	v, err := parseQuantity("size", s, sizeUnits, "bytes", mtu)
	return Bytes(v), err
}

// formatScaled writes v/10^exp10 as an exact decimal with trailing zeros
// trimmed, followed by name.
func formatScaled(v int64, exp10 int, name string) string {
	neg := v < 0
	u := uint64(v)
	if neg {
		u = -u // two's complement: also right for math.MinInt64
	}
	var div uint64 = 1
	for range exp10 {
		div *= 10
	}
	whole, frac := u/div, u%div
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	fmt.Fprintf(&b, "%d", whole)
	if frac != 0 {
		f := fmt.Sprintf("%0*d", exp10, frac)
		b.WriteByte('.')
		b.WriteString(strings.TrimRight(f, "0"))
	}
	b.WriteString(name)
	return b.String()
}

// magnitude is |v| as a uint64.
func magnitude(v int64) uint64 {
	if v < 0 {
		return -uint64(v)
	}
	return uint64(v)
}

// pickDecimal chooses the largest unit of a power-of-ten table that |v|
// reaches, so the printed number is at least 1.
func pickDecimal(v int64, us []unit) unit {
	m := magnitude(v)
	best := us[0]
	for _, u := range us {
		if u.exp2 != 0 || u.perPkt {
			continue
		}
		p := uint64(1)
		for range u.exp10 {
			p *= 10
		}
		if m >= p && u.exp10 >= best.exp10 {
			best = u
		}
	}
	return best
}

// String formats t exactly in the largest unit it reaches: "100us",
// "3.84ns", "1.5s", "0s". ParseTime(t.String()) == t for every t.
func (t Time) String() string {
	if t == 0 {
		return "0s"
	}
	u := pickDecimal(int64(t), timeUnits)
	return formatScaled(int64(t), u.exp10, u.name)
}

// Seconds is t in seconds as a float64.
func (t Time) Seconds() float64 { return float64(t) / float64(Second) }

// String formats r exactly in the largest unit it reaches: "400Gbps",
// "2.5Gbps", "100Mbps". ParseRate(r.String()) == r for every r ≥ 0.
func (r Rate) String() string {
	u := pickDecimal(int64(r), rateUnits)
	return formatScaled(int64(r), u.exp10, u.name)
}

// String formats b exactly: in the largest SI unit it reaches ("20MB",
// "1.5KB"), or in a binary unit when that is a whole number and the SI form
// is not ("64KiB"). ParseSize(b.String(), m) == b for every b ≥ 0.
func (b Bytes) String() string {
	si := pickDecimal(int64(b), sizeUnits)
	m := magnitude(int64(b))
	if si.exp10 > 0 {
		p := uint64(1)
		for range si.exp10 {
			p *= 10
		}
		if m%p != 0 {
			for i := len(sizeUnits) - 1; i >= 0; i-- {
				u := sizeUnits[i]
				if u.exp2 == 0 {
					continue
				}
				if q := uint64(1) << u.exp2; m >= q && m%q == 0 {
					s := formatScaled(int64(m>>u.exp2), 0, u.name)
					if b < 0 {
						s = "-" + s
					}
					return s
				}
			}
		}
	}
	return formatScaled(int64(b), si.exp10, si.name)
}

// Bits is b·8 as a float64 (handy for rates and throughput arithmetic).
func (b Bytes) Bits() float64 { return float64(b) * 8 }

// TransmitTime is the serialization time of b bytes at rate r, rounded up
// to a whole picosecond: ⌈8·b·10^12 / r⌉. It returns MaxTime if r ≤ 0 or
// the time does not fit, and 0 for b ≤ 0. It does not allocate.
func (r Rate) TransmitTime(b Bytes) Time {
	if b <= 0 {
		return 0
	}
	if r <= 0 {
		return MaxTime
	}
	// 8·b·10^12 as a 128-bit product, then a 128/64 division.
	hi, lo := bits.Mul64(uint64(b), 8*uint64(Second))
	if hi >= uint64(r) {
		return MaxTime // quotient would not fit 64 bits
	}
	q, rem := bits.Div64(hi, lo, uint64(r))
	if rem != 0 {
		q++
	}
	if q > math.MaxInt64 {
		return MaxTime
	}
	return Time(q)
}

// BytesIn is the number of whole bytes rate r serializes in t:
// ⌊r·t / (8·10^12)⌋. It returns 0 for t ≤ 0 or r ≤ 0. It does not allocate.
func (r Rate) BytesIn(t Time) Bytes {
	if t <= 0 || r <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(r), uint64(t))
	d := 8 * uint64(Second)
	if hi >= d {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, d)
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return Bytes(q)
}
