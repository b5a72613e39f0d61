#!/usr/bin/env bash
# The open-load fairness warning's calibration (never run by the tests): on even layouts, how far apart are the
# clients' corrected p99s of a steady repetition, and how often does OpenLoad.ClientSpread's rule (slowest client's
# p99 over MAX_P99_SPREAD × the fastest's, once each has MIN_MESSAGES observations) warn? TCP 1024 B, CLIENTS clients
# × window 16, open load at RATE messages/s (far below what loopback carries here), per layout ROUNDS times:
#
#   ./loopbench measure --load open --rate RATE --seconds S --repetitions 4 (default auto warm-up): repetitions 3 and
#   4 are the steady references
#
# bench/openspread.py tabulates every steady reference's spread and says which threshold would keep the warning to at
# most 1 in 20 of them. Raw JSON, stderr and the table go to bench/results/openspread-<UTC time>/.
#
#   bench/openspread.sh [--rounds N (3)] [--seconds S (2)] [--rate R (20000)] [--clients C (4)]
#                       [--layouts "shared:1 sharded:2 shared:2"]
#
# About 30 s per layout and round (4 to 5 minutes at the defaults). Run nothing else on the machine meanwhile.
set -euo pipefail
base=$(cd "$(dirname "$0")/.." && pwd)
cd "$base"

rounds=3 seconds=2 rate=20000 clients=4 layouts="shared:1 sharded:2 shared:2"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --layouts) layouts=$2; shift 2 ;;
    *) echo "unknown option $1 (bench/openspread.sh [--rounds N] [--seconds S] [--rate R] [--clients C] [--layouts LIST])" >&2
       exit 2 ;;
  esac
done

out="bench/results/openspread-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
echo "bench/openspread.sh --rounds $rounds --seconds $seconds --rate $rate --clients $clients --layouts \"$layouts\"" \
  > "$out/command.txt"
./loopbench --version > "$out/version.txt"
{ nproc; lscpu | grep -m1 'Model name' || true; } > "$out/machine.txt"

for ((r = 1; r <= rounds; r++)); do
  for layout in $layouts; do
    model=${layout%%:*} threads=${layout##*:}
    echo "[openspread] round $r: $model $threads" >&2
    # a failed repetition is tabulated as failed, not fatal
    ./loopbench measure --protocol tcp --payload 1024 --clients "$clients" --window 16 --io-model "$model" \
      --io-threads "$threads" --load open --rate "$rate" --seconds "$seconds" --repetitions 4 \
      > "$out/$model-$threads-round$r.json" 2> "$out/$model-$threads-round$r.stderr" || true
  done
done
python3 bench/openspread.py "$out" | tee "$out/table.md"
