package fabric

import (
	"fmt"

	"github.com/rdcn/rdcn/rotor"
)

// Causes of unfinished flows (Diagnosis.Cause).
const (
	CauseSimTime   = "sim_time"  // they could not have finished by run.sim_time even alone
	CauseCapacity  = "capacity"  // their ports were busy to the end
	CauseCircuits  = "circuits"  // their data waited for circuits while the fabric idled
	CauseTransport = "transport" // their senders sent little while the fabric idled
)

// busyPort is the utilisation, over the run's last quarter, from which a
// port counts as busy: the fabric was carrying what it could.
const busyPort = 0.7

// Diagnosis says why measured flows were left unfinished, from what the
// run counted (Result.Tail, the flows' records, Result.Reads). Each
// unfinished flow is classed, in this order:
//
//   - too late: its start plus its ideal FCT (alone on an idle fabric)
//     is after run.sim_time, so no fabric could have finished it;
//   - busy: its destination host's downlink, its source host's NIC or
//     its source ToR's circuit uplinks were at least 70 % busy over the
//     run's last quarter;
//   - waiting for circuits: it is pulled (its data waits at its host
//     until a circuit can take it), or it is windowed and the circuit
//     days that carried demand were at least half used over the run
//     (Result.DemandCircuitUtilization): the circuits, when up, not the
//     senders, set the pace;
//   - else its sender left the fabric idle (circuit days with demand less
//     than half used, or no circuits): a window or rate at its floor, a
//     retransmission timeout backed off (TimedOut counts those).
//
// Cause is the first class (in that order) that holds at least half of
// the unfinished flows, else the largest.
type Diagnosis struct {
	Cause      string `json:"cause"`
	Advice     string `json:"advice"`
	Unfinished int    `json:"unfinished"`
	TooLate    int    `json:"too_late"`
	Busy       int    `json:"busy_ports"`
	Circuits   int    `json:"waiting_for_circuits"`
	Transport  int    `json:"transport_limited"`
	// Evidence: unfinished flows pulled and with a timeout; the circuit
	// utilisation on days with demand (−1: none); pulls and pulled
	// departures the buffer policy refused; the last quarter's start.
	Pulled            int   `json:"pulled"`
	TimedOut          int   `json:"timed_out"`
	DemandCircuitUtil Num   `json:"circuit_utilization_demand"`
	PolicyHeldBack    int64 `json:"policy_held_back"`
	TailFromUs        Num   `json:"tail_from_us"`
	// NeedSimTime: the latest start + ideal FCT of an unfinished flow.
	NeedSimTime string `json:"need_sim_time,omitempty"`
}

// Diagnose classes the measured flows r left unfinished; nil if none.
func (r *Result) Diagnose() *Diagnosis {
	t := r.Tail
	d := &Diagnosis{PolicyHeldBack: r.Reads.PolicyHeldBack, TailFromUs: Num(t.From.Seconds() * 1e6),
		DemandCircuitUtil: Num(r.DemandCircuitUtilization)}
	circuitsPace := r.DemandCircuitUtilization >= 0.5
	var need rotor.Time
	for _, f := range r.Flows {
		if f.Done || !r.Measure.Contains(f.Start) {
			continue
		}
		d.Unfinished++
		if f.Timeouts > 0 {
			d.TimedOut++
		}
		if f.Pulled {
			d.Pulled++
		}
		switch {
		case f.Start+f.Ideal > r.SimTime:
			d.TooLate++
			need = max(need, f.Start+f.Ideal)
		case t.busy(f.Src, f.Dst):
			d.Busy++
		case f.Pulled || circuitsPace:
			d.Circuits++
		default:
			d.Transport++
		}
	}
	if d.Unfinished == 0 {
		return nil
	}
	classes := []struct {
		cause string
		n     int
	}{{CauseSimTime, d.TooLate}, {CauseCapacity, d.Busy}, {CauseCircuits, d.Circuits}, {CauseTransport, d.Transport}}
	best := classes[0]
	for _, c := range classes {
		if 2*c.n >= d.Unfinished {
			best = c
			break
		}
		if c.n > best.n {
			best = c
		}
	}
	d.Cause = best.cause
	switch d.Cause {
	case CauseSimTime:
		d.NeedSimTime = need.String()
		d.Advice = fmt.Sprintf("even alone on an idle fabric they would finish only by %v: lengthen run.sim_time to at least that, or shorten workload.duration", need)
	case CauseCapacity:
		d.Advice = "their ports were at least 70 % busy to the end: the offered load exceeds what the fabric carries; lower workload.load or add capacity (topology.uplinks, topology.circuit_link, topology.host_link) — a longer run.sim_time drains them only once arrivals stop"
	case CauseCircuits:
		d.Advice = "their data waited for circuits (at the hosts or in ToR VOQs) while the ports idled: a routing mode that relays (rotorlb, vlb) or a schedule that connects their ToR pairs more often; a longer run.sim_time helps only slowly"
		if d.PolicyHeldBack > 0 {
			d.Advice += fmt.Sprintf("; the buffer policy refused %d pulls (buffer.policy, buffer.alpha)", d.PolicyHeldBack)
		}
	default:
		d.Advice = fmt.Sprintf("their senders left the fabric idle (windows or rates at their floor; %d of them timed out): look at transport.cc, transport.window and transport.min_rto — a longer run.sim_time would not help", d.TimedOut)
	}
	return d
}

// busy reports whether a port of a flow from host src to dst was busy
// over the last quarter: dst's downlink, src's NIC, or src's ToR's
// circuit uplinks.
func (t Tail) busy(src, dst int) bool {
	switch {
	case dst < len(t.Rx) && t.Rx[dst] >= busyPort, src < len(t.Tx) && t.Tx[src] >= busyPort:
		return true
	}
	if tor := src / max(t.HostsPerToR, 1); tor < len(t.Up) && t.Up[tor] >= busyPort {
		return true
	}
	return false
}
