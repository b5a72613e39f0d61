#!/bin/sh
# The regression gate on paired A/A runs (never run by the tests): GATES times, PAIRS pairs of the same measurement,
# one repetition each, alternated with each side first in every other pair (as README's recipe does), then
# ./loopbench compare --paired. Prints each gate's verdict; raw JSON Lines and gates in OUT.
#   bench/gate-paired.sh OUT GATES PAIRS [measure options…]
set -e
out=$1; gates=$2; pairs=$3; shift 3
mkdir -p "$out"
echo "$0 $out $gates $pairs $*" > "$out/command.txt"
g=1
while [ "$g" -le "$gates" ]; do
  i=1
  while [ "$i" -le "$pairs" ]; do
    for side in $( [ $((i % 2)) = 1 ] && echo baseline candidate || echo candidate baseline ); do
      ./loopbench measure "$@" --repetitions 1 >> "$out/$side-$g.json" 2>> "$out/$side-$g.log" || true
    done
    i=$((i + 1))
  done
  code=0
  ./loopbench compare "$out/baseline-$g.json" "$out/candidate-$g.json" --paired --junit "$out/gate-$g.xml" \
    > "$out/gate-$g.md" 2>&1 || code=$?
  echo "gate $g: exit $code: $(sed -n 's/^# loopbench regression gate: //p' "$out/gate-$g.md")"
  g=$((g + 1))
done
