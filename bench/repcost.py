#!/usr/bin/env python3
"""What a forked repetition costs, stage by stage (never run by the tests): starts the worker JVM the way the service
does (io.loopbench.worker.WorkerMain, the worker flags of application.properties and the common ones, the request on
stdin, stdin held open), for each protocol and each class-archive variant, alternated, and times from the process's
spawn: the JVM's age when the warm-up began (its phase event), the warm-up (its result), the measured phase, the
time from the measured phase's end to the result line and from the result line to the exit. Also the figures (round
trips/s, p99), the worker's peak RSS and the JIT-quiet warning, so that a cheaper repetition is seen to measure the
same.

  bench/repcost.py [--protocols tcp,https] [--variants aot,plain,profiles] [--rounds N (3)]
                   [--spec '{"seconds": 2}'] [--out DIR]

Variants: plain (the class path, no archive), aot (the workers' AOT cache as the service trains it: classes only,
WorkerTraining at 0.5 s a case) and profiles (JEP 515: the same training recording method profiles, 2 s a case).
Each cache is trained once per run of this script, into a temporary folder. Uses target/classes and
target/classpath.txt (run ./loopbench --help or ./mvnw compile first). Raw lines go to bench/results/repcost-<UTC>/.
"""
import argparse
import atexit
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from workerjvm import BASE, classpath, options

p = argparse.ArgumentParser()
p.add_argument("--protocols", default="tcp,https")
p.add_argument("--variants", default="aot,plain")
p.add_argument("--rounds", type=int, default=3)
p.add_argument("--spec", default="{}")
p.add_argument("--out")
a = p.parse_args()

out = a.out or os.path.join(BASE, "bench", "results", "repcost-"
                            + datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ"))
os.makedirs(out, exist_ok=True)
# the classes' jar and the caches (some 50 MB each) live outside the results, and go with this run
work = tempfile.mkdtemp(prefix="repcost-")
atexit.register(shutil.rmtree, work, True)
jar = os.path.join(work, "classes.jar")
subprocess.run(["jar", "cf", jar, "-C", os.path.join(BASE, "target/classes"), "."], check=True)
cp = classpath(jar)


def train(name, flags, seconds):
    cache = os.path.join(work, name + ".aot")
    t = time.time()
    # stdin held open: the training exits when it closes, as it would when the service went away
    proc = subprocess.Popen(options() + flags + ["-XX:AOTCacheOutput=" + cache, "-cp", cp,
                             "io.loopbench.worker.WorkerTraining", str(seconds)], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=open(os.path.join(out, name + "-training.log"), "w"))
    if proc.wait() != 0:
        sys.exit(f"training {name} failed: see {out}/{name}-training.log")
    proc.stdin.close()
    print(f"trained {name} in {time.time() - t:.1f} s", file=sys.stderr)
    return ["-XX:AOTCache=" + cache]


variants = {}
for v in a.variants.split(","):
    if v == "plain":
        variants[v] = []
    elif v == "aot":
        variants[v] = train(v, ["-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTRecordTraining"], 0.5)
    elif v == "profiles":
        variants[v] = train(v, [], 2)
    else:
        sys.exit("unknown variant " + v)


def once(protocol, variant):
    spec = {"protocol": protocol, "payloadBytes": 1024, "clients": 16, "window": 16, "ioModel": "shared",
            "ioThreads": 1, "repetitions": 1}
    spec.update(json.loads(a.spec))
    cmd = options() + variants[variant] + ["-cp", cp, "io.loopbench.worker.WorkerMain"]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdin.write(json.dumps({"version": 1, "spec": spec}) + "\n")
    proc.stdin.flush()
    row = {"protocol": protocol, "variant": variant}
    for line in proc.stdout:
        now = time.monotonic() - t0
        e = json.loads(line)
        if "phase" in e and "jvmUptimeMillis" in e:
            row[e["phase"] + "At"] = now
        elif "result" in e:
            row["resultAt"] = now
            row["result"] = e["result"]
    proc.stdin.close()
    err = proc.stderr.read()
    proc.wait()
    row["exitAt"] = time.monotonic() - t0
    with open(os.path.join(out, "raw.jsonl"), "a") as f:
        f.write(json.dumps(row) + "\n")
    r = row.get("result", {}).get("repetitions", [{}])[0] if row.get("result") else {}
    if not r:
        print(err, file=sys.stderr)
    return row, r


rows = []
order = [(pr, v) for pr in a.protocols.split(",") for v in variants]
for rnd in range(a.rounds):
    seq = order if rnd % 2 == 0 else list(reversed(order))
    for pr, v in seq:
        row, r = once(pr, v)
        w = r.get("warmup") or {}
        jit = r.get("jit") or {}
        s = {"protocol": pr, "variant": v, "wall": row["exitAt"], "start": row.get("warmupAt", float("nan")),
             "warmup": w.get("elapsedSeconds", float("nan")), "stopped": w.get("stoppedBecause"),
             "measured": r.get("elapsedSeconds", float("nan")),
             "tail": row["exitAt"] - (row.get("measuredAt", 0) + r.get("elapsedSeconds", 0)),
             "toResult": row.get("resultAt", 0) - (row.get("measuredAt", 0) + r.get("elapsedSeconds", 0)),
             "rtps": r.get("roundTripsPerSecond", 0), "p99": (r.get("latency") or {}).get("p99Us", 0),
             "peakRssMiB": (r.get("memory") or {}).get("peakRssBytes", 0) / 1048576,
             "jitWarned": any("JIT-quiet" in x for x in r.get("warnings", [])),
             "pathChanges": (jit.get("pathOptimizations") or 0) + (jit.get("pathDeoptimizations") or 0),
             "ok": r.get("ok")}
        rows.append(s)
        print(json.dumps({k: (round(x, 3) if isinstance(x, float) else x) for k, x in s.items()}), flush=True)


def med(xs):
    xs = [x for x in xs if x == x]
    return f"{statistics.median(xs):.2f} [{min(xs):.2f}, {max(xs):.2f}]" if xs else "-"


lines = ["| protocol | variant | wall s | JVM start to warm-up s | warm-up s | measured s | tail s | round trips/s | p99 us "
         "| peak RSS MiB | JIT warned |", "|---|---|---|---|---|---|---|---|---|---|---|"]
for pr, v in order:
    g = [s for s in rows if s["protocol"] == pr and s["variant"] == v]
    lines.append(f"| {pr} | {v} | {med([s['wall'] for s in g])} | {med([s['start'] for s in g])} | "
                 f"{med([s['warmup'] for s in g])} | {med([s['measured'] for s in g])} | {med([s['tail'] for s in g])} "
                 f"| {med([s['rtps'] for s in g])} | {med([s['p99'] for s in g])} | {med([s['peakRssMiB'] for s in g])} | "
                 f"{sum(s['jitWarned'] for s in g)}/{len(g)} |")
table = "\n".join(lines)
print(table)
with open(os.path.join(out, "table.md"), "w") as f:
    f.write("bench/repcost.py " + " ".join(sys.argv[1:]) + "\nHEAD " + subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=BASE, capture_output=True, text=True).stdout + "\n" + table + "\n")
