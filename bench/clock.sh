#!/usr/bin/env bash
# The clock checks on real runs (never run by the tests): per execution and profile, each repetition's stamp gap
# (send stamp to the hand-over of the bytes to the transport: p50, p99, share of the RTT p50) and window fill
# (round trips/s × mean RTT ÷ clients × window), to see what the 10 % warning threshold leaves between a normal run
# and a misplaced stamp. TCP 1024 B shared, 16 × 16 and 1 × 1, netty and reactive on 1 thread, virtual threads on 2
# carriers with 1 message in flight per client (as the tests explain: on 1 carrier, or with 16 in flight, clients
# starve), fixed warm-up 1 s, 2 s measured, REPETITIONS repetitions in one JVM.
# Raw JSON and the table go to bench/results/clock-<UTC time>/.
#
#   bench/clock.sh [--repetitions N (3)]
#
# About 1.5 minutes. Run nothing else on the machine meanwhile.
set -euo pipefail
base=$(cd "$(dirname "$0")/.." && pwd)
cd "$base"
repetitions=3
while [ $# -gt 0 ]; do
  case "$1" in
    --repetitions) repetitions=$2; shift 2 ;;
    *) echo "unknown option $1 (bench/clock.sh [--repetitions N])" >&2; exit 2 ;;
  esac
done
out="bench/results/clock-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
echo "bench/clock.sh --repetitions $repetitions" > "$out/command.txt"
./loopbench --version > "$out/version.txt"
{ nproc; lscpu | grep -m1 'Model name' || true; } > "$out/machine.txt"
for execution in netty reactive virtual-threads; do
  for profile in "16 16" "1 1"; do
    set -- $profile
    clients=$1 window=$2 threads=1
    if [ "$execution" = virtual-threads ]; then window=1 threads=2; fi
    name="$execution-$clients-$window"
    ./loopbench measure --protocol tcp --payload 1024 --clients "$clients" --window "$window" --io-model shared \
      --io-threads "$threads" --execution "$execution" --warmup-mode fixed --warmup 1 --seconds 2 \
      --repetitions "$repetitions" > "$out/$name.json" 2> "$out/$name.stderr" || true
  done
done
python3 - "$out" <<'PY' | tee "$out/table.md"
import glob, json, os, sys
print("| execution, clients × window | RTT p50 µs | stamp gap p50 / p99 µs | gap ÷ RTT p50 | window fill | warned |")
print("| --- | --- | --- | --- | --- | --- |")
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    try:
        reps = json.load(open(path)).get("repetitions") or []
    except ValueError:
        reps = []
    for r in reps:
        g, w = r.get("stampGap"), r.get("windowFill")
        if not r.get("ok") or not g:
            print(f"| {os.path.basename(path)[:-5]} #{r.get('repetition')} | failed: {r.get('error')} | | | | |")
            continue
        warned = any(x.startswith("stamp gap") for x in r.get("warnings", []))
        print(f"| {os.path.basename(path)[:-5]} #{r['repetition']} | {r['latency']['p50Us']:.1f} | "
              f"{g['p50Us']:.1f} / {g['p99Us']:.1f} | {g['share'] * 100:.1f} % | "
              f"{w['ratio']:.3f} | {'yes' if warned else 'no'} |")
PY
