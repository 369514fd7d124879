package cc

import (
	"math"

	"github.com/rdcn/rdcn/rotor"
)

// Marking is the switches' ECN marking a law that reads ECE as congestion
// (ECECongestion) runs with when the user sets no threshold
// (buffer.ecn_threshold): the engine derives it per port from the port's
// rate and the fabric's base RTT.
type Marking uint8

// Markings.
const (
	// MarkDCTCP is DCTCP's step at K = DCTCPThreshold(port rate, base RTT).
	MarkDCTCP Marking = iota
	// MarkRED is RED on the instantaneous queue (DCQCN's Kmin, Kmax,
	// Pmax: REDMinTime, REDMaxTime, DefaultREDMaxP).
	MarkRED
)

// DCTCPThreshold is the DCTCP paper's marking threshold for a port of rate
// c in a network of base RTT rtt, in bytes: the fewest whole packets of
// mtu bytes above C·RTT/7, the paper's bound (§3.4, "K > (C × RTT)/7",
// C in packets per second) for the queue not to underflow. The paper's
// testbed values, 20 packets at 1 Gb/s and 65 at 10 Gb/s, exceed the bound
// to absorb the bursts of NIC segmentation offload, which rdcn's NICs do
// not send (docs/cc.md).
func DCTCPThreshold(c rotor.Rate, rtt rotor.Time, mtu int64) int64 {
	pkts := float64(c) / 8 * rtt.Seconds() / float64(mtu) / 7
	return (int64(math.Floor(pkts)) + 1) * mtu
}

// RED's defaults for DCQCN: the thresholds are the queue a port of rate
// c drains in REDMinTime and REDMaxTime (the PowerTCP artefact's DCQCN
// configuration: Kmin 100 KB and Kmax 400 KB at 25 Gb/s, 400 KB and
// 1 600 KB at 100 Gb/s), marking at most DefaultREDMaxP below Kmax.
const (
	REDMinTime     = 32 * rotor.Microsecond
	REDMaxTime     = 128 * rotor.Microsecond
	DefaultREDMaxP = 0.2
)
