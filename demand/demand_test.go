package demand

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		m    Matrix
		want string // "" = valid
	}{
		{"ok", Matrix{{0, 1}, {2, 0}}, ""},
		{"diagonal values ok", Matrix{{0.001, 1}, {2, 5}}, ""},
		{"empty", Matrix{}, "empty matrix"},
		{"nil", nil, "empty matrix"},
		{"ragged", Matrix{{0, 1}, {2}}, "row 1 has 1 entries, want 2"},
		{"not square", Matrix{{0, 1, 2}, {2, 0, 1}}, "row 0 has 3 entries, want 2"},
		{"NaN", Matrix{{0, math.NaN()}, {2, 0}}, "demand[0][1] = NaN: not a finite number"},
		{"Inf", Matrix{{0, 1}, {math.Inf(1), 0}}, "demand[1][0] = +Inf: not a finite number"},
		{"negative", Matrix{{0, 1}, {-2, 0}}, "demand[1][0] = -2: negative demand"},
		{"negative diagonal", Matrix{{-1, 1}, {2, 0}}, "demand[0][0] = -1: negative demand"},
	}
	for _, tt := range tests {
		err := Validate(tt.m)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: Validate = %v, want nil", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: Validate = %v, want error containing %q", tt.name, err, tt.want)
		}
	}
	var ee *EntryError
	if err := Validate(Matrix{{0, -1}, {1, 0}}); !errors.As(err, &ee) || ee.Row != 0 || ee.Col != 1 || ee.Value != -1 {
		t.Errorf("Validate error %#v, want an *EntryError at [0][1]", err)
	}
}

func TestRead(t *testing.T) {
	tests := []struct {
		name, in string
		want     Matrix
	}{
		{"whitespace", "0 1 2\n3 0 4\n5 6 0\n", Matrix{{0, 1, 2}, {3, 0, 4}, {5, 6, 0}}},
		{"tabs and runs of blanks", "0\t 1.5\n  2e3   0", Matrix{{0, 1.5}, {2000, 0}}},
		{"csv", "0,1,2\n3,0,4\n5,6,0\n", Matrix{{0, 1, 2}, {3, 0, 4}, {5, 6, 0}}},
		{"csv with blanks and trailing comma", "0, 1,\n2 ,0,\n", Matrix{{0, 1}, {2, 0}}},
		{"comments and blank lines", "# a 2x2 demand\n\n0 1 # row 0\n# between\n\n2 0\n\n\n", Matrix{{0, 1}, {2, 0}}},
		{"CRLF", "0 1\r\n2 0\r\n", Matrix{{0, 1}, {2, 0}}},
		{"BOM", "\uFEFF0 1\n2 0", Matrix{{0, 1}, {2, 0}}},
		{"1x1", "7\n", Matrix{{7}}},
		{"tiny diagonal", "1e-9 1\n2 1e-12\n", Matrix{{1e-9, 1}, {2, 1e-12}}},
	}
	for _, tt := range tests {
		got, err := Read(strings.NewReader(tt.in))
		if err != nil {
			t.Errorf("%s: Read: %v", tt.name, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "", "empty input"},
		{"only comments", "# nothing\n\n", "empty input"},
		{"more columns than rows", "0 1 2\n3 0 4\n", "2 rows of 3 entries (not square)"},
		{"more rows than columns", "0 1\n2 0\n3 4\n", "line 3: row 3 of a matrix with 2 columns"},
		{"ragged", "0 1 2\n3 0\n4 5 0\n", "line 2: has 2 entries, earlier rows have 3"},
		{"NaN", "0 1\nNaN 0\n", `line 2, column 1: "NaN" is not a finite number`},
		{"Inf", "0 inf\n1 0\n", `line 1, column 2: "inf" is not a finite number`},
		{"overflow", "0 1e999\n1 0\n", `line 1, column 2: "1e999" is not a finite number`},
		{"trailing comment is fine", "0 1\n2 0\n\n# c\n", ""},
		{"negative value", "0 1 2\n3 0 -4\n5 6 0\n", `line 2, column 3: "-4" is negative`},
		{"word", "0 x\n1 0\n", `line 1, column 2: "x" is not a number`},
		{"empty csv field", "0,,1\n", "line 1, column 2: empty entry between commas"},
		{"leading comma", ",0,1\n1,0\n", "line 1, column 1: empty entry"},
	}
	for _, tt := range tests {
		m, err := Read(strings.NewReader(tt.in))
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: Read = %v, want success", tt.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: Read accepted %q: %v", tt.name, tt.in, m)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %q, want one line containing %q", tt.name, err, tt.want)
		}
	}
}

func TestWriteGolden(t *testing.T) {
	m := Matrix{{0, 1.5, 1e-7}, {2, 0, 1e21}, {1.0 / 3, 0.1, 0}}
	var text, csv bytes.Buffer
	if err := Write(&text, m); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&csv, m); err != nil {
		t.Fatal(err)
	}
	wantText := "0 1.5 1e-07\n2 0 1e+21\n0.3333333333333333 0.1 0\n"
	if diff := cmp.Diff(wantText, text.String()); diff != "" {
		t.Errorf("Write (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(strings.ReplaceAll(wantText, " ", ","), csv.String()); diff != "" {
		t.Errorf("WriteCSV (-want +got):\n%s", diff)
	}
	if err := Write(&text, Matrix{{0, math.NaN()}, {0, 0}}); err == nil {
		t.Error("Write accepted a NaN entry")
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, m); err != nil {
		t.Fatal(err)
	}
	wantJSON := `{
  "format": "rdcn.demand/v1",
  "tors": 3,
  "matrix": [
    [0,1.5,1e-07],
    [2,0,1e+21],
    [0.3333333333333333,0.1,0]
  ]
}
`
	if diff := cmp.Diff(wantJSON, js.String()); diff != "" {
		t.Errorf("WriteJSON (-want +got):\n%s", diff)
	}
	js.Reset()
	if err := WriteJSON(&js, Matrix{{0, math.Inf(1)}, {0, 0}}); err == nil || js.Len() != 0 {
		t.Errorf("WriteJSON accepted an Inf entry (err %v, wrote %d bytes)", err, js.Len())
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for range 50 {
		n := 1 + rng.IntN(12)
		m := New(n)
		for i := range m {
			for j := range m[i] {
				switch rng.IntN(4) {
				case 0:
				case 1:
					m[i][j] = rng.ExpFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
				default:
					m[i][j] = float64(rng.IntN(100))
				}
			}
		}
		for _, write := range []func(*bytes.Buffer, Matrix) error{
			func(b *bytes.Buffer, m Matrix) error { return Write(b, m) },
			func(b *bytes.Buffer, m Matrix) error { return WriteCSV(b, m) },
		} {
			var buf bytes.Buffer
			if err := write(&buf, m); err != nil {
				t.Fatal(err)
			}
			got, err := Read(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(m, got); diff != "" {
				t.Fatalf("round trip (-want +got):\n%s", diff)
			}
		}
		// JSON is an export: encoding/json reads it back exactly.
		var buf bytes.Buffer
		if err := WriteJSON(&buf, m); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Format string
			Tors   int
			Matrix Matrix
		}
		dec := json.NewDecoder(&buf)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&doc); err != nil {
			t.Fatalf("WriteJSON output is not JSON: %v", err)
		}
		if doc.Format != JSONFormat || doc.Tors != n {
			t.Errorf("JSON format %q, tors %d; want %q, %d", doc.Format, doc.Tors, JSONFormat, n)
		}
		if diff := cmp.Diff(m, doc.Matrix); diff != "" {
			t.Fatalf("JSON round trip (-want +got):\n%s", diff)
		}
	}
}

// isPermutationMatrix reports whether m has exactly one 1 in every row and
// column (off the diagonal) and zeros elsewhere.
func isPermutationMatrix(m Matrix) bool {
	n := m.N()
	colOnes := make([]int, n)
	for i, row := range m {
		ones := 0
		for j, v := range row {
			switch {
			case v == 1 && i != j:
				ones++
				colOnes[j]++
			case v != 0:
				return false
			}
		}
		if ones != 1 {
			return false
		}
	}
	for _, c := range colOnes {
		if c != 1 {
			return false
		}
	}
	return true
}

func TestGenerators(t *testing.T) {
	if diff := cmp.Diff(Matrix{{0, 1, 1}, {1, 0, 1}, {1, 1, 0}}, Uniform(3)); diff != "" {
		t.Errorf("Uniform(3) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Matrix{{0, 0, 1, 0}, {0, 0, 0, 1}, {1, 0, 0, 0}, {0, 1, 0, 0}}, Permutation(4)); diff != "" {
		t.Errorf("Permutation(4) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Matrix{{0, 1, 0}, {0, 0, 1}, {1, 0, 0}}, Ring(3)); diff != "" {
		t.Errorf("Ring(3) (-want +got):\n%s", diff)
	}
	third := 1.0 / 3
	wantChess := Matrix{
		{0, 0.5 * third, 1.5 * third, 0.5 * third},
		{0.5 * third, 0, 0.5 * third, 1.5 * third},
		{1.5 * third, 0.5 * third, 0, 0.5 * third},
		{0.5 * third, 1.5 * third, 0.5 * third, 0},
	}
	if diff := cmp.Diff(wantChess, Chessboard(4), cmpopts.EquateApprox(0, 1e-15)); diff != "" {
		t.Errorf("Chessboard(4) (-want +got):\n%s", diff)
	}
	for _, n := range []int{2, 3, 8, 9, 16, 33} {
		if !isPermutationMatrix(Permutation(n)) || !isPermutationMatrix(Ring(n)) {
			t.Errorf("n=%d: Permutation or Ring is not a permutation matrix", n)
		}
		if Permutation(n)[0][n/2] != 1 || Ring(n)[n-1][0] != 1 {
			t.Errorf("n=%d: Permutation must map 0→n/2 and Ring n−1→0", n)
		}
		for _, alpha := range []float64{0, 0.1, 0.5, 1} {
			for name, m := range map[string]Matrix{"Skew": Skew(n, alpha), "SkewRing": SkewRing(n, alpha)} {
				if err := Validate(m); err != nil {
					t.Fatalf("%s(%d, %v): %v", name, n, alpha, err)
				}
				// Hose-saturated: every row and column sums to 1.
				for i := range n {
					if math.Abs(m.RowSum(i)-1) > 1e-12 || math.Abs(m.ColSum(i)-1) > 1e-12 {
						t.Fatalf("%s(%d, %v): row/col %d sums %v/%v, want 1", name, n, alpha, i, m.RowSum(i), m.ColSum(i))
					}
				}
			}
			// Entry by entry: the permutation pair gets α + (1−α)/(n−1).
			s := Skew(n, alpha)
			if want := alpha + (1-alpha)/float64(n-1); math.Abs(s[1][(1+n/2)%n]-want) > 1e-15 {
				t.Errorf("Skew(%d, %v)[1][%d] = %v, want %v", n, alpha, (1+n/2)%n, s[1][(1+n/2)%n], want)
			}
		}
		if diff := cmp.Diff(Permutation(n), Skew(n, 1)); diff != "" {
			t.Errorf("Skew(%d, 1) is not the permutation", n)
		}
		if diff := cmp.Diff(Ring(n), SkewRing(n, 0)); diff != "" {
			t.Errorf("SkewRing(%d, 0) is not the ring", n)
		}
	}
	// Degenerate sizes do not panic.
	for _, n := range []int{-1, 0, 1} {
		for _, m := range []Matrix{Uniform(n), Permutation(n), Ring(n), Chessboard(n), Skew(n, 0.5)} {
			if m.Total() != 0 {
				t.Errorf("n=%d: a generator sent traffic: %v", n, m)
			}
		}
	}
}

func TestRandom(t *testing.T) {
	a := Random(10, rand.New(rand.NewPCG(1, 0)))
	b := Random(10, rand.New(rand.NewPCG(1, 0)))
	c := Random(10, rand.New(rand.NewPCG(2, 0)))
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("same seed, different matrices:\n%s", diff)
	}
	if cmp.Equal(a, c) {
		t.Error("different seeds gave the same matrix")
	}
	for i := range a {
		for j, v := range a[i] {
			if (i == j) != (v == 0) || v < 0 || v >= 1 {
				t.Errorf("Random[%d][%d] = %v, want 0 on the diagonal and in (0,1) elsewhere", i, j, v)
			}
		}
	}
}

func TestParse(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "m.txt")
	if err := os.WriteFile(file, []byte("0 1 2\n3 0 4\n5 6 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("0 1\n2 x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		spec string
		n    int
		want Matrix
	}{
		{"uniform", 4, Uniform(4)},
		{"permutation", 6, Permutation(6)},
		{"ring", 5, Ring(5)},
		{"chessboard", 8, Chessboard(8)},
		{"skew:0.5", 8, Skew(8, 0.5)},
		{"skew:0", 8, Skew(8, 0)},
		{"skewring:0.25", 8, SkewRing(8, 0.25)},
		{"random:7", 6, Random(6, rand.New(rand.NewPCG(7, 0)))},
		{file, 3, Matrix{{0, 1, 2}, {3, 0, 4}, {5, 6, 0}}},
		{file, 0, Matrix{{0, 1, 2}, {3, 0, 4}, {5, 6, 0}}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.spec, tt.n)
		if err != nil {
			t.Errorf("Parse(%q, %d): %v", tt.spec, tt.n, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Parse(%q, %d) (-want +got):\n%s", tt.spec, tt.n, diff)
		}
	}
	errs := []struct {
		spec string
		n    int
		want string
	}{
		{"skew:1.5", 8, `skew "1.5" must be a number in [0, 1]`},
		{"skew:NaN", 8, "must be a number in [0, 1]"},
		{"skew", 8, "needs an argument: skew:ALPHA"},
		{"random", 8, "random:SEED"},
		{"random:-1", 8, "seed"},
		{"uniform:3", 8, "takes no argument"},
		{"uniform", 1, "needs at least 2 nodes"},
		{"unifrom", 8, `"unifrom": neither a pattern`},
		{file, 4, "matrix has 3 nodes, want 4"},
		{bad, 0, `line 2, column 2: "x" is not a number`},
		{dir, 0, "is a directory"},
	}
	for _, tt := range errs {
		_, err := Parse(tt.spec, tt.n)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q, %d) = %v, want error containing %q", tt.spec, tt.n, err, tt.want)
		}
	}
	if _, err := Parse("worst", 8); !errors.Is(err, ErrNeedsSchedule) {
		t.Errorf("Parse(worst) = %v, want ErrNeedsSchedule", err)
	}
}

func TestHoseNormalize(t *testing.T) {
	m := Matrix{{9, 1, 2}, {3, 0, 4}, {0, 0, 5}} // row sums 3, 7, 0; col sums 3, 1, 6
	got, err := HoseNormalize(m, 14)
	if err != nil {
		t.Fatal(err)
	}
	want := Matrix{{0, 2, 4}, {6, 0, 8}, {0, 0, 0}} // ×14/7, diagonal dropped
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if m[0][0] != 9 {
		t.Error("HoseNormalize modified its input")
	}
	// Column-bound case: the largest column sum decides.
	got, _ = HoseNormalize(Matrix{{0, 0, 4}, {0, 0, 4}, {1, 0, 0}}, 1)
	if math.Abs(got.MaxLineSum()-1) > 1e-15 || math.Abs(got.ColSum(2)-1) > 1e-15 {
		t.Errorf("column-bound: max line sum %v, column 2 sum %v, want 1", got.MaxLineSum(), got.ColSum(2))
	}
	for _, tt := range []struct {
		m    Matrix
		cap  float64
		want string
	}{
		{Matrix{{5, 0}, {0, 5}}, 1, "all-zero"},
		{Matrix{{0, 1}, {1, 0}}, 0, "node capacity 0"},
		{Matrix{{0, 1}, {1, 0}}, math.NaN(), "node capacity NaN"},
		{Matrix{{0, 1}, {-1, 0}}, 1, "negative demand"},
	} {
		if _, err := HoseNormalize(tt.m, tt.cap); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("HoseNormalize(%v, %v) = %v, want error containing %q", tt.m, tt.cap, err, tt.want)
		}
	}
}

// TestSinkhornRecoversScaling: the Sinkhorn–Knopp limit of D1·S·D2 (S
// doubly stochastic, D1 and D2 positive diagonal) is S itself, which makes
// an independent check.
func TestSinkhornRecoversScaling(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, n := range []int{2, 3, 5, 8, 20} {
		// S: a random convex combination of derangement-like permutations
		// i → i+k (k = 1..n−1), so its diagonal is 0.
		s := New(n)
		weights := make([]float64, n-1)
		var total float64
		for k := range weights {
			weights[k] = rng.Float64() + 0.01
			total += weights[k]
		}
		for k, w := range weights {
			for i := range n {
				s[i][(i+k+1)%n] += w / total
			}
		}
		a := New(n)
		d1, d2 := make([]float64, n), make([]float64, n)
		for i := range n {
			d1[i], d2[i] = math.Exp(rng.NormFloat64()), math.Exp(rng.NormFloat64())
		}
		for i := range n {
			for j := range n {
				a[i][j] = d1[i] * s[i][j] * d2[j]
			}
		}
		a[0][0] = 42 // the diagonal is ignored
		got, err := Sinkhorn(a, 1e-12, 10000)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		for i := range n {
			if math.Abs(got.RowSum(i)-1) > 1e-12 || math.Abs(got.ColSum(i)-1) > 1e-12 {
				t.Fatalf("n=%d: row/col %d sums %v/%v", n, i, got.RowSum(i), got.ColSum(i))
			}
		}
		if diff := cmp.Diff(s, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
			t.Errorf("n=%d: Sinkhorn(D1·S·D2) != S (-want +got):\n%s", n, diff)
		}
	}
}

func TestSinkhornErrors(t *testing.T) {
	tests := []struct {
		name string
		m    Matrix
		want string
	}{
		{"zero row", Matrix{{0, 1, 1}, {0, 5, 0}, {1, 1, 0}}, "row 1 is zero"},
		{"zero column", Matrix{{0, 1, 0}, {1, 0, 0}, {1, 1, 0}}, "column 2 is zero"},
		// Rows 1 and 2 both send only to node 0: no doubly stochastic
		// matrix has this zero pattern.
		{"no doubly stochastic pattern", Matrix{{0, 1, 1}, {1, 0, 0}, {1, 0, 0}}, "did not converge"},
		{"invalid", Matrix{{0, math.NaN()}, {1, 0}}, "not a finite number"},
	}
	for _, tt := range tests {
		if _, err := Sinkhorn(tt.m, 1e-9, 1000); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Sinkhorn = %v, want error containing %q", tt.name, err, tt.want)
		}
	}
	if _, err := Sinkhorn(Uniform(3), 0, 10); err == nil {
		t.Error("Sinkhorn accepted tol 0")
	}
	if _, err := Sinkhorn(Uniform(3), 1e-9, 0); err == nil {
		t.Error("Sinkhorn accepted maxIter 0")
	}
}

func TestAddNoise(t *testing.T) {
	m := Skew(8, 0.3)
	for _, kind := range []NoiseKind{Additive, Multiplicative} {
		same, err := AddNoise(m, kind, 0, rand.New(rand.NewPCG(1, 1)))
		if err != nil || !cmp.Equal(m, same) {
			t.Errorf("%s δ=0: got %v, %v; want an exact copy", kind, same, err)
		}
		a, _ := AddNoise(m, kind, 3, rand.New(rand.NewPCG(1, 1)))
		b, _ := AddNoise(m, kind, 3, rand.New(rand.NewPCG(1, 1)))
		if !cmp.Equal(a, b) {
			t.Errorf("%s: same seed, different noise", kind)
		}
		if cmp.Equal(a, m) {
			t.Errorf("%s δ=3: no noise added", kind)
		}
		if err := Validate(a); err != nil {
			t.Errorf("%s: noisy matrix invalid: %v", kind, err)
		}
	}
	// Multiplicative noise keeps zeros zero and factors in [0.1, 2].
	sparse := Permutation(16)
	noisy, err := AddNoise(sparse, Multiplicative, 10, rand.New(rand.NewPCG(2, 2)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range noisy {
		for j, v := range noisy[i] {
			if sparse[i][j] == 0 && v != 0 || sparse[i][j] == 1 && (v < MinNoiseFactor || v > MaxNoiseFactor) {
				t.Errorf("multiplicative: [%d][%d] %v → %v", i, j, sparse[i][j], v)
			}
		}
	}
	// Additive noise fills zeros but never goes negative.
	noisy, _ = AddNoise(sparse, Additive, 10, rand.New(rand.NewPCG(3, 3)))
	filled := 0
	for i := range noisy {
		for j, v := range noisy[i] {
			if v < 0 || i == j && v != 0 {
				t.Errorf("additive: [%d][%d] = %v", i, j, v)
			}
			if sparse[i][j] == 0 && v > 0 {
				filled++
			}
		}
	}
	if filled == 0 {
		t.Error("additive noise left the zero pattern intact")
	}
	for _, tt := range []struct {
		kind  NoiseKind
		delta float64
		rng   *rand.Rand
		want  string
	}{
		{"gaussian", 1, rand.New(rand.NewPCG(1, 1)), `noise kind "gaussian"`},
		{Additive, -1, rand.New(rand.NewPCG(1, 1)), "noise factor -1"},
		{Additive, math.NaN(), rand.New(rand.NewPCG(1, 1)), "noise factor NaN"},
		{Additive, 1, nil, "nil"},
	} {
		if _, err := AddNoise(m, tt.kind, tt.delta, tt.rng); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("AddNoise(%q, %v) = %v, want error containing %q", tt.kind, tt.delta, err, tt.want)
		}
	}
}

// TestAddNoiseDistribution checks the noise against the definition with an
// independent stream of the same seed, and its moments.
func TestAddNoiseDistribution(t *testing.T) {
	n := 150
	m := Uniform(n)
	m[0][1] = 4 // the largest entry sets the additive scale: σ = δ/10 · 4
	const delta = 1.0
	noisy, err := AddNoise(m, Additive, delta, rand.New(rand.NewPCG(4, 4)))
	if err != nil {
		t.Fatal(err)
	}
	ref := rand.New(rand.NewPCG(4, 4))
	var sum, sumSq float64
	count := 0
	for i := range n {
		for j := range n {
			if i == j {
				continue
			}
			z := ref.NormFloat64()
			if want := max(0, m[i][j]+delta/10*4*z); noisy[i][j] != want {
				t.Fatalf("additive [%d][%d] = %v, want %v from the reference stream", i, j, noisy[i][j], want)
			}
			if m[i][j] == 1 {
				d := noisy[i][j] - 1
				sum, sumSq, count = sum+d, sumSq+d*d, count+1
			}
		}
	}
	mean, sd := sum/float64(count), math.Sqrt(sumSq/float64(count))
	if math.Abs(mean) > 0.01 || math.Abs(sd-0.4) > 0.01 {
		t.Errorf("additive noise mean %v sd %v, want 0 and 0.4", mean, sd)
	}

	noisy, _ = AddNoise(m, Multiplicative, 2, rand.New(rand.NewPCG(5, 5)))
	ref = rand.New(rand.NewPCG(5, 5))
	sum, sumSq, count = 0, 0, 0
	for i := range n {
		for j := range n {
			if i == j {
				continue
			}
			f := min(2, max(0.1, 1+0.2*ref.NormFloat64()))
			if want := m[i][j] * f; noisy[i][j] != want {
				t.Fatalf("multiplicative [%d][%d] = %v, want %v", i, j, noisy[i][j], want)
			}
			d := f - 1
			sum, sumSq, count = sum+d, sumSq+d*d, count+1
		}
	}
	mean, sd = sum/float64(count), math.Sqrt(sumSq/float64(count))
	if math.Abs(mean) > 0.005 || math.Abs(sd-0.2) > 0.005 {
		t.Errorf("multiplicative factor mean %v sd %v, want 1 and 0.2", 1+mean, sd)
	}
}

func TestParseNoiseKind(t *testing.T) {
	for _, s := range []string{"additive", "multiplicative"} {
		if k, err := ParseNoiseKind(s); err != nil || string(k) != s {
			t.Errorf("ParseNoiseKind(%q) = %q, %v", s, k, err)
		}
	}
	if _, err := ParseNoiseKind("Additive "); err == nil {
		t.Error("ParseNoiseKind accepted a misspelling")
	}
}

func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"0 1\n2 0\n", "0,1,2\n3,0,4\n5,6,0\n", "# c\n\n0 1 # x\n2 0\n\n", "0 NaN\n1 0", "0 -1\n1 0",
		"0,,1\n", "1e999 0\n0 0", "\uFEFF7", "0 1 2\n3 0\n", "0x1p3 1\n1 0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := Read(strings.NewReader(s))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if err := Validate(m); err != nil {
			t.Fatalf("Read accepted an invalid matrix: %v", err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, m); err != nil {
			t.Fatal(err)
		}
		again, err := Read(&buf)
		if err != nil {
			t.Fatalf("cannot re-read %q: %v", buf.String(), err)
		}
		if !cmp.Equal(m, again) {
			t.Fatalf("re-read differs: %v vs %v", m, again)
		}
	})
}

func BenchmarkAddNoise(b *testing.B) {
	m := Uniform(256)
	rng := rand.New(rand.NewPCG(1, 1))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AddNoise(m, Multiplicative, 5, rng); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead(b *testing.B) {
	var buf bytes.Buffer
	if err := Write(&buf, Random(256, rand.New(rand.NewPCG(1, 1)))); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAddNoiseOverflow: noise that pushes an entry past the largest
// float64 is an *EntryError naming the entry of the input (it used to
// return +Inf, caught only by the writer), and an additive standard
// deviation that overflows is an error about δ.
func TestAddNoiseOverflow(t *testing.T) {
	m := Matrix{{0, math.MaxFloat64}, {1, 0}}
	for _, kind := range []NoiseKind{Additive, Multiplicative} {
		// Some seed must push the entry up; try a few.
		var err error
		for seed := uint64(0); seed < 20 && err == nil; seed++ {
			var out Matrix
			out, err = AddNoise(m, kind, 2, rand.New(rand.NewPCG(seed, 1)))
			if err == nil {
				if verr := Validate(out); verr != nil {
					t.Fatalf("%s: AddNoise returned an invalid matrix: %v", kind, verr)
				}
			}
		}
		var ee *EntryError
		if !errors.As(err, &ee) || ee.Row != 0 || ee.Col != 1 || ee.Value != math.MaxFloat64 {
			t.Errorf("%s: err %v, want an *EntryError for [0][1]", kind, err)
		}
	}
	_, err := AddNoise(Matrix{{0, 1e300}, {1, 0}}, Additive, 1e10, rand.New(rand.NewPCG(1, 1)))
	var ee *EntryError
	if err == nil || errors.As(err, &ee) || !strings.Contains(err.Error(), "noise factor") {
		t.Errorf("σ overflow: err %v, want a noise-factor error", err)
	}
}
