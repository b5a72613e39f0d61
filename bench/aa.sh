#!/usr/bin/env bash
# A/A on real runs (never run by the tests): is the verdict rule's error rate what it claims on this machine? One
# spec is measured 2 × PAIRS × TRIALS times by `./loopbench measure` (in-process repetitions, one after the other,
# whole trials per run), and bench/AaVerdicts.java reads them as TRIALS trials of PAIRS alternated pairs A, B and decides each
# trial's B ÷ A by the rule (io.loopbench.verdicts): with no true difference, at most 1 trial in 20 may be called
# different. The old min–max rule's verdict on the same trials is printed beside it. Raw JSON and the table go to
# bench/results/aa-<UTC time>/.
#
#   bench/aa.sh [--trials N (20)] [--pairs P (7)] [--seconds S (0.5)]
#
# About (S + 0.4) × 2 × P × N seconds (4 minutes at the defaults). Run nothing else on the machine meanwhile.
set -euo pipefail
base=$(cd "$(dirname "$0")/.." && pwd)
cd "$base"

trials=20 pairs=7 seconds=0.5
while [ $# -gt 0 ]; do
  case "$1" in
    --trials) trials=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    *) echo "unknown option $1 (bench/aa.sh [--trials N] [--pairs P] [--seconds S])" >&2; exit 2 ;;
  esac
done

out="bench/results/aa-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
echo "bench/aa.sh --trials $trials --pairs $pairs --seconds $seconds" > "$out/command.txt"
./loopbench --version > "$out/version.txt"
{ nproc; lscpu | grep -m1 'Model name' || true; } > "$out/machine.txt"

# at most 100 repetitions a run: each run holds whole trials
per=$((100 / (2 * pairs)))
files=()
for ((done = 0, i = 1; done < trials; done += per, i++)); do
  n=$((trials - done < per ? trials - done : per))
  ./loopbench measure --protocol tcp --payload 1024 --clients 16 --window 16 --io-model shared --io-threads 1 \
    --warmup-mode fixed --warmup 0.3 --seconds "$seconds" --repetitions $((2 * pairs * n)) \
    > "$out/measure-$i.json" 2> "$out/measure-$i.stderr" || true # a failed repetition is left out, not fatal
  files+=("$out/measure-$i.json")
done

java=$(sed -n 's:.*<jdkHome>\(.*\)</jdkHome>.*:\1:p' "${HOME}/.m2/discovered-jdk-toolchains-cache.xml" 2>/dev/null \
  | while read -r h; do [ -x "$h/bin/java" ] && grep -q '^JAVA_VERSION="2[1-9]' "$h/release" && echo "$h/bin/java"; done \
  | head -1 || true)
"${java:-java}" -cp "target/classes:$(cat target/classpath.txt)" bench/AaVerdicts.java "$pairs" "${files[@]}" \
  | tee "$out/table.md"
