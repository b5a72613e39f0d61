#!/usr/bin/env bash
# Calibrates the noise the verdicts assume (never run by the tests): real A/A repetitions of this machine, each a fresh
# JVM (`./loopbench measure --repetitions 1`), REPS in a row per protocol, in two passes PASSES apart in time. Then
# bench/noise.py gives, per protocol, the scale of a round's log ratio (two back-to-back repetitions of the same
# spec) for throughput and p99, and how far the same spec drifts between the passes (separate runs). Raw JSON and
# the table go to bench/results/noise-<UTC time>/; copy the figures into io.loopbench.verdicts.NoiseFloor.
#
#   bench/noise.sh [--reps N (4)] [--protocols tcp,udp,… (all seven)] [--io "sharded 2" (shared 1)]
#
# About 10 s a repetition: 2 × N × protocols of them (10 minutes at the defaults). Run nothing else meanwhile.
set -euo pipefail
base=$(cd "$(dirname "$0")/.." && pwd)
cd "$base"
reps=4 protocols=tcp,udp,tcps,websocket,wss,http,https io="shared 1"
while [ $# -gt 0 ]; do
  case "$1" in
    --reps) reps=$2; shift 2 ;;
    --protocols) protocols=$2; shift 2 ;;
    --io) io=$2; shift 2 ;;
    *) echo "unknown option $1 (bench/noise.sh [--reps N] [--protocols LIST] [--io \"MODEL THREADS\"])" >&2; exit 2 ;;
  esac
done
out="bench/results/noise-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
echo "bench/noise.sh --reps $reps --protocols $protocols --io \"$io\"" > "$out/command.txt"
./loopbench --version > "$out/version.txt"
{ nproc; lscpu | grep -m1 'Model name' || true; } > "$out/machine.txt"
for pass in 1 2; do
  for p in ${protocols//,/ }; do
    window=16
    [ "$p" = udp ] && window=1 # as arknet's UDP runs: one datagram in flight per client
    for ((i = 1; i <= reps; i++)); do
      ./loopbench measure --protocol "$p" --payload 1024 --clients 16 --window "$window" --io-model "${io% *}" \
        --io-threads "${io#* }" --repetitions 1 > "$out/$p-$pass-$i.json" 2> "$out/$p-$pass-$i.stderr" || true
    done
  done
done
python3 bench/noise.py "$out" | tee "$out/table.md"
