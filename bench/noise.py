#!/usr/bin/env python3
"""Reads bench/noise.sh's folder: per protocol, the scale of a round's log ratio (back-to-back repetitions i, i+1 of
one pass, as a race's round pairs two candidates) for throughput and p99, pooled over the passes, and the drift
between the passes (mean log of pass 2 − pass 1). Repetitions with a warning are left out, as races leave them out."""
import glob, json, math, os, re, statistics, sys
from collections import defaultdict

folder = sys.argv[1]
values = defaultdict(lambda: defaultdict(list))  # protocol -> pass -> [(log thr, log p99)]
warned = defaultdict(int)
for f in sorted(glob.glob(os.path.join(folder, '*.json')), key=lambda f: [int(t) if t.isdigit() else t for t in re.split(r'(\d+)', f)]):
    m = re.match(r'(.*)-(\d)-(\d+)\.json', os.path.basename(f))
    if not m:
        continue
    try:
        run = json.load(open(f))
    except ValueError:
        continue
    for r in run.get('repetitions', []):
        if not r.get('ok') or not r.get('roundTripsPerSecond'):
            continue
        if r.get('warnings'):
            warned[m.group(1)] += 1
            continue
        values[m.group(1)][m.group(2)].append((math.log(r['roundTripsPerSecond']), math.log(r['latency']['p99Us'])))

print('| protocol | rounds (pairs) | round log-ratio scale, throughput | p99 | drift between passes, throughput | p99 | warned |')
print('|---|---|---|---|---|---|---|')
for p, passes in values.items():
    z = [[], []]
    for v in passes.values():
        for i in range(0, len(v) - 1, 2):
            z[0].append(v[i + 1][0] - v[i][0])
            z[1].append(v[i + 1][1] - v[i][1])
    rms = [math.sqrt(sum(x * x for x in zz) / len(zz)) if zz else float('nan') for zz in z]
    drift = ['', '']
    if len(passes.get('1', [])) and len(passes.get('2', [])):
        for k in (0, 1):
            d = statistics.mean(x[k] for x in passes['2']) - statistics.mean(x[k] for x in passes['1'])
            drift[k] = '%+.3f' % d
    print('| %s | %d | %.3f | %.3f | %s | %s | %d |' % (p, len(z[0]), rms[0], rms[1], drift[0], drift[1], warned[p]))
