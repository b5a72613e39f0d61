#!/usr/bin/env python3
"""The forked worker's start and footprint, today's against an earlier revision's, side by side (never run by the
tests): each repetition starts both workers once, in an order rotated per repetition, each as its revision's service
starts it by default (the default worker flags and the common ones), at TCP 1024 B, 16 clients x window 16, shared 1,
transport epoll, default auto warm-up, 3 s measured. Both read their request on stdin (io.loopbench.worker.WorkerMain);
the earlier revision's starts from the service's class path (target/classes and the jars), today's from the workers'
AOT cache, which this script trains first exactly as WorkerAotCache does (classes jarred, WorkerTraining at its
TRAINING_SECONDS, no method profiles: keep the two in step), timing it. With --plain today's starts as the earlier one
does (no cache). Prints per side the median [min, max] of: the first echo after process start
(environment.startup.firstEchoMillis), the JVM's age when the warm-up started, peak RSS, the process's wall time,
round trips/s, p99, the auto warm-up's length and the time outside the phases (wall time less warm-up and measured
phase: JVM start, set-up, drains, result, exit). Raw output goes to bench/results/workerstart-<UTC>/.

  bench/workerstart.py BEFORE_REV [--repetitions N (5)] [--plain]

Builds HEAD here and BEFORE_REV in a git worktree under the results folder (offline Maven). Run nothing else meanwhile.
"""
import argparse
import beside
import json
import os
import statistics
import subprocess
import tempfile
import time

p = argparse.ArgumentParser()
p.add_argument("before")
p.add_argument("--repetitions", type=int, default=5)
p.add_argument("--plain", action="store_true")
a = p.parse_args()

out, before_dir = beside.prepare("workerstart", a.before)
base = beside.BASE


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


def run_worker(cp, extra):
    cmd = [java] + FLAGS + extra + ["-cp", cp, "io.loopbench.worker.WorkerMain"]
    started = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdin.write(json.dumps({"version": 1, "spec": SPEC}) + "\n")
    proc.stdin.flush()  # stdin stays open until the worker is done: the service's pipe
    stdout = proc.stdout.read()
    stderr = proc.stderr.read()
    proc.wait()
    proc.stdin.close()
    result = json.loads(stdout.strip().splitlines()[-1])["result"]
    return time.monotonic() - started, result, stdout, stderr


after_cp, after_extra = classpath(base), []
if not a.plain:
    scratch = tempfile.mkdtemp(prefix="workerstart-")  # the cache (some 46 MB) and its jar stay out of the results
    jar = os.path.join(scratch, "classes.jar")
    subprocess.run([os.path.join(os.path.dirname(java), "jar"), "cf", jar, "-C", os.path.join(base, "target", "classes"),
                    "."], check=True)
    after_cp = jar + ":" + open(os.path.join(base, "target", "classpath.txt")).read().strip()
    cache = os.path.join(scratch, "worker.aot")
    trained = time.monotonic()
    with open(os.path.join(out, "training.log"), "w") as log:
        # its stdin stays open until it is done: it exits when that pipe ends, as under the service
        training = subprocess.Popen([java] + FLAGS + ["-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTRecordTraining",
                                                      "-XX:AOTCacheOutput=" + cache, "-cp", after_cp,
                                                      "io.loopbench.worker.WorkerTraining", "0.5"],
                                    stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT)
        if training.wait() != 0:
            raise SystemExit("training failed: see " + os.path.join(out, "training.log"))
        training.stdin.close()
    print(f"trained the AOT cache in {time.monotonic() - trained:.1f} s ({os.path.getsize(cache) / 2 ** 20:.0f} MiB)",
          flush=True)
    after_extra = ["-XX:AOTCache=" + cache]


def run_before():
    return run_worker(classpath(before_dir), [])


def run_after():
    return run_worker(after_cp, after_extra)


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
               "p99": r["latency"]["p99Us"], "ok": r["ok"], "warmup": r["warmup"]["elapsedSeconds"],
               "outside": wall - r["warmup"]["elapsedSeconds"] - r["elapsedSeconds"]}
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
                 f"p99 us {mmm([r['p99'] for r in rs], '{:.1f}')}, auto warm-up s "
                 f"{mmm([r['warmup'] for r in rs], '{:.1f}')}, outside the phases s "
                 f"{mmm([r['outside'] for r in rs], '{:.2f}')}")
summary = "\n".join(lines)
print(summary)
with open(os.path.join(out, "summary.txt"), "w") as f:
    f.write(summary + "\n")
beside.remove(before_dir)
