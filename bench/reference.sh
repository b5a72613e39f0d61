#!/usr/bin/env bash
# A reference beside loopbench (never run by the tests): our own minimal single-threaded epoll echo server and client
# in C (bench/c/), built here with the machine's gcc into bench/c/build/, measured against loopbench on the same
# machine at 1024 B / 16 clients / window 16, pinned with taskset, C and loopbench alternated: their order flips
# every repetition and every run starts fresh processes. Prints each repetition, then median [min, max] of each side
# and of the per-repetition ratio loopbench/C. Raw output goes to bench/results/reference-<UTC time>/.
#
#   bench/reference.sh client  the C server on CPU 0; on CPU 1 either the C client or loopbench's client
#                              (measure --target, shared IO model, 1 thread, epoll) against it. Target: ratio >= 0.6
#   bench/reference.sh pair    the C server on CPU 0 with the C client on CPU 1, against loopbench's own loopback
#                              pair on CPUs 0,1 (sharded IO model, 2 threads, epoll). Target: ratio >= 0.8
#   bench/reference.sh udp     loopbench's UDP client (CPU 1) against the C UDP server (CPU 0), and loopbench's UDP
#                              pair (CPUs 0,1); figures only, no C UDP client, so no ratio
#   bench/reference.sh all     client, pair and udp
#
# Options: --seconds S (3) --warmup S (1, loopbench with --warmup-mode fixed) --repetitions N (5).
# Needs gcc, taskset, python3 and at least 2 CPUs. Run nothing else on the machine meanwhile.
set -euo pipefail
base=$(cd "$(dirname "$0")/.." && pwd)
cd "$base"

usage="usage: bench/reference.sh client|pair|udp|all [--seconds S] [--warmup S] [--repetitions N]"
mode=${1:?$usage}
shift
seconds=3 warmup=1 reps=5
. bench/options.sh
parse_options "$@"
case "$mode" in
  client | pair | udp) modes=("$mode") ;;
  all) modes=(client pair udp) ;;
  *) echo "unknown mode $mode; $usage" >&2; exit 2 ;;
esac
if [ "$(nproc)" -lt 2 ]; then echo "bench/reference.sh needs at least 2 CPUs" >&2; exit 2; fi

mkdir -p bench/c/build
for program in echo_server echo_client; do
  gcc -O2 -Wall -Wextra -o "bench/c/build/$program" "bench/c/$program.c"
done
./loopbench --version >/dev/null   # builds first if needed, outside any measurement

out="bench/results/reference-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
echo "bench/reference.sh $mode --seconds $seconds --warmup $warmup --repetitions $reps" > "$out/command.txt"
{ uname -a; nproc; gcc --version | head -1; ./loopbench --version; } > "$out/environment.txt" 2>&1

# The C server runs as a coprocess: its first stdout line gives the port, and closing its stdin (or the script's end,
# however it comes) stops it. The EXIT trap kills whatever is still running.
server_pid=
stop_server() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=
  fi
}
trap stop_server EXIT
trap 'exit 130' INT TERM
start_server() { # start_server [--udp]: the C server on CPU 0; sets port
  coproc SERVER { exec taskset -c 0 bench/c/build/echo_server "$@" 127.0.0.1:0 2>>"$out/stderr.log"; }
  server_pid=$SERVER_PID
  local word
  read -r word port <&"${SERVER[0]}" || { echo "the C server did not start (see $out/stderr.log)" >&2; exit 1; }
  [ "$word" = port ]
}

loopbench_flags=(--payload 1024 --clients 16 --window 16 --transport epoll --repetitions 1
  --seconds "$seconds" --warmup "$warmup" --warmup-mode fixed)
c_client_flags=(--payload 1024 --clients 16 --window 16 --seconds "$seconds" --warmup "$warmup")

rate() { # rate FILE: round trips/s from either side's JSON, and why it failed if it did
  python3 - "$1" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
    if "repetitions" in r:   # loopbench: its own verdict
        r = r["repetitions"][0]
        failure = None if r["ok"] else r["error"]
    else:                    # the C client
        failure = f'{r["errors"]} errors' if r["errors"] else None
    print(f'{r["roundTripsPerSecond"]:.0f}' + (f" (failed: {failure})" if failure else ""))
except Exception:
    print("no result")
PY
}

# run MODE SIDE REP: one measurement, raw JSON to $out/MODE-SIDE-repREP.json
run() {
  local file="$out/$1-$2-rep$3.json"
  echo "[$1] repetition $3/$reps: $2" >> "$out/stderr.log"
  case "$1:$2" in
    client:c | pair:c)
      start_server
      taskset -c 1 bench/c/build/echo_client --target "127.0.0.1:$port" "${c_client_flags[@]}" \
        > "$file" 2>> "$out/stderr.log" || true
      stop_server ;;
    client:loopbench) loopbench_client tcp ;;
    pair:loopbench) loopbench_pair tcp ;;
    udp:c-server) loopbench_client udp --udp ;;
    udp:loopbench) loopbench_pair udp ;;
  esac
}

# loopbench_client PROTOCOL [SERVER FLAGS]: loopbench's client on CPU 1 against a fresh C server on CPU 0, into $file
loopbench_client() {
  local protocol=$1
  shift
  start_server "$@"
  taskset -c 1 ./loopbench measure --target "127.0.0.1:$port" --protocol "$protocol" --io-model shared --io-threads 1 \
    "${loopbench_flags[@]}" > "$file" 2>> "$out/stderr.log" || true
  stop_server
}

# loopbench_pair PROTOCOL: loopbench's own loopback pair on CPUs 0 and 1, into $file
loopbench_pair() {
  taskset -c 0,1 ./loopbench measure --protocol "$1" --io-model sharded --io-threads 2 \
    "${loopbench_flags[@]}" > "$file" 2>> "$out/stderr.log" || true
}

for m in "${modes[@]}"; do
  if [ "$m" = udp ]; then sides=(c-server loopbench); else sides=(c loopbench); fi
  for rep in $(seq 1 "$reps"); do
    order=("${sides[@]}")
    if [ $((rep % 2)) -eq 0 ]; then order=("${sides[1]}" "${sides[0]}"); fi
    line="[$m] repetition $rep/$reps:"
    for side in "${order[@]}"; do
      run "$m" "$side" "$rep"
      line="$line $side $(rate "$out/$m-$side-rep$rep.json") rt/s,"
    done
    echo "${line%,}" >&2
  done
done

python3 - "$out" "$reps" "${modes[@]}" <<'PY' | tee "$out/summary.txt"
import json, statistics, sys
out, reps, modes = sys.argv[1], int(sys.argv[2]), sys.argv[3:]

def load(path):
    """Round trips/s of one run, or None with the reason it does not count (loopbench's own verdict, or errors)."""
    try:
        r = json.load(open(path))
    except Exception:
        return None, "no result"
    if "repetitions" in r:   # loopbench
        r = r["repetitions"][0]
        if not r["ok"]:
            return None, r["error"]
        errors = sum(r["errors"].values())
    else:                    # the C client
        errors = r["errors"]
    return (None, f"{errors} errors") if errors else (r["roundTripsPerSecond"], None)

def spread(values, fmt):
    if not values:
        return "no result"
    return f"{fmt(statistics.median(values))} [{fmt(min(values))}, {fmt(max(values))}] ({len(values)} of {reps})"

rt = lambda v: f"{v:,.0f}"
labels = {
    "client": (("c", "C client -> C server"), ("loopbench", "loopbench client -> C server"), 0.6),
    "pair": (("c", "C server + C client"), ("loopbench", "loopbench pair, sharded 2"), 0.8),
    "udp": (("c-server", "loopbench UDP client -> C UDP server"), ("loopbench", "loopbench UDP pair, sharded 2"), None),
}
for mode in modes:
    (a, a_label), (b, b_label), target = labels[mode]
    runs = {side: [load(f"{out}/{mode}-{side}-rep{r}.json") for r in range(1, reps + 1)] for side in (a, b)}
    print(f"{mode} (round trips/s, median [min, max]):")
    for side, label in ((a, a_label), (b, b_label)):
        ok = [v for v, why in runs[side] if v is not None]
        failures = [why for v, why in runs[side] if v is None]
        print(f"  {label:38} {spread(ok, rt)}" + (f"; not counted: {'; '.join(failures)}" if failures else ""))
    if target is not None:
        ratios = [vb / va for (va, _), (vb, _) in zip(runs[a], runs[b]) if va and vb]
        verdict = "" if not ratios else (" meets" if statistics.median(ratios) >= target else " misses")
        print(f"  {'ratio loopbench/C':38} {spread(ratios, lambda v: f'{v:.3f}')}{verdict} target >= {target}")
print(f"raw results in {out}")
PY
