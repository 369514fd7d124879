package stats

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/rotor"
)

// Conservation: every added value lands in exactly the bin a brute-force
// division says, or is counted as dropped.
func TestTimeSeriesConservation(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	start, iv := 5*rotor.Microsecond, 7*rotor.Microsecond
	ts, err := NewTimeSeries(start, iv, 50)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float64, 50)
	dropped := 0
	maxBin := -1
	for i := 0; i < 20000; i++ {
		tm := rotor.Time(rng.Int64N(int64(400 * rotor.Microsecond)))
		v := float64(rng.IntN(1500))
		ts.Add(tm, v)
		if tm < start {
			dropped++
			continue
		}
		k := int((tm - start) / iv)
		if k >= 50 {
			dropped++
			continue
		}
		want[k] += v
		maxBin = max(maxBin, k)
	}
	if diff := cmp.Diff(want[:maxBin+1], ts.Bins()); diff != "" {
		t.Fatal(diff)
	}
	if ts.Dropped() != dropped {
		t.Errorf("dropped %d, want %d", ts.Dropped(), dropped)
	}
	// Mostly in time order (the cached-bin path), with steps back across
	// bin edges and before the start now and then.
	ts3, _ := NewTimeSeries(start, iv, 50)
	want3 := make([]float64, 50)
	dropped3 := 0
	tm := rotor.Time(0)
	for i := 0; i < 20000; i++ {
		tm += rotor.Time(rng.Int64N(int64(rotor.Microsecond / 20)))
		at := tm
		switch rng.IntN(10) {
		case 0:
			at -= iv + rotor.Time(rng.Int64N(int64(iv)))
		case 1:
			at = start + rotor.Time(rng.IntN(50))*iv - rotor.Time(rng.IntN(2)) // on an edge
		}
		v := float64(rng.IntN(1500))
		ts3.Add(at, v)
		if k := (at - start) / iv; at < start || k >= 50 {
			dropped3++
		} else {
			want3[k] += v
		}
	}
	got3 := append(ts3.Bins(), make([]float64, 50-len(ts3.Bins()))...)
	if diff := cmp.Diff(want3, got3); diff != "" || ts3.Dropped() != dropped3 {
		t.Fatalf("in order: %s dropped %d, want %d", diff, ts3.Dropped(), dropped3)
	}
	// Bin edges: the last picosecond of bin 0 and the first of bin 1.
	ts2, _ := NewTimeSeries(0, rotor.Millisecond, 3)
	ts2.Add(rotor.Millisecond-1, 1)
	ts2.Add(rotor.Millisecond, 10)
	ts2.Add(3*rotor.Millisecond, 100) // beyond 3 bins
	ts2.Extend(10)                    // clamped to 3
	if diff := cmp.Diff([]float64{1, 10, 0}, ts2.Bins()); diff != "" || ts2.Dropped() != 1 {
		t.Errorf("edges: %s dropped %d", diff, ts2.Dropped())
	}
	if ts2.BinStart(2) != 2*rotor.Millisecond {
		t.Errorf("BinStart(2) = %d", ts2.BinStart(2))
	}
}

func TestTimeSeriesUtilizationAndCSV(t *testing.T) {
	ts, _ := NewTimeSeries(0, rotor.Millisecond, 10)
	ts.Add(0, 12.5e6/2)                   // half of 100 Gb/s for 1 ms
	ts.Add(2*rotor.Millisecond+5, 12.5e6) // full
	if diff := cmp.Diff([]float64{0.5, 0, 1}, ts.Utilization(100*rotor.Gbps)); diff != "" {
		t.Error(diff)
	}
	other, _ := NewTimeSeries(0, rotor.Millisecond, 10)
	other.Add(rotor.Millisecond, 0.25)
	var buf bytes.Buffer
	if err := WriteTimeSeriesCSV(&buf, []string{"a", "b"}, []*TimeSeries{ts, other}); err != nil {
		t.Fatal(err)
	}
	want := "time_us,a,b\n0,6250000,0\n1000,0,0.25\n2000,12500000,0\n"
	if buf.String() != want {
		t.Errorf("CSV %q, want %q", buf.String(), want)
	}
	shifted, _ := NewTimeSeries(1, rotor.Millisecond, 10)
	if err := WriteTimeSeriesCSV(&buf, []string{"a", "b"}, []*TimeSeries{ts, shifted}); err == nil {
		t.Error("mismatched series accepted")
	}
	if err := WriteTimeSeriesCSV(&buf, []string{"a"}, []*TimeSeries{ts, other}); err == nil {
		t.Error("name count mismatch accepted")
	}
	if _, err := NewTimeSeries(0, 0, 1); err == nil {
		t.Error("zero interval accepted")
	}
	if _, err := NewTimeSeries(0, 1, 0); err == nil {
		t.Error("zero bins accepted")
	}
}

// Histogram quantiles are within one bin width of the exact weighted
// quantile; the mean is exact; the CDF ends at 1 and never decreases.
func TestHistogramAgainstExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	h, err := NewHistogram(0, 1000, 200)
	if err != nil {
		t.Fatal(err)
	}
	type vw struct{ v, w float64 }
	var all []vw
	var sw, svw float64
	for i := 0; i < 5000; i++ {
		v := rng.Float64() * rng.Float64() * 1000
		w := rng.ExpFloat64()
		h.Add(v, w)
		all = append(all, vw{v, w})
		sw += w
		svw += v * w
	}
	if math.Abs(h.Mean()-svw/sw) > 1e-9*svw/sw || math.Abs(h.Total()-sw) > 1e-9*sw {
		t.Errorf("mean %v total %v, want %v %v", h.Mean(), h.Total(), svw/sw, sw)
	}
	// Exact weighted quantile: smallest v with cumulative weight ≥ q·total.
	sortByV := func(a []vw) {
		for i := 1; i < len(a); i++ {
			for j := i; j > 0 && a[j].v < a[j-1].v; j-- {
				a[j], a[j-1] = a[j-1], a[j]
			}
		}
	}
	sortByV(all)
	for _, q := range []float64{0.01, 0.25, 0.5, 0.9, 0.99, 0.999} {
		cum, exact := 0.0, 0.0
		for _, p := range all {
			cum += p.w
			if cum >= q*sw {
				exact = p.v
				break
			}
		}
		if got := h.Quantile(q); math.Abs(got-exact) > 5 { // bin width 5
			t.Errorf("Quantile(%v) = %v, exact %v", q, got, exact)
		}
	}
	cdf := h.CDF()
	for i := 1; i < len(cdf); i++ {
		if cdf[i].Fraction < cdf[i-1].Fraction {
			t.Fatal("CDF decreases")
		}
	}
	if cdf[len(cdf)-1].Fraction != 1 || cdf[len(cdf)-1].Value != 1000 {
		t.Errorf("CDF ends at %+v", cdf[len(cdf)-1])
	}
}

func TestHistogramEdges(t *testing.T) {
	h, _ := NewHistogram(10, 20, 2)
	h.Add(5, 1)  // below: first bin
	h.Add(25, 1) // above: last bin
	h.Add(15, 2) // second bin
	h.Add(math.NaN(), 1)
	h.Add(12, -1) // ignored
	h.Add(12, math.Inf(1))
	if diff := cmp.Diff([]float64{1, 3}, h.Weights()); diff != "" {
		t.Error(diff)
	}
	if h.Min() != 5 || h.Max() != 25 || h.Mean() != (5+25+30)/4.0 {
		t.Errorf("min %v max %v mean %v", h.Min(), h.Max(), h.Mean())
	}
	if q := h.Quantile(1); q != 25 {
		t.Errorf("Quantile(1) = %v, want the max 25", q)
	}
	if q := h.Quantile(0); q != 5 {
		t.Errorf("Quantile(0) = %v, want the min 5", q)
	}
	empty, _ := NewHistogram(0, 1, 1)
	if empty.CDF() != nil || !math.IsNaN(empty.Quantile(0.5)) || !math.IsNaN(empty.Mean()) {
		t.Error("empty histogram")
	}
	for _, bad := range [][3]float64{{1, 1, 1}, {0, math.Inf(1), 1}, {math.NaN(), 1, 1}, {0, 1, 0}} {
		if _, err := NewHistogram(bad[0], bad[1], int(bad[2])); err == nil {
			t.Errorf("NewHistogram%v accepted", bad)
		}
	}
}

// TimeWeighted: the weight of each level is the time it lasted, so the
// weighted mean is the time average ∫level dt / T.
func TestTimeWeighted(t *testing.T) {
	h, _ := NewHistogram(0, 100, 100)
	tw := TimeWeighted{H: h}
	rng := rand.New(rand.NewPCG(4, 4))
	var now rotor.Time
	var integral float64
	level := 0.0
	tw.Set(0, level)
	for i := 0; i < 1000; i++ {
		d := rotor.Time(1 + rng.IntN(1000))
		integral += level * float64(d)
		now += d
		level = float64(rng.IntN(100))
		tw.Set(now, level)
	}
	tw.Close(now + 10)
	integral += level * 10
	T := float64(now + 10)
	if math.Abs(h.Total()-T) > 0 || math.Abs(h.Mean()-integral/T) > 1e-9*integral/T {
		t.Errorf("total %v mean %v, want %v %v", h.Total(), h.Mean(), T, integral/T)
	}
	tw.Set(now, 5) // a step back in time adds nothing
	if h.Total() != T {
		t.Error("step back added weight")
	}
}

func TestAddDoesNotAllocate(t *testing.T) {
	ts, _ := NewTimeSeries(0, rotor.Microsecond, 1000)
	ts.Extend(1000)
	h, _ := NewHistogram(0, 1, 100)
	tw := TimeWeighted{H: h}
	var now rotor.Time
	if n := testing.AllocsPerRun(1000, func() {
		now += 100 * rotor.Nanosecond
		ts.Add(now%(1000*rotor.Microsecond), 1500)
		h.Add(0.3, 1)
		tw.Set(now, 0.5)
	}); n != 0 {
		t.Fatalf("%v allocations per Add", n)
	}
}

func BenchmarkTimeSeriesAdd(b *testing.B) {
	ts, _ := NewTimeSeries(0, rotor.Microsecond, 1<<20)
	b.ReportAllocs()
	var now rotor.Time
	for i := 0; i < b.N; i++ {
		now += 120 * rotor.Nanosecond // a 1500 B packet at 100 Gb/s
		ts.Add(now, 1500)
	}
}

func BenchmarkHistogramAdd(b *testing.B) {
	h, _ := NewHistogram(0, 16e6, 1024)
	b.ReportAllocs()
	v := 0.0
	for i := 0; i < b.N; i++ {
		v += 1500
		if v > 20e6 {
			v = 0
		}
		h.Add(v, 120)
	}
}

func BenchmarkTimeWeightedSet(b *testing.B) {
	h, _ := NewHistogram(0, 16e6, 1024)
	tw := TimeWeighted{H: h}
	b.ReportAllocs()
	var now rotor.Time
	for i := 0; i < b.N; i++ {
		now += 120 * rotor.Nanosecond
		tw.Set(now, float64(i%10000)*1500)
	}
}
