#!/usr/bin/env bash
# The open-loop pacer's spin cap, side by side (never run by the tests): TCP 1024 B, 4 clients × window 4, shared 1,
# open load at 20,000 messages/s, with the cap on the pacer's spin before each send (LoopPacer.MAX_LEAD_NANOS, set
# through -Dloopbench.pacer.maxLeadMicros) at 20 µs (the default), 50 µs and 200 µs, alternated round by round.
# Shows what precise sends cost on a machine whose timers wake a loop late: send lag against CPU and against the
# echoes' own RTT. Raw JSON to bench/results/pacer-<UTC time>/, the table to stdout and its table.md.
#
#   bench/pacer.sh [--rounds N (3)] [--seconds S (3)]
set -euo pipefail
base=$(cd "$(dirname "$0")/.." && pwd)
cd "$base"
rounds=3 seconds=3
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    *) echo "unknown option $1 (bench/pacer.sh [--rounds N] [--seconds S])" >&2; exit 2 ;;
  esac
done
out="bench/results/pacer-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
echo "bench/pacer.sh --rounds $rounds --seconds $seconds" > "$out/command.txt"
caps=(20 50 200)
./loopbench --version >/dev/null
for round in $(seq 1 "$rounds"); do
  for k in 0 1 2; do
    cap=${caps[$(( (k + round - 1) % 3 ))]}
    echo "[pacer] round $round/$rounds, cap $cap us" >&2
    LOOPBENCH_JAVA_OPTS="-Xms32m -Xmx256m -XX:+UseSerialGC -Dloopbench.pacer.maxLeadMicros=$cap" ./loopbench measure \
      --protocol tcp --payload 1024 --clients 4 --window 4 --io-model shared --io-threads 1 --load open \
      --rate 20000 --seconds "$seconds" --repetitions 1 > "$out/cap$cap-round$round.json" 2>> "$out/stderr.log" || true
  done
done
python3 - "$out" <<'PY' | tee "$out/table.md"
import glob, json, re, statistics, sys
rows = {}
for path in sorted(glob.glob(sys.argv[1] + "/cap*-round*.json")):
    cap = int(re.search(r"cap(\d+)-", path).group(1))
    r = json.load(open(path))["repetitions"][0]
    rows.setdefault(cap, []).append(r)
print("| spin cap µs | passed | CPU % | send lag p50 / p99 µs | corrected p50 µs | uncorrected p50 µs "
      "| corrected ÷ uncorrected p50 | late | dropped |")
print("|---|---|---|---|---|---|---|---|---|")
for cap, reps in sorted(rows.items()):
    m = lambda f: statistics.median(f(r) for r in reps)
    lo_hi = lambda f: f"{min(f(r) for r in reps):,.1f}–{max(f(r) for r in reps):,.1f}"
    print(f"| {cap} | {sum(r['ok'] for r in reps)} of {len(reps)} | {m(lambda r: r['cpu']['percent']):.0f} "
          f"({lo_hi(lambda r: r['cpu']['percent'])}) "
          f"| {m(lambda r: r['openLoad']['sendLag']['p50Us']):.1f} / {m(lambda r: r['openLoad']['sendLag']['p99Us']):,.1f} "
          f"| {m(lambda r: r['latency']['p50Us']):.1f} | {m(lambda r: r['uncorrectedLatency']['p50Us']):.1f} "
          f"| {m(lambda r: r['latency']['p50Us'] / r['uncorrectedLatency']['p50Us']):.2f} "
          f"| {m(lambda r: r['openLoad']['lateMessages']):,.0f} | {m(lambda r: r['openLoad']['droppedMessages']):,.0f} |")
PY
