#!/usr/bin/env bash
# The CPU profiler's cost (issue 26): TCP 1024/16/16 shared 1 with --profiling cpu and off, alternated in fresh JVMs,
# then one profiled run of 3 repetitions per protocol for the layer table in docs/performance.md. Never run by the
# tests; run nothing else meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${REPS:-10}
bench/sidebyside.py profile-cost --repetitions "$reps" \
  --variant off './loopbench measure --protocol tcp --profiling off --repetitions 1' \
  --variant cpu './loopbench measure --protocol tcp --profiling cpu --repetitions 1'
out=bench/results/profile-layers-$(date -u +%Y%m%dT%H%MZ)
mkdir -p "$out"
for p in tcp websocket http https; do
  ./loopbench measure --protocol "$p" --profiling cpu --repetitions 3 > "$out/$p.json"
done
bench/profile_layers.py "$out"/{tcp,websocket,http,https}.json
