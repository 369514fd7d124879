package stats

import (
	"fmt"
	"io"

	"github.com/rdcn/rdcn/rotor"
)

// TimeSeries sums values into fixed-width time bins: bin i covers
// [Start + i·Interval, Start + (i+1)·Interval). Memory grows with the number
// of bins touched (never with the number of samples) up to MaxBins; samples
// before Start or past the last allowed bin are counted in Dropped.
// The zero value is not usable; call NewTimeSeries.
type TimeSeries struct {
	start, interval rotor.Time
	maxBins         int
	bins            []float64
	dropped         int
	// The bin the last sample fell in, [lo, hi): samples come mostly in
	// time order, so most find their bin without a division.
	lo, hi rotor.Time
	last   int
}

// NewTimeSeries makes a series starting at start with bins of width
// interval, holding at most maxBins bins.
func NewTimeSeries(start, interval rotor.Time, maxBins int) (*TimeSeries, error) {
	if interval <= 0 {
		return nil, fmt.Errorf("timeseries.interval: must be positive, got %d ps", interval)
	}
	if maxBins < 1 {
		return nil, fmt.Errorf("timeseries.max_bins: must be at least 1, got %d", maxBins)
	}
	return &TimeSeries{start: start, interval: interval, maxBins: maxBins,
		bins: make([]float64, 0, min(maxBins, 1024))}, nil
}

// Add adds v to the bin holding time t. It allocates only when t reaches a
// bin beyond the current length (amortised, by bins).
func (ts *TimeSeries) Add(t rotor.Time, v float64) {
	if t >= ts.lo && t < ts.hi {
		ts.bins[ts.last] += v
		return
	}
	ts.add(t, v)
}

func (ts *TimeSeries) add(t rotor.Time, v float64) {
	if t < ts.start {
		ts.dropped++
		return
	}
	k := (t - ts.start) / ts.interval
	if k >= rotor.Time(len(ts.bins)) {
		if k >= rotor.Time(ts.maxBins) {
			ts.dropped++
			return
		}
		ts.grow(int(k) + 1)
	}
	ts.bins[k] += v
	ts.last, ts.lo = int(k), ts.start+k*ts.interval
	ts.hi = ts.lo + ts.interval
}

func (ts *TimeSeries) grow(n int) {
	if n <= cap(ts.bins) {
		ts.bins = ts.bins[:n]
		return
	}
	c := max(n, min(2*cap(ts.bins), ts.maxBins))
	nb := make([]float64, n, c)
	copy(nb, ts.bins)
	ts.bins = nb
}

// Extend makes the series at least n bins long (clamped to MaxBins), so that
// trailing empty bins are reported as zeros.
func (ts *TimeSeries) Extend(n int) {
	if n > ts.maxBins {
		n = ts.maxBins
	}
	if n > len(ts.bins) {
		ts.grow(n)
	}
}

// Bins returns the bin sums (not a copy: do not modify).
func (ts *TimeSeries) Bins() []float64 { return ts.bins }

// Start is the start of bin 0.
func (ts *TimeSeries) Start() rotor.Time { return ts.start }

// Interval is the bin width.
func (ts *TimeSeries) Interval() rotor.Time { return ts.interval }

// BinStart is the start time of bin i.
func (ts *TimeSeries) BinStart(i int) rotor.Time { return ts.start + rotor.Time(i)*ts.interval }

// Dropped counts samples that fell outside the series.
func (ts *TimeSeries) Dropped() int { return ts.dropped }

// Utilization converts a series of bytes per bin into the fraction of a link
// of the given rate that those bytes occupy: bytes·8 / (rate·interval).
func (ts *TimeSeries) Utilization(rate rotor.Rate) []float64 {
	out := make([]float64, len(ts.bins))
	capBytes := float64(rate) / 8 * float64(ts.interval) / float64(rotor.Second)
	for i, b := range ts.bins {
		out[i] = b / capBytes
	}
	return out
}

// WriteTimeSeriesCSV writes series side by side: a "time_us" column (bin
// start in microseconds) and one column per series, named by names. All
// series must share start and interval; shorter ones are padded with 0.
func WriteTimeSeriesCSV(w io.Writer, names []string, series []*TimeSeries) error {
	if len(names) != len(series) || len(series) == 0 {
		return fmt.Errorf("timeseries csv: %d names for %d series", len(names), len(series))
	}
	n := 0
	for i, s := range series {
		if s.start != series[0].start || s.interval != series[0].interval {
			return fmt.Errorf("timeseries csv: series %q has start/interval %d/%d ps, %q has %d/%d",
				names[i], s.start, s.interval, names[0], series[0].start, series[0].interval)
		}
		n = max(n, len(s.bins))
	}
	header := append([]string{"time_us"}, names...)
	rows := make([][]string, n)
	for k := range rows {
		row := make([]string, 0, len(header))
		row = append(row, FormatFloat(float64(series[0].BinStart(k))/float64(rotor.Microsecond)))
		for _, s := range series {
			v := 0.0
			if k < len(s.bins) {
				v = s.bins[k]
			}
			row = append(row, FormatFloat(v))
		}
		rows[k] = row
	}
	return WriteCSV(w, header, rows)
}
