#!/usr/bin/env bash
# samecore.sh OLD NEW CONFIG [ROUNDS] [SIM_TIME]: compares the CPU seconds
# of two rdcn binaries on one perf configuration. Each round runs OLD and
# NEW at the same time on the same core (the scheduler interleaves them,
# so both see the same machine), once on each of cores 0 and 1, and
# prints NEW/OLD per pair. On a shared 2-core machine, A/A ratios stay
# within 0.995–1.012; runs on different cores or one after the other
# varied by ±7 %. It also reports when the two runs' outputs differ.
#
#   go build -o /tmp/old ./cmd/rdcn   # on the base commit
#   go build -o /tmp/new ./cmd/rdcn   # on the change
#   fabric/testdata/perf/samecore.sh /tmp/old /tmp/new fabric/testdata/perf/a-rotornet.toml 3
#
# OLD_SET and NEW_SET add configuration keys (space-separated key=value)
# to one side, e.g. a law against the fixed window with one binary:
#
#   NEW_SET=transport.cc=powertcp fabric/testdata/perf/samecore.sh \
#     /tmp/new /tmp/new fabric/testdata/perf/leafspine-abm.toml 3
set -euo pipefail
if [ $# -lt 3 ]; then
	echo "usage: $0 OLD NEW CONFIG [ROUNDS] [SIM_TIME]" >&2
	exit 2
fi
old=$1 new=$2 cfg=$3 rounds=${4:-3} simtime=${5:-100ms}
oldset=() newset=()
for kv in ${OLD_SET:-}; do oldset+=(--set "$kv"); done
for kv in ${NEW_SET:-}; do newset+=(--set "$kv"); done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cpu() { sed -n 's/.*"cpu_seconds": *\([0-9.eE+-]*\).*/\1/p' "$1/perf.json"; }
ratios=()
for r in $(seq "$rounds"); do
	for c in 0 1; do
		taskset -c "$c" "$old" simulate --config "$cfg" -q -o "$dir/old$c" --set run.sim_time="$simtime" ${oldset[@]+"${oldset[@]}"} >/dev/null &
		taskset -c "$c" "$new" simulate --config "$cfg" -q -o "$dir/new$c" --set run.sim_time="$simtime" ${newset[@]+"${newset[@]}"} >/dev/null &
	done
	wait
	for c in 0 1; do
		a=$(cpu "$dir/old$c") b=$(cpu "$dir/new$c")
		ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
		ratios+=("$ratio")
		echo "round $r core $c: old $a s, new $b s, new/old $ratio"
		for f in flows.csv timeseries.csv buffer_cdf.csv workload.flows; do
			cmp -s "$dir/old$c/$f" "$dir/new$c/$f" || echo "  outputs differ: $f"
		done
		diff <(grep -v '"events"' "$dir/old$c/summary.json") <(grep -v '"events"' "$dir/new$c/summary.json") >/dev/null ||
			echo "  outputs differ: summary.json (besides the event count)"
	done
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ r[NR] = $1 } END { m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2; printf "median new/old %.3f (%s to %s, %d pairs)\n", m, r[1], r[NR], NR }'
