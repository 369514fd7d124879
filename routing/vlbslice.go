package routing

import (
	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// vlbSlice is Valiant load balancing as RotorNet and Sirius spray, on the
// slices of a multi-hop schedule (Mars, thesis §7.5): at its source ToR a
// packet takes any circuit up now (each with equal chance: the first hop
// of a Valiant path is any ToR the source is connected to), and from
// there shortest paths of the current slice, every hop drawn uniformly
// among the equal-cost next hops (packet spraying). A packet still at its
// source when its circuit goes down draws its first hop again among the
// circuits of the new slice; one in transit takes the new slice's
// shortest paths. Packets for the dark circuit's own ToR wait for it
// (RerouteTransit), as with paths.
type vlbSlice struct {
	table *PathTable
	peers []int16 // [epoch][t][U]: the ToR each circuit from t reaches in the epoch, −1 padded
	c     Circuits
	rng   interface{ IntN(int) int }
	n, U  int
}

func newVLBSlice(s Setup) (Router, error) {
	sc := s.Schedule
	r := &vlbSlice{c: s.Circuits, rng: s.Rand, n: sc.Nodes, U: sc.Switches}
	r.table = NewPathTable(sc, MaxECMP)
	if r.table == nil || r.table.Len()*r.n*r.U > MaxTableEntries {
		return nil, setupErr("mode", "%s: next-hop table for %d ToRs is too large (limit %d entries)", VLBSlice, sc.Nodes, MaxTableEntries)
	}
	r.peers = make([]int16, r.table.Len()*r.n*r.U)
	for i := range r.peers {
		r.peers[i] = -1
	}
	r.table.circuits(sc, func(e int, cs []rotor.Circuit) {
		for _, c := range cs {
			row := r.peers[(e*r.n+c.Src)*r.U:][:r.U]
			for i := range row {
				if row[i] < 0 {
					row[i] = int16(c.Dst)
					break
				}
			}
		}
	})
	return r, nil
}

func (r *vlbSlice) Next(now rotor.Time, at int, p *packet.Packet, _ bool) Hop {
	if p.Via >= 0 {
		return Hop{To: p.Via}
	}
	if p.Hops == 0 { // at its source ToR: the first hop
		if w := r.firstHop(now, at); w >= 0 {
			return Hop{To: w, Transit: true}
		}
	}
	if nh := r.table.Spray(now, at, int(p.DstToR), r.rng); nh >= 0 {
		return Hop{To: int32(nh), Transit: true}
	}
	return Hop{To: p.DstToR, Transit: true}
}

// firstHop draws one of the circuits up now from t (a ToR reached by
// two circuits is twice as likely, as capacity goes) and returns the ToR
// it reaches; during a night of every switch, one of the first later
// epoch with a circuit from t; −1 if t has no circuit in the cycle.
func (r *vlbSlice) firstHop(now rotor.Time, t int) int32 {
	up := 0
	for sw := 0; sw < r.U; sw++ {
		if v := r.c.Peer(t, sw); v != rotor.Idle && int(v) != t {
			up++
		}
	}
	if up > 0 {
		k := r.rng.IntN(up)
		for sw := 0; sw < r.U; sw++ {
			if v := r.c.Peer(t, sw); v != rotor.Idle && int(v) != t {
				if k == 0 {
					return v
				}
				k--
			}
		}
	}
	E := r.table.Len()
	e := r.table.Index(now)
	for k := 1; k <= E; k++ {
		row := r.peers[(((e+k)%E)*r.n+t)*r.U:][:r.U]
		cnt := 0
		for cnt < len(row) && row[cnt] >= 0 {
			cnt++
		}
		if cnt > 0 {
			return int32(row[r.rng.IntN(cnt)])
		}
	}
	return -1
}

// Reroute is RerouteTransit: every packet waits in the transit class.
func (*vlbSlice) Reroute() Reroute { return RerouteTransit }
