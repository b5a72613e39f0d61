#!/usr/bin/env bash
# The test suite's robustness, as a new user meets it (never run by the tests): README's test command, ./mvnw verify,
# on fresh clones of this repository's HEAD, one after another — first --idle N of them on a quiet machine, then
# --loaded N while another process keeps one of the two cores busy (stress-ng --cpu 1 from Debian, or a shell busy
# loop where it is missing). Per run: its wall time, its exit status, the tests run, failed, errored and skipped by
# both tiers (surefire's and failsafe's reports), whether Maven listed any flake, and the closing line of its output;
# the time to the end of the first tier, ./mvnw test's part (compilation included), read off the log's stamped lines.
# The logs go to bench/results/suite-<UTC time>/ (with a failed run's test reports), the table to stdout and its
# table.md.
#
#   bench/suite.sh [--idle N (3)] [--loaded N (2)]
#
# Commit first: a clone takes HEAD, not the working tree. Run nothing else on the machine meanwhile.
set -euo pipefail
base=$(cd "$(dirname "$0")/.." && pwd)
cd "$base"
idle=3 loaded=2
while [ $# -gt 0 ]; do
  case "$1" in
    --idle) idle=$2; shift 2 ;;
    --loaded) loaded=$2; shift 2 ;;
    *) echo "unknown option $1 (bench/suite.sh [--idle N] [--loaded N])" >&2; exit 2 ;;
  esac
done
command="./mvnw verify"
grep -qF "$command" README.md || { echo "README.md no longer names '$command' as its test command" >&2; exit 2; }
out="$base/bench/results/suite-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
echo "bench/suite.sh --idle $idle --loaded $loaded" > "$out/command.txt"
{ echo "commit $(git rev-parse HEAD)"; echo "date $(date -u +%FT%TZ)"; nproc; lscpu | grep -m1 'Model name' || true
  java -version 2>&1 | head -1; } > "$out/machine.txt"
work=$(mktemp -d)
busy=""
stop_busy() {
  if [ -n "$busy" ]; then kill "$busy" 2>/dev/null || true; wait "$busy" 2>/dev/null || true; busy=""; fi
}
trap 'stop_busy; rm -rf "$work"' EXIT

table="$out/table.md"
printf '| run | load | wall | ./mvnw test part | exit | tests | failures | errors | skipped | flakes | last line |\n' > "$table"
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n' >> "$table"
total=$((idle + loaded))
for n in $(seq 1 "$total"); do
  load=idle
  if [ "$n" -gt "$idle" ]; then
    load="one core busy"
    if command -v stress-ng >/dev/null; then
      stress-ng --cpu 1 --timeout 1h --quiet & busy=$!
    else
      load="one core busy (shell loop)"
      ( while :; do :; done ) & busy=$!
    fi
  fi
  clone="$work/clone-$n"
  git clone --quiet "$base" "$clone"
  echo "[suite] run $n/$total ($load): $command in a fresh clone" >&2
  start=$(date +%s)
  set +e
  # each line stamped with the seconds since the start, so that the first tier's own time can be read off
  (cd "$clone" && $command) 2>&1 | while IFS= read -r line; do
    printf '%4d %s\n' $(( $(date +%s) - start )) "$line"
  done > "$out/run-$n.log"
  status=${PIPESTATUS[0]}
  set -e
  wall=$(( $(date +%s) - start ))
  # the first tier ends where Maven goes on to package the jar (or where the build stops)
  tier=$(grep -m1 -E 'maven-jar-plugin|BUILD FAILURE' "$out/run-$n.log" | awk '{print $1}')
  tier=${tier:-0}
  stop_busy
  counts=$(python3 - "$clone/target" <<'EOF'
import glob, sys, xml.etree.ElementTree as ET
t = f = e = s = 0
for path in glob.glob(sys.argv[1] + '/*-reports/TEST-*.xml'):
    r = ET.parse(path).getroot()
    t += int(r.get('tests')); f += int(r.get('failures')); e += int(r.get('errors')); s += int(r.get('skipped'))
print(t, f, e, s)
EOF
)
  read -r tests failures errors skipped <<< "$counts"
  flakes=$(grep -c "Flakes:" "$out/run-$n.log" || true)
  last=$(grep -E "BUILD (SUCCESS|FAILURE)|Tests run: [0-9]+, Failures" "$out/run-$n.log" | tail -1 \
    | sed 's/\x1b\[[0-9;]*m//g; s/|/\\|/g; s/^ *[0-9]* //')
  printf '| %d | %s | %dm%02ds | %dm%02ds | %d | %s | %s | %s | %s | %s | %s |\n' "$n" "$load" $((wall / 60)) \
    $((wall % 60)) $((tier / 60)) $((tier % 60)) "$status" "$tests" "$failures" "$errors" "$skipped" "$flakes" \
    "$last" >> "$table"
  if [ "$status" -ne 0 ]; then
    # a failure's evidence outlives its clone: the reports of both tiers, each test's own output among them
    mkdir -p "$out/run-$n-reports"
    cp -r "$clone"/target/*-reports "$out/run-$n-reports/" 2>/dev/null || true
  fi
  rm -rf "$clone"
done
cat "$table"
