package tor_test

import (
	"fmt"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// A ToR with a 6000-byte shared buffer under Dynamic Thresholds (α = 1):
// a single queue may hold α·B/(1+α) = 3000 bytes.
func Example() {
	pool := &tor.Pool{}
	t, _ := tor.New(0, tor.Config{ToRs: 4, Hosts: 2, Uplinks: 2, Buffer: 6000,
		Policy: tor.Named("dt", map[string]float64{"alpha": 1}, nil, nil)}, pool)
	q := t.VOQ(2, tor.Local)
	for k := 0; k < 4; k++ {
		i := pool.Alloc()
		pool.At(i).Size = 1500
		fmt.Println(t.Enqueue(0, q, i), t.Bytes(q))
	}
	// Output:
	// true 1500
	// true 3000
	// false 3000
	// false 3000
}

// A 4-port switch with one queue per port and a 6000-byte buffer under
// Dynamic Thresholds (α = 1): a lone congested queue may hold
// α·B/(1+α) = 3000 bytes, so the third 1500-byte packet is dropped.
func ExampleSwitch() {
	cfg := tor.SwitchConfig{Ports: 4, Queues: 1, Buffer: 6000, MTU: 1500,
		Rates: []rotor.Rate{10 * rotor.Gbps}}
	p, err := tor.NewBufferPolicy("dt", map[string]float64{"alpha": 1}, tor.Env{Switch: &cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	sw, _ := tor.NewSwitch(cfg, p, nil)
	for k := int32(0); k < 3; k++ {
		ok, _ := sw.Enqueue(0, &tor.Arrival{ID: int64(k), Size: 1500, Port: 2}, k)
		fmt.Println(ok, sw.State().Used)
	}
	_, err = tor.NewBufferPolicy("dt", map[string]float64{"alpha": 0}, tor.Env{Switch: &cfg})
	fmt.Println(err)
	// Output:
	// true 1500
	// true 3000
	// false 3000
	// alpha 0: must be positive
}
