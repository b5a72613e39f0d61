#!/usr/bin/env python3
"""The forked worker's start and footprint, today's against an earlier revision's, side by side (never run by the
tests): each repetition starts both workers once, in an order rotated per repetition, exactly as the service starts
them (its default worker flags and the common ones), at TCP 1024 B, 16 clients x window 16, shared 1, transport
epoll, default auto warm-up, 3 s measured. The earlier revision's worker is the CLI's measure command with the
service's hidden flags; today's reads its request on stdin (io.loopbench.worker). Prints per side the median [min,
max] of: the first echo after process start (environment.startup.firstEchoMillis), the JVM's age when the warm-up
started, peak RSS, the process's wall time, round trips/s and p99. Raw output goes to bench/results/workerstart-<UTC>/.

  bench/workerstart.py BEFORE_REV [--repetitions N (5)]

Builds HEAD here and BEFORE_REV in a git worktree under the results folder (offline Maven). Run nothing else meanwhile.
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import time

p = argparse.ArgumentParser()
p.add_argument("before")
p.add_argument("--repetitions", type=int, default=5)
a = p.parse_args()

base = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = os.path.join(base, "bench", "results",
                   "workerstart-" + datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%MZ"))
os.makedirs(out)
before_dir = os.path.join(out, "before-tree")
subprocess.run(["git", "worktree", "add", "--detach", before_dir, a.before], cwd=base, check=True,
               capture_output=True)
for tree in (base, before_dir):
    subprocess.run(["./mvnw", "-o", "-q", "compile"], cwd=tree, check=True)
with open(os.path.join(out, "command.txt"), "w") as f:
    f.write(f"bench/workerstart.py {a.before} --repetitions {a.repetitions}\n")
    f.write("HEAD " + subprocess.run(["git", "rev-parse", "HEAD"], cwd=base, capture_output=True, text=True)
            .stdout)


def jdk():
    """The JDK 21+ that Maven's toolchains plugin discovered, as ./loopbench finds it."""
    cache = os.path.expanduser("~/.m2/discovered-jdk-toolchains-cache.xml")
    homes = [l.split("<jdkHome>")[1].split("</jdkHome>")[0] for l in open(cache) if "<jdkHome>" in l] \
        if os.path.exists(cache) else []
    for home in homes:
        release = os.path.join(home, "release")
        if os.path.exists(release):
            version = [l for l in open(release) if l.startswith("JAVA_VERSION=")]
            if version and int(version[0].split('"')[1].split(".")[0]) >= 21:
                return os.path.join(home, "bin", "java")
    return "java"


java = os.environ.get("LOOPBENCH_JAVA", jdk())
FLAGS = ["-Dloopbench.worker=forked", "-Xms32m", "-Xmx640m", "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED",
         "-Xlog:disable", "-Xlog:all=warning:stderr", "-XX:+ExitOnOutOfMemoryError"]
SPEC = {"protocol": "tcp", "payloadBytes": 1024, "clients": 16, "window": 16, "ioModel": "shared", "ioThreads": 1,
        "transport": "epoll", "repetitions": 1}


def classpath(tree):
    return os.path.join(tree, "target", "classes") + ":" + open(os.path.join(tree, "target", "classpath.txt")).read().strip()


def run_before():
    args = ["measure", "--protocol", "tcp", "--payload", "1024", "--clients", "16", "--window", "16", "--io-model",
            "shared", "--io-threads", "1", "--transport", "epoll", "--repetitions", "1", "--timeline",
            "--interval-lines", "--exit-with-parent"]
    cmd = [java] + FLAGS + ["-cp", classpath(before_dir), "io.loopbench.cli.LoopbenchCli"] + args
    started = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stdout = proc.stdout.read()  # stdin stays open until the worker is done: the service's pipe
    stderr = proc.stderr.read()
    proc.wait()
    proc.stdin.close()
    return time.monotonic() - started, json.loads(stdout), stdout, stderr


def run_after():
    cmd = [java] + FLAGS + ["-cp", classpath(base), "io.loopbench.worker.WorkerMain"]
    started = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdin.write(json.dumps({"version": 1, "spec": SPEC}) + "\n")
    proc.stdin.flush()
    stdout = proc.stdout.read()
    stderr = proc.stderr.read()
    proc.wait()
    proc.stdin.close()
    result = json.loads(stdout.strip().splitlines()[-1])["result"]
    return time.monotonic() - started, result, stdout, stderr


rows = {"before": [], "after": []}
variants = [("before", run_before), ("after", run_after)]
for rep in range(a.repetitions):
    for label, fn in (variants if rep % 2 == 0 else variants[::-1]):
        wall, result, stdout, stderr = fn()
        with open(os.path.join(out, f"{label}-{rep + 1}.json"), "w") as f:
            f.write(stdout)
        with open(os.path.join(out, f"{label}-{rep + 1}.stderr"), "w") as f:
            f.write(stderr)
        r = result["repetitions"][0]
        env = result["environment"]
        warmup_at = next((int(l.split("JVM up ")[1].split(" ms")[0]) for l in stderr.splitlines()
                          if "] warmup " in l and "JVM up " in l), None)
        row = {"firstEcho": env["startup"]["firstEchoMillis"], "warmupAt": warmup_at,
               "rss": r["memory"]["peakRssBytes"] / 2 ** 20, "wall": wall, "rt": r["roundTripsPerSecond"],
               "p99": r["latency"]["p99Us"], "ok": r["ok"]}
        rows[label].append(row)
        print(f"rep {rep + 1} {label}: first echo {row['firstEcho']} ms, warm-up at {warmup_at} ms, peak RSS "
              f"{row['rss']:.1f} MiB, wall {wall:.2f} s, {row['rt']:,.0f} rt/s, p99 {row['p99']:.1f} us"
              + ("" if row["ok"] else " (FAILED)"), flush=True)


def mmm(values, fmt):
    values = [v for v in values if v is not None]
    return f"{fmt.format(statistics.median(values))} [{fmt.format(min(values))}, {fmt.format(max(values))}]"


lines = [f"{a.repetitions} repetitions each, alternated; median [min, max]"]
for label in ("before", "after"):
    rs = rows[label]
    lines.append(f"{label}: first echo ms {mmm([r['firstEcho'] for r in rs], '{:.0f}')}, warm-up starts at JVM age ms "
                 f"{mmm([r['warmupAt'] for r in rs], '{:.0f}')}, peak RSS MiB {mmm([r['rss'] for r in rs], '{:.1f}')}, "
                 f"wall s {mmm([r['wall'] for r in rs], '{:.2f}')}, rt/s {mmm([r['rt'] for r in rs], '{:,.0f}')}, "
                 f"p99 us {mmm([r['p99'] for r in rs], '{:.1f}')}")
summary = "\n".join(lines)
print(summary)
with open(os.path.join(out, "summary.txt"), "w") as f:
    f.write(summary + "\n")
subprocess.run(["git", "worktree", "remove", "--force", before_dir], cwd=base, capture_output=True)
