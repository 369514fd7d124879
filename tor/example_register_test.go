package tor_test

import (
	"fmt"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// A researcher's policy registers itself in an init function, before any
// run reads the registry: "capped" lets each queue hold at most cap bytes
// of the shared buffer (default: the buffer divided among the ports, a
// value derived from the switch).
func init() {
	tor.Register(tor.PolicySpec{
		Name: "capped",
		Doc:  "each queue holds at most cap bytes",
		Params: []tor.Param{{Name: "cap", Positive: true, Doc: "bytes per queue (B / ports)",
			Derive: func(c *tor.SwitchConfig) float64 { return float64(c.Buffer / int64(c.Ports)) }}},
		Build: func(v map[string]float64, e tor.Env) (tor.BufferPolicy, error) {
			return capped(int64(v["cap"])), nil
		},
	})
}

type capped int64

func (capped) Name() string { return "capped" }

func (c capped) Admit(_ rotor.Time, a *tor.Arrival, q int32, s *tor.State) bool {
	return s.Used+int64(a.Size) <= s.B && s.Queues[q].Bytes+int64(a.Size) <= int64(c)
}

func ExampleRegister() {
	sw := &tor.SwitchConfig{Ports: 4, Queues: 1, Buffer: 4000, MTU: 100, Rates: []rotor.Rate{rotor.Gbps}, RTT: rotor.Microsecond}
	p, err := tor.NewBufferPolicy("capped", nil, tor.Env{Switch: sw})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := &tor.State{B: 4000, Used: 900, MTU: 100, NQ: 1, Queues: []tor.QueueCounters{{Bytes: 900}, {}, {}, {Port: 3}}}
	fmt.Println(p.Name(), p.Admit(0, &tor.Arrival{Size: 100}, 0, s), p.Admit(0, &tor.Arrival{Size: 200}, 0, s))
	// Output: capped true false
}
