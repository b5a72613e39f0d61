#!/usr/bin/env bash
# Beyond one machine (issue 15; never run by the tests): does a second client host change what a run across hosts
# measures? The same load — 16 clients × window 16, 1024 B, netty execution, shared IO model with 1 thread — run
# through the service's placement on three agents, each `./loopbench agent` in a network namespace of its own
# ("hosts" A, B, C, joined by veth links to a bridge here, where the service runs as the coordinator), three ways:
#
#   one-host   the echo server on agent A, all 16 clients on agent B
#   two-hosts  the echo server on agent A, 8 clients on agent B and 8 on agent C
#   local      with --local: the same load as a plain run on the service's host (no placement; a forked worker on
#              loopback), for reference
#   two-hosts-coarse
#              with --coarse: two-hosts with one timeline interval per phase (timelineIntervalMillis 10000), so that
#              the agents send no interval while they measure: two-hosts ÷ two-hosts-coarse is what the 100 ms
#              intervals (each agent sending each to the coordinator for the live timeline) cost
#
# alternated per repetition (the starting variant rotated), so that drift hits all alike; each is one POST /api/runs
# with repetitions 1, polled to its end. The agents' JVMs serve every repetition (the local run forks a fresh JVM each
# time), so before the repetitions each placed variant runs once uncounted: the agents' first warm-up is not in the
# figures. Prints each run, then per variant the median [min, max] of round trips/s, p99 RTT and start skew (the
# spread of the client agents' measured-phase starts), and the per-repetition ratio two-hosts ÷ one-host (and
# local ÷ one-host, and two-hosts ÷ two-hosts-coarse) of round trips/s; a run that fails (one the engine judges unfair among them) is printed but not
# counted. Raw run JSONs (GET /api/runs/{id} at the end), the agents' listing, every
# process's log and summary.txt go to bench/results/hosts-<UTC time>/.
#
#   bench/hosts.sh [--protocol P] [--payload B] [--seconds S] [--warmup S] [--repetitions N] [--local] [--coarse]
#                  defaults tcp, 1024, 3, 1 (fixed warm-up), 5; P one of tcp, udp, websocket, http (the TLS protocols
#                  need a certsDirectory on every agent, which this script does not make)
#
# Needs root (network namespaces and veth links; exits 2 otherwise), iproute2, curl and python3. Makes namespaces
# hbench-<pid>-a/b/c, a bridge hb<pid>br and veth pairs hb<pid>h0..2 / hb<pid>t0..2 on 10.231.15.0/24 (this side .1,
# agents .2 to .4), and removes them, and stops every process it started, on any exit: end, failure or Ctrl-C.
# About 2 × (S + W + 5) s of priming plus N × (2 to 4) × (S + W + 5) s, and up to a minute or so to start the four JVMs.
# Every "host" shares this machine's CPUs: run nothing else on the machine meanwhile.
set -euo pipefail
base=$(cd "$(dirname "$0")/.." && pwd)
cd "$base"

usage="usage: bench/hosts.sh [--protocol tcp|udp|websocket|http] [--payload B] [--seconds S] [--warmup S] [--repetitions N] [--local] [--coarse]"
protocol=tcp payload=1024 seconds=3 warmup=1 reps=5 local=no coarse=no
# shellcheck source=bench/options.sh
. bench/options.sh
rest=()
while [ $# -gt 0 ]; do
  case "$1" in
    --protocol) protocol=${2:?$usage}; shift 2 ;;
    --payload) payload=${2:?$usage}; shift 2 ;;
    --local) local=yes; shift ;;
    --coarse) coarse=yes; shift ;;
    *) rest+=("$1"); shift ;;
  esac
done
parse_options "${rest[@]}"
case "$protocol" in
  tcp | udp | websocket | http) ;;
  *) echo "protocol $protocol not supported here (the TLS ones need certificates on every agent); $usage" >&2; exit 2 ;;
esac

if [ "$(id -u)" -ne 0 ]; then
  echo "bench/hosts.sh needs root: it makes network namespaces and veth links (run it with sudo)" >&2
  exit 2
fi
for tool in ip curl python3; do
  command -v "$tool" >/dev/null || { echo "bench/hosts.sh needs $tool" >&2; exit 2; }
done
net=10.231.15
if ip -4 addr show | grep -q "inet $net\."; then
  echo "$net.0/24 is already in use on this machine (another bench/hosts.sh?); not touching it" >&2
  exit 2
fi

# Build first if needed, and write the CDS archive the agents start from, outside any measurement; then find the JDK
# the way ./loopbench does, for the service.
./loopbench --version >/dev/null
find_jdk() {
  local cache=$HOME/.m2/discovered-jdk-toolchains-cache.xml home major
  local candidates=("${LOOPBENCH_JAVA_HOME:-}" "${JAVA_HOME:-}")
  [ -f "$cache" ] && mapfile -t -O 2 candidates < <(sed -n 's:.*<jdkHome>\(.*\)</jdkHome>.*:\1:p' "$cache")
  candidates+=(/usr/lib/jvm/* /opt/java/* /opt/jdk*)
  for home in "${candidates[@]}"; do
    if [ -z "$home" ] || [ ! -x "$home/bin/java" ] || [ ! -f "$home/release" ]; then continue; fi
    major=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$home/release")
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then echo "$home"; return 0; fi
  done
  return 1
}
jdk=$(find_jdk) || { echo "no JDK 21 or newer found (set LOOPBENCH_JAVA_HOME)" >&2; exit 2; }

out="bench/results/hosts-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
command="bench/hosts.sh --protocol $protocol --payload $payload --seconds $seconds --warmup $warmup --repetitions $reps"
[ "$local" = yes ] && command="$command --local"
echo "$command" > "$out/command.txt"
{ uname -a; nproc; "$jdk/bin/java" -version; ./loopbench --version; git rev-parse HEAD; } > "$out/environment.txt" 2>&1

tag=hb$$
bridge=${tag}br
agents=(agent-a agent-b agent-c)
namespace() { echo "hbench-$$-$1"; }   # namespace a|b|c
cluster=hosts-bench-$$
data=$(mktemp -d /tmp/loopbench-hosts-data.XXXXXX)

# Everything made is recorded here as it is made, and undone by cleanup on any exit (trap below).
made_namespaces=() made_bridge=no service_pid='' agent_pids=()
cleanup() {
  local status=$?
  set +e
  trap - EXIT INT TERM HUP
  # The agents (and anything else left in our namespaces), and the service with its forked worker (its own session
  # and process group, from setsid): SIGTERM, up to 15 s to leave, then SIGKILL.
  local pids=() ns
  for ns in "${made_namespaces[@]}"; do
    mapfile -t -O "${#pids[@]}" pids < <(ip netns pids "$ns" 2>/dev/null)
  done
  pids+=("${agent_pids[@]}")
  [ -n "$service_pid" ] && kill -TERM -- "-$service_pid" 2>/dev/null
  [ ${#pids[@]} -gt 0 ] && kill -TERM "${pids[@]}" 2>/dev/null
  local deadline=$((SECONDS + 15)) alive
  while :; do
    # alive: not exited (an exited child of ours stays a zombie until the wait below, and zombies do not count)
    mapfile -t alive < <(ps -e -o pid=,pgid=,stat= | awk -v g="${service_pid:-none}" -v list=" ${pids[*]} " \
      '$3 !~ /^Z/ && ($2 == g || index(list, " " $1 " ")) { print $1 }')
    [ ${#alive[@]} -eq 0 ] && break
    if [ $SECONDS -ge $deadline ]; then
      echo "[hosts] killing what did not stop in 15 s: ${alive[*]}" >&2
      kill -KILL -- "${alive[@]}" 2>/dev/null
      sleep 1
      break
    fi
    sleep 0.3
  done
  wait 2>/dev/null
  # A namespace goes with its end of each veth pair, and so the pair; the bridge last.
  for ns in "${made_namespaces[@]}"; do ip netns del "$ns" || echo "[hosts] could not delete namespace $ns" >&2; done
  if [ "$made_bridge" = yes ]; then ip link del "$bridge" || echo "[hosts] could not delete $bridge" >&2; fi
  rm -rf "$data"
  echo "[hosts] cleaned up: processes stopped, namespaces and links deleted" >&2
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# until SECONDS DESCRIPTION COMMAND...: runs COMMAND every 0.5 s until it succeeds; fails the script after SECONDS
until_true() {
  local limit=$1 what=$2 deadline=$((SECONDS + $1))
  shift 2
  until "$@"; do
    if [ $SECONDS -ge $deadline ]; then
      echo "[hosts] gave up after $limit s waiting for $what (logs in $out)" >&2
      exit 1
    fi
    sleep 0.5
  done
}

# The hosts: a bridge here (the coordinator's side, .1), and per agent a namespace with a veth pair to the bridge.
echo "[hosts] making namespaces and links on $net.0/24" >&2
ip link add "$bridge" type bridge
made_bridge=yes
ip addr add "$net.1/24" dev "$bridge"
ip link set "$bridge" up
for i in 0 1 2; do
  ns=$(namespace "${agents[$i]#agent-}")
  ip netns add "$ns"
  made_namespaces+=("$ns")
  ip link add "${tag}h$i" type veth peer name "${tag}t$i"
  ip link set "${tag}h$i" master "$bridge"
  ip link set "${tag}h$i" up
  ip link set "${tag}t$i" netns "$ns"
  ip -n "$ns" addr add "$net.$((2 + i))/24" dev "${tag}t$i"
  ip -n "$ns" link set "${tag}t$i" up
  ip -n "$ns" link set lo up
done

# The shared secret: in the environment of the service and the agents only, never on a command line.
LOOPBENCH_CLUSTER_SECRET=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
export LOOPBENCH_CLUSTER_SECRET

# The service, as the coordinator, on a free loopback port with a data directory of its own; its process group is
# its own (setsid), so that cleanup reaches its forked workers too.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
api=http://127.0.0.1:$port/api
echo "[hosts] starting the service (coordinator) on 127.0.0.1:$port, cluster $cluster at $net.1:7800" >&2
setsid "$jdk/bin/java" --enable-native-access=ALL-UNNAMED -cp "target/classes:$(cat target/classpath.txt)" \
  io.loopbench.LoopbenchApplication --server.port="$port" --loopbench.data-directory="$data" \
  --loopbench.cluster.enabled=true --loopbench.cluster.name="$cluster" --loopbench.cluster.bind-address="$net.1" \
  --loopbench.network.allowed-cidrs="$net.0/24" > "$out/service.log" 2>&1 &
service_pid=$!

agents_json() { curl -sf "$api/agents"; }
# idle_agents: how many agents the coordinator lists as idle
idle_agents() {
  agents_json | python3 -c 'import json, sys; print(sum(a["state"].lower() == "idle" for a in json.load(sys.stdin)["agents"]))'
}
idle_are() { [ "$(idle_agents 2>/dev/null)" = "$1" ]; }   # idle_are N: exactly N agents idle
joined() { [ "$(agents_json | python3 -c 'import json, sys; print(json.load(sys.stdin)["cluster"])' 2>/dev/null)" = joined ]; }
until_true 120 "the service to answer with its cluster joined" joined

# The agents, one at a time, each idle before the next starts (JVMs started together on a busy machine may miss
# discovery and form clusters of their own, merged later under the first runs).
for i in 0 1 2; do
  a=${agents[$i]}
  echo "[hosts] starting $a in $(namespace "${a#agent-}") at $net.$((2 + i))" >&2
  setsid ip netns exec "$(namespace "${a#agent-}")" ./loopbench agent --cluster-name "$cluster" \
    --bind-address "$net.$((2 + i))" --hosts "$net.1:7800" --member-name "$a" > "$out/$a.log" 2>&1 &
  agent_pids+=($!)
  want=$((i + 1))
  until_true 90 "$want idle agent(s)" idle_are "$want"
done
agents_json | python3 -m json.tool > "$out/agents.json"
echo "[hosts] 3 agents idle" >&2

# body VARIANT: the run request of a variant
body() {
  local placement
  case "$1" in
    one-host) placement=',"placement":{"server":"agent-a","clients":[{"agent":"agent-b","clients":16}]}' ;;
    two-hosts) placement=',"placement":{"server":"agent-a","clients":[{"agent":"agent-b","clients":8},{"agent":"agent-c","clients":8}]}' ;;
    two-hosts-coarse) placement=',"timelineIntervalMillis":10000,"placement":{"server":"agent-a","clients":[{"agent":"agent-b","clients":8},{"agent":"agent-c","clients":8}]}' ;;
    local) placement=',"isolation":"forked"' ;;
  esac
  echo "{\"protocol\":\"$protocol\",\"payloadBytes\":$payload,\"clients\":16,\"window\":16,\"ioModel\":\"shared\",\"ioThreads\":1,\"execution\":\"netty\",\"warmupMode\":\"fixed\",\"warmupSeconds\":$warmup,\"seconds\":$seconds,\"repetitions\":1$placement}"
}
variants=(one-host two-hosts)
[ "$local" = yes ] && variants+=(local)
[ "$coarse" = yes ] && variants+=(two-hosts-coarse)
for v in "${variants[@]}"; do echo "$v: POST /api/runs $(body "$v")" >> "$out/command.txt"; done

ended() { # ended ID: the run is neither queued nor running
  local status
  status=$(curl -sf "$api/runs/$1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["status"])' 2>/dev/null) \
    || return 1
  [ "$status" != queued ] && [ "$status" != running ]
}
# run VARIANT FILE: once every agent is idle again, posts the variant's run, polls it to its end (the script fails if
# it does not end in time), writes its final JSON to FILE and prints one line
run() {
  local variant=$1 file=$2 response id limit
  until_true 60 "the 3 agents idle" idle_are 3
  response=$(curl -s -XPOST "$api/runs" -H 'Content-Type: application/json' -d "$(body "$variant")")
  id=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1]).get("id") or "")' "$response" 2>/dev/null || true)
  if [ -z "$id" ]; then
    echo "$response" > "$file"
    echo "refused: $response"
    return
  fi
  limit=$(python3 -c "import math; print(math.ceil(3 * ($seconds + $warmup) + 120))")
  until_true "$limit" "run $id ($variant) to end" ended "$id"
  curl -sf "$api/runs/$id" | python3 -m json.tool > "$file"
  python3 - "$file" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
reps = r.get("repetitions") or []
if not reps:
    print(f'{r["status"]}: {r.get("error")}')
    sys.exit()
x = reps[0]
line = f'{x["roundTripsPerSecond"]:,.0f} rt/s, p99 {x["latency"]["p99Us"]:,.1f} µs'
if r.get("acrossHosts"):
    s = r["acrossHosts"][0]["start"]
    if len(s["starts"]) > 1:
        line += f', start skew {s["skewNanos"] / 1e3:,.0f} µs (± {s["skewUncertaintyNanos"] / 1e3:,.0f})'
print(line + ("" if x["ok"] and r["status"] == "succeeded" else f' FAILED ({r["status"]}): {x.get("error") or r.get("error")}'))
PY
}

for v in one-host two-hosts; do
  printf '[hosts] priming (uncounted) %s: ' "$v" >&2
  run "$v" "$out/prime-$v.json" >&2
done
n=${#variants[@]}
for rep in $(seq 1 "$reps"); do
  for k in $(seq 0 $((n - 1))); do
    v=${variants[$(( (k + rep - 1) % n ))]}
    printf '[hosts] repetition %s/%s %s: ' "$rep" "$reps" "$v" >&2
    run "$v" "$out/$v-rep$rep.json" >&2
  done
done

python3 - "$out" "$reps" "$command" "${variants[@]}" <<'PY' | tee "$out/summary.txt"
import json, statistics, sys
out, reps, command, variants = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]

def load(variant, rep):
    """(round trips/s, p99 µs, skew µs or None), or None with why the run does not count."""
    try:
        r = json.load(open(f"{out}/{variant}-rep{rep}.json"))
        x = r["repetitions"][0]
    except Exception:
        return None, "no result"
    if r["status"] != "succeeded" or not x["ok"]:
        return None, x.get("error") or r.get("error") or r["status"]
    # the spread of the client agents' starts: only with two or more of them (one's is 0 by definition)
    start = r["acrossHosts"][0]["start"] if r.get("acrossHosts") else None
    skew = start["skewNanos"] / 1e3 if start and len(start["starts"]) > 1 else None
    return (x["roundTripsPerSecond"], x["latency"]["p99Us"], skew), None

def spread(values, fmt):
    values = [v for v in values if v is not None]
    if not values:
        return "n/a"
    return f"{fmt(statistics.median(values))} [{fmt(min(values))}, {fmt(max(values))}]"

labels = {"one-host": "one client host (A serves, B: 16)", "two-hosts": "two client hosts (A serves, B: 8, C: 8)",
          "local": "local, no placement (forked worker)",
          "two-hosts-coarse": "two client hosts, one interval per phase"}
runs = {v: [load(v, r) for r in range(1, reps + 1)] for v in variants}
print(command)
print(f"{reps} repetition(s), variants alternated; median [min, max] over the repetitions that succeeded "
      "(start skew: n/a with one client agent)")
for v in variants:
    ok = [x for x, _ in runs[v] if x]
    failed = [why for x, why in runs[v] if not x]
    print(f"  {labels[v]:42} rt/s {spread([x[0] for x in ok], lambda f: f'{f:,.0f}')}, "
          f"p99 µs {spread([x[1] for x in ok], lambda f: f'{f:,.1f}')}, "
          f"start skew µs {spread([x[2] for x in ok], lambda f: f'{f:,.0f}')} ({len(ok)} of {reps} counted)"
          + (f"; not counted: {'; '.join(failed)}" if failed else ""))
for v in variants[1:]:
    ratios = [a[0] / b[0] for (a, _), (b, _) in zip(runs[v], runs["one-host"]) if a and b]
    print(f"  ratio {v} ÷ one-host, rt/s, by repetition: {spread(ratios, lambda f: f'{f:.3f}')} "
          f"({len(ratios)} pair(s))")
if "two-hosts-coarse" in variants:
    ratios = [a[0] / b[0] for (a, _), (b, _) in zip(runs["two-hosts"], runs["two-hosts-coarse"]) if a and b]
    print(f"  ratio two-hosts ÷ two-hosts-coarse, rt/s, by repetition: {spread(ratios, lambda f: f'{f:.3f}')} "
          f"({len(ratios)} pair(s))")
print(f"raw results in {out}")
PY
