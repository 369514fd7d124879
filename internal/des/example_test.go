package des_test

import (
	"fmt"

	"github.com/rdcn/rdcn/internal/des"
	"github.com/rdcn/rdcn/rotor"
)

// Events at the same time come out in the order they were scheduled.
func Example() {
	var q des.Queue
	const ping, pong = 1, 2
	q.Schedule(2*rotor.Microsecond, pong, 7, 0)
	q.Schedule(1*rotor.Microsecond, ping, 3, 0)
	q.Schedule(2*rotor.Microsecond, ping, 4, 0)
	for q.Len() > 0 {
		e, _ := q.Pop()
		fmt.Println(e.At, e.Kind, e.Target)
	}
	// Output:
	// 1us 1 3
	// 2us 2 7
	// 2us 1 4
}

// Timers attached to a queue fire where ScheduleFirst events would: before
// ordinary events at the same time. Moving a timer earlier leaves nothing
// stale behind.
func ExampleTimers() {
	var q des.Queue
	const tick, wake = 1, 2
	timers := des.NewTimers(4)
	q.AttachTimers(timers, wake)
	q.Schedule(3*rotor.Microsecond, tick, 0, 0)
	timers.Set(2, 5*rotor.Microsecond)
	timers.Set(2, 3*rotor.Microsecond) // moved forward: one event, not two
	for q.Len() > 0 {
		e, _ := q.Pop()
		fmt.Println(e.At, e.Kind, e.Target)
	}
	// Output:
	// 3us 2 2
	// 3us 1 0
}
