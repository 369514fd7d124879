package rotor_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/rdcn/rdcn/rotor"
)

func ExampleParseTime() {
	for _, s := range []string{"100us", "9.9us", "3.84ns", "0.1ps"} {
		t, err := rotor.ParseTime(s)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Printf("%s = %d ps = %v\n", s, int64(t), t)
	}
	// Output:
	// 100us = 100000000 ps = 100us
	// 9.9us = 9900000 ps = 9.9us
	// 3.84ns = 3840 ps = 3.84ns
	// error: time "0.1ps": is not a whole number of picoseconds
}

func ExampleRate_TransmitTime() {
	link, _ := rotor.ParseRate("400Gbps")
	mtu, _ := rotor.ParseSize("1pkt", rotor.DefaultMTU)
	slot, _ := rotor.ParseTime("100us")
	fmt.Println(link.TransmitTime(mtu), link.BytesIn(slot))
	// Output: 30ns 5MB
}

// rotor4 is the true rotor on 4 nodes and one switch: shifts 1, 2, 3.
func rotor4() *rotor.Schedule {
	return &rotor.Schedule{
		Kind: "rotornet", Nodes: 4, Switches: 1, Period: 3,
		Slot: 100 * rotor.Microsecond, Reconf: 10 * rotor.Microsecond,
		Matchings: [][][]int{{
			{1, 2, 3, 0}, // slot 0: u → u+1
			{2, 3, 0, 1}, // slot 1: u → u+2
			{3, 0, 1, 2}, // slot 2: u → u+3
		}},
	}
}

func ExampleSchedule_NextConnection() {
	s := rotor4()
	// Node 0 reaches node 2 in slot 1, i.e. from 100us to 190us (then night).
	for _, from := range []string{"0s", "150us", "195us"} {
		t, _ := rotor.ParseTime(from)
		at, sw, slot, err := s.NextConnection(0, 2, t)
		fmt.Println(from, "→", at, "switch", sw, "slot", slot, err)
	}
	// Output:
	// 0s → 100us switch 0 slot 1 <nil>
	// 150us → 150us switch 0 slot 1 <nil>
	// 195us → 400us switch 0 slot 1 <nil>
}

func ExampleSchedule_CircuitsAt() {
	s := rotor4()
	fmt.Println(s.CircuitsAt(50 * rotor.Microsecond))
	fmt.Println(s.CircuitsAt(95 * rotor.Microsecond)) // night: reconfiguring
	fmt.Println(s.DutyCycle())
	// Output:
	// [{0 0 1} {0 1 2} {0 2 3} {0 3 0}]
	// []
	// 0.9
}

func ExampleWriteJSON() {
	s := rotor4()
	s.Meta = map[string]any{"self_slot": false}
	if err := rotor.WriteJSON(os.Stdout, s); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//   "format": "rdcn.schedule/v1",
	//   "kind": "rotornet",
	//   "nodes": 4,
	//   "switches": 1,
	//   "period": 3,
	//   "slot_ps": 100000000,
	//   "reconf_ps": 10000000,
	//   "slot_durations_ps": null,
	//   "switch_offsets_ps": null,
	//   "matchings": [
	//     [
	//       [1,2,3,0],
	//       [2,3,0,1],
	//       [3,0,1,2]
	//     ]
	//   ],
	//   "meta": {"self_slot":false}
	// }
}

func ExampleWriteCSV() {
	// Two slot lengths, a second switch shifted by 75us and an idle port.
	s := &rotor.Schedule{
		Kind: "tiny", Nodes: 3, Switches: 2, Period: 2,
		Slot: 100 * rotor.Microsecond, Reconf: 10 * rotor.Microsecond,
		SlotDurations: []rotor.Time{100 * rotor.Microsecond, 50 * rotor.Microsecond},
		SwitchOffsets: []rotor.Time{0, 75 * rotor.Microsecond},
		Matchings: [][][]int{
			{{1, 2, 0}, {2, 0, 1}},
			{{2, 0, 1}, {1, rotor.Idle, 0}},
		},
	}
	if err := rotor.WriteCSV(os.Stdout, s); err != nil {
		fmt.Println(err)
	}
	// Output:
	// switch,slot,start_ps,duration_ps,reconf_ps,src,dst
	// 0,0,0,100000000,10000000,0,1
	// 0,0,0,100000000,10000000,1,2
	// 0,0,0,100000000,10000000,2,0
	// 0,1,100000000,50000000,10000000,0,2
	// 0,1,100000000,50000000,10000000,1,0
	// 0,1,100000000,50000000,10000000,2,1
	// 1,0,75000000,100000000,10000000,0,2
	// 1,0,75000000,100000000,10000000,1,0
	// 1,0,75000000,100000000,10000000,2,1
	// 1,1,175000000,50000000,10000000,0,1
	// 1,1,175000000,50000000,10000000,1,-1
	// 1,1,175000000,50000000,10000000,2,0
}

func ExampleReadJSON() {
	doc := `{"format": "rdcn.schedule/v1", "kind": "tiny", "nodes": 2, "switches": 1, "period": 1,
	"slot_ps": 1000, "reconf_ps": 1000, "matchings": [[[1, 0]]]}`
	_, err := rotor.ReadJSON(strings.NewReader(doc))
	fmt.Println(err)
	// Output: reconf_ps: 1000 is not shorter than slot_ps 1000
}
