#!/usr/bin/env bash
# Benchmark suites (never run by the tests). Each repetition of each case runs in a fresh JVM through
# ./loopbench measure --repetitions 1, repetitions outermost and the starting case rotated per repetition, so that
# no case always runs first or in a JVM-warm position. Raw JSON goes to bench/results/<suite>-<UTC time>/, and the
# table (median [min, max] over repetitions) replaces the suite's section of docs/performance.md.
#
#   bench/run.sh seeds       the seeds' main profiles: 1024 B/16 clients/window 16 and 64 B/1/1, shared 1, shared 2,
#                            sharded 2, work 0 and 10000, TCP and UDP (transport auto)
#   bench/run.sh transports  nio, epoll and io_uring side by side on 1024/16/16 and 64/1/1, shared 1, TCP and UDP
#   bench/run.sh executions  netty, reactive and virtual-threads on the seeds' main profiles with the shared IO model
#                            (1 and 2 threads, work 0): the executions of a case run back to back, their order
#                            reversed every other repetition, and the table adds each one's ratios to netty's,
#                            matched by repetition
#   bench/run.sh open        the open-loop pacer: TCP 1024 B, 4 clients × window 4, shared 1, at 20,000 and
#                            5,000 messages/s; the table adds corrected and uncorrected latency, send lag, late, drops
#
# Options: --seconds S (3) --warmup S (1) --repetitions N (3). Needs python3 for the table.
# Run nothing else on the machine meanwhile.
set -euo pipefail
base=$(cd "$(dirname "$0")/.." && pwd)
cd "$base"

usage="usage: bench/run.sh seeds|transports|executions|open [--seconds S] [--warmup S] [--repetitions N]"
suite=${1:?$usage}
shift
seconds=3 warmup=1 reps=3
. bench/options.sh
parse_options "$@"

cases=()
executions=(netty)
case "$suite" in
  seeds)
    for io in "shared 1" "shared 2" "sharded 2"; do
      for protocol in tcp udp; do
        for profile in "1024 16 16" "64 1 1"; do
          for work in 0 10000; do
            set -- $io $profile
            cases+=("--protocol $protocol --payload $3 --clients $4 --window $5 --io-model $1 --io-threads $2 --work $work --transport auto")
          done
        done
      done
    done ;;
  transports)
    for transport in nio epoll io_uring; do
      for protocol in tcp udp; do
        for profile in "1024 16 16" "64 1 1"; do
          set -- $profile
          cases+=("--protocol $protocol --payload $1 --clients $2 --window $3 --io-model shared --io-threads 1 --transport $transport")
        done
      done
    done ;;
  executions)
    executions=(netty reactive virtual-threads)
    for io in "shared 1" "shared 2"; do
      for protocol in tcp udp; do
        for profile in "1024 16 16" "64 1 1"; do
          set -- $io $profile
          cases+=("--protocol $protocol --payload $3 --clients $4 --window $5 --io-model $1 --io-threads $2 --work 0 --transport auto")
        done
      done
    done ;;
  open)
    for rate in 20000 5000; do
      cases+=("--protocol tcp --payload 1024 --clients 4 --window 4 --io-model shared --io-threads 1 --transport auto --load open --rate $rate")
    done ;;
  *) echo "unknown suite $suite" >&2; exit 2 ;;
esac

out="bench/results/$suite-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
command="bench/run.sh $suite --seconds $seconds --warmup $warmup --repetitions $reps"
echo "$command" > "$out/command.txt"
n=${#cases[@]}
./loopbench --version >/dev/null   # builds first if needed, outside any measurement
for rep in $(seq 1 "$reps"); do
  for k in $(seq 0 $((n - 1))); do
    i=$(( (k + (rep - 1) * n / reps) % n ))
    order=("${executions[@]}")
    if [ $((rep % 2)) -eq 0 ]; then
      order=(); for ((e = ${#executions[@]} - 1; e >= 0; e--)); do order+=("${executions[$e]}"); done
    fi
    for execution in "${order[@]}"; do
      echo "[$suite] repetition $rep/$reps, case $((i + 1))/$n, $execution: ${cases[$i]}" >&2
      # shellcheck disable=SC2086
      ./loopbench measure ${cases[$i]} --execution "$execution" --seconds "$seconds" --warmup "$warmup" \
        --repetitions 1 > "$out/case$((i + 1))-$execution-rep$rep.json" 2>> "$out/stderr.log" || true
    done
  done
done
python3 bench/tabulate.py "$out" "$suite" "$command" > "$out/table.md"
python3 - "$out/table.md" "$suite" <<'PY'
import re, sys
table = open(sys.argv[1]).read().strip()
suite = sys.argv[2]
path = "docs/performance.md"
doc = open(path).read()
begin, end = f"<!-- {suite}:begin -->", f"<!-- {suite}:end -->"
if begin in doc:
    doc = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda m: f"{begin}\n{table}\n{end}", doc, flags=re.S)
else:
    doc += f"\n{begin}\n{table}\n{end}\n"
open(path, "w").write(doc)
PY
echo "table written to docs/performance.md ($suite section); raw results in $out" >&2
