package bufferlab

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Arrival sequences. The adversarial ones follow the lower-bound
// constructions of the papers; all respect the model's limit of at most N
// arrivals per slot except where said.

func fill(slots [][]int32, port int32, n, b int) [][]int32 {
	// N packets a slot to port until it holds B under any policy that
	// admits them (it gains N − 1 a slot).
	for k := 0; k < (b+n-2)/(n-1); k++ {
		s := make([]int32, n)
		for j := range s {
			s[j] = port
		}
		slots = append(slots, s)
	}
	return slots
}

// CSAdversary is the construction that hurts Complete Sharing: fill the
// buffer with port 0, then every slot one packet to port 0 (first) and one
// to each other port. CS's buffer stays full of port 0 and sends one
// packet a slot; OPT keeps port 0 short and sends N. The ratio tends to N
// as rounds grow (CS's upper bound is N + 1; with N ports OPT sends at
// most N a slot).
func CSAdversary(n, b, rounds int) (*Sequence, error) {
	if n < 2 || b < 1 || rounds < 0 {
		return nil, fmt.Errorf("cs adversary: ports %d, buffer %d, rounds %d: want ports ≥ 2, buffer ≥ 1, rounds ≥ 0", n, b, rounds)
	}
	slots := fill(nil, 0, n, b)
	for r := 0; r < rounds; r++ {
		s := make([]int32, n)
		for j := range s {
			s[j] = int32(j)
		}
		slots = append(slots, s)
	}
	return &Sequence{N: n, Slots: slots}, nil
}

// FollowLQDAdversary is the Credence paper's lower bound for FollowLQD
// ((N+1)/2): fill queue 0 to B, then repeat: one packet to each port;
// N packets to port 0.
func FollowLQDAdversary(n, b, rounds int) (*Sequence, error) {
	if n < 2 || b < n || rounds < 0 {
		return nil, fmt.Errorf("followlqd adversary: ports %d, buffer %d, rounds %d: want ports ≥ 2, buffer ≥ ports, rounds ≥ 0", n, b, rounds)
	}
	slots := fill(nil, 0, n, b)
	for r := 0; r < rounds; r++ {
		all := make([]int32, n)
		zero := make([]int32, n)
		for j := range all {
			all[j] = int32(j)
		}
		slots = append(slots, all, zero)
	}
	return &Sequence{N: n, Slots: slots}, nil
}

// DTAdversary hurts Dynamic Thresholds' proactive drops: rounds of a
// B-packet burst to one port (ports in turn, N packets a slot), each
// followed by B idle slots. DT keeps only about αB/(1+α) of a burst; OPT
// keeps all of it. (Not the Ω(√(N/log N)) construction of the literature.)
func DTAdversary(n, b, rounds int) (*Sequence, error) {
	if n < 2 || b < 1 || rounds < 0 {
		return nil, fmt.Errorf("dt adversary: ports %d, buffer %d, rounds %d: want ports ≥ 2, buffer ≥ 1, rounds ≥ 0", n, b, rounds)
	}
	var slots [][]int32
	for r := 0; r < rounds; r++ {
		slots = fill(slots, int32(r%n), n, b)
		slots = append(slots, make([][]int32, b)...)
	}
	return &Sequence{N: n, Slots: slots}, nil
}

// Bernoulli: in each slot each of N sources sends a packet with
// probability p to a uniformly random port.
func Bernoulli(n, slots int, p float64, rng *rand.Rand) (*Sequence, error) {
	if n < 1 || slots < 0 || !(p >= 0 && p <= 1) {
		return nil, fmt.Errorf("bernoulli: ports %d, slots %d, p %v: want ports ≥ 1, slots ≥ 0, 0 ≤ p ≤ 1", n, slots, p)
	}
	seq := &Sequence{N: n, Slots: make([][]int32, slots)}
	for t := range seq.Slots {
		for src := 0; src < n; src++ {
			if rng.Float64() < p {
				seq.Slots[t] = append(seq.Slots[t], int32(rng.IntN(n)))
			}
		}
	}
	return seq, nil
}

// OnOff: each of N sources alternates geometric on and off periods of
// mean lengths on and off slots; while on it sends one packet a slot to a
// port drawn at the start of the period (bursts collide into incasts).
func OnOff(n, slots int, on, off float64, rng *rand.Rand) (*Sequence, error) {
	if n < 1 || slots < 0 || !(on >= 1) || !(off >= 1) || math.IsInf(on, 0) || math.IsInf(off, 0) {
		return nil, fmt.Errorf("onoff: ports %d, slots %d, on %v, off %v: want ports ≥ 1, slots ≥ 0, finite mean lengths ≥ 1", n, slots, on, off)
	}
	seq := &Sequence{N: n, Slots: make([][]int32, slots)}
	dst := make([]int32, n)
	isOn := make([]bool, n)
	for t := range seq.Slots {
		for src := 0; src < n; src++ {
			if isOn[src] {
				if rng.Float64() < 1/on {
					isOn[src] = false
				}
			} else if rng.Float64() < 1/off {
				isOn[src], dst[src] = true, int32(rng.IntN(n))
			}
			if isOn[src] {
				seq.Slots[t] = append(seq.Slots[t], dst[src])
			}
		}
	}
	return seq, nil
}

// Bursts is the Credence paper's discrete-time workload (its Fig. 14) as
// first read here: bursts of B packets, each to a random port, starting as
// a Poisson process of rate lambda per slot and delivered N packets a slot
// (overlapping bursts add up, so a slot may see more than N). It is
// BurstsPaced with perSlot = N.
func Bursts(n, b, slots int, lambda float64, rng *rand.Rand) (*Sequence, error) {
	return BurstsPaced(n, b, n, slots, lambda, rng)
}

// BurstsPaced is Bursts with perSlot packets of a burst arriving per slot:
// perSlot = N is Bursts, perSlot = B delivers each burst whole in the slot
// it starts (the "one-slot" set-up of the Fig. 14 study: B arrivals in one
// slot, beyond the model's N, as from many senders at once). A burst cut
// by the end of the sequence loses its tail.
func BurstsPaced(n, b, perSlot, slots int, lambda float64, rng *rand.Rand) (*Sequence, error) {
	if n < 1 || b < 1 || perSlot < 1 || slots < 0 || !(lambda > 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("bursts: ports %d, buffer %d, %d packets a slot, slots %d, rate %v: want positive values", n, b, perSlot, slots, lambda)
	}
	seq := &Sequence{N: n, Slots: make([][]int32, slots)}
	for t := rng.ExpFloat64() / lambda; int(t) < slots; t += rng.ExpFloat64() / lambda {
		placeBurst(seq, int(t), int32(rng.IntN(n)), b, perSlot)
	}
	return seq, nil
}

// placeBurst adds a burst of b packets to port from slot start on,
// perSlot a slot, up to the end of seq.
func placeBurst(seq *Sequence, start int, port int32, b, perSlot int) {
	for k := 0; k < b; k++ {
		s := start + k/perSlot
		if s >= len(seq.Slots) {
			break
		}
		seq.Slots[s] = append(seq.Slots[s], port)
	}
}

// ReadTrace parses a trace file: a line "ports N" first, then one line
// per arrival group "SLOT PORT [COUNT]" (slots non-decreasing, COUNT
// default 1); '#' starts a comment. Errors name the line.
func ReadTrace(r io.Reader) (*Sequence, error) {
	sc := bufio.NewScanner(r)
	var seq *Sequence
	line := 0
	const maxSlots, maxPackets = 1 << 24, 1 << 26
	packets := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		if seq == nil {
			if len(f) != 2 || f[0] != "ports" {
				return nil, fmt.Errorf("line %d: want \"ports N\" first", line)
			}
			n, err := strconv.Atoi(f[1])
			if err != nil || n < 1 || n > 1<<16 {
				return nil, fmt.Errorf("line %d: ports %.20q: want a whole number in 1..65536", line, f[1])
			}
			seq = &Sequence{N: n}
			continue
		}
		if len(f) < 2 || len(f) > 3 {
			return nil, fmt.Errorf("line %d: want \"SLOT PORT [COUNT]\"", line)
		}
		t, err := strconv.Atoi(f[0])
		if err != nil || t < 0 || t >= maxSlots || t < len(seq.Slots)-1 {
			return nil, fmt.Errorf("line %d: slot %.20q: want a whole number in %d..%d", line, f[0], max(len(seq.Slots)-1, 0), maxSlots-1)
		}
		p, err := strconv.Atoi(f[1])
		if err != nil || p < 0 || p >= seq.N {
			return nil, fmt.Errorf("line %d: port %.20q: want 0..%d", line, f[1], seq.N-1)
		}
		c := 1
		if len(f) == 3 {
			c, err = strconv.Atoi(f[2])
			if err != nil || c < 1 || c > maxPackets-packets {
				return nil, fmt.Errorf("line %d: count %.20q: want a positive whole number (at most %d packets in all)", line, f[2], maxPackets)
			}
		}
		if packets += c; packets > maxPackets {
			return nil, fmt.Errorf("line %d: more than %d packets", line, maxPackets)
		}
		for len(seq.Slots) <= t {
			seq.Slots = append(seq.Slots, nil)
		}
		for k := 0; k < c; k++ {
			seq.Slots[t] = append(seq.Slots[t], int32(p))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %v", line+1, err)
	}
	if seq == nil {
		return nil, fmt.Errorf("line %d: empty trace, want \"ports N\" first", line)
	}
	return seq, nil
}

// WriteTrace writes seq in ReadTrace's format.
func WriteTrace(w io.Writer, seq *Sequence) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "ports %d\n", seq.N)
	for t, s := range seq.Slots {
		for i := 0; i < len(s); {
			j := i
			for j < len(s) && s[j] == s[i] {
				j++
			}
			if j-i == 1 {
				fmt.Fprintf(bw, "%d %d\n", t, s[i])
			} else {
				fmt.Fprintf(bw, "%d %d %d\n", t, s[i], j-i)
			}
			i = j
		}
	}
	return bw.Flush()
}
