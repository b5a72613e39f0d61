#!/usr/bin/env bash
# Where loopbench's CPU per round trip goes, in the kernel's view (never run by the tests): perf samples one fresh
# `./loopbench measure` per layout (tcp, 16 clients x window 16 x 1 KiB, epoll, 1 s fixed warm-up, 3 s measured) at
# 1999 Hz, from 2.2 s after its start, with the JIT's symbols (-XX:+DumpPerfMapAtExit); the report keeps the middle of
# the measured phase (5 %-65 % of the samples) and splits it by thread, then the event-loop threads' samples into the
# kernel and user space, and user space into loopbench's own code, Netty, the clock and the rest. Beside
# bench/layout.py: the C pair there spends its CPU in the kernel alone. Needs perf (root, or perf_event_paranoid <= 1).
#   bench/gapprofile.sh [LAYOUT ...]   (default: "shared 1" "sharded 2")
set -euo pipefail
base=$(cd "$(dirname "$0")/.." && pwd)
cd "$base"
command -v perf > /dev/null || { echo "bench/gapprofile.sh needs perf" >&2; exit 2; }
[ $# -gt 0 ] || set -- "shared 1" "sharded 2"
out="bench/results/gapprofile-$(date -u +%Y%m%dT%H%MZ)"
mkdir -p "$out"
echo "\`bench/gapprofile.sh $*\` at $(git rev-parse --short HEAD)" > "$out/README.md"
./loopbench --version > /dev/null   # builds first, outside any measurement
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for layout in "$@"; do
  read -r model threads <<< "$layout"
  name="$model$threads"
  LOOPBENCH_JAVA_OPTS="-Xms32m -Xmx640m -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit" \
    perf record -q -D 2200 -F 1999 -o "$work/$name.data" -- ./loopbench measure --protocol tcp --io-model "$model" \
    --io-threads "$threads" --transport epoll --clients 16 --window 16 --payload 1024 --seconds 3 --warmup 1 \
    --warmup-mode fixed --repetitions 1 > "$out/$name.json" 2> "$out/$name.log"
  perf report -i "$work/$name.data" --time 5%-65% --no-children --sort comm -g none --stdio 2> /dev/null \
    | grep '%' > "$out/$name-threads.txt"
  perf report -i "$work/$name.data" --time 5%-65% --no-children --comm loopbench-epoll --sort symbol -g none \
    --stdio 2> /dev/null | grep '%' > "$out/$name-symbols.txt"
done
python3 - "$out" "$@" <<'PY' | tee "$out/summary.txt"
import json, re, sys
out = sys.argv[1]
for layout in sys.argv[2:]:
    name = layout.replace(" ", "")
    r = json.load(open(f"{out}/{name}.json"))["repetitions"][0]
    per_rt = r["cpu"]["seconds"] / r["messages"] * 1e6
    loops = next((float(l.split("%")[0]) for l in open(f"{out}/{name}-threads.txt") if "loopbench-epoll" in l), 0)
    parts = {"kernel": 0.0, "loopbench": 0.0, "netty": 0.0, "clock": 0.0, "other user": 0.0}
    for line in open(f"{out}/{name}-symbols.txt"):
        m = re.match(r"\s*([\d.]+)%\s+\[(.)\]\s+(.*)", line)
        if not m:
            continue
        share, space, symbol = float(m.group(1)), m.group(2), m.group(3)
        key = ("kernel" if space == "k" else "loopbench" if "io.loopbench" in symbol else "netty"
               if "io.netty" in symbol else "clock" if "clock_gettime" in symbol else "other user")
        parts[key] += share
    total = sum(parts.values())
    print(f"{layout}: {r['roundTripsPerSecond']:,.0f} round trips/s, {per_rt:.3f} µs CPU per round trip; "
          f"event-loop threads {loops:.1f} % of the process's samples in the measured phase; of theirs: "
          + ", ".join(f"{k} {v / total * 100:.1f} % ({v / total * per_rt:.3f} µs)" for k, v in parts.items()))
PY
echo "results: $out" >&2
