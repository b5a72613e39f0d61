#!/usr/bin/env python3
"""How long a measured phase must be (never run by the tests): the variance of round trips/s and p99 within one JVM
against the variance between fresh JVMs, for measured phases of 1, 2 and 3 s, on several protocols. Each JVM is a
worker started as the service starts one (io.loopbench.worker.WorkerMain, the worker flags, the class path, no class
archive) and runs R repetitions of one spec, each with the default auto warm-up; the lengths and protocols are
alternated JVM by JVM. Within: the pooled standard deviation of ln(figure) between repetitions of one JVM (its first
left out: it is a fresh JVM's, the others' are not). Between: the standard deviation of ln(first repetition) across
JVMs, which is what a forked repetition's figure varies by. Raw results go to bench/results/phaselength-<UTC>/.

  bench/phaselength.py [--protocols tcp,http,https] [--lengths 1,2,3] [--jvms J (4)] [--repetitions R (4)]
"""
import argparse
import datetime
import json
import math
import os
import statistics
import subprocess
import sys

from workerjvm import BASE, classpath, options

p = argparse.ArgumentParser()
p.add_argument("--protocols", default="tcp,http,https")
p.add_argument("--lengths", default="1,2,3")
p.add_argument("--jvms", type=int, default=4)
p.add_argument("--repetitions", type=int, default=4)
a = p.parse_args()
out = os.path.join(BASE, "bench", "results",
                   "phaselength-" + datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ"))
os.makedirs(out)
cmd = options() + ["-cp", classpath(), "io.loopbench.worker.WorkerMain"]
cases = [(pr, float(l)) for pr in a.protocols.split(",") for l in a.lengths.split(",")]
runs = {c: [] for c in cases}
for j in range(a.jvms):
    for pr, length in (cases if j % 2 == 0 else list(reversed(cases))):
        spec = {"protocol": pr, "payloadBytes": 1024, "clients": 16, "window": 16, "ioModel": "shared", "ioThreads": 1,
                "repetitions": a.repetitions, "seconds": length}
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True)
        proc.stdin.write(json.dumps({"version": 1, "spec": spec}) + "\n")
        proc.stdin.flush()
        result = None
        for line in proc.stdout:
            e = json.loads(line)
            if "result" in e:
                result = e["result"]
        proc.stdin.close()
        proc.wait()
        reps = [(r["roundTripsPerSecond"], r["latency"]["p99Us"]) for r in result["repetitions"] if r.get("ok")]
        runs[(pr, length)].append(reps)
        with open(os.path.join(out, "raw.jsonl"), "a") as f:
            f.write(json.dumps({"protocol": pr, "seconds": length, "jvm": j, "repetitions": reps}) + "\n")
        print(pr, length, j, [(round(x), round(y)) for x, y in reps], flush=True)


def sds(jvms, k):
    within = [math.log(r[k]) for reps in jvms for r in reps[1:]]
    groups = [[math.log(r[k]) for r in reps[1:]] for reps in jvms if len(reps) > 2]
    ss = sum(sum((x - statistics.mean(g)) ** 2 for x in g) for g in groups)
    df = sum(len(g) - 1 for g in groups)
    w = math.sqrt(ss / df) if df > 0 else float("nan")
    firsts = [math.log(reps[0][k]) for reps in jvms if reps]
    b = statistics.stdev(firsts) if len(firsts) > 1 else float("nan")
    return w, b


lines = ["| protocol | measured s | within a JVM, thr | between fresh JVMs, thr | within, p99 | between, p99 |",
         "|---|---|---|---|---|---|"]
for c in cases:
    wt, bt = sds(runs[c], 0)
    wp, bp = sds(runs[c], 1)
    lines.append(f"| {c[0]} | {c[1]:g} | {wt * 100:.1f} % | {bt * 100:.1f} % | {wp * 100:.1f} % | {bp * 100:.1f} % |")
table = "\n".join(lines)
print(table)
with open(os.path.join(out, "table.md"), "w") as f:
    f.write("bench/phaselength.py " + " ".join(sys.argv[1:]) + "\nHEAD " + subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=BASE, capture_output=True, text=True).stdout
            + "(standard deviations of ln(figure), as %)\n\n" + table + "\n")
