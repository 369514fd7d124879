package fabric

import (
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/stats"
)

// SeriesCSV returns the header and rows of the time series: one row per
// bin of SeriesInterval (time_us is the bin's start).
func (r *Result) SeriesCSV() (header []string, rows [][]string) {
	header = []string{"time_us", "host_utilization", "circuit_utilization", "buffer_mean_bytes", "voq_mean_bytes"}
	rows = make([][]string, len(r.HostSeries))
	for i := range rows {
		t := float64(rotor.Time(i)*r.SeriesInterval) / float64(rotor.Microsecond)
		rows[i] = []string{stats.FormatFloat(t), stats.FormatFloat(r.HostSeries[i]), stats.FormatFloat(r.CircuitSeries[i]),
			stats.FormatFloat(r.BufferSeries[i]), stats.FormatFloat(r.VOQSeries[i])}
	}
	return header, rows
}

// BufferCDFCSV returns the header and rows of the sampled occupancy CDFs:
// the ToR buffers' (what = tor_buffer), then the VOQs' (voq).
func (r *Result) BufferCDFCSV() (header []string, rows [][]string) {
	for _, p := range r.BufferCDF {
		rows = append(rows, []string{"tor_buffer", stats.FormatFloat(p.Value), stats.FormatFloat(p.Fraction)})
	}
	for _, p := range r.VOQCDF {
		rows = append(rows, []string{"voq", stats.FormatFloat(p.Value), stats.FormatFloat(p.Fraction)})
	}
	return []string{"what", "bytes", "cdf"}, rows
}
