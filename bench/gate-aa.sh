#!/bin/sh
# The regression gate on A/A pairs of real runs (never run by the tests): PAIRS times, the same measurement twice,
# back to back, then ./loopbench compare on the two. Prints each pair's verdict; raw JSON and gates in OUT.
#   bench/gate-aa.sh OUT PAIRS [measure options…]
set -e
out=$1; pairs=$2; shift 2
mkdir -p "$out"
echo "$0 $out $pairs $*" > "$out/command.txt"
i=1
while [ "$i" -le "$pairs" ]; do
  ./loopbench measure "$@" > "$out/baseline-$i.json" 2> "$out/baseline-$i.log" || true
  ./loopbench measure "$@" > "$out/candidate-$i.json" 2> "$out/candidate-$i.log" || true
  code=0
  ./loopbench compare "$out/baseline-$i.json" "$out/candidate-$i.json" --junit "$out/gate-$i.xml" \
    > "$out/gate-$i.md" 2>&1 || code=$?
  echo "pair $i: exit $code: $(sed -n 's/^# loopbench regression gate: //p' "$out/gate-$i.md")"
  i=$((i + 1))
done
