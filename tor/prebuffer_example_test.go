package tor_test

import (
	"fmt"

	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/tor"
)

// A VOQ whose circuit is up 225 µs in every 5880 µs week holds 16 packets,
// and 50 from τ_pre = 600 µs before its day until the day ends.
func ExamplePrebuffer() {
	us := rotor.Microsecond
	days := []tor.Day{{Start: 1000 * us, End: 1225 * us}}
	p, err := tor.NewPrebuffer(16*1500, 50*1500, 600*us, 5880*us, days)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range []rotor.Time{0, 400 * us, 1224 * us, 1225 * us} {
		fmt.Println(t, p.Capacity(t)/1500, "packets")
	}
	fmt.Println("next change after 1225us:", p.NextChange(1225*us))
	// Output:
	// 0s 16 packets
	// 400us 50 packets
	// 1.224ms 50 packets
	// 1.225ms 16 packets
	// next change after 1225us: 6.28ms
}
