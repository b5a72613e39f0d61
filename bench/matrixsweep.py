#!/usr/bin/env python3
"""A reduced default sweep, measured, scaled up to the default matrix (never run by the tests): starts the service
from this tree's classes (as `./mvnw spring-boot:run` does, so that workers start from their AOT cache) with a data
directory of its own, trains the workers on one small run, then posts the default matrix's lists for PROTOCOLS
(default tcp) — every payload, both profiles, every IO profile, 3 to 5 repetitions, groups stopping once decided —
and waits for it. Prints its estimate, wall time, repetitions run and saved, and the wall time scaled to the default
210 cases by cases (the reduced sweep's protocols standing for all seven); writes the record and the summary to
bench/results/matrixsweep-<UTC>/. Run nothing else meanwhile.

  bench/matrixsweep.py [--protocols tcp,http] [--payloads 64,1024,16384]
"""
import argparse, datetime, json, os, subprocess, tempfile, time, urllib.request

BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAVA = os.environ.get("LOOPBENCH_JAVA", "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java")
PORT = 18093
FIRST = {"clients": 2, "window": 2, "warmupMode": "fixed", "warmupSeconds": 0.2, "seconds": 0.5, "repetitions": 1}

p = argparse.ArgumentParser()
p.add_argument("--protocols", default="tcp")
p.add_argument("--payloads", default="64,1024,16384")
a = p.parse_args()
stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
out = os.path.join(BASE, "bench", "results", f"matrixsweep-{stamp}")
os.makedirs(out)
matrix = {"protocols": a.protocols.split(","), "payloads": [int(x) for x in a.payloads.split(",")]}


def call(path, body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{PORT}{path}", data=None if body is None else
                                 json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def wait(kind, rid):
    while True:
        r = call(f"/api/{kind}/{rid}")
        if r["status"] not in ("queued", "running"):
            return r
        time.sleep(2)


cp = os.path.join(BASE, "target", "classes") + ":" + open(os.path.join(BASE, "target", "classpath.txt")).read().strip()
service = subprocess.Popen([JAVA, "-cp", cp, "io.loopbench.LoopbenchApplication", f"--server.port={PORT}",
                            f"--loopbench.data-directory={tempfile.mkdtemp(prefix='matrixsweep-data-')}"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(240):
        try:
            call("/actuator/health")
            break
        except OSError:
            time.sleep(0.5)
    wait("runs", call("/api/runs", FIRST)["id"])
    m = wait("matrices", call("/api/matrices", matrix)["id"])
finally:
    service.terminate()
    service.wait(30)
json.dump(m, open(os.path.join(out, "matrix.json"), "w"))
wall = (datetime.datetime.fromisoformat(m["finishedAt"]) - datetime.datetime.fromisoformat(m["startedAt"])
        ).total_seconds()
cases = len(m["cases"])
reps = sum(len(c["repetitions"]) for c in m["cases"])
lines = [f"matrix {json.dumps(matrix)}: {m['status']}, {cases} cases, {reps} repetitions run of "
         f"{cases * m['spec']['repetitions']} at most (saved {m.get('repetitionsSaved')}), estimate at most "
         f"{m['estimatedSeconds']:.0f} s, wall {wall:.0f} s ({wall / reps:.1f} s a repetition)",
         f"scaled to the default matrix's 210 cases: {wall * 210 / cases:.0f} s ({wall * 210 / cases / 3600:.2f} h)"]
with open(os.path.join(out, "summary.txt"), "w") as f:
    for line in lines:
        print(line)
        f.write(line + "\n")
