#!/usr/bin/env bash
# identical.sh OLD NEW [SIM_TIME]: runs two rdcn binaries on the runs an
# engine change must leave byte-identical — (a) RotorNet, (a) Opera, (a)
# Opera with NDP, (b) RotorNet, the ABM leaf-spine and a plain
# `rdcn simulate` (and its leaf-spine) — and compares flows.csv,
# timeseries.csv, buffer_cdf.csv and summary.json (but its event count).
# SIM_TIME (default: each configuration's own) shortens the runs. Exits 1
# if any output differs.
#
#   go build -o /tmp/old ./cmd/rdcn   # on the base commit
#   go build -o /tmp/new ./cmd/rdcn   # on the change
#   fabric/testdata/perf/identical.sh /tmp/old /tmp/new 20ms
set -euo pipefail
if [ $# -lt 2 ]; then
	echo "usage: $0 OLD NEW [SIM_TIME]" >&2
	exit 2
fi
old=$1 new=$2 simtime=${3:-}
perf=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
: >"$dir/empty.toml"
runs=(
	"a-rotornet|$perf/a-rotornet.toml|"
	"a-opera|$perf/a-opera.toml|"
	"a-opera-ndp|$perf/a-opera.toml|transport.kind=ndp"
	"b-rotornet|$perf/b-rotornet.toml|"
	"leafspine-abm|$perf/leafspine-abm.toml|"
	"default|$dir/empty.toml|"
	"default-leafspine|$dir/empty.toml|topology.kind=leafspine"
)
status=0
for r in "${runs[@]}"; do
	IFS='|' read -r name cfg keys <<<"$r"
	args=(simulate --config "$cfg" -q)
	[ -n "$keys" ] && args+=(--set "$keys")
	[ -n "$simtime" ] && args+=(--set run.sim_time="$simtime")
	"$old" "${args[@]}" -o "$dir/$name-old" >/dev/null 2>&1 &
	"$new" "${args[@]}" -o "$dir/$name-new" >/dev/null 2>&1 &
	wait
	same=yes
	for f in flows.csv timeseries.csv buffer_cdf.csv; do
		if ! cmp -s "$dir/$name-old/$f" "$dir/$name-new/$f"; then
			echo "$name: $f differs"
			same=no
		fi
	done
	if ! diff <(grep -v '"events"' "$dir/$name-old/summary.json") <(grep -v '"events"' "$dir/$name-new/summary.json") >/dev/null; then
		echo "$name: summary.json differs (besides the event count)"
		same=no
	fi
	if [ "$same" = yes ]; then
		echo "$name: identical ($(wc -l <"$dir/$name-new/flows.csv") lines of flows.csv)"
	else
		status=1
	fi
done
exit $status
