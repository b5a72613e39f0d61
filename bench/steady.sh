#!/usr/bin/env bash
# Forked versus warmed (never run by the tests): does a repetition in a fresh JVM with default settings — what the
# service does for every repetition — measure what a warmed JVM measures? Issue 9's target: throughput median
# >= 0.9x and p99 <= 1.5x the warmed JVM's, on TCP 1024 B/16 clients/window 16 with shared 1, shared 2 and sharded 2,
# and on 64 B/1/1 with shared 1. Each round runs, for every case, three variants back to back:
#
#   aot     LOOPBENCH_AOT=on ./loopbench measure CASE --seconds S --repetitions 1: a fresh JVM, defaults (auto
#           warm-up), started from the AOT cache
#   cds     the same with LOOPBENCH_AOT=off (the default): started from the CDS archive (classes only)
#   warmed  LOOPBENCH_AOT=off ./loopbench measure CASE --seconds S --repetitions 3 --warmup-mode fixed --warmup 1,
#           of which only the 3rd repetition counts: the steady state, free of any trained profile
#
# in that order in odd rounds and reversed in even ones, the starting case rotated per round, so that no variant or
# case always runs first. Raw JSON and each run's stderr (its progress lines say when the JVM reached each phase) go
# to bench/results/steady-<UTC time>/, the table (bench/steady.py) to its table.md and to stdout.
#
#   bench/steady.sh [--rounds N (3)] [--seconds S (2)]
#
# About 35 s per case and round at the defaults (7 to 8 minutes in all). Run nothing else on the machine meanwhile.
set -euo pipefail
base=$(cd "$(dirname "$0")/.." && pwd)
cd "$base"

rounds=3 seconds=2
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    *) echo "unknown option $1 (bench/steady.sh [--rounds N] [--seconds S])" >&2; exit 2 ;;
  esac
done

cases=(
  "--protocol tcp --payload 1024 --clients 16 --window 16 --io-model shared --io-threads 1"
  "--protocol tcp --payload 1024 --clients 16 --window 16 --io-model shared --io-threads 2"
  "--protocol tcp --payload 1024 --clients 16 --window 16 --io-model sharded --io-threads 2"
  "--protocol tcp --payload 64 --clients 1 --window 1 --io-model shared --io-threads 1"
)
variants=(aot cds warmed)

out="bench/results/steady-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
command="bench/steady.sh --rounds $rounds --seconds $seconds"
echo "$command" > "$out/command.txt"

# Outside any measurement: build, train the AOT cache, and write the CDS archive anew from a short measurement, so
# that it holds the engine's classes rather than only those of whichever command happened to run first.
./loopbench --version >/dev/null
rm -f target/loopbench-cli.jsa
# (A cold half second may fail the fairness check; the archive is written all the same.)
LOOPBENCH_AOT=off ./loopbench measure --warmup-mode fixed --warmup 0.2 --seconds 0.5 --repetitions 1 >/dev/null 2>&1 \
  || true

run() { # variant case-index round
  local args file="$out/case$(($2 + 1))-$1-round$3"
  # shellcheck disable=SC2206
  args=(${cases[$2]})
  case "$1" in
    aot) LOOPBENCH_AOT=on ./loopbench measure "${args[@]}" --seconds "$seconds" --repetitions 1 ;;
    cds) LOOPBENCH_AOT=off ./loopbench measure "${args[@]}" --seconds "$seconds" --repetitions 1 ;;
    warmed) LOOPBENCH_AOT=off ./loopbench measure "${args[@]}" --seconds "$seconds" --repetitions 3 \
              --warmup-mode fixed --warmup 1 ;;
  esac > "$file.json" 2> "$file.err" || true
}

n=${#cases[@]}
for round in $(seq 1 "$rounds"); do
  order=("${variants[@]}")
  if [ $((round % 2)) -eq 0 ]; then
    order=(); for ((v = ${#variants[@]} - 1; v >= 0; v--)); do order+=("${variants[$v]}"); done
  fi
  for k in $(seq 0 $((n - 1))); do
    i=$(( (k + round - 1) % n ))
    for variant in "${order[@]}"; do
      echo "[steady] round $round/$rounds, case $((i + 1))/$n, $variant: ${cases[$i]}" >&2
      run "$variant" "$i" "$round"
    done
  done
done
python3 bench/steady.py "$out" "$command" | tee "$out/table.md"
echo "raw results in $out" >&2
