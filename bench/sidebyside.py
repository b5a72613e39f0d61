#!/usr/bin/env python3
"""Runs loopbench variants side by side (never run by the tests): each repetition runs every variant once, in an
order rotated per repetition, each in a fresh JVM; prints per variant the median [min, max] of round trips/s, p50,
p99, peak RSS and young collections in the measured phase, and each variant's ratio to the first, matched by
repetition. Raw JSON goes to bench/results/<name>-<UTC time>/.

  bench/sidebyside.py NAME [--repetitions N] --variant LABEL 'COMMAND' --variant LABEL 'COMMAND' ...

COMMAND is a shell command that prints one measure result as JSON on stdout (./loopbench measure ... --repetitions 1).
Run nothing else on the machine meanwhile.
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys

p = argparse.ArgumentParser()
p.add_argument("name")
p.add_argument("--repetitions", type=int, default=5)
p.add_argument("--variant", nargs=2, action="append", metavar=("LABEL", "COMMAND"), required=True)
a = p.parse_args()

base = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = os.path.join(base, "bench", "results",
                   a.name + "-" + datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%MZ"))
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "command.txt"), "w") as f:
    f.write(" ".join(sys.argv) + "\n")
    for label, cmd in a.variant:
        f.write(f"{label}: {cmd}\n")

rows = {label: [] for label, _ in a.variant}
for rep in range(a.repetitions):
    order = a.variant[rep % len(a.variant):] + a.variant[:rep % len(a.variant)]
    for label, cmd in order:
        res = subprocess.run(cmd, shell=True, cwd=base, capture_output=True, text=True)
        path = os.path.join(out, f"{label}-{rep + 1}.json")
        with open(path, "w") as f:
            f.write(res.stdout)
        try:
            r = json.loads(res.stdout)["repetitions"][0]
        except (ValueError, KeyError, IndexError):
            print(f"rep {rep + 1} {label}: no result (exit {res.returncode}): {res.stderr.strip()[-300:]}")
            rows[label].append(None)
            continue
        row = {"rt": r["roundTripsPerSecond"], "p50": r["latency"]["p50Us"], "p99": r["latency"]["p99Us"],
               "rss": r["memory"]["peakRssBytes"] / 2**20, "gc": r["gc"]["collections"], "ok": r["ok"],
               "error": r["error"]}
        rows[label].append(row)
        print(f"rep {rep + 1} {label}: {row['rt']:,.0f} rt/s p50 {row['p50']:.1f} µs p99 {row['p99']:.1f} µs "
              f"RSS {row['rss']:.1f} MiB GCs {row['gc']}" + ("" if row["ok"] else f" FAILED: {row['error']}"),
              flush=True)


def mmm(values, fmt):
    values = [v for v in values if v is not None]
    if not values:
        return "n/a"
    return f"{fmt.format(statistics.median(values))} [{fmt.format(min(values))}, {fmt.format(max(values))}]"


first = a.variant[0][0]
lines = [f"{a.repetitions} repetitions, alternated; median [min, max]"]
for label, _ in a.variant:
    rs = rows[label]
    ok = [r for r in rs if r]
    line = (f"{label}: rt/s {mmm([r['rt'] for r in ok], '{:,.0f}')}, p50 µs {mmm([r['p50'] for r in ok], '{:.1f}')}, "
            f"p99 µs {mmm([r['p99'] for r in ok], '{:.1f}')}, peak RSS MiB {mmm([r['rss'] for r in ok], '{:.1f}')}, "
            f"GCs {mmm([r['gc'] for r in ok], '{:.0f}')}, failed {sum(1 for r in ok if not r['ok'])}")
    if label != first:
        ratios = [r['rt'] / f['rt'] for r, f in zip(rs, rows[first]) if r and f]
        line += f"; ratio to {first} {mmm(ratios, '{:.3f}')}"
    lines.append(line)
summary = "\n".join(lines)
print(summary)
with open(os.path.join(out, "summary.txt"), "w") as f:
    f.write(summary + "\n")
