package tor

import (
	"math/rand/v2"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// TestRegistryLossless: a registry entry says it has lossless classes
// exactly when the policy it builds is a LosslessPolicy.
func TestRegistryLossless(t *testing.T) {
	sc := SwitchConfig{Ports: 2, Queues: 2, Buffer: 1 << 20, MTU: 1500, Rates: []rotor.Rate{rotor.Gbps},
		Lossless: 1, Headroom: 1 << 16, HeadroomPool: 1 << 17, RTT: 80 * rotor.Microsecond}
	for _, p := range Policies() {
		b, err := NewBufferPolicy(p.Name, nil, Env{Switch: &sc, Oracle: neverDrop{}, Rand: rand.New(rand.NewPCG(1, 1))})
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if _, ok := b.(LosslessPolicy); ok != p.Lossless {
			t.Errorf("%s: registry says lossless %v, the policy is a LosslessPolicy: %v", p.Name, p.Lossless, ok)
		}
	}
}

type neverDrop struct{}

func (neverDrop) Drop(*Arrival, *Features) bool { return false }
