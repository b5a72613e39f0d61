#!/usr/bin/env python3
"""Prints the layer table of profiled measure results (never run by the tests): for each JSON file given, the case's
merged CPU profile as share % and CPU µs per round trip by layer, then its threads.

  bench/profile_layers.py bench/results/profile-layers-<time>/*.json
"""
import json
import os
import sys

rows = []
layers = []
for path in sys.argv[1:]:
    d = json.load(open(path))
    s = d["summary"]
    p = s.get("cpuProfile")
    if p is None:
        print(f"{path}: no profile", file=sys.stderr)
        continue
    by = {l["words"]: l for l in p["layers"]}
    for l in p["layers"]:
        if l["samples"] and l["words"] not in layers:
            layers.append(l["words"])
    rows.append((os.path.basename(path).removesuffix(".json"), s["roundTripsPerSecond"]["median"], p, by))

print("| case | round trips/s | samples | " + " | ".join(layers) + " |")
print("| --- | --- | --- | " + " | ".join("---" for _ in layers) + " |")
for name, rate, p, by in rows:
    cells = [f"{100 * by[w]['share']:.1f} % / {by[w]['cpuUsPerRoundTrip']:.2f}" if w in by else "0" for w in layers]
    print(f"| {name} | {rate:,.0f} | {p['samples']:,} | " + " | ".join(cells) + " |")
print()
for name, rate, p, by in rows:
    threads = ", ".join(f"{t['thread']} {100 * t['share']:.1f} %" for t in p["threads"])
    print(f"- {name} ({p['profiler']}): {threads}")
