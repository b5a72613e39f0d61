#!/usr/bin/env bash
# Answers in minutes, on real runs (never run by the tests): how soon races and the regression gate decide, and how
# often an A/A goes wrong. Each part is a subcommand; raw output goes to bench/results/minutes-<part>-<UTC time>/ and a
# line per try to its summary.txt. Run nothing else on the machine meanwhile.
#
#   bench/minutes.sh race            tcp 64 B, 16 clients × window 1, epoll: shared 1, shared 2, sharded 2, 420 s budget
#   bench/minutes.sh readme          README's example: tcp 1024 B, 16 × 16, epoll, 120 s budget
#   bench/minutes.sh least           the least budget for 6 candidates (epoll and io_uring): the refusal names it
#   bench/minutes.sh aa N            N A/A races: shared 1 on auto beside shared 1 on epoll (auto resolves to epoll)
#   bench/minutes.sh gate-aa N P     N gate loops of README's recipe, A/A (tcp 1024 B, 16 × 16), at most P pairs each
#   bench/minutes.sh gate-half P     one gate loop: window 16 (baseline) against window 1 (candidate), at most P pairs
set -uo pipefail
cd "$(dirname "$0")/.."
part=${1:?"bench/minutes.sh race|readme|least|aa N|gate-aa N P|gate-half P"}
out="bench/results/minutes-$part-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
echo "bench/minutes.sh $*" > "$out/command.txt"
./loopbench --version > "$out/version.txt"
{ nproc; lscpu | grep -m1 'Model name' || true; } > "$out/machine.txt"

# one race: its answer JSON and stderr, then a summary line (outcome, rounds, when each candidate went, wall time)
race() {
  local name=$1; shift
  local started=$(date +%s.%N)
  ./loopbench recommend "$@" > "$out/$name.json" 2> "$out/$name.log"
  local code=$?
  local took=$(echo "$(date +%s.%N) - $started" | bc)
  python3 - "$out/$name.json" "$code" "$took" "$name" <<'EOF' | tee -a "$out/summary.txt"
import json, sys
a = json.load(open(sys.argv[1])); v = a['verdict']
fates = '; '.join('%s %s%s' % (e['label'], e['status'], '' if e.get('eliminatedAtRound') is None
                   else ' after round %d (%s)' % (e['eliminatedAtRound'], e.get('reason', '').split(': ', 1)[-1]))
                  for e in v['candidates'])
print('%s: exit %s, %s after %d rounds in %.0f s (budget %.0f s, saved %s s); %s' % (
    sys.argv[4], sys.argv[2], v['outcome'], v['rounds'], float(sys.argv[3]), a['spec']['budgetSeconds'],
    'n/a' if a.get('budgetSavedSeconds') is None else '%.0f' % a['budgetSavedSeconds'], fates))
EOF
}

# one gate loop of README's recipe: a pair at a time, each side first in every other pair, asked after each pair
gate() {
  local name=$1 pairs=$2 base=$3 cand=$4
  local code=2 i
  for ((i = 1; i <= pairs; i++)); do
    if ((i % 2)); then
      ./loopbench measure $base --repetitions 1 >> "$out/$name-baseline.json" 2>> "$out/$name.log"
      ./loopbench measure $cand --repetitions 1 >> "$out/$name-candidate.json" 2>> "$out/$name.log"
    else
      ./loopbench measure $cand --repetitions 1 >> "$out/$name-candidate.json" 2>> "$out/$name.log"
      ./loopbench measure $base --repetitions 1 >> "$out/$name-baseline.json" 2>> "$out/$name.log"
    fi
    ./loopbench compare "$out/$name-baseline.json" "$out/$name-candidate.json" --paired --max-pairs "$pairs" \
      > "$out/$name-gate.md" 2>> "$out/$name.log"
    code=$?
    [ $code -ne 2 ] && break
  done
  echo "$name: exit $code after $((i > pairs ? pairs : i)) pairs; $(grep -m1 '^Candidate' "$out/$name-gate.md" \
    | sed 's/.*alpha/alpha/')" | tee -a "$out/summary.txt"
}

load16="--protocol tcp --payload 1024 --clients 16 --window 16"
case "$part" in
  race) race race --protocol tcp --payload 64 --clients 16 --window 1 --transports epoll --budget 420 ;;
  readme) race readme $load16 --transports epoll --budget 120 ;;
  least) ./loopbench recommend $load16 --transports epoll,io_uring --budget 1 2>&1 | tee "$out/summary.txt" ;;
  aa) for ((n = 1; n <= ${2:?N}; n++)); do
        race "aa-$n" $load16 --io-models shared --io-threads 1 --transports auto,epoll --budget 120
      done ;;
  gate-aa) for ((n = 1; n <= ${2:?N}; n++)); do gate "aa-$n" "${3:?P}" "$load16" "$load16"; done ;;
  gate-half) gate half "${2:?P}" "$load16" "--protocol tcp --payload 1024 --clients 16 --window 1" ;;
  *) echo "unknown part $part" >&2; exit 2 ;;
esac
