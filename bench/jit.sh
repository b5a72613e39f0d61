#!/usr/bin/env bash
# The JIT warning's calibration (never run by the tests): on steady references — repetitions after the first in one
# JVM, each after its own auto warm-up — how often does each rule warn, and does a cold phase still warn? Per
# protocol at 1024 B, 16 clients × window 16, shared 1, ROUNDS times:
#
#   warm   ./loopbench measure --seconds S --repetitions 4 (default auto warm-up): repetition 1 shows where the auto
#          warm-up stopped and why, repetitions 3 and 4 are the steady references
#   cold   ./loopbench measure --warmup 0 --seconds 1 --repetitions 1: a fresh JVM's first phase, which must warn
#
# bench/jit.py reads every repetition's JIT record and judges it by both rules: the old one (any deoptimization or
# 1 ms of compilation anywhere in the JVM) and today's (JitActivity: the measured path's deoptimizations and C2/OSR
# compilations together over JitActivity.PATH_CHANGES_ALLOWED, or the compilers over 2.5 % of the phase's CPU
# capacity). Raw JSON, stderr and the table go to bench/results/jit-<UTC time>/.
#
#   bench/jit.sh [--rounds N (2)] [--seconds S (2)] [--protocols "tcp udp ..." (all seven)]
#
# About 25 s per protocol and round for the warm runs, 3 s for the cold ones (6 to 8 minutes at the defaults). Run
# nothing else on the machine meanwhile.
set -euo pipefail
base=$(cd "$(dirname "$0")/.." && pwd)
cd "$base"

rounds=2 seconds=2 protocols="tcp udp tcps websocket wss http https"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --protocols) protocols=$2; shift 2 ;;
    *) echo "unknown option $1 (bench/jit.sh [--rounds N] [--seconds S] [--protocols LIST])" >&2; exit 2 ;;
  esac
done

out="bench/results/jit-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
echo "bench/jit.sh --rounds $rounds --seconds $seconds --protocols \"$protocols\"" > "$out/command.txt"
./loopbench --version > "$out/version.txt"
{ nproc; lscpu | grep -m1 'Model name' || true; } > "$out/machine.txt"

load="--payload 1024 --clients 16 --window 16 --io-model shared --io-threads 1"
for ((r = 1; r <= rounds; r++)); do
  for p in $protocols; do
    echo "[jit] round $r: $p" >&2
    # a failed repetition is tabulated as failed, not fatal
    ./loopbench measure --protocol "$p" $load --seconds "$seconds" --repetitions 4 \
      > "$out/warm-$p-round$r.json" 2> "$out/warm-$p-round$r.stderr" || true
    ./loopbench measure --protocol "$p" $load --warmup 0 --seconds 1 --repetitions 1 \
      > "$out/cold-$p-round$r.json" 2> "$out/cold-$p-round$r.stderr" || true
  done
done
python3 bench/jit.py "$out" | tee "$out/table.md"
