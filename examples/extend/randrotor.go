package main

import (
	"math/rand/v2"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

// RandomRotor is a rotor schedule whose matchings are random: the nodes
// are relabelled by a random permutation π, matching k (k = 1…n−1) sends
// node i to π⁻¹((π(i) + k) mod n), and the n−1 matchings are dealt in a
// random order round-robin over the U switches (switch s plays matching
// number s·P + t in slot t, P = ⌈(n−1)/U⌉; the last slots idle when U
// does not divide n−1). Every ordered pair of nodes meets exactly once per
// cycle, as in RotorNet, so its certified throughput is RotorNet's; only
// which pair meets when is random. All randomness comes from a
// *rand.Rand seeded with Params.Seed.
func RandomRotor(p schedules.Params) (*rotor.Schedule, error) {
	const kind = "random-rotor"
	if p.Nodes < 2 {
		return nil, &schedules.ParamError{Kind: kind, Field: "nodes", Value: p.Nodes, Problem: "must be at least 2"}
	}
	if p.Uplinks < 1 || p.Uplinks > p.Nodes-1 {
		return nil, &schedules.ParamError{Kind: kind, Field: "uplinks", Value: p.Uplinks, Problem: "must be in [1, n−1]"}
	}
	slot, reconf, err := p.Timing(kind)
	if err != nil {
		return nil, err
	}
	n, u := p.Nodes, p.Uplinks
	rng := rand.New(rand.NewPCG(p.Seed, 0x72616e64))
	pi := rng.Perm(n)
	inv := make([]int, n)
	for i, v := range pi {
		inv[v] = i
	}
	order := rng.Perm(n - 1) // matching order: shift order[j]+1
	period := (n - 1 + u - 1) / u
	ms := make([][][]int, u)
	for s := range ms {
		ms[s] = make([][]int, period)
		for t := range ms[s] {
			m := make([]int, n)
			j := s*period + t
			for i := range m {
				if j >= n-1 {
					m[i] = rotor.Idle
					continue
				}
				m[i] = inv[(pi[i]+order[j]+1)%n]
			}
			ms[s][t] = m
		}
	}
	return &rotor.Schedule{Kind: kind, Nodes: n, Switches: u, Period: period, Slot: slot, Reconf: reconf, Matchings: ms,
		Meta: map[string]any{"nodes": n, "uplinks": u, "seed": p.Seed, "matchings": n - 1}}, nil
}

func init() {
	schedules.Register(schedules.Generator{
		Kind:   "random-rotor",
		Usage:  "n−1 rotor matchings of randomly relabelled cyclic shifts, in random order round-robin over U switches (seeded)",
		Slot:   schedules.DefaultSlot,
		Reconf: schedules.DefaultReconf,
		Build:  RandomRotor,
	})
}
