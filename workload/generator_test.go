package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rdcn/rdcn/demand"
	"github.com/rdcn/rdcn/rotor"
)

func mustSizes(t testing.TB, spec string) SizeDist {
	t.Helper()
	d, err := Sizes(spec)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func baseConfig(t testing.TB) Config {
	return Config{
		Hosts: 32, HostsPerTor: 4, HostRate: 100 * rotor.Gbps, Load: 0.3,
		Sizes: mustSizes(t, "websearch"), Pattern: "all-to-all",
		Start: 5 * rotor.Millisecond, Duration: 2 * rotor.Second,
	}
}

func gen(t testing.TB, cfg Config, seed uint64) []Flow {
	t.Helper()
	flows, err := Generate(cfg, rand.New(rand.NewPCG(seed, 0)))
	if err != nil {
		t.Fatal(err)
	}
	return flows
}

// checkStream: IDs are 0..n−1 in order, starts are sorted and inside the
// window, sizes positive, no self flows.
func checkStream(t *testing.T, cfg Config, flows []Flow) {
	t.Helper()
	for i, f := range flows {
		if f.ID != i {
			t.Fatalf("flow %d has ID %d", i, f.ID)
		}
		if f.Start < cfg.Start || f.Start >= cfg.Start+cfg.Duration {
			t.Fatalf("flow %d starts at %d, outside [%d,%d)", i, f.Start, cfg.Start, cfg.Start+cfg.Duration)
		}
		if i > 0 && f.Start < flows[i-1].Start {
			t.Fatalf("flow %d starts before flow %d", i, i-1)
		}
		if f.Bytes < 1 || f.Src == f.Dst || f.Src < 0 || f.Dst < 0 || f.Src >= cfg.Hosts || f.Dst >= cfg.Hosts {
			t.Fatalf("bad flow %+v", f)
		}
	}
}

// The offered load over a long window matches Load: bytes/(hosts·rate·T).
// websearch has a coefficient of variation of 2.3, so ~140k flows give a
// standard error of 0.6%; the tolerance is 3%. Flow counts per host are
// Poisson (λT ≈ 4400, sd 1.5%).
func TestEmpiricalLoad(t *testing.T) {
	for _, load := range []float64{0.1, 0.3, 0.8} {
		cfg := baseConfig(t)
		cfg.Load = load
		flows := gen(t, cfg, 42)
		checkStream(t, cfg, flows)
		var bytes float64
		perHost := make([]int, cfg.Hosts)
		for _, f := range flows {
			bytes += float64(f.Bytes)
			perHost[f.Src]++
		}
		secs := float64(cfg.Duration) / float64(rotor.Second)
		got := bytes * 8 / (float64(cfg.HostRate) * secs * float64(cfg.Hosts))
		if math.Abs(got/load-1) > 0.03 {
			t.Errorf("load %.2f: empirical load %.4f", load, got)
		}
		want := cfg.ArrivalRate() * secs
		for h, n := range perHost {
			if math.Abs(float64(n)-want) > 5*math.Sqrt(want) {
				t.Errorf("load %.2f: host %d started %d flows, want %.0f ± %.0f", load, h, n, want, math.Sqrt(want))
			}
		}
	}
}

// Arrivals are Poisson: counts in 1 ms windows of one host have variance
// equal to their mean (index of dispersion 1), and inter-arrival gaps have
// coefficient of variation 1.
func TestPoissonArrivals(t *testing.T) {
	cfg := baseConfig(t)
	cfg.Sizes = Constant(125_000) // λ = 0.3·1e11/1e6 = 30000/s per host
	cfg.Duration = rotor.Second
	flows := gen(t, cfg, 5)
	const win = rotor.Millisecond
	counts := make([]float64, cfg.Duration/win)
	var last rotor.Time = -1
	var gaps []float64
	for _, f := range flows {
		if f.Src != 3 {
			continue
		}
		counts[(f.Start-cfg.Start)/win]++
		if last >= 0 {
			gaps = append(gaps, float64(f.Start-last))
		}
		last = f.Start
	}
	mean, v := meanVar(counts)
	if math.Abs(mean-30) > 1 || math.Abs(v/mean-1) > 0.15 {
		t.Errorf("counts per ms: mean %.2f (want 30), dispersion %.3f (want 1)", mean, v/mean)
	}
	gm, gv := meanVar(gaps)
	if cv := math.Sqrt(gv) / gm; math.Abs(cv-1) > 0.05 {
		t.Errorf("gap CV %.3f, want 1", cv)
	}
	if want := 1e12 / 30000; math.Abs(gm/want-1) > 0.03 {
		t.Errorf("mean gap %.0f ps, want %.0f", gm, want)
	}
}

func meanVar(x []float64) (float64, float64) {
	var s, s2 float64
	for _, v := range x {
		s += v
		s2 += v * v
	}
	n := float64(len(x))
	m := s / n
	return m, s2/n - m*m
}

func TestPatterns(t *testing.T) {
	tests := []struct {
		pattern string
		intra   bool
		dstTor  func(tor, tors int) int // -1: any other ToR
	}{
		{"all-to-all", false, func(int, int) int { return -1 }},
		{"", false, func(int, int) int { return -1 }},
		{"shift", false, func(tor, n int) int { return (tor + n/2) % n }},
		{"permutation", false, func(int, int) int { return -1 }}, // see TestPermutationPattern
		{"ring", false, func(tor, n int) int { return (tor + 1) % n }},
	}
	for _, tc := range tests {
		for _, tors := range []int{2, 5, 8} {
			cfg := baseConfig(t)
			cfg.Hosts, cfg.HostsPerTor = tors*4, 4
			cfg.Pattern = tc.pattern
			cfg.Duration = 200 * rotor.Millisecond
			flows := gen(t, cfg, 9)
			checkStream(t, cfg, flows)
			hits := make([]int, cfg.Hosts)
			for _, f := range flows {
				st, dt := f.Src/4, f.Dst/4
				if st == dt {
					t.Fatalf("%s/%d: intra-rack flow %+v", tc.pattern, tors, f)
				}
				if want := tc.dstTor(st, tors); want >= 0 && dt != want {
					t.Fatalf("%s/%d: flow %+v goes to ToR %d, want %d", tc.pattern, tors, f, dt, want)
				}
				hits[f.Dst]++
			}
			// Every host is a destination about equally often: chi-square
			// with hosts−1 degrees of freedom below a generous bound.
			// (All patterns here map ToRs bijectively, so every host is
			// equally likely; shifts by ⌊T/2⌋ are bijections for odd T too.)
			exp := float64(len(flows)) / float64(cfg.Hosts)
			chi := 0.0
			for _, h := range hits {
				chi += (float64(h) - exp) * (float64(h) - exp) / exp
			}
			df := float64(cfg.Hosts - 1)
			if chi > df+6*math.Sqrt(2*df) {
				t.Errorf("%s/%d: destination chi-square %.1f with %v dof", tc.pattern, tors, chi, df)
			}
		}
	}
}

func TestAllowIntraRack(t *testing.T) {
	cfg := baseConfig(t)
	cfg.AllowIntraRack = true
	cfg.Duration = 300 * rotor.Millisecond
	flows := gen(t, cfg, 3)
	checkStream(t, cfg, flows)
	intra := 0
	for _, f := range flows {
		if f.Src/4 == f.Dst/4 {
			intra++
		}
	}
	// 3 of the 31 other hosts share the sender's ToR.
	if got, want := float64(intra)/float64(len(flows)), 3.0/31; math.Abs(got-want) > 0.015 {
		t.Errorf("intra-rack fraction %.4f, want %.4f", got, want)
	}
	// With a single ToR only intra-rack flows exist.
	cfg.Hosts, cfg.HostsPerTor = 4, 4
	checkStream(t, cfg, gen(t, cfg, 3))
}

// "matrix": destination ToRs follow the row weights and each ToR's offered
// load is Load·rowsum/max(row or column sum).
func TestMatrixPattern(t *testing.T) {
	m := demand.New(4)
	m[0][1], m[0][2] = 3, 1  // row 0 sums to 4
	m[1][3] = 2              // row 1 sums to 2
	m[2][0], m[2][2] = 1, 99 // diagonal ignored; row 2 sums to 1
	// row 3 is silent; column sums 1, 3, 1, 2 ⇒ peak 4
	cfg := baseConfig(t)
	cfg.Hosts, cfg.HostsPerTor = 16, 4
	cfg.Pattern, cfg.Matrix = "matrix", m
	cfg.Sizes = Constant(100_000)
	cfg.Load = 0.5
	cfg.Duration = rotor.Second
	flows := gen(t, cfg, 21)
	checkStream(t, cfg, flows)
	var pair [4][4]float64
	for _, f := range flows {
		pair[f.Src/4][f.Dst/4] += float64(f.Bytes)
	}
	secs := float64(cfg.Duration) / float64(rotor.Second)
	hostBytes := float64(cfg.HostRate) / 8 * secs
	for i := 0; i < 4; i++ {
		row := 0.0
		for j := 0; j < 4; j++ {
			if i != j {
				row += m[i][j]
			}
		}
		for j := 0; j < 4; j++ {
			want := 0.0
			if i != j {
				want = cfg.Load * m[i][j] / 4 // per host of ToR i
			}
			got := pair[i][j] / (4 * hostBytes)
			// Poisson counts: relative sd 1/sqrt(n) with n ≈ 4·λ·T·share.
			n := want * hostBytes * 4 / 100_000
			if math.Abs(got-want) > 5*want/math.Sqrt(n+1)+1e-12 {
				t.Errorf("load %d→%d = %.4f, want %.4f", i, j, got, want)
			}
		}
	}
}

func TestDeterminism(t *testing.T) {
	cfg := baseConfig(t)
	cfg.Duration = 100 * rotor.Millisecond
	cfg.Incast = &Incast{Senders: 8, Bytes: 20_000, Rate: 200}
	a, b := gen(t, cfg, 77), gen(t, cfg, 77)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("same seed, different flows:\n%s", diff)
	}
	c := gen(t, cfg, 78)
	if cmp.Equal(a, c) {
		t.Fatal("different seeds gave identical flows")
	}
}

func TestIncast(t *testing.T) {
	cfg := baseConfig(t)
	cfg.Load = 0
	cfg.Sizes = nil
	cfg.Duration = rotor.Second
	cfg.Incast = &Incast{Senders: 10, Bytes: 30_000, Rate: 50}
	flows := gen(t, cfg, 4)
	checkStream(t, cfg, flows)
	type q struct {
		dst   int
		start rotor.Time
		srcs  map[int]bool
	}
	queries := map[int]*q{}
	order := []int{}
	for _, f := range flows {
		if f.Query == 0 || f.Bytes != 30_000 {
			t.Fatalf("not an incast response: %+v", f)
		}
		x := queries[f.Query]
		if x == nil {
			x = &q{dst: f.Dst, start: f.Start, srcs: map[int]bool{}}
			queries[f.Query] = x
			order = append(order, f.Query)
		}
		if f.Dst != x.dst || f.Start != x.start {
			t.Fatalf("query %d mixes receivers or starts: %+v", f.Query, f)
		}
		if f.Src/4 == f.Dst/4 {
			t.Fatalf("responder on the receiver's ToR: %+v", f)
		}
		if x.srcs[f.Src] {
			t.Fatalf("query %d uses responder %d twice", f.Query, f.Src)
		}
		x.srcs[f.Src] = true
	}
	for i, id := range order {
		if id != i+1 {
			t.Fatalf("query ids %v…, want 1, 2, 3, …", order[:i+1])
		}
		if n := len(queries[id].srcs); n != 10 {
			t.Fatalf("query %d has %d responders, want 10", id, n)
		}
	}
	// Responders are uniform: over all queries every host answers about
	// equally often (chi-square, 31 dof).
	answered := make([]float64, cfg.Hosts)
	for _, f := range flows {
		answered[f.Src]++
	}
	exp := float64(len(flows)) / float64(cfg.Hosts)
	chi := 0.0
	for _, a := range answered {
		chi += (a - exp) * (a - exp) / exp
	}
	if chi > 31+6*math.Sqrt(62) {
		t.Errorf("responder chi-square %.1f with 31 dof", chi)
	}
	want := 50.0 * 32 // per second, all hosts
	if n := float64(len(queries)); math.Abs(n-want) > 5*math.Sqrt(want) {
		t.Errorf("%v queries in 1 s, want %v ± %.0f", n, want, math.Sqrt(want))
	}
	// Fan-in equal to all hosts on other ToRs (32 − 4) picks every one of
	// them, each once. About 10·32·0.1 = 32 queries.
	cfg.Incast = &Incast{Senders: 28, Bytes: 1, Rate: 10}
	cfg.Duration = 100 * rotor.Millisecond
	all := map[int]map[int]bool{} // query → responders
	for _, f := range gen(t, cfg, 2) {
		if f.Src/4 == f.Dst/4 {
			t.Fatalf("responder on the receiver's ToR: %+v", f)
		}
		if all[f.Query] == nil {
			all[f.Query] = map[int]bool{}
		}
		all[f.Query][f.Src] = true
	}
	if len(all) == 0 {
		t.Fatal("fan-in 28: no queries")
	}
	for id, srcs := range all {
		if len(srcs) != 28 {
			t.Fatalf("fan-in 28: query %d has %d distinct responders, want 28", id, len(srcs))
		}
	}
}

// Background and incast together: the background keeps its load and the
// stream stays sorted.
func TestIncastWithBackground(t *testing.T) {
	cfg := baseConfig(t)
	cfg.Sizes = Constant(50_000)
	cfg.Duration = 500 * rotor.Millisecond
	cfg.Incast = &Incast{Senders: 4, Bytes: 10_000, Rate: 100}
	flows := gen(t, cfg, 8)
	checkStream(t, cfg, flows)
	var bg, inc float64
	for _, f := range flows {
		if f.Query == 0 {
			bg += float64(f.Bytes)
		} else {
			inc += float64(f.Bytes)
		}
	}
	secs := 0.5
	if got := bg * 8 / (float64(cfg.HostRate) * secs * 32); math.Abs(got/cfg.Load-1) > 0.03 {
		t.Errorf("background load %.4f, want %.2f", got, cfg.Load)
	}
	if got, want := inc, 100*32*secs*4*10_000; math.Abs(got/want-1) > 0.1 {
		t.Errorf("incast bytes %.0f, want %.0f", got, want)
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"hosts", func(c *Config) { c.Hosts = 1 }, "workload.hosts: must be at least 2, got 1"},
		{"hpt zero", func(c *Config) { c.HostsPerTor = 0 }, "workload.hosts_per_tor: must be at least 1"},
		{"hpt divides", func(c *Config) { c.HostsPerTor = 5 }, "workload.hosts_per_tor: 5 does not divide hosts 32"},
		{"rate", func(c *Config) { c.HostRate = 0 }, "workload.host_rate: must be positive"},
		{"load high", func(c *Config) { c.Load = 1.5 }, "workload.load: must be in (0,1], got 1.5"},
		{"load zero", func(c *Config) { c.Load = 0 }, "workload.load: must be in (0,1], got 0"},
		{"load NaN", func(c *Config) { c.Load = math.NaN() }, "workload.load: must be in (0,1], got NaN"},
		{"load neg incast", func(c *Config) { c.Load = -1; c.Incast = &Incast{Senders: 1, Bytes: 1, Rate: 1} }, "workload.load: must be in [0,1], got -1"},
		{"sizes", func(c *Config) { c.Sizes = nil }, "workload.sizes: is not set"},
		{"sizes zero", func(c *Config) { c.Sizes = Constant(0) }, "workload.sizes: mean flow size must be at least 1 byte"},
		{"pattern", func(c *Config) { c.Pattern = "shuffle" }, `workload.pattern: unknown pattern "shuffle"`},
		{"one tor", func(c *Config) { c.HostsPerTor = 32 }, "workload.pattern: all-to-all needs at least 2 ToRs"},
		{"ring one tor", func(c *Config) { c.HostsPerTor = 32; c.Pattern = "ring" }, "workload.pattern: ring needs at least 2 ToRs"},
		{"matrix missing", func(c *Config) { c.Pattern = "matrix" }, "workload.matrix: has 0 rows, want one per ToR (8)"},
		{"matrix row", func(c *Config) { c.Pattern = "matrix"; c.Matrix = demand.New(8); c.Matrix[2] = c.Matrix[2][:3] }, "workload.matrix: row 2 has 3 entries, want 8"},
		{"matrix negative", func(c *Config) { c.Pattern = "matrix"; c.Matrix = demand.New(8); c.Matrix[1][2] = -1 }, "workload.matrix: entry [1][2] = -1"},
		{"matrix NaN", func(c *Config) { c.Pattern = "matrix"; c.Matrix = demand.New(8); c.Matrix[1][2] = math.NaN() }, "workload.matrix: entry [1][2] = NaN"},
		{"matrix zero", func(c *Config) { c.Pattern = "matrix"; c.Matrix = demand.New(8); c.Matrix[3][3] = 5 }, "workload.matrix: has no positive off-diagonal entry"},
		{"start", func(c *Config) { c.Start = -1 }, "workload.start: must not be negative"},
		{"duration", func(c *Config) { c.Duration = 0 }, "workload.duration: must be positive"},
		{"overflow", func(c *Config) { c.Start = math.MaxInt64 - 5 }, "workload.duration: start + duration overflows"},
		{"incast senders", func(c *Config) { c.Incast = &Incast{Senders: 0, Bytes: 1, Rate: 1} }, "workload.incast_senders: must be at least 1"},
		{"incast too many", func(c *Config) { c.Incast = &Incast{Senders: 29, Bytes: 1, Rate: 1} }, "workload.incast_senders: 29 exceeds the 28 hosts on other ToRs"},
		{"incast bytes", func(c *Config) { c.Incast = &Incast{Senders: 2, Bytes: 0, Rate: 1} }, "workload.incast_bytes: must be at least 1"},
		{"incast bytes beyond 1 TB", func(c *Config) { c.Incast = &Incast{Senders: 2, Bytes: MaxFlowBytes + 1, Rate: 1} }, "workload.incast_bytes: 1000000000001 exceeds the limit"},
		{"constant size beyond 1 TB", func(c *Config) { c.Sizes = Constant(math.MaxInt64) }, "workload.sizes: largest flow size 9.223e+18 bytes exceeds the limit"},
		{"incast rate", func(c *Config) { c.Incast = &Incast{Senders: 2, Bytes: 1, Rate: math.Inf(1)} }, "workload.incast_rate: must be a positive number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := baseConfig(t)
			tc.edit(&cfg)
			_, err := NewGenerator(cfg, rand.New(rand.NewPCG(1, 1)))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("err = %v, want prefix %q", err, tc.want)
			}
		})
	}
	if _, err := NewGenerator(baseConfig(t), nil); err == nil {
		t.Fatal("nil rng: no error")
	}
}

func TestNextDoesNotAllocate(t *testing.T) {
	cfg := baseConfig(t)
	cfg.Incast = &Incast{Senders: 8, Bytes: 20_000, Rate: 100}
	g, err := NewGenerator(cfg, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(10000, func() { g.Next() }); n != 0 {
		t.Fatalf("Next allocates %v times per call", n)
	}
}

// BenchmarkGenerator streams websearch flows over 1024 hosts with incast on
// top; flows/s is the throughput of Next.
func BenchmarkGenerator(b *testing.B) {
	cfg := Config{
		Hosts: 1024, HostsPerTor: 16, HostRate: 100 * rotor.Gbps, Load: 0.5,
		Sizes: mustSizes(b, "websearch"), Pattern: "all-to-all",
		Duration: 1000 * rotor.Second,
		Incast:   &Incast{Senders: 16, Bytes: 50_000, Rate: 2},
	}
	g, err := NewGenerator(cfg, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok := g.Next(); !ok {
			b.Fatal("generator ran dry")
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "flows/s")
}

// torMap is the destination ToR of each source ToR in flows (−1: none
// seen); it fails the test if a ToR sends to two ToRs.
func torMap(t *testing.T, flows []Flow, hpt, tors int) []int {
	t.Helper()
	m := make([]int, tors)
	for i := range m {
		m[i] = -1
	}
	for _, f := range flows {
		st, dt := f.Src/hpt, f.Dst/hpt
		if m[st] >= 0 && m[st] != dt {
			t.Fatalf("ToR %d sends to ToRs %d and %d", st, m[st], dt)
		}
		m[st] = dt
	}
	return m
}

// TestPermutationPattern: "permutation" sends every ToR to one other ToR
// of a random derangement: a bijection with no fixed point, the same for
// the same seed, different across seeds (the papers' random permutation,
// not the fixed shift).
func TestPermutationPattern(t *testing.T) {
	const tors, hpt = 16, 4
	cfg := baseConfig(t)
	cfg.Hosts, cfg.HostsPerTor = tors*hpt, hpt
	cfg.Pattern = "permutation"
	cfg.Duration = 100 * rotor.Millisecond
	var first []int
	distinct := map[string]bool{}
	for seed := uint64(1); seed <= 6; seed++ {
		flows := gen(t, cfg, seed)
		checkStream(t, cfg, flows)
		m := torMap(t, flows, hpt, tors)
		seen := make([]bool, tors)
		for src, dst := range m {
			if dst < 0 || dst == src || seen[dst] {
				t.Fatalf("seed %d: ToR map %v is not a derangement", seed, m)
			}
			seen[dst] = true
		}
		if again := torMap(t, gen(t, cfg, seed), hpt, tors); !slices.Equal(again, m) {
			t.Errorf("seed %d: two runs draw %v and %v", seed, m, again)
		}
		if seed == 1 {
			first = m
		}
		distinct[fmt.Sprint(m)] = true
	}
	shift := make([]int, tors)
	for i := range shift {
		shift[i] = (i + tors/2) % tors
	}
	if len(distinct) < 5 || slices.Equal(first, shift) {
		t.Errorf("%d distinct maps over 6 seeds (first %v); want random derangements", len(distinct), first)
	}
}

// TestDerangementUniform: over many draws of n = 4 every one of the 9
// derangements appears about equally often (the rejection sampler is
// uniform over derangements), and none has a fixed point.
func TestDerangementUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	counts := map[string]int{}
	const draws = 9000
	for range draws {
		p := Derangement(4, rng)
		for i, v := range p {
			if i == v {
				t.Fatalf("fixed point in %v", p)
			}
		}
		counts[fmt.Sprint(p)]++
	}
	if len(counts) != 9 { // D(4) = 9
		t.Fatalf("%d distinct derangements of 4, want 9", len(counts))
	}
	for p, c := range counts { // mean 1000, sd ≈ 30
		if c < 850 || c > 1150 {
			t.Errorf("%s drawn %d times of %d, want about 1000", p, c, draws)
		}
	}
}
