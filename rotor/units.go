package rotor

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

// DefaultMTU is the packet size that the unit "pkt" stands for.
const DefaultMTU Bytes = 1500
