#!/bin/sh
# Before against after (never run by the tests): the paired regression gate of an earlier revision's figures against
# this tree's, for each protocol at the defaults (1024 B, 16 clients x window 16, shared 1), each figure one fresh
# `./loopbench measure --repetitions 1` of its own tree, the two sides alternated with each side first in every other
# pair, then one `./loopbench compare --paired` over all the protocols' cases (each judged on its own, at alpha over
# the cases; the earlier side's specs take this side's measured-phase length, bench/samecase.py, so that the cases
# match where only that default changed). Measures what each tree measures by default, warm-up and measured phase included: the point is that
# a cheaper repetition measures the same. Raw JSON Lines, logs and the gate go to bench/results/gate-beside-<UTC>/.
#   bench/gate-beside.sh BEFORE_REV PAIRS [PROTOCOLS (tcp,udp,websocket,tcps,wss,http,https)]
set -e
base=$(cd "$(dirname "$0")/.." && pwd)
before=$1; pairs=$2; protocols=${3:-tcp,udp,websocket,tcps,wss,http,https}
out="$base/bench/results/gate-beside-$(date -u +%Y%m%dT%H%MZ)"
mkdir -p "$out"
echo "bench/gate-beside.sh $* (HEAD $(git -C "$base" rev-parse HEAD))" > "$out/command.txt"
git -C "$base" worktree add --detach -q "$out/before-tree" "$before"
trap 'git -C "$base" worktree remove --force "$out/before-tree"' EXIT
# build both first (./loopbench builds when sources are newer; the archives too): nothing compiles while measuring
for tree in "$out/before-tree" "$base"; do
  (cd "$tree" && ./loopbench measure --protocol tcp --seconds 0.2 --warmup-mode fixed --warmup 0.2 \
    --repetitions 1 > /dev/null 2>&1)
done
i=1
while [ "$i" -le "$pairs" ]; do
  for p in $(echo "$protocols" | tr ',' ' '); do
    for side in $( [ $((i % 2)) = 1 ] && echo before after || echo after before ); do
      tree=$base; [ "$side" = before ] && tree="$out/before-tree"
      (cd "$tree" && ./loopbench measure --protocol "$p" --payload 1024 --clients 16 --window 16 --repetitions 1) \
        >> "$out/$side.json" 2>> "$out/$side.log" || true
    done
  done
  echo "pair $i done" >&2
  i=$((i + 1))
done
# a case is its spec: the earlier revision's is matched with this one's whatever each measured phase's default length
seconds=$(python3 -c 'import json, sys; print(json.JSONDecoder().raw_decode(open(sys.argv[1]).read())[0]["spec"]["seconds"])' "$out/after.json")
bench/samecase.py "$out/before.json" "$out/before-matched.json" "$seconds"
code=0
./loopbench compare "$out/before-matched.json" "$out/after.json" --paired > "$out/gate.md" 2>&1 || code=$?
echo "gate: exit $code"
cat "$out/gate.md"
