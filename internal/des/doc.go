// Package des is rdcn's discrete-event core: a deterministic event queue of
// plain values, and slice-backed pools and FIFOs indexed by int32 so that a
// simulation allocates nothing per event or per packet once warmed up.
//
// Events are ordered by time and, for equal times, by the order they were
// scheduled (a sequence number), so a run is reproducible bit for bit;
// "link free" events (ScheduleFirst) come first at their time, ordered by
// kind and target. The queue is a calendar queue of 16-byte values — 262 ns
// buckets appended to in O(1) and sorted on one 64-bit key when current
// (a bucket is mostly a few sorted runs, which the sort peels off and
// merges), 4-ary heaps for far events and late ones: no pointers, no
// per-event allocation once warm. An event carries a kind and two int32
// arguments; the simulator dispatches on the kind with a switch, which is
// cheaper than an interface call per event. Timers, attached to the
// queue, are events of one kind that move instead of being rescheduled
// (a winner tree, one leaf-to-root replay per set). Ring is a FIFO of
// small values (an index with what a decision needs, so the item itself
// need not be touched, or the whole of what a stored item needs, so that
// it is no item of a pool at all); rings and FIFOs that fill and drain in
// turn share their arrays through an Arrays pool (PushFrom, ReleaseTo).
// Pool.Prefetch starts loading an item the next
// event will use without waiting for it, Prefetch any line whose address
// is known before its data is needed. A Pool's slabs, and the tables
// a caller hands to HugePages, ask for transparent huge pages
// (HugePagesOn: whether the kernel gives them), so that a random access
// into a large table misses the cache but not the TLB; CollapseResident
// asks the same for the 2 MiB ranges of the heap that are (almost) all
// resident, which the Go runtime maps in 4 KiB pages.
package des
