package operasim_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/rdcn/rdcn/operasim"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/schedules"
)

// Export an 8-ToR Opera schedule with 4 rotors and read it back: 8
// matchings over 4 rotors make a 2-slot cycle, 8 superslices of 100 µs,
// 24 slices.
func Example() {
	sc, err := schedules.Build("opera", schedules.Params{Nodes: 8, Uplinks: 4,
		Slot: 400 * rotor.Microsecond, Reconf: 10 * rotor.Microsecond, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	tp, err := operasim.FromSchedule(sc, operasim.DefaultGuard(sc))
	if err != nil {
		fmt.Println(err)
		return
	}
	var file bytes.Buffer
	if err := operasim.Write(&file, tp); err != nil {
		fmt.Println(err)
		return
	}
	lines := strings.Split(file.String(), "\n")
	fmt.Println(lines[0])
	fmt.Println(lines[1])
	back, err := operasim.Read(&file)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d slices: ε %v, δ %v, r %v\n", back.Slices(), back.Epsilon, back.Delta, back.R)
	// Output:
	// 32 4 4 8
	// 24 45000000 45000000 10000000
	// 24 slices: ε 45us, δ 45us, r 10us
}
