package workload

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Hand-computed means of the piecewise-linear reading (atom at the first
// point, uniform in between).
func TestCDFMeanHand(t *testing.T) {
	tests := []struct {
		name, text string
		mean       float64
	}{
		{"atom and segment", "1000 0.5\n3000 1\n", 0.5*1000 + 0.5*2000},
		{"single atom", "1500 1\n", 1500},
		// 0.5·50 (uniform 0..100) + 0.2·100 (atom at 100) + 0.3·150
		{"zero-width segment is an atom", "0 0\n100 0.5\n100 0.7\n200 1\n", 90},
		{"percent scale", "0 0\n100 50\n100 70\n200 100\n", 90},
		{"zero-probability head", "0 0\n2000 0\n2100 0.5\n2500 1\n", 0.5*2050 + 0.5*2300},
		{"comments, commas, blank lines", "# size,cdf\n\n10,0.25\n 20 , 1 \n", 0.25*10 + 0.75*15},
		{"renormalised last prob", "10 0.5\n20 0.9995\n", (0.5*10 + 0.4995*15) / 0.9995},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseCDF(strings.NewReader(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Mean(); math.Abs(got-tc.mean) > 1e-9*tc.mean {
				t.Errorf("Mean = %v, want %v", got, tc.mean)
			}
		})
	}
}

// The three built-in CDFs: exact means (checked against the "midpoint
// rule" values 1.71 MB, 5.04 MB, 3.42 MB of the ns-3 artifact's avg_cdf) and a Monte-Carlo
// estimate of the sampler within 4 standard errors.
func TestNamedCDFMeans(t *testing.T) {
	want := map[string]float64{"websearch": 1711222.5, "datamining": 5036535.175, "hadoop": 3423728.3546}
	rng := rand.New(rand.NewPCG(7, 0))
	for _, name := range SizeNames()[:3] {
		c, err := NamedCDF(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Mean(); math.Abs(got-want[name]) > 0.01 {
			t.Errorf("%s: Mean = %.4f, want %.4f", name, got, want[name])
		}
		const n = 400_000
		var sum, sum2 float64
		for i := 0; i < n; i++ {
			x := float64(c.Sample(rng))
			sum += x
			sum2 += x * x
		}
		mc := sum / n
		se := math.Sqrt((sum2/n - mc*mc) / n)
		if math.Abs(mc-c.Mean()) > 4*se {
			t.Errorf("%s: Monte-Carlo mean %.0f ± %.0f, exact %.0f", name, mc, se, c.Mean())
		}
	}
}

// The sampler reproduces the CDF at every point: the fraction of samples
// ≤ x_i is p_i (within 5 binomial standard errors).
func TestSampleMatchesCDF(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	for _, name := range SizeNames()[:3] {
		c, _ := NamedCDF(name)
		pts := c.Points()
		const n = 200_000
		below := make([]int, len(pts))
		for i := 0; i < n; i++ {
			x := c.Sample(rng)
			for j, p := range pts {
				if float64(x) <= p.Bytes {
					below[j]++
				}
			}
		}
		for j, p := range pts {
			// A sample ≤ x (an integer) after rounding iff the continuous
			// draw is below x + 0.5.
			want := cdfAt(pts, p.Bytes+0.5)
			got := float64(below[j]) / n
			se := math.Sqrt(want*(1-want)/n) + 1e-9
			if math.Abs(got-want) > 5*se+1e-5 {
				t.Errorf("%s: P(size ≤ %v) = %.5f, want %.5f", name, p.Bytes, got, want)
			}
		}
	}
}

// cdfAt evaluates the piecewise-linear CDF (atom at the first point) at x.
func cdfAt(pts []Point, x float64) float64 {
	if x < pts[0].Bytes {
		return 0
	}
	f := pts[0].Prob
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		switch {
		case x >= b.Bytes:
			f = b.Prob
		case x > a.Bytes:
			return a.Prob + (x-a.Bytes)/(b.Bytes-a.Bytes)*(b.Prob-a.Prob)
		default:
			return f
		}
	}
	return f
}

// Rounding to whole bytes keeps the mean exact for integer points: a tiny
// CDF sampled many times averages to its hand mean.
func TestSampleRoundingUnbiased(t *testing.T) {
	c, err := ParseCDF(strings.NewReader("1 0\n3 1\n")) // uniform on [1,3], rounded: 1,2,3 with 1/4,1/2,1/4
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	counts := map[int64]int{}
	const n = 200_000
	for i := 0; i < n; i++ {
		counts[c.Sample(rng)]++
	}
	for v, p := range map[int64]float64{1: 0.25, 2: 0.5, 3: 0.25} {
		if got := float64(counts[v]) / n; math.Abs(got-p) > 0.005 {
			t.Errorf("P(%d) = %.4f, want %.2f", v, got, p)
		}
	}
	if len(counts) != 3 {
		t.Errorf("values %v, want only 1, 2, 3", counts)
	}
}

func TestQuantileHand(t *testing.T) {
	c, err := ParseCDF(strings.NewReader("0 0\n2000 0\n2100 0.02\n2500 0.05\n6000 0.1\n30000000 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ u, x float64 }{
		{0, 2000}, {0.01, 2050}, {0.02, 2100}, {0.035, 2300}, {0.075, 4250}, {0.0999, 5993},
	} {
		if got := c.Quantile(tc.u); math.Abs(got-tc.x) > 1e-6 {
			t.Errorf("Quantile(%v) = %v, want %v", tc.u, got, tc.x)
		}
	}
}

func TestParseCDFErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"empty", "", "no data lines"},
		{"only comments", "# nothing\n\n", "no data lines"},
		{"one column", "100 0\n200\n", "line 2: want 2 columns"},
		{"three columns", "6 1 0.15\n", "line 1: want 2 columns"},
		{"bad size", "abc 0.5\n", `line 1: size "abc" is not a number`},
		{"bad prob", "100 x\n", `line 1: cumulative probability "x" is not a number`},
		{"decreasing prob", "100 0.5\n200 0.4\n300 1\n", "line 2: cumulative probability 0.4 is smaller"},
		{"decreasing size", "# c\n100 0.1\n50 0.5\n300 1\n", "line 3: size 50 is smaller"},
		{"negative size", "-1 0\n10 1\n", "line 1: size -1"},
		{"NaN prob", "10 NaN\n", "line 1: cumulative probability NaN"},
		{"not ending at 1", "10 0.2\n20 0.9\n", "line 2: last cumulative probability is 0.9"},
		{"percent not ending at 100", "10 20\n20 90\n", "line 2: last cumulative probability is 90"},
		{"prob above 100", "10 20\n20 200\n", "line 2: cumulative probability 200 must be in [0, 100]"},
		{"atom at zero", "0 0.5\n10 1\n", "line 1: first point puts probability 0.5 on size 0"},
		{"infinite size", "Inf 1\n", "line 1: size +Inf"},
		{"size beyond 1 TB", "1000 0.5\n2e12 1\n", "line 2: size 2e+12 must be a number of bytes in [0, 1e12]"},
		{"all zero", "0 0\n0 1\n", "mean size is 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCDF(strings.NewReader(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestLoadCDFNamesFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "bad.cdf")
	if err := os.WriteFile(p, []byte("10 0\n20 0.5\n15 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadCDF(p)
	if err == nil || !strings.HasPrefix(err.Error(), "bad.cdf:3: size 15") {
		t.Fatalf("err = %v, want bad.cdf:3: …", err)
	}
	if _, err := LoadCDF(filepath.Join(dir, "missing.cdf")); err == nil {
		t.Fatal("missing file: no error")
	}
}

// The embedded copies are the shared data files, byte for byte (when the
// shared directory is beside the tree, as in CI).
func TestEmbeddedMatchesShared(t *testing.T) {
	for _, name := range SizeNames()[:3] {
		shared, err := os.ReadFile(filepath.Join("..", "..", "shared", "data", "workloads", name+".cdf"))
		if err != nil {
			t.Skipf("shared data not found: %v", err)
		}
		emb, err := embedded.ReadFile("cdfs/" + name + ".cdf")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(shared), string(emb)); diff != "" {
			t.Errorf("%s differs from shared copy (-shared +embedded):\n%s", name, diff)
		}
	}
}

func TestSizes(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "tiny.cdf")
	if err := os.WriteFile(p, []byte("1000 0.5\n3000 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		spec string
		mean float64
	}{
		{"websearch", 1711222.5}, {"WebSearch", 1711222.5}, {" hadoop ", 3423728.3546},
		{"1MB", 1e6}, {"64KB", 64000}, {"1500B", 1500}, {"1500", 1500}, {"1MiB", 1 << 20},
		{"10pkt", 15000}, {"2.5KB", 2500}, {"2.5 kB", 2500}, {p, 1500},
		{"1TB", 1e12}, // MaxFlowBytes itself
	}
	for _, tc := range tests {
		d, err := Sizes(tc.spec)
		if err != nil {
			t.Errorf("Sizes(%q): %v", tc.spec, err)
			continue
		}
		if math.Abs(d.Mean()-tc.mean) > 0.01 {
			t.Errorf("Sizes(%q).Mean() = %v, want %v", tc.spec, d.Mean(), tc.mean)
		}
	}
	for _, spec := range []string{"", "websurch", "-5KB", "0B", "0", "1.5B", "NaNMB", "2.5kb", "1e30B", filepath.Join(dir, "nope.cdf"),
		"1000TB", "1PiB", "1000000000001", "9223372036854775807"} { // beyond MaxFlowBytes (1 TB)
		_, err := Sizes(spec)
		if err == nil || !strings.HasPrefix(err.Error(), "workload.sizes: ") {
			t.Errorf("Sizes(%q): err = %v, want a workload.sizes error", spec, err)
		}
	}
	bad := filepath.Join(dir, "bad.cdf")
	os.WriteFile(bad, []byte("10 1\n5 1\n"), 0o644)
	if _, err := Sizes(bad); err == nil || !strings.Contains(err.Error(), "bad.cdf:2") {
		t.Errorf("Sizes(bad file): err = %v, want it to name bad.cdf:2", err)
	}
}

func FuzzParseCDF(f *testing.F) {
	for _, name := range SizeNames()[:3] {
		b, _ := embedded.ReadFile("cdfs/" + name + ".cdf")
		f.Add(string(b))
	}
	for _, s := range []string{"", "1000 0.5\n3000 1\n", "0 0\n100 50\n200 100\n", "# x\n1,1\n", "10 NaN\n", "1e300 1\n", "5 0\n5 0\n5 1\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ParseCDF(strings.NewReader(text))
		if err != nil {
			if c != nil {
				t.Fatal("non-nil CDF with error")
			}
			return
		}
		pts := c.Points()
		if pts[len(pts)-1].Prob != 1 {
			t.Fatalf("last prob %v", pts[len(pts)-1].Prob)
		}
		m := c.Mean()
		if !(m > 0) || m > pts[len(pts)-1].Bytes*(1+1e-9)+1 {
			t.Fatalf("mean %v outside (0, max size %v]", m, pts[len(pts)-1].Bytes)
		}
		rng := rand.New(rand.NewPCG(1, 1))
		for i := 0; i < 50; i++ {
			x := c.Sample(rng)
			if x < 1 || float64(x) > math.Max(1, math.Round(pts[len(pts)-1].Bytes)) {
				t.Fatalf("sample %d outside [1, %v]", x, pts[len(pts)-1].Bytes)
			}
		}
	})
}
