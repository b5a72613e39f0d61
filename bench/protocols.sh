#!/usr/bin/env bash
# The seven protocols side by side (never run by the tests), as arknet's protocol pages compare them: for each profile
# (1024 B / 16 clients × window 16, and 64 B / 1 client × window 1) and IO layout (shared 1, shared 2, sharded 2), one
# bench/sidebyside.py run whose variants are tcp, udp, websocket, http and every TLS protocol with both providers
# (jdk and openssl), alternated per repetition, each a fresh JVM; every variant's ratio to tcp is matched by
# repetition. UDP runs with window 1 at the 16-client profile, as arknet's baseline does (not like for like).
# Results: bench/results/protocols-<profile>-<layout>-<UTC time>/ (summary.txt, raw JSON).
#
#   bench/protocols.sh [--seconds S] [--warmup S] [--repetitions N]     defaults 2, 1 (fixed warm-up), 3
#
# About 10 variants × 6 runs × N repetitions × (S + W + JVM start) seconds. Run nothing else on the machine meanwhile.
set -euo pipefail
base=$(cd "$(dirname "$0")/.." && pwd)
cd "$base"

usage="usage: bench/protocols.sh [--seconds S] [--warmup S] [--repetitions N]"
seconds=2 warmup=1 reps=3
. bench/options.sh
parse_options "$@"
./loopbench --version >/dev/null   # builds first if needed, outside any measurement

for profile in "1024 16 16" "64 1 1"; do
  read -r payload clients window <<<"$profile"
  for layout in "shared 1" "shared 2" "sharded 2"; do
    read -r model threads <<<"$layout"
    m="--payload $payload --clients $clients --io-model $model --io-threads $threads --repetitions 1"
    m="$m --seconds $seconds --warmup $warmup --warmup-mode fixed"
    w="--window $window"
    args=(--variant tcp "./loopbench measure --protocol tcp $m $w"
          --variant udp "./loopbench measure --protocol udp $m --window 1")
    for p in websocket http; do
      args+=(--variant "$p" "./loopbench measure --protocol $p $m $w")
    done
    for p in tcps wss https; do
      for provider in jdk openssl; do
        args+=(--variant "$p-$provider" "./loopbench measure --protocol $p --tls-provider $provider $m $w")
      done
    done
    echo "== $payload B / $clients × $window / $model $threads"
    bench/sidebyside.py "protocols-$payload-$clients-$window-$model$threads" --repetitions "$reps" "${args[@]}"
  done
done
