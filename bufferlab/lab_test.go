package bufferlab

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/tor"
)

// labSequences is a mixed bag: random traffic of every kind and the
// adversarial constructions.
func labSequences(t *testing.T, rng *rand.Rand) []*Sequence {
	t.Helper()
	var out []*Sequence
	add := func(s *Sequence, err error) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	for k := 0; k < 20; k++ {
		n := 2 + rng.IntN(7)
		add(Bernoulli(n, 200, 0.5+0.5*rng.Float64(), rng))
		add(OnOff(n, 200, 1+10*rng.Float64(), 1+20*rng.Float64(), rng))
		add(Bursts(n, 8+rng.IntN(24), 200, 0.02+0.1*rng.Float64(), rng))
		out = append(out, randomSeq(rng, n, 50, 2*n))
	}
	for _, n := range []int{2, 4, 8} {
		add(CSAdversary(n, 16, 100))
		add(FollowLQDAdversary(n, 16, 50))
		add(DTAdversary(n, 16, 6))
	}
	return out
}

// Every policy: no packet is both sent and dropped (sent + dropped =
// arrivals), and none beats the optimum. LQD is within 1.707 of OPT and
// each drop-tail policy within its proven bound, on every sequence.
func TestLabBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for si, seq := range labSequences(t, rng) {
		for _, b := range []int64{int64(seq.N), 3 * int64(seq.N), 20} {
			rows, err := Compare(seq, b, LabPolicies, nil, nil, rng)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				if r.Transmitted > r.Opt {
					t.Errorf("seq %d B=%d: %s sent %d > OPT %d", si, b, r.Policy, r.Transmitted, r.Opt)
				}
				if r.Bound > 0 && r.Ratio > r.Bound+1e-9 {
					t.Errorf("seq %d N=%d B=%d: %s OPT/ALG = %.3f above its bound %.3f", si, seq.N, b, r.Policy, r.Ratio, r.Bound)
				}
				if r.Policy == "credence" && r.Ratio > 1.707 {
					t.Errorf("seq %d B=%d: credence with perfect predictions OPT/ALG = %.3f > 1.707", si, b, r.Ratio)
				}
			}
		}
	}
}

// Conservation: transmitted + dropped = arrivals, for every policy.
func TestLabConservation(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	seq, _ := OnOff(6, 300, 5, 8, rng)
	labels, _, _ := LQDLabels(seq, 12)
	for _, name := range LabPolicies {
		p, err := Policy(name, nil, seq.N, 12, tor.PerfectOracle{Drops: labels}, rng)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := Run(seq, 12, p)
		var drops int64
		for _, d := range r.Dropped {
			if d {
				drops++
			}
		}
		if r.Transmitted+drops != int64(seq.Packets()) {
			t.Errorf("%s: %d sent + %d dropped ≠ %d arrivals", name, r.Transmitted, drops, seq.Packets())
		}
	}
}

// Credence with perfect predictions drops exactly the packets LQD drops.
func TestCredencePerfectIsLQD(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for si, seq := range labSequences(t, rng) {
		for _, b := range []int64{int64(seq.N), 4 * int64(seq.N), 32} {
			labels, sent, err := LQDLabels(seq, b)
			if err != nil {
				t.Fatal(err)
			}
			p, _ := Policy("credence", map[string]float64{"safeguard": 0}, seq.N, b, tor.PerfectOracle{Drops: labels}, nil)
			r, _ := Run(seq, b, p)
			if !slices.Equal(r.Dropped, labels) {
				first := 0
				for first < len(labels) && labels[first] == r.Dropped[first] {
					first++
				}
				t.Errorf("seq %d N=%d B=%d: credence drops differ from LQD's from packet %d (sent %d vs %d)", si, seq.N, b, first, r.Transmitted, sent)
			}
		}
	}
}

// CS on its adversarial sequence: OPT/CS grows toward N with the rounds.
func TestCSAdversary(t *testing.T) {
	for _, n := range []int{2, 4, 8} {
		prev := 0.0
		for _, rounds := range []int{10, 100, 2000} {
			seq, _ := CSAdversary(n, 32, rounds)
			rows, err := Compare(seq, 32, []string{"cs"}, nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := rows[0].Ratio
			if r < prev {
				t.Errorf("N=%d rounds %d: ratio %.3f fell from %.3f", n, rounds, r, prev)
			}
			prev = r
		}
		if prev < 0.97*float64(n) || prev > float64(n)+1 {
			t.Errorf("N=%d: OPT/CS = %.3f after 2000 rounds, want → N = %d", n, prev, n)
		}
	}
}

// FollowLQD on the Credence paper's construction: OPT/FollowLQD → (N+1)/2.
func TestFollowLQDAdversary(t *testing.T) {
	for _, n := range []int{3, 5, 8} {
		seq, _ := FollowLQDAdversary(n, 32, 2000)
		rows, err := Compare(seq, 32, []string{"followlqd"}, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := float64(n+1) / 2
		if r := rows[0].Ratio; r < 0.95*want || r > 1.05*want {
			t.Errorf("N=%d: OPT/FollowLQD = %.3f, want ≈ (N+1)/2 = %.1f", n, r, want)
		}
	}
}

// A trace survives WriteTrace/ReadTrace; bad traces name the line.
func TestTrace(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	seq, _ := OnOff(5, 100, 4, 6, rng)
	var buf bytes.Buffer
	if err := WriteTrace(&buf, seq); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTrace(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for len(got.Slots) < len(seq.Slots) { // trailing empty slots are not written
		got.Slots = append(got.Slots, nil)
	}
	for i := range seq.Slots {
		if !slices.Equal(got.Slots[i], seq.Slots[i]) {
			t.Fatalf("slot %d: %v, want %v", i, got.Slots[i], seq.Slots[i])
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"", "line 0: empty trace"},
		{"port 3\n", "line 1: want \"ports N\" first"},
		{"ports 3\n0 3\n", "line 2: port \"3\": want 0..2"},
		{"ports 3\n5 1\n2 1\n", "line 3: slot \"2\""},
		{"ports 3\n0 1 0\n", "line 2: count \"0\""},
		{"ports 3\n0 1 2 3\n", "line 2: want \"SLOT PORT [COUNT]\""},
	} {
		_, err := ReadTrace(strings.NewReader(tc.in))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v, want prefix %q", tc.in, err, tc.want)
		}
	}
}

func FuzzReadTrace(f *testing.F) {
	f.Add("ports 2\n0 0\n0 1 3\n# comment\n4 1\n")
	f.Add("ports 1\n\n7 0 2 # end\n")
	f.Fuzz(func(t *testing.T, in string) {
		seq, err := ReadTrace(strings.NewReader(in))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if err := seq.Validate(); err != nil {
			t.Fatal(err)
		}
		if seq.Packets() > 1<<12 {
			return
		}
		opt, err := Opt(seq, 4)
		if err != nil || opt > int64(seq.Packets()) {
			t.Fatalf("OPT %d of %d packets: %v", opt, seq.Packets(), err)
		}
	})
}

// A forest trained on LQD's traces predicts LQD's drops on a new sequence
// better than always answering the majority class.
func TestTrainOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	var train []*Sequence
	for k := 0; k < 3; k++ {
		s, _ := Bursts(8, 64, 3000, 0.3*8/64, rng)
		train = append(train, s)
	}
	m, err := TrainOracle(train, 64, rng)
	if err != nil {
		t.Fatal(err)
	}
	test, _ := Bursts(8, 64, 3000, 0.3*8/64, rng)
	x, y, err := Traces([]*Sequence{test}, 64)
	if err != nil || len(x) != test.Packets() {
		t.Fatalf("%d features for %d packets: %v", len(x), test.Packets(), err)
	}
	q := m.Evaluate(x, y)
	drops := q.TP + q.FN
	majority := float64(max(drops, len(y)-drops)) / float64(len(y))
	if q.Accuracy() <= majority {
		t.Errorf("accuracy %.3f, no better than the majority class %.3f", q.Accuracy(), majority)
	}
}
