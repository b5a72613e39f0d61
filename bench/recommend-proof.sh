#!/bin/sh
# The recommendation against a check with more repetitions (never run by the tests): for tcp, http and tcps at
# 1024 B, 16 clients × window 16, `./loopbench recommend` races shared 1, shared 2 and sharded 2 on epoll within
# BUDGET seconds; then bench/sidebyside.py runs the same three candidates REPS times each, alternated, each in a fresh
# JVM, as the check. Run nothing else on the machine meanwhile. Results: bench/results/recommend-<protocol>-*.
set -e
cd "$(dirname "$0")/.."
budget=${BUDGET:-300}
reps=${REPS:-10}
stamp=$(date -u +%Y%m%dT%H%MZ)
for p in ${PROTOCOLS:-tcp http tcps}; do
  out=bench/results/recommend-$p-$stamp
  mkdir -p "$out"
  echo "== $p: recommend, budget $budget s" >&2
  ./loopbench recommend --protocol "$p" --payload 1024 --clients 16 --window 16 --transports epoll \
    --budget "$budget" > "$out/answer.json" 2> "$out/recommend.log" || echo "exit $?" >> "$out/recommend.log"
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["verdict"]; print(v["answer"])' "$out/answer.json"
  load="./loopbench measure --protocol $p --payload 1024 --clients 16 --window 16 --transport epoll --repetitions 1"
  bench/sidebyside.py "check-$p" --repetitions "$reps" \
    --variant shared1 "$load --io-model shared --io-threads 1" \
    --variant shared2 "$load --io-model shared --io-threads 2" \
    --variant sharded2 "$load --io-model sharded --io-threads 2"
done
