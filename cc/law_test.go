package cc

import (
	"flag"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

var testEnv = Env{MSS: 1000, HostRate: 25 * rotor.Gbps, BaseRTT: 24 * rotor.Microsecond, Window: 10_000}

// TestRegistryDefaults: every law builds from its defaults and starts with
// a usable window or rate.
func TestRegistryDefaults(t *testing.T) {
	want := []string{"aimd", "cubic", "dcqcn", "dctcp", "fixed", "hpcc", "newreno", "none", "powertcp", "retcp", "theta-powertcp", "timely"} // aimd: example_register_test.go
	if got := strings.Join(Names(), " "); got != strings.Join(want, " ") {
		t.Fatalf("laws %q, want %q", got, strings.Join(want, " "))
	}
	for _, s := range Laws() {
		l, err := New(s.Name, testEnv, nil)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if l.Window() <= 0 && l.Rate() <= 0 {
			t.Errorf("%s: starts with window %d and rate %v", s.Name, l.Window(), l.Rate())
		}
		if s.Doc == "" {
			t.Errorf("%s: no doc line", s.Name)
		}
		for _, p := range s.Params {
			if p.Doc == "" {
				t.Errorf("%s.%s: no doc", s.Name, p.Key)
			}
		}
	}
}

// TestRegistryRefusals: bad names, keys and values are refused with an
// error that names the key.
func TestRegistryRefusals(t *testing.T) {
	for _, c := range []struct {
		law    string
		env    Env
		params map[string]string
		want   string
	}{
		{"dctpc", testEnv, nil, `unknown congestion control "dctpc"`},
		{"dctcp", testEnv, map[string]string{"gamma": "0.9"}, `unknown parameter "gamma"`},
		{"powertcp", testEnv, map[string]string{"gamma": "0"}, "gamma"},
		{"powertcp", testEnv, map[string]string{"gamma": "1.5"}, "gamma"},
		{"powertcp", testEnv, map[string]string{"gamma": "NaN"}, "gamma"},
		{"theta-powertcp", testEnv, map[string]string{"gamma": "-0.1"}, "gamma"},
		{"powertcp", testEnv, map[string]string{"mode": "per-packet"}, "mode"},
		{"powertcp", testEnv, map[string]string{"tau": "-5us"}, "tau"},
		{"powertcp", Env{MSS: 1000, HostRate: rotor.Gbps}, nil, "tau"},
		{"hpcc", testEnv, map[string]string{"eta": "1.2"}, "eta"},
		{"hpcc", testEnv, map[string]string{"max_stage": "2.5"}, "max_stage"},
		{"hpcc", testEnv, map[string]string{"mode": "per-ack"}, "mode"},
		{"dctcp", testEnv, map[string]string{"g": "0"}, "g"},
		{"retcp", testEnv, map[string]string{"jump_up": "0.5"}, "jump_up"},
		{"cubic", testEnv, map[string]string{"fast_convergence": "yes please"}, "fast_convergence"},
		{"newreno", testEnv, map[string]string{"init_window": "0pkt"}, "init_window"},
		{"newreno", Env{HostRate: rotor.Gbps}, nil, "mss"},
	} {
		_, err := New(c.law, c.env, c.params)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %v: error %v, want one line naming %q", c.law, c.params, err, c.want)
		}
	}
	// A law that reads no τ does not need one.
	if _, err := New("newreno", Env{MSS: 1000, HostRate: rotor.Gbps}, nil); err != nil {
		t.Errorf("newreno without a base RTT: %v", err)
	}
}

// ackStream feeds a law one MSS-sized ACK per call with a fixed number of
// segments outstanding after it.
type ackStream struct {
	law         Law
	mss, cum    int64
	outstanding int64 // segments still in flight when the ACK arrives
	now         rotor.Time
}

// next makes the next ACK without delivering it.
func (s *ackStream) next(ece bool) *Feedback {
	s.cum += s.mss
	s.now += rotor.Microsecond
	return &Feedback{Now: s.now, Acked: s.mss, Cum: s.cum, SndNxt: s.cum + s.outstanding*s.mss, RTT: 20 * rotor.Microsecond, ECE: ece}
}

func (s *ackStream) ack(ece bool) {
	s.law.OnAck(s.next(ece))
}

// TestReTCPJump: reTCP's window is exactly twice NewReno's on the first
// ACK with ECE, is not doubled again while ECE stays set, and is halved on
// the first ACK without it (a NewReno twin started from the same state
// supplies the Reno part of each step).
func TestReTCPJump(t *testing.T) {
	l, _ := New("retcp", testEnv, nil)
	r := l.(*ReTCP)
	s := &ackStream{law: r, mss: 1000, outstanding: 10}
	for range 30 {
		s.ack(false)
	}
	step := func(ece bool) (got, reno float64) {
		twin := &NewReno{r.reno}
		f := s.next(ece)
		twin.OnAck(f)
		r.OnAck(f)
		return r.cwnd, twin.cwnd
	}
	if got, reno := step(true); got != 2*reno {
		t.Fatalf("first ACK with ECE: window %.1f, want 2 × %.1f", got, reno)
	}
	for range 5 {
		if got, reno := step(true); got != reno {
			t.Fatalf("further ACK with ECE: window %.1f, want Reno's %.1f", got, reno)
		}
	}
	if got, reno := step(false); got != reno/2 {
		t.Fatalf("first ACK without ECE: window %.1f, want %.1f / 2", got, reno)
	}
	if got, reno := step(false); got != reno {
		t.Fatalf("further ACK without ECE: window %.1f, want Reno's %.1f", got, reno)
	}
}

// TestReTCPNotice: with signal = notice the circuit state comes from
// OnCircuit, ECE is ignored, and the jumps happen on the next ACK.
func TestReTCPNotice(t *testing.T) {
	l, _ := New("retcp", testEnv, map[string]string{"signal": "notice"})
	r := l.(*ReTCP)
	s := &ackStream{law: r, mss: 1000, outstanding: 10}
	s.ack(true) // ECE alone does nothing
	w := r.cwnd
	r.OnCircuit(0, true)
	if r.cwnd != w {
		t.Fatal("the notice itself moved the window")
	}
	twin := &NewReno{r.reno}
	f := s.next(false)
	twin.OnAck(f)
	r.OnAck(f)
	if r.cwnd != 2*twin.cwnd {
		t.Fatalf("first ACK after circuit up: %.1f, want 2 × %.1f", r.cwnd, twin.cwnd)
	}
	r.OnCircuit(0, false)
	twin = &NewReno{r.reno}
	f = s.next(true)
	twin.OnAck(f)
	r.OnAck(f)
	if r.cwnd != twin.cwnd/2 {
		t.Fatalf("first ACK after circuit down: %.1f, want %.1f / 2", r.cwnd, twin.cwnd)
	}
}

// TestDCTCPAlpha: under a fixed marking pattern (3 of every 10 ACKs) with
// 10 segments per window, every window's marked fraction is exactly 0.3,
// so α_n = p + (α_1 − p)(1 − g)^(n−1) and α converges to p.
func TestDCTCPAlpha(t *testing.T) {
	const p, g = 0.3, 1.0 / 16
	l, _ := New("dctcp", testEnv, nil)
	d := l.(*DCTCP)
	s := &ackStream{law: d, mss: 1000, outstanding: 9}
	s.ack(true) // ack 1 closes the first (one-ACK) window: α_1 = 1−g+g = 1
	a1 := d.Alpha
	for k := 2; k <= 2001; k++ {
		s.ack((k-2)%10 < 3)
		if (k-1)%10 == 0 {
			n := (k - 1) / 10
			want := p + (a1-p)*math.Pow(1-g, float64(n))
			if math.Abs(d.Alpha-want) > 1e-12 {
				t.Fatalf("after window %d: α = %.15f, want %.15f", n, d.Alpha, want)
			}
		}
	}
	if math.Abs(d.Alpha-p) > 1e-5 {
		t.Errorf("α = %.6f after 200 windows, want %.1f", d.Alpha, p)
	}
}

// TestDCTCPCut: an ECE cuts the window by α/2, once per window of data.
func TestDCTCPCut(t *testing.T) {
	l, _ := New("dctcp", testEnv, map[string]string{"init_window": "40pkt", "alpha_init": "0.5"})
	d := l.(*DCTCP)
	s := &ackStream{law: d, mss: 1000, outstanding: 39}
	w0 := d.cwnd
	s.ack(true) // first ACK closes the one-ACK window: α = 15/16·0.5 + 1/16
	alpha := d.Alpha
	if want := w0 * (1 - alpha/2); d.cwnd != want {
		t.Fatalf("after ECE: window %.1f, want %.1f·(1 − %.4f/2) = %.1f", d.cwnd, w0, alpha, want)
	}
	w1 := d.cwnd
	for range 38 {
		s.ack(true)
	}
	if d.cwnd != w1 {
		t.Fatalf("ECEs within the same window moved it from %.1f to %.1f", w1, d.cwnd)
	}
	s.ack(true)
	s.ack(true) // past the recovery point: a new cut
	if d.cwnd >= w1 {
		t.Fatalf("ECE in the next window: window %.1f, want < %.1f", d.cwnd, w1)
	}
}

// TestNewRenoAIMD: in congestion avoidance one window of ACKs adds one
// MSS (within the rounding of per-ACK growth); a loss sets the window to
// half the FlightSize (RFC 5681 eq. 4: 19 segments outstanding after the
// last ACK) once per window of data; a timeout drops it to one MSS.
func TestNewRenoAIMD(t *testing.T) {
	l, _ := New("newreno", testEnv, map[string]string{"init_window": "20pkt"})
	n := l.(*NewReno)
	n.ssthresh = n.cwnd // congestion avoidance from the start
	s := &ackStream{law: n, mss: 1000, outstanding: 19}
	w := n.cwnd
	for range 20 {
		s.ack(false)
	}
	if inc := n.cwnd - w; inc < 950 || inc > 1000 {
		t.Fatalf("a window of ACKs added %.1f B, want about one MSS", inc)
	}
	n.OnLoss(s.now)
	n.OnLoss(s.now)
	if n.cwnd != 19*1000/2 {
		t.Fatalf("two losses in one window: window %.1f, want FlightSize/2 = %.1f", n.cwnd, 19*1000/2.0)
	}
	n.OnTimeout(s.now)
	if n.cwnd != 1000 {
		t.Fatalf("timeout: window %.1f, want one MSS", n.cwnd)
	}
}

// TestCubicCurve: after a loss at Wmax the window drops to β·Wmax and then
// follows W(t) = C·(t − K)³ + Wmax with K = ∛(Wmax·(1−β)/C): it is back at
// Wmax at t = K, and at t = K/2 it is at Wmax − C·(K/2)³.
func TestCubicCurve(t *testing.T) {
	const wmax, c, beta = 1000.0, 0.4, 0.7
	rtt := 100 * rotor.Millisecond
	l, _ := New("cubic", testEnv, map[string]string{"fast_convergence": "false"})
	cu := l.(*Cubic)
	now := rotor.Time(0)
	cu.OnAck(&Feedback{Now: now, Acked: 1000, Cum: 1000, SndNxt: 1000, RTT: rtt})
	cum := int64(1000)
	cu.cwnd, cu.ssthresh = wmax*1000, wmax*1000
	cu.OnLoss(now)
	if got := cu.cwnd / 1000; math.Abs(got-beta*wmax) > 1e-9 {
		t.Fatalf("after loss: %.1f segments, want β·Wmax = %.1f", got, beta*wmax)
	}
	k := math.Cbrt(wmax * (1 - beta) / c)
	at := func(ts float64) float64 { // run rounds until ts seconds after the loss
		for now.Seconds() < ts {
			now += rtt
			segs := int64(cu.cwnd / 1000)
			for range segs {
				cum += 1000
				cu.OnAck(&Feedback{Now: now, Acked: 1000, Cum: cum, SndNxt: cum + segs*1000, RTT: rtt})
			}
		}
		return cu.cwnd / 1000
	}
	if got, want := at(k/2), wmax-c*math.Pow(k/2, 3); math.Abs(got-want) > 0.01*wmax {
		t.Errorf("t = K/2: %.1f segments, want %.1f", got, want)
	}
	if got := at(k); math.Abs(got-wmax) > 0.01*wmax {
		t.Errorf("t = K: %.1f segments, want Wmax = %.0f", got, wmax)
	}
}

var updateDocs = flag.Bool("update", false, "rewrite the parameter tables in docs/cc.md")

// TestDocsParams: the parameter tables in docs/cc.md are what
// writeParams prints for the registry (go test ./cc -run DocsParams
// -update rewrites them).
func TestDocsParams(t *testing.T) {
	doc, err := os.ReadFile("../docs/cc.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	m := strings.Index(s, "<!-- params:")
	i := strings.Index(s[max(m, 0):], "-->\n") + max(m, 0)
	j := strings.Index(s, "<!-- /params -->")
	if m < 0 || i < m || j < i {
		t.Fatal("docs/cc.md has no params markers")
	}
	var b strings.Builder
	var builtin []Spec // without example_register_test.go's aimd
	for _, l := range Laws() {
		if l.Name != "aimd" {
			builtin = append(builtin, l)
		}
	}
	if err := writeParams(&b, builtin); err != nil {
		t.Fatal(err)
	}
	if *updateDocs {
		if err := os.WriteFile("../docs/cc.md", []byte(s[:i+4]+b.String()+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := s[i+4 : j]; got != b.String() {
		t.Errorf("docs/cc.md parameter tables are stale; replace them with writeParams output:\n%s", b.String())
	}
}

// FuzzNew: any law name and parameter text either builds a law whose
// window and rate are sane, or fails with a one-line error; it never
// panics.
func FuzzNew(f *testing.F) {
	f.Add("powertcp", "gamma", "0.5")
	f.Add("hpcc", "max_stage", "1e9")
	f.Add("dcqcn", "increase_timer", "1ps")
	f.Add("retcp", "jump_up", "Inf")
	f.Add("cubic", "beta", "-0")
	f.Add("timely", "t_low", "9.9us")
	f.Add("newreno", "init_window", "1B")
	f.Fuzz(func(t *testing.T, name, key, value string) {
		l, err := New(name, testEnv, map[string]string{key: value})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		s := &ackStream{law: l, mss: 1000, outstanding: 10}
		for i := range 200 {
			s.ack(i%3 == 0)
		}
		if w, r := l.Window(), l.Rate(); w < 0 || r < 0 || (w == 0 && r == 0) {
			t.Fatalf("%s %s=%s: window %d, rate %v", name, key, value, w, r)
		}
	})
}
