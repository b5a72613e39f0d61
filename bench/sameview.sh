#!/usr/bin/env bash
# The same page and reports before and after a change (never run by the tests): proves that a refactor left what the
# service shows of a stored run as it was. Builds each revision offline in a worktree of its own
# (/tmp/sameview-<rev>; one build when both name the same commit), stores ONE short run with the BEFORE revision's
# service (a fresh data directory, loopbench.data-directory), then starts each revision's service on a copy of that
# directory, so that both read the record the BEFORE revision wrote, and captures GET /api/runs/{id}, the Markdown
# and HTML reports and a full-page screenshot of the run's page (#/runs/{id}) in headless Chromium (through
# chromedriver, bench/sameview.py), and compares them: the JSON canonically (parsed, keys sorted, nothing ignored),
# the reports byte for byte (with a diff), the screenshots pixel by pixel (decoded PNG). Everything goes to
# bench/results/sameview-<UTC time>/: before/ and after/ (run.json, report.md, report.html, page.png), the
# canonical JSONs, the diffs and summary.txt. Exits 0 when everything is identical, 1 when something differs, 2 when
# it could not compare. Worktrees, services and temporary files are removed on exit, whatever happens.
#
#   bench/sameview.sh BEFORE_REV AFTER_REV
#
# Environment: SAMEVIEW_RUN (the run's POST body; default below, a few seconds), SAMEVIEW_JAVA (the java to start
# the service with; default: the newest JDK 21+ found as ./loopbench finds one), SAMEVIEW_WIDTH (page width, 1400).
# Commit both revisions first: uncommitted changes are not in any worktree.
# Checked: an A/A (8e1ab4c against itself, bench/results/sameview-20261205T034512Z) is identical everywhere: nothing
# the page, the reports or the JSON show of a stored run depends on the time it is shown (the page's local times are
# drawn in UTC, chromedriver's TZ); and a scratch commit that added a JSON field, renamed a report heading and a page
# label was caught in all four (1 JSON difference, 2 lines in each report, 280 pixels).
set -euo pipefail
base=$(cd "$(dirname "$0")/.." && pwd)
helper="$base/bench/sameview.py"
if [ $# -ne 2 ]; then
  echo "usage: bench/sameview.sh BEFORE_REV AFTER_REV" >&2
  exit 2
fi
started=$(date +%s)
commit_of() {
  git -C "$base" rev-parse --verify --quiet "$1^{commit}" || { echo "sameview: $1 is not a commit" >&2; exit 2; }
}
before=$(commit_of "$1")
after=$(commit_of "$2")
run_body=${SAMEVIEW_RUN:-'{"protocol":"tcp","payloadBytes":64,"clients":2,"window":2,"ioModel":"shared","ioThreads":1,"repetitions":2,"seconds":1,"warmupMode":"fixed","warmupSeconds":0.5}'}
width=${SAMEVIEW_WIDTH:-1400}

log() { echo "sameview: $*" >&2; }

find_java() { # the newest JDK 21+ among LOOPBENCH_JAVA_HOME, JAVA_HOME, Maven's discovered toolchains, /usr/lib/jvm
  if [ -n "${SAMEVIEW_JAVA:-}" ]; then echo "$SAMEVIEW_JAVA"; return 0; fi
  local cache="${HOME}/.m2/discovered-jdk-toolchains-cache.xml" best="" best_major=0 home major
  local candidates="${LOOPBENCH_JAVA_HOME:-} ${JAVA_HOME:-}"
  [ -f "$cache" ] && candidates="$candidates $(sed -n 's:.*<jdkHome>\(.*\)</jdkHome>.*:\1:p' "$cache")"
  candidates="$candidates $(ls -d /usr/lib/jvm/* 2>/dev/null || true)"
  for home in $candidates; do
    [ -x "$home/bin/java" ] && [ -f "$home/release" ] || continue
    major=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$home/release")
    if [ -n "$major" ] && [ "$major" -gt "$best_major" ]; then best=$home; best_major=$major; fi
  done
  if [ "$best_major" -lt 21 ]; then log "no JDK 21 or newer found (set SAMEVIEW_JAVA)"; return 1; fi
  echo "$best/bin/java"
}
java=$(find_java) || exit 2

out="$base/bench/results/sameview-$(date -u +%Y%m%dT%H%M%SZ)"
work=$(mktemp -d /tmp/sameview-work.XXXXXX)
trees=()
service_pid=""
url=""

descendants() { # the process ids under $1, deepest first
  local child
  for child in $(pgrep -P "$1" 2>/dev/null || true); do
    descendants "$child"
    echo "$child"
  done
}

stop_service() {
  [ -n "$service_pid" ] || return 0
  local pid=$service_pid i
  service_pid=""
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 60); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "service $pid did not stop in 30 s: killing it and its workers"
    for i in $(descendants "$pid") "$pid"; do kill -KILL "$i" 2>/dev/null || true; done
  fi
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  local rc=$? tree
  trap - EXIT INT TERM
  stop_service
  for tree in "${trees[@]}"; do
    git -C "$base" worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"
  done
  if [ "$rc" -ge 2 ] && [ -d "$out" ]; then
    mkdir -p "$out/logs"
    cp "$work"/*.log "$out/logs/" 2>/dev/null || true
    log "failed: logs kept in ${out#"$base"/}/logs"
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() { log "$*"; exit 2; }

tree=""
build() { # builds commit $1 in /tmp/sameview-<short>; sets tree
  local short
  short=$(git -C "$base" rev-parse --short "$1")
  tree=/tmp/sameview-$short
  if [ -e "$tree" ]; then
    fail "$tree exists: another sameview is running, or a killed one left it (git -C $base worktree remove --force $tree)"
  fi
  git -C "$base" worktree add --detach -q "$tree" "$1"
  trees+=("$tree")
  log "building $short in $tree (./mvnw -q -o -DskipTests package) ..."
  if ! (cd "$tree" && ./mvnw -q -o -B -DskipTests package) > "$work/build-$short.log" 2>&1; then
    tail -40 "$work/build-$short.log" >&2
    fail "building $short failed"
  fi
}

start_service() { # tree data-directory name: starts the service there on a free loopback port; sets url
  local tree=$1 data=$2 name=$3 port jar i
  jar=$(ls "$tree"/target/loopbench-*.jar | grep -v -e '-cli\.jar$' -e '-plain\.jar$' | head -1)
  [ -n "$jar" ] || fail "no service jar in $tree/target"
  port=$("$helper" freeport)
  mkdir -p "$work/tmp-$name"
  (cd "$tree" && exec "$java" --enable-native-access=ALL-UNNAMED -Djava.io.tmpdir="$work/tmp-$name" -jar "$jar" \
     --server.port="$port" --loopbench.data-directory="$data") > "$work/service-$name.log" 2>&1 &
  service_pid=$!
  url="http://127.0.0.1:$port"
  for i in $(seq 240); do
    kill -0 "$service_pid" 2>/dev/null || { tail -30 "$work/service-$name.log" >&2; fail "the $name service exited"; }
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/actuator/health" || true)" != 000 ] && return 0
    sleep 0.5
  done
  tail -30 "$work/service-$name.log" >&2
  fail "the $name service did not answer within 120 s"
}

capture() { # side id: the run's JSON, reports and page from the service at $url into $out/side/
  local side=$1 id=$2 dir="$out/$1" rc=0
  mkdir -p "$dir"
  curl -sf "$url/api/runs/$id" -o "$dir/run.json" || fail "$side: GET /api/runs/$id failed"
  curl -sf -H 'Accept: text/markdown' "$url/api/runs/$id/report" -o "$dir/report.md" \
    || fail "$side: GET /api/runs/$id/report (text/markdown) failed"
  curl -sf "$url/api/runs/$id/report?format=html" -o "$dir/report.html" \
    || { rm -f "$dir/report.html"; log "$side: no HTML report (GET /api/runs/$id/report?format=html failed)"; }
  log "$side: screenshot of $url/#/runs/$id ..."
  "$helper" screenshot "$url/#/runs/$id" "$dir/page.png" "$width" > "$work/shot-$side.txt" || rc=$?
  [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || fail "$side: the screenshot failed"
  echo "$side screenshot: $(cat "$work/shot-$side.txt")" >> "$out/summary.txt"
}

mkdir -p "$out"
short_before=$(git -C "$base" rev-parse --short "$before")
short_after=$(git -C "$base" rev-parse --short "$after")
echo "\`bench/sameview.sh $1 $2\`: the page, reports and JSON of one stored run, before ($before) and after ($after)." \
  > "$out/README.md"
{
  echo "bench/sameview.sh $1 $2"
  echo "before: $before"
  echo "after:  $after"
  echo "java: $java ($("$java" -version 2>&1 | head -1))"
  echo "chromium: $(/usr/bin/chromium --version 2>/dev/null | head -1)"
} > "$out/summary.txt"

build "$before"
tree_before=$tree
if [ "$after" = "$before" ]; then
  tree_after=$tree_before
  log "both revisions are $short_before: one build serves both"
else
  build "$after"
  tree_after=$tree
fi

# one stored run, by the BEFORE revision
mkdir -p "$work/data"
start_service "$tree_before" "$work/data" create
log "creating the run with $short_before at $url ..."
echo "$run_body" > "$out/run-request.json"
id=$(curl -sf -H 'Content-Type: application/json' -d "$run_body" "$url/api/runs" \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])') || fail "POST /api/runs failed"
status=$("$helper" wait-run "$url/api/runs/$id" 120) || fail "run $id did not finish within 120 s"
[ "$status" = succeeded ] || fail "run $id $status: $(curl -s "$url/api/runs/$id" | head -c 600)"
stop_service
log "run $id succeeded and is stored"
echo "run: $id (route #/runs/$id), stored by $short_before" >> "$out/summary.txt"

# each revision reads its own copy of that data directory
for side in before after; do
  tree_side=$tree_before
  [ "$side" = after ] && tree_side=$tree_after
  cp -a "$work/data" "$work/data-$side"
  start_service "$tree_side" "$work/data-$side" "$side"
  log "$side ($(git -C "$tree_side" rev-parse --short HEAD)) at $url"
  capture "$side" "$id"
  stop_service
done

code=0
"$helper" compare "$out" || code=$?
[ "$code" -le 1 ] || fail "the comparison failed"
took=$(( $(date +%s) - started ))
echo "took $took s" | tee -a "$out/summary.txt"
echo "results: ${out#"$base"/}"
exit "$code"
