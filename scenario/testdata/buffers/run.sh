#!/bin/sh
# Runs the buffer-policy experiments of docs/buffers.md with rdcn simulate
# and prints their tables. Usage (from the repository root):
#   go build -o rdcn ./cmd/rdcn && sh scenario/testdata/buffers/run.sh ./rdcn [OUT [SECTIONS]]
# SECTIONS (default all) picks tables: abm credence protean rotor tdt reverie fb.
# Each config names its paper's transport (transport.cc); rows that run
# another one say so.
# Metrics come from each run's flows.csv: incast flows are those with a
# query id (column 15), background flows the others; percentiles are
# nearest-rank over the completed flows; "unfin" counts flows that did not
# complete by run.sim_time (in no percentile).
set -eu
RDCN=${1:?usage: run.sh path/to/rdcn [outdir]}
OUT=${2:-rdcn-buffers}
SECTIONS=${3:-abm credence protean rotor tdt reverie fb}
want() { case " $SECTIONS " in *" $1 "*) return 0 ;; esac; return 1; }
DIR=$(dirname "$0")
mkdir -p "$OUT"

# pct FILE P COL FILTER: the P-quantile of column COL of completed flows
# matching FILTER (incast, short: background < 100 KB, long: background ≥ 1 MB).
pct() {
	awk -F, -v col="$3" -v f="$4" 'NR > 1 && $6 == "true" {
		inc = $15 != 0
		if ((f == "incast" && inc) || (f == "short" && !inc && $4 < 100000) || (f == "long" && !inc && $4 >= 1000000)) print $col
	}' "$1" | sort -g | awk -v p="$2" '{v[NR] = $1} END {
		if (NR == 0) { print "-"; exit }
		k = int(p * NR); if (k < p * NR) k++; if (k < 1) k = 1
		printf "%.4g\n", v[k]
	}'
}
unfin() { awk -F, 'NR > 1 && $6 != "true" && $15 != 0 {n++} END {print n + 0}' "$1"; }
drops() { sed -n 's/.*"drop_rate": \([0-9.e+-]*\).*/\1/p' "$1" | head -1; }

run() { # name config keys... (sh has no locals: run_ names are its own)
	run_n=$1 run_c=$2
	shift 2
	run_a=""
	for kv in "$@"; do run_a="$run_a --set $kv"; done
	# shellcheck disable=SC2086
	"$RDCN" simulate -q -c "$run_c" $run_a -o "$OUT/$run_n" 2>"$OUT/$run_n.stderr" || { cat "$OUT/$run_n.stderr" >&2; exit 1; }
}

# row NAME LABEL P:COL:FILTER…: a table row of run NAME: LABEL, the
# percentiles asked for, incast flows unfinished, the drop rate.
row() {
	row_n=$1 row_s="| $2"
	shift 2
	for m in "$@"; do
		row_c=${m#*:}
		row_s="$row_s | $(pct "$OUT/$row_n/flows.csv" "${m%%:*}" "${row_c%%:*}" "${m##*:}")"
	done
	echo "$row_s | $(unfin "$OUT/$row_n/flows.csv") | $(drops "$OUT/$row_n/summary.json") |"
}

if want abm; then
echo "## ABM: incast 99p slowdown (request 30 % of buffer; Cubic, minRTO 10 ms; DCTCP rows: K = 65 packets)"
echo "| load | policy | incast p99 slowdown | short p99 slowdown | incast unfinished | drop rate |"
for load in 0.05:20 0.1:40 0.2:80; do
	l=${load%%:*} pc=${load##*:}
	for p in dt fab cs ib abm; do
		run "abm-$pc-$p" "$DIR/abm-incast.toml" "workload.load=$l" "buffer.policy=$p"
		row "abm-$pc-$p" "$pc % | $p" 0.99:9:incast 0.99:9:short
	done
done
for p in dt fab cs ib abm; do
	run "abm-40-dctcp-$p" "$DIR/abm-incast.toml" "workload.load=0.1" "buffer.policy=$p" transport.cc=dctcp buffer.ecn_threshold=65pkt
	row "abm-40-dctcp-$p" "40 % | $p, DCTCP" 0.99:9:incast 0.99:9:short
done
echo
fi

if want credence; then
echo "## Credence: incast 95p FCT (µs), bursts 50 % of buffer (DCTCP, K = 10 packets, minRTO 10 ms)"
echo "| load | policy | incast p95 FCT | long p95 FCT | short p95 FCT | incast unfinished | drop rate |"
for load in 0.05:20 0.1:40 0.2:80; do
	l=${load%%:*} pc=${load##*:}
	ps="dt abm lqd credence"
	[ "$pc" = 40 ] && ps="$ps credence:0.001 credence:0.005 credence:0.01 credence:0.05 credence:0.1"
	for p in $ps; do
		pol=${p%%:*} name=$(echo "$p" | tr : -)
		keys="workload.load=$l buffer.policy=$pol"
		[ "$pol" != "$p" ] && keys="$keys buffer.flip=${p##*:}"
		# shellcheck disable=SC2086
		run "cred-$pc-$name" "$DIR/credence-incast.toml" $keys
		row "cred-$pc-$name" "$pc % | $p" 0.95:7:incast 0.95:7:long 0.95:7:short
	done
done
# Credence with a model trained here the way the built-in one is (the
# training scenario of fabric/testdata/credence/train.toml: DCTCP, 100 ms); its rows
# must equal the built-in model's
"$RDCN" credence train -c "$DIR/../../../fabric/testdata/credence/train.toml" --set transport.cc=dctcp --set buffer.ecn_threshold=10pkt \
	--set transport.min_rto=10ms --set workload.duration=100ms --set run.sim_time=120ms \
	-o "$OUT/credence-dctcp.model" >"$OUT/credence-dctcp.train" 2>&1 || { cat "$OUT/credence-dctcp.train" >&2; exit 1; }
for p in 0.05:20:0 0.1:40:0 0.2:80:0 0.1:40:0.001 0.1:40:0.005 0.1:40:0.01; do
	l=${p%%:*} f=${p##*:} pc=${p#*:}
	pc=${pc%%:*}
	run "cred-$pc-dctcpmodel-$f" "$DIR/credence-incast.toml" "workload.load=$l" buffer.policy=credence \
		"buffer.credence_model=$OUT/credence-dctcp.model" "buffer.flip=$f"
	row "cred-$pc-dctcpmodel-$f" "$pc % | credence:$f, DCTCP-trained model" 0.95:7:incast 0.95:7:long 0.95:7:short
done
# the earlier transport (a fixed 64-packet window, no ECN), for comparison
for p in dt abm lqd credence; do
	run "cred-40-fixed-$p" "$DIR/credence-incast.toml" "buffer.policy=$p" transport.cc=fixed transport.window=64pkt buffer.ecn_threshold= \
		transport.init_window=10pkt transport.incast_init_window=
	row "cred-40-fixed-$p" "40 % | $p, fixed window" 0.95:7:incast 0.95:7:long 0.95:7:short
done
echo
fi

if want protean; then
echo "## Protean: tail incast FCT (µs), incast 75 % of buffer, 40 % load (Cubic, minRTO 10 ms; DCTCP rows: K = 65 packets)"
echo "| policy | incast p99.9 FCT | incast p99 FCT | short p99.9 FCT | incast unfinished | drop rate |"
for p in dt cs protean; do
	run "protean-$p" "$DIR/protean-incast.toml" "buffer.policy=$p"
	row "protean-$p" "$p" 0.999:7:incast 0.99:7:incast 0.999:7:short
done
for p in dt cs protean; do
	run "protean-dctcp-$p" "$DIR/protean-incast.toml" "buffer.policy=$p" transport.cc=dctcp buffer.ecn_threshold=65pkt
	row "protean-dctcp-$p" "$p, DCTCP" 0.999:7:incast 0.99:7:incast 0.999:7:short
done
echo
fi

if want rotor; then
echo "## RotorNet ToRs (RotorLB, websearch 30 % + incast): DT vs ABM vs Credence"
echo "| policy | incast p99 FCT | short p99 FCT | long p50 FCT | incast unfinished | drop rate |"
for p in dt abm credence lqd; do
	run "rotor-$p" "$DIR/rotor-incast.toml" "buffer.policy=$p"
	row "rotor-$p" "$p" 0.99:7:incast 0.99:7:short 0.5:7:long
done
# ABM with n_p held near 1 (no VOQ counts as congested)
run "rotor-abm-sat" "$DIR/rotor-incast.toml" "buffer.policy=abm" "buffer.sat=1e9"
row "rotor-abm-sat" "abm, sat=1e9" 0.99:7:incast 0.99:7:short 0.5:7:long
echo
fi

if want tdt; then
echo "## TDT: homogeneous UDP, 2 overwhelmed ports: lossless-burst ratio"
echo "| policy | bursts | lossless | ratio | drop rate |"
for p in dt edt tdt; do
	run "tdt-$p" "$DIR/tdt-udp.toml" "buffer.policy=$p" "workload.flows_file=$DIR/tdt/tdt.flows"
	# a burst: the 8 flows to one of ports 0–7 that start together; lossless
	# if all their bytes arrived
	awk -F, -v p="$p" 'NR > 1 && $3 < 8 {k = $3 " " $5; n[k]++; if ($10 != $4) bad[k] = 1}
		END {for (k in n) if (n[k] == 8) {b++; if (!bad[k]) ok++}; printf "| %s | %d | %d | %.1f %% |", p, b, ok, 100 * ok / b}' "$OUT/tdt-$p/flows.csv"
	echo " $(drops "$OUT/tdt-$p/summary.json") |"
done
echo
fi

# field FILE KEY: a number of summary.json (the first KEY)
field() { sed -n "s/.*\"$2\": \([0-9.e+-]*\).*/\1/p" "$1" | head -1; }

if want reverie; then
echo "## Reverie: PFC pauses, lossless incast (2 MB) + lossy websearch (DCQCN for both classes, ECN above 100 KB)"
echo "| load | policy | pause frames | paused (µs, all upstream classes) | incast p99 FCT | lossless dropped | drop rate (lossy) |"
for load in 0.05:20 0.1:40 0.2:80; do
	l=${load%%:*} pc=${load##*:}
	for p in reverie sonic sonic-abm dt; do
		run "rev-$pc-$p" "$DIR/reverie-pfc.toml" "workload.load=$l" "buffer.policy=$p"
		s="$OUT/rev-$pc-$p/summary.json"
		echo "| $pc % | $p | $(field "$s" pause_frames) | $(field "$s" paused_us) | $(pct "$OUT/rev-$pc-$p/flows.csv" 0.99 7 incast) | $(field "$s" lossless_dropped) | $(drops "$s") |"
	done
done
# Reverie's low-pass filter: pauses should fall as gamma → 1
for g in 0.5 0.9 0.99; do
	run "rev-80-g$g" "$DIR/reverie-pfc.toml" "workload.load=0.2" "buffer.gamma=$g"
	s="$OUT/rev-80-g$g/summary.json"
	echo "| 80 % | reverie, gamma $g | $(field "$s" pause_frames) | $(field "$s" paused_us) | $(pct "$OUT/rev-80-g$g/flows.csv" 0.99 7 incast) | $(field "$s" lossless_dropped) | $(drops "$s") |"
done
echo
fi

want fb || exit 0
echo "## FB: QCT / throughput / buffer (queries 50 % of buffer; THP: delivered load of the leaf uplinks; BUF: mean leaf buffer; TCP: NewReno, minRTO 100 ms; DCTCP: ECN step at 20 packets)"
echo "| deployment | load | policy | QCT mean (ms) | THP (%) | BUF (%) | incast flows unfinished | drop rate |"
for dep in multi:3:tcp single:1:tcp multi:3:dctcp; do
	d=${dep%%:*} tr=${dep##*:} nq=${dep#*:}
	nq=${nq%%:*}
	pols="fb dt cs fba"
	keys="topology.queues_per_port=$nq"
	[ "$tr" = dctcp ] && keys="$keys transport.cc=dctcp buffer.ecn_threshold=20pkt"
	if [ "$d" = single ]; then pols="fb dt cs fab ib"; keys="$keys topology.incast_queue= buffer.hi_queues=0"; fi
	for load in 0.18:high 0.08:low; do
		l=${load%%:*} ln=${load##*:}
		for p in $pols; do
			n="fb-$d-$tr-$ln-$p"
			k="$keys"
			case $p in cs | fab | ib) k="$k buffer.hi_queues=" ;; esac
			# shellcheck disable=SC2086
			run "$n" "$DIR/fb-query.toml" "workload.load=$l" "buffer.policy=$p" $k
			s="$OUT/$n/summary.json"
			awk -v d="$d, $tr" -v ln="$ln" -v p="$p" -v q="$(sed -n '/"qct_us"/,/}/s/.*"mean": \([0-9.e+-]*\).*/\1/p' "$s")" \
				-v dl="$(field "$s" delivered_load)" -v buf="$(field "$s" mean_bytes)" -v st="$(field "$s" started)" \
				'BEGIN {printf "| %s | %s | %s | %.1f | %.0f | %.0f |", d, ln, p, q / 1000, 500 * dl, buf / 10000}'
			echo " $(unfin "$OUT/$n/flows.csv") | $(drops "$s") |"
		done
	done
done
