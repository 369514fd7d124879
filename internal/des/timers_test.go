package des

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rdcn/rdcn/rotor"
)

// TestTimersModel sets, moves, stops and pops timers at random and
// compares Min, When, Len and Pop with a map sorted by (time, number).
func TestTimersModel(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 64, 100} {
		rng := rand.New(rand.NewPCG(uint64(n), 5))
		tm := NewTimers(n)
		model := map[int]rotor.Time{}
		earliest := func() (int, rotor.Time, bool) {
			best, bestAt := -1, Never
			for i, at := range model {
				if at < bestAt || at == bestAt && i < best {
					best, bestAt = i, at
				}
			}
			return best, bestAt, best >= 0
		}
		clock := rotor.Time(0) // lock-step phases: times just after the last pop, in order
		for step := 0; step < 40000; step++ {
			i := rng.IntN(n)
			lockstep := step/5000%2 == 1
			switch r := rng.IntN(10); {
			case r < 5:
				at := rotor.Time(rng.IntN(50)) // many ties
				if lockstep {
					at = clock + rotor.Time(rng.IntN(3))
				}
				tm.Set(i, at)
				model[i] = at
			case r < 6:
				tm.Stop(i)
				delete(model, i)
			default:
				gi, gat, gok := tm.Pop()
				wi, wat, wok := earliest()
				if gi != wi && gok || gat != wat || gok != wok {
					t.Fatalf("n=%d step %d: Pop = %d %d %v, want %d %d %v", n, step, gi, gat, gok, wi, wat, wok)
				}
				if gok {
					clock = gat
				}
				delete(model, wi)
			}
			if tm.Len() != len(model) {
				t.Fatalf("n=%d step %d: Len = %d, want %d", n, step, tm.Len(), len(model))
			}
			for k := 0; k < n; k++ {
				want, ok := model[k]
				if !ok {
					want = Never
				}
				if got := tm.When(k); got != want {
					t.Fatalf("n=%d step %d: When(%d) = %d, want %d", n, step, k, got, want)
				}
			}
		}
	}
}

// TestQueueTimers mixes Schedule, ScheduleFirst and timers set, moved
// (earlier or later) and stopped, and checks every PopUntil, Now, Len,
// Processed, Hint and at the end Pending against a sorted model in which
// a timer is a ScheduleFirst event.
func TestQueueTimers(t *testing.T) {
	const kinds, targets, timerKind = 4, 30, 2
	for seed := uint64(0); seed < 8; seed++ {
		rng := rand.New(rand.NewPCG(seed, 13))
		var q Queue
		tm := NewTimers(targets)
		q.AttachTimers(tm, timerKind)
		var model []Event // sorted
		var seq, pops uint64
		hinted := 0
		remove := func(match func(Event) bool) {
			if i := slices.IndexFunc(model, match); i >= 0 {
				model = slices.Delete(model, i, i+1)
			}
		}
		insert := func(e Event) {
			i, _ := slices.BinarySearchFunc(model, e, queueOrder)
			model = slices.Insert(model, i, e)
		}
		for step := 0; step < 30000; step++ {
			now := q.Now()
			delta := []rotor.Time{0, rotor.Time(rng.IntN(3)), rotor.Time(rng.IntN(1 << bucketShift)), rotor.Time(rng.Int64N(1 << 30))}[rng.IntN(4)]
			kind, target := uint8(rng.IntN(kinds)), int32(rng.IntN(targets))
			switch r := rng.IntN(12); {
			case r < 3:
				seq++
				q.Schedule(now+delta, kind, target, int32(seq))
				insert(Event{At: now + delta, Seq: seq, Kind: kind, Target: target, Arg: int32(seq)})
			case r < 4:
				if kind == timerKind || slices.ContainsFunc(model, func(e Event) bool {
					return e.Seq == 0 && e.At == now+delta && e.Kind == kind && e.Target == target
				}) {
					continue
				}
				q.ScheduleFirst(now+delta, kind, target, 7)
				insert(Event{At: now + delta, Kind: kind, Target: target, Arg: 7})
			case r < 7:
				tm.Set(int(target), now+delta)
				remove(func(e Event) bool { return e.Seq == 0 && e.Kind == timerKind && e.Target == target })
				insert(Event{At: now + delta, Kind: timerKind, Target: target})
			case r < 8:
				tm.Stop(int(target))
				remove(func(e Event) bool { return e.Seq == 0 && e.Kind == timerKind && e.Target == target })
			default:
				// Hint(0) is the first event but timers (unless filed late).
				if k, tg, a, ok := q.Hint(0); ok && len(q.late) == 0 {
					hinted++
					i := slices.IndexFunc(model, func(e Event) bool { return e.Seq != 0 || e.Kind != timerKind })
					if i < 0 || k != model[i].Kind || tg != model[i].Target || a != model[i].Arg {
						t.Fatalf("seed %d step %d: Hint(0) = %d %d %d, want the first of %+v but timers", seed, step, k, tg, a, model)
					}
				}
				end := now + delta
				for k := rng.IntN(6); k >= 0; k-- {
					kind, target, arg, ok := q.PopUntil(end)
					if due := len(model) > 0 && model[0].At <= end; ok != due {
						t.Fatalf("seed %d step %d: PopUntil(%d) ok = %v, want %v", seed, step, end, ok, due)
					}
					if !ok {
						break
					}
					e := model[0]
					model = model[1:]
					pops++
					if kind != e.Kind || target != e.Target || arg != e.Arg || q.Now() != e.At {
						t.Fatalf("seed %d step %d: PopUntil = %d %d %d at %d, want %+v", seed, step, kind, target, arg, q.Now(), e)
					}
				}
			}
			if q.Len() != len(model) || q.Processed() != pops {
				t.Fatalf("seed %d step %d: Len %d, Processed %d; want %d, %d", seed, step, q.Len(), q.Processed(), len(model), pops)
			}
		}
		pending := q.Pending()
		slices.SortFunc(pending, queueOrder)
		if !slices.Equal(model, pending) {
			t.Fatalf("seed %d: Pending differs from the model:\n%v\n%v", seed, pending, model)
		}
		for i, want := range model {
			if got, ok := q.Pop(); !ok || got != want {
				t.Fatalf("seed %d: drain pop %d = %+v (ok %v), want %+v", seed, i, got, ok, want)
			}
		}
		if pops < 10000 || hinted == 0 {
			t.Fatalf("seed %d: %d pops, %d hints checked; the test mix is off", seed, pops, hinted)
		}
	}
}

// TestTimersLikeStaleEvents runs one random simulation twice: once with
// wake-ups scheduled with ScheduleFirst, a superseded one popped and
// skipped (as the fabric did), once with them as timers, moved when
// brought forward. The events handled must be the same, in the same order
// and at the same times.
func TestTimersLikeStaleEvents(t *testing.T) {
	const links, wakeKind = 40, 4
	type handled struct {
		at          rotor.Time
		kind        uint8
		target, arg int32
	}
	run := func(seed uint64, timers bool) (out []handled, stale int) {
		rng := rand.New(rand.NewPCG(seed, 17))
		var q Queue
		tm := NewTimers(links)
		pending := make([]rotor.Time, links) // stale-event run: the wake that counts
		for i := range pending {
			pending[i] = Never
		}
		if timers {
			q.AttachTimers(tm, wakeKind)
		}
		wake := func(i int, at rotor.Time) {
			if timers {
				if tm.When(i) > at {
					tm.Set(i, at)
				}
				return
			}
			if pending[i] <= at {
				return
			}
			pending[i] = at
			q.ScheduleFirst(at, wakeKind, int32(i), 0)
		}
		for i := 0; i < links; i++ {
			wake(i, rotor.Time(rng.IntN(1000)))
		}
		firsts := map[[3]int64]bool{}
		for len(out) < 50000 {
			kind, target, arg, ok := q.PopUntil(1 << 40)
			if !ok {
				break
			}
			now := q.Now()
			if kind == wakeKind && !timers {
				if pending[target] != now {
					stale++
					continue
				}
				pending[target] = Never
			}
			if kind != wakeKind && kind < wakeKind {
				delete(firsts, [3]int64{int64(now), int64(kind), int64(target)})
			}
			out = append(out, handled{now, kind, target, arg})
			// React: wake links (often this one, a packet time on; some
			// at once; some brought forward), and schedule other events.
			for k := rng.IntN(4); k > 0; k-- {
				i := rng.IntN(links)
				if k == 1 && kind == wakeKind {
					i = int(target)
				}
				wake(i, now+[]rotor.Time{0, 1, 1200, rotor.Time(rng.IntN(3000))}[rng.IntN(4)])
			}
			if rng.IntN(3) == 0 {
				kind := uint8(rng.IntN(5))
				if kind == wakeKind {
					kind = 5
				}
				q.Schedule(now+rotor.Time(rng.IntN(2000)), kind, int32(rng.IntN(links)), int32(len(out)))
			}
			if rng.IntN(4) == 0 {
				at, kind, target := now+rotor.Time(rng.IntN(3)*600), uint8(1+rng.IntN(2)*4), int32(rng.IntN(links)) // kinds 1 and 5, around wakeKind
				if key := [3]int64{int64(at), int64(kind), int64(target)}; !firsts[key] {
					firsts[key] = true
					q.ScheduleFirst(at, kind, target, 0)
				}
			}
		}
		return out, stale
	}
	for seed := uint64(0); seed < 4; seed++ {
		want, stale := run(seed, false)
		got, _ := run(seed, true)
		if !slices.Equal(got, want) {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Fatalf("seed %d: handled events differ from #%d (of %d, %d): %v\n%v", seed, i, len(got), len(want), got[max(i-3, 0):i+2], want[max(i-3, 0):i+2])
		}
		if stale == 0 {
			t.Fatalf("seed %d: no stale events; the test mix is off", seed)
		}
	}
}

// BenchmarkTimers pops the earliest of 256 timers and sets it again 1.2 µs
// (give or take) later, as a busy circuit uplink does; a third of the
// timers are not set.
func BenchmarkTimers(b *testing.B) {
	const n, ser = 256, 1200 * rotor.Nanosecond
	rng := rand.New(rand.NewPCG(1, 4))
	t := NewTimers(n)
	for i := 0; i < n; i++ {
		if i%3 != 0 {
			t.Set(i, rotor.Time(rng.Int64N(int64(ser))))
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for k := 0; k < b.N; k++ {
		i, at, _ := t.Pop()
		t.Set(i, at+ser-rotor.Time(rng.IntN(4))*rotor.Nanosecond)
	}
}
