package fabric

import (
	"math"
	"strconv"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/stats"
)

// Num is a float64 that encodes NaN and ±Inf as JSON null.
type Num float64

// MarshalJSON implements json.Marshaler.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// Quantiles summarises a sample.
type Quantiles struct {
	Count int `json:"count"`
	Mean  Num `json:"mean"`
	P50   Num `json:"p50"`
	P99   Num `json:"p99"`
	P999  Num `json:"p999"`
	Max   Num `json:"max"`
}

func quantiles(s stats.Summary) Quantiles {
	return Quantiles{s.Count, Num(s.Mean), Num(s.P50), Num(s.P99), Num(s.P999), Num(s.Max)}
}

// LatencySummary is Result.QueueingLatency for JSON.
type LatencySummary struct {
	Packets int64 `json:"packets"`
	P50     Num   `json:"p50"`
	P90     Num   `json:"p90"`
	P99     Num   `json:"p99"`
	P999    Num   `json:"p999"`
	Max     Num   `json:"max"`
}

// BucketStats is the FCT (µs) and slowdown of the completed measured flows
// of one flow-size bucket, and how many of its measured flows did not
// complete (they are in no percentile).
type BucketStats struct {
	Bucket     string    `json:"bucket"`
	FCTus      Quantiles `json:"fct_us"`
	Slowdown   Quantiles `json:"slowdown"`
	Unfinished int       `json:"unfinished"`
}

// Measured digests the measured flows: those that started in the window
// [from, to) (run.warmup to workload.duration). Loads are fractions of the
// hosts' link capacity over the window: offered counts the flows' bytes,
// delivered the bytes of them that reached their receivers by the end of
// the run (the arrivals stop at to, and the fabric drains until
// run.sim_time). DeliveredFraction is delivered / offered bytes.
type Measured struct {
	FromUs            Num   `json:"from_us"`
	ToUs              Num   `json:"to_us"`
	Started           int   `json:"started"`
	Completed         int   `json:"completed"`
	Unfinished        int   `json:"unfinished"`
	OfferedBytes      int64 `json:"offered_bytes"`
	DeliveredBytes    int64 `json:"delivered_bytes"`
	OfferedLoad       Num   `json:"offered_load"`
	DeliveredLoad     Num   `json:"delivered_load"`
	DeliveredFraction Num   `json:"delivered_fraction"`
}

// CompletedFraction is Completed / Started (NaN with no measured flow).
func (m Measured) CompletedFraction() float64 {
	if m.Started == 0 {
		return math.NaN()
	}
	return float64(m.Completed) / float64(m.Started)
}

// QuerySummary is the query completion time (QCT, µs: from the query's
// first response flow's start to its last one's end) of the completed
// incast queries.
type QuerySummary struct {
	Started   int       `json:"started"`
	Completed int       `json:"completed"`
	QCTus     Quantiles `json:"qct_us"`
}

// Summary is the JSON-ready digest of a Result: simulated quantities only,
// so the same inputs give byte-identical output.
type Summary struct {
	Format   string      `json:"format"`
	Complete bool        `json:"complete"`
	SimTime  string      `json:"sim_time"`
	Config   [][2]string `json:"config,omitempty"`

	// Flows counts every flow of the run; Measured the measured ones, and
	// FCT holds the percentiles over the completed measured flows.
	Flows struct {
		Started    int `json:"started"`
		Completed  int `json:"completed"`
		Unfinished int `json:"unfinished"`
	} `json:"flows"`
	Measured Measured `json:"measured"`
	// Unfinished says why measured flows were left unfinished (Result.
	// Diagnose); absent when every one completed.
	Unfinished *Diagnosis    `json:"unfinished_diagnosis,omitempty"`
	FCT        []BucketStats `json:"fct"`
	// SlowdownDefinition names the ideal FCT the slowdowns divide by
	// (run.slowdown: Slowdowns).
	SlowdownDefinition string `json:"slowdown_definition"`
	// Queries: incast queries (workload.incast_*, or a flow file's fifth
	// column), present only when the run has some.
	Queries *QuerySummary `json:"queries,omitempty"`

	HostUtilization    Num   `json:"host_utilization"`
	CircuitUtilization Num   `json:"circuit_utilization"`
	CircuitBytes       int64 `json:"circuit_bytes"`
	PacketSwitchBytes  int64 `json:"packet_switch_bytes"`
	// DemandCircuit: circuit utilisation on the days that carried demand
	// (Result.DemandCircuitUtilization), aggregate and per ToR pair.
	DemandCircuit struct {
		Utilization Num           `json:"utilization"`
		Pairs       []PairCircuit `json:"pairs"`
	} `json:"circuit_utilization_demand"`
	QueueingLatencyUs LatencySummary `json:"queueing_latency_us"`

	Packets struct {
		Injected  int64 `json:"injected"`
		Delivered int64 `json:"delivered"`
		Dropped   int64 `json:"dropped"`
		InFlight  int64 `json:"in_flight"`
		// HopLimit: source-routed packets dropped at the hop limit (ksp).
		HopLimit int64 `json:"hop_limit_dropped,omitempty"`
		// Trimmed: data packets cut to headers (ndp); HeadersBounced:
		// headers returned to their senders by a full header queue;
		// HeadersDropped: headers dropped (in Dropped too);
		// ControlReturned: ACKs, NACKs and PULLs returned toward their
		// senders by a full header queue (ndp_ports = operasim).
		Trimmed         int64 `json:"trimmed,omitempty"`
		HeadersBounced  int64 `json:"headers_bounced,omitempty"`
		HeadersDropped  int64 `json:"headers_dropped,omitempty"`
		ControlReturned int64 `json:"control_returned,omitempty"`
	} `json:"packets"`
	// NDPDark: what NDP's rotor ToRs did with the packets queued for a
	// circuit that went dark (transport.ndp_dark), only with ndp.
	NDPDark *DarkStats `json:"ndp_dark,omitempty"`
	Bytes   struct {
		Injected      int64 `json:"injected"`
		Delivered     int64 `json:"delivered"`
		Dropped       int64 `json:"dropped"`
		InFlight      int64 `json:"in_flight"`
		DataInjected  int64 `json:"data_injected"`
		DataDelivered int64 `json:"data_delivered"`
		DataDropped   int64 `json:"data_dropped"`
	} `json:"bytes"`
	DropRate Num `json:"drop_rate"` // dropped / injected packets

	Buffer struct {
		MeanBytes    Num   `json:"mean_bytes"`
		P99Bytes     Num   `json:"p99_bytes"`
		PeakBytes    int64 `json:"peak_bytes"`
		VOQMeanBytes Num   `json:"voq_mean_bytes"`
		VOQP99Bytes  Num   `json:"voq_p99_bytes"`
	} `json:"buffer"`

	// PFC: priority flow control (buffer.lossless), present only with it.
	PFC *PFCSummary `json:"pfc,omitempty"`
	// ECN: the switches' marking per port rate, present only if they mark.
	ECN []ECNSummary `json:"ecn,omitempty"`
	// Handshake: the queued handshakes' SYNs, present only with one.
	Handshake *HandshakeStats `json:"handshake,omitempty"`

	Hops        []int64 `json:"hops"`
	Reordered   int64   `json:"reordered_packets"`
	Retransmits int64   `json:"retransmitted_packets"`
	Timeouts    int64   `json:"timeouts"`
	Events      uint64  `json:"events"`
}

// ECNSummary is the ECN marking of the ports of one rate: DCTCP's step
// at KBytes, or RED from MinBytes to MaxBytes with probability up to
// MaxP.
type ECNSummary struct {
	Rate     string  `json:"rate"`
	KBytes   int64   `json:"k_bytes,omitempty"`
	MinBytes int64   `json:"red_min_bytes,omitempty"`
	MaxBytes int64   `json:"red_max_bytes,omitempty"`
	MaxP     float64 `json:"red_max_p,omitempty"`
}

// Summarize digests r; config (optional) is echoed into the summary.
func (r *Result) Summarize(b stats.Buckets, config [][2]string) (*Summary, error) {
	rows, err := stats.SummarizeFlows(r.Records(), b)
	if err != nil {
		return nil, err
	}
	s := &Summary{Format: "rdcn.simulate/v1", Complete: r.Complete, SimTime: r.SimTime.String(), Config: config}
	s.Flows.Started, s.Flows.Completed = r.FlowsStarted, r.FlowsComplete
	s.Flows.Unfinished = r.FlowsStarted - r.FlowsComplete
	var unfinished []int
	s.Measured, unfinished = r.measured(b)
	s.SlowdownDefinition = r.Slowdown
	s.Unfinished = r.Diagnose()
	for i, row := range rows {
		s.FCT = append(s.FCT, BucketStats{Bucket: row.Name, FCTus: quantiles(row.FCT), Slowdown: quantiles(row.Slowdown),
			Unfinished: unfinished[i]})
	}
	if started, completed, qct := r.Queries(); started > 0 {
		s.Queries = &QuerySummary{Started: started, Completed: completed, QCTus: quantiles(stats.Summarize(qct))}
	}
	s.HostUtilization, s.CircuitUtilization = Num(r.HostUtilization), Num(r.CircuitUtilization)
	s.CircuitBytes, s.PacketSwitchBytes = r.CircuitBytes, r.PacketSwitchBytes
	s.DemandCircuit.Utilization, s.DemandCircuit.Pairs = Num(math.NaN()), r.PairCircuits
	if r.DemandCircuitUtilization >= 0 {
		s.DemandCircuit.Utilization = Num(r.DemandCircuitUtilization)
	}
	q := r.QueueingLatency
	s.QueueingLatencyUs = LatencySummary{q.Packets, Num(q.P50), Num(q.P90), Num(q.P99), Num(q.P999), Num(q.Max)}
	s.Packets.Injected, s.Packets.Delivered, s.Packets.Dropped, s.Packets.InFlight =
		r.InjectedPackets, r.DeliveredPackets, r.DroppedPackets, r.InFlightPackets
	s.Packets.HopLimit = r.HopLimitDropped
	s.Packets.Trimmed, s.Packets.HeadersBounced, s.Packets.HeadersDropped = r.Trimmed, r.HeadersBounced, r.HeadersDropped
	s.Packets.ControlReturned = r.ControlReturned
	s.NDPDark = r.NDPDark
	s.Bytes.Injected, s.Bytes.Delivered, s.Bytes.Dropped, s.Bytes.InFlight =
		r.InjectedBytes, r.DeliveredBytes, r.DroppedBytes, r.InFlightBytes
	s.Bytes.DataInjected, s.Bytes.DataDelivered, s.Bytes.DataDropped = r.InjectedData, r.DeliveredData, r.DroppedData
	s.DropRate = Num(math.NaN())
	if r.InjectedPackets > 0 {
		s.DropRate = Num(float64(r.DroppedPackets) / float64(r.InjectedPackets))
	}
	s.Buffer.MeanBytes, s.Buffer.PeakBytes, s.Buffer.VOQMeanBytes = Num(r.BufferMean), r.BufferPeak, Num(r.VOQMean)
	s.Buffer.P99Bytes, s.Buffer.VOQP99Bytes = Num(cdfQuantile(r.BufferCDF, 0.99)), Num(cdfQuantile(r.VOQCDF, 0.99))
	s.Hops, s.Reordered, s.Retransmits, s.Timeouts, s.Events = r.Hops, r.Reordered, r.Retransmits, r.Timeouts, r.Events
	s.Handshake = r.Handshake
	if p := r.PFC; p != nil {
		s.PFC = &PFCSummary{PauseFrames: p.PauseFrames, ResumeFrames: p.ResumeFrames,
			PausedUs: Num(float64(p.PausedTime) / float64(rotor.Microsecond)), LosslessDropped: p.LosslessDropped}
	}
	for _, m := range r.ECN {
		s.ECN = append(s.ECN, ECNSummary{Rate: m.Rate.String(), KBytes: m.K, MinBytes: m.MinTh, MaxBytes: m.MaxTh, MaxP: m.MaxP})
	}
	return s, nil
}

// measured digests the flows that started in r.Measure, and counts the
// unfinished ones per bucket of b (the last entry: all buckets).
func (r *Result) measured(b stats.Buckets) (Measured, []int) {
	if len(b.Edges) == 0 && b.Names == nil {
		b = stats.DefaultBuckets() // as SummarizeFlows
	}
	unfinished := make([]int, len(b.Edges)+2)
	w := r.Measure
	to := w.To
	if to == 0 || to > r.SimTime { // no end, or a run interrupted before it
		to = r.SimTime
	}
	us := func(t rotor.Time) Num { return Num(float64(t) / float64(rotor.Microsecond)) }
	m := Measured{FromUs: us(w.From), ToUs: us(to)}
	for _, f := range r.Flows {
		if !w.Contains(f.Start) {
			continue
		}
		m.Started++
		m.OfferedBytes += f.Bytes
		m.DeliveredBytes += min(f.Received, f.Bytes)
		if f.Done {
			m.Completed++
		} else {
			unfinished[b.Index(f.Bytes)]++
			unfinished[len(unfinished)-1]++
		}
	}
	m.Unfinished = m.Started - m.Completed
	m.OfferedLoad, m.DeliveredLoad, m.DeliveredFraction = Num(math.NaN()), Num(math.NaN()), Num(math.NaN())
	if capacity := float64(r.HostLink.BytesIn(to-w.From)) * float64(r.Hosts); capacity > 0 {
		m.OfferedLoad = Num(float64(m.OfferedBytes) / capacity)
		m.DeliveredLoad = Num(float64(m.DeliveredBytes) / capacity)
	}
	if m.OfferedBytes > 0 {
		m.DeliveredFraction = Num(float64(m.DeliveredBytes) / float64(m.OfferedBytes))
	}
	return m, unfinished
}

// cdfQuantile is the smallest bin upper edge whose cumulative weight
// reaches q.
func cdfQuantile(cdf []stats.CDFPoint, q float64) float64 {
	for _, p := range cdf {
		if p.Fraction >= q {
			return p.Value
		}
	}
	return math.NaN()
}

// FlowsCSV returns the header and rows of the per-flow table.
func (r *Result) FlowsCSV() (header []string, rows [][]string) {
	header = []string{"id", "src", "dst", "bytes", "start_us", "done", "fct_us", "ideal_us", "slowdown",
		"received", "reordered", "retransmits", "timeouts", "max_hops", "query"}
	us := func(t rotor.Time) string { return stats.FormatFloat(float64(t) / float64(rotor.Microsecond)) }
	rows = make([][]string, len(r.Flows))
	for i, f := range r.Flows {
		fct, slow := "", ""
		if f.Done {
			fct = us(f.FCT)
			slow = stats.FormatFloat(stats.FlowRecord{Bytes: f.Bytes, FCT: f.FCT, Ideal: f.Ideal}.Slowdown())
		}
		rows[i] = []string{strconv.Itoa(f.ID), strconv.Itoa(f.Src), strconv.Itoa(f.Dst), strconv.FormatInt(f.Bytes, 10),
			us(f.Start), strconv.FormatBool(f.Done), fct, us(f.Ideal), slow,
			strconv.FormatInt(f.Received, 10), strconv.FormatInt(f.Reordered, 10),
			strconv.FormatInt(f.Retransmits, 10), strconv.FormatInt(f.Timeouts, 10), strconv.Itoa(f.MaxHops),
			strconv.Itoa(f.Query)}
	}
	return header, rows
}
