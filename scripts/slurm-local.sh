#!/usr/bin/env bash
# slurm-local.sh — run a sweep as a Slurm job array on a single-node Slurm
# brought up on this machine, and check that its collected CSV equals a
# local run's.
#
#   scripts/slurm-local.sh [--install] [SPEC.toml]
#
# --install: apt-get install slurm-wlm and munge first (needs root).
# Without SPEC, a 12-point throughput sweep is used. Needs: rdcn built
# (RDCN=path, default: go build into the work directory), munged,
# slurmctld, slurmd, sbatch. Everything (config, state, logs, munge
# socket) lives in a fresh work directory; the daemons it starts are
# stopped at exit (by their pid files) and the directory is removed unless
# the run failed or KEEP=1. Prints "slurm-local: CSV equal" and exits 0 on
# success. Slurm listens on two free ports from 16817 up (loopback use
# only), so that runs side by side do not talk to each other's daemons.
set -euo pipefail

if [[ "${1:-}" == "--install" ]]; then
  shift
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge
fi
for tool in munged slurmctld slurmd sbatch squeue; do
  command -v "$tool" >/dev/null || { echo "slurm-local: $tool not found (apt-get install slurm-wlm munge, or --install)" >&2; exit 3; }
done
[[ $(id -u) == 0 ]] || { echo "slurm-local: run as root (the daemons run as root here)" >&2; exit 3; }

repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/rdcn-slurm.XXXXXX)
chmod 755 "$work"
cleanup() {
  for pid in "$work"/slurmd.pid "$work"/slurmctld.pid "$work"/munged.pid; do
    [[ -f "$pid" ]] && kill "$(cat "$pid")" 2>/dev/null || true
  done
  sleep 1
  if [[ $ok == 1 && -z "${KEEP:-}" ]]; then rm -rf "$work"; else echo "slurm-local: work directory kept: $work" >&2; fi
}
ok=0
trap cleanup EXIT

rdcn=${RDCN:-}
if [[ -z "$rdcn" ]]; then
  rdcn="$work/rdcn"
  (cd "$repo" && go build -o "$rdcn" ./cmd/rdcn)
fi

spec=${1:-}
if [[ -z "$spec" ]]; then
  spec="$work/spec.toml"
  cat > "$spec" <<'TOML'
kind = "throughput"
[base]
"throughput.gap" = 0.01
[axes]
"topology.tors" = [8, 12]
"schedule.kind" = ["rotornet", "opera", "sirius"]
"throughput.demand" = ["uniform", "worst"]
TOML
fi

# munge, on a private socket, with the packaged key (or a fresh one).
key=/etc/munge/munge.key
if [[ ! -s "$key" ]]; then
  key="$work/munge.key"
  dd if=/dev/urandom of="$key" bs=1 count=1024 status=none
fi
install -m 600 "$key" "$work/munge.key"
munged --force --socket="$work/munge.socket" --key-file="$work/munge.key" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munged.seed"

host=$(hostname -s)
cpus=$(nproc)
# Two ports nothing listens on: a busy port would connect us to another
# run's controller (or fail to bind).
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
ctld_port=$((16817 + 2 * ($$ % 400)))
until port_free "$ctld_port" && port_free $((ctld_port + 1)); do
  ctld_port=$((ctld_port + 2))
  (( ctld_port < 18417 )) || { echo "slurm-local: no two free ports in 16817-18417" >&2; exit 1; }
done
mkdir -p "$work/state" "$work/spool"
cat > "$work/slurm.conf" <<CONF
ClusterName=rdcnlocal
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldPort=$ctld_port
SlurmdPort=$((ctld_port + 1))
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
  sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && break
  sleep 1
done
sinfo -h -o '%P %D %T' || true

# The sweep as a job array, then the same sweep locally.
"$rdcn" sweep --emit slurm --shards 4 --cpus 1 -o "$work/slurm-results" "$spec" > "$work/job.sh"
sbatch --wait "$work/job.sh"
"$rdcn" collect "$work/slurm-results" > "$work/slurm.csv"
"$rdcn" sweep -o "$work/local-results" "$spec" > /dev/null
"$rdcn" collect "$work/local-results" > "$work/local.csv"
if cmp -s "$work/slurm.csv" "$work/local.csv"; then
  echo "slurm-local: CSV equal ($(($(wc -l < "$work/local.csv") - 1)) rows, $(ls "$work"/slurm-results/slurm-*.out | wc -l) array tasks)"
  ok=1
else
  echo "slurm-local: CSV differ: diff $work/slurm.csv $work/local.csv" >&2
  exit 1
fi
