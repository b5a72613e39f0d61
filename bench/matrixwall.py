#!/usr/bin/env python3
"""A forked matrix's wall time and estimate, today's service against an earlier revision's, side by side (never run
by the tests): builds BEFORE_REV in a git worktree and the working tree here (offline Maven), starts each as
`./mvnw spring-boot:run` does (its classes directory and the jars, so that today's workers can start from their AOT
cache; from the executable jar they could not), each with a data directory of its own, runs one forked repetition on
each first (today's trains its workers' cache there; not timed), then the same matrix on each, alternated, ROUNDS
times: TCP 1024 B, 16 clients x window 16, shared and sharded 1, 3 repetitions, default auto warm-up, 3 s measured.
Prints per side each matrix's estimate, its wall time (startedAt to finishedAt) and the time its repetitions spent
outside their warm-up and measured phases (wall less the phases: JVM start, set-up, drains, exit), and writes the
records to bench/results/matrixwall-<UTC>/.

  bench/matrixwall.py BEFORE_REV [--rounds N (2)]

Run nothing else meanwhile.
"""
import argparse, beside, datetime, json, os, subprocess, tempfile, time, urllib.request

JAVA = os.environ.get("LOOPBENCH_JAVA", "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java")
MATRIX = {"protocols": ["tcp"], "payloads": [1024], "profiles": [{"clients": 16, "window": 16}],
          "ioModels": ["shared", "sharded"], "ioThreads": [1], "repetitions": 3, "keepGoing": True,
          "isolation": "forked"}
FIRST = {"clients": 2, "window": 2, "warmupMode": "fixed", "warmupSeconds": 0.2, "seconds": 0.5, "repetitions": 1}

p = argparse.ArgumentParser()
p.add_argument("before")
p.add_argument("--rounds", type=int, default=2)
a = p.parse_args()
out, before_dir = beside.prepare("matrixwall", a.before)
base = beside.BASE


def call(port, path, body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=None if body is None else
                                 json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def wait(port, kind, rid):
    while True:
        r = call(port, f"/api/{kind}/{rid}")
        if r["status"] not in ("queued", "running"):
            return r
        time.sleep(1)


def start(tree, port):
    cp = os.path.join(tree, "target", "classes") + ":" + open(os.path.join(tree, "target", "classpath.txt")).read().strip()
    data = tempfile.mkdtemp(prefix="matrixwall-data-")
    service = subprocess.Popen([JAVA, "-cp", cp, "io.loopbench.LoopbenchApplication", f"--server.port={port}",
                                f"--loopbench.data-directory={data}"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    for _ in range(240):
        try:
            call(port, "/actuator/health")
            break
        except OSError:
            time.sleep(0.5)
    first = wait(port, "runs", call(port, "/api/runs", FIRST)["id"])
    print(f"port {port}: first run {first['status']}", flush=True)
    return service


def phase_seconds(matrix):
    """Wall time less every repetition's warm-up and measured phase."""
    phases = sum((r.get("warmup") or {}).get("elapsedSeconds", 0) + r["elapsedSeconds"]
                 for c in matrix["cases"] for r in c["repetitions"])
    return phases


sides = {"before": (before_dir, 18091), "after": (base, 18092)}
services = {k: start(tree, port) for k, (tree, port) in sides.items()}
rows = {k: [] for k in sides}
try:
    for rnd in range(a.rounds):
        for label in (list(sides) if rnd % 2 == 0 else list(sides)[::-1]):
            port = sides[label][1]
            m = wait(port, "matrices", call(port, "/api/matrices", MATRIX)["id"])
            json.dump(m, open(os.path.join(out, f"{label}-{rnd + 1}.json"), "w"))
            wall = (datetime.datetime.fromisoformat(m["finishedAt"]) -
                    datetime.datetime.fromisoformat(m["startedAt"])).total_seconds()
            reps = sum(len(c["repetitions"]) for c in m["cases"])
            phases = phase_seconds(m)
            row = (m["estimatedSeconds"], wall, reps, (wall - phases) / reps)
            rows[label].append(row)
            print(f"round {rnd + 1} {label}: {m['status']}, estimate {row[0]:.0f} s, wall {wall:.1f} s, {reps} "
                  f"repetitions, {row[3]:.2f} s each outside its phases", flush=True)
finally:
    for s in services.values():
        s.terminate()
        s.wait(30)
    beside.remove(before_dir)
with open(os.path.join(out, "summary.txt"), "w") as f:
    for label, rs in rows.items():
        line = (f"{label}: estimate {rs[0][0]:.0f} s; wall s {', '.join(f'{r[1]:.1f}' for r in rs)}; outside the "
                f"phases per repetition s {', '.join(f'{r[3]:.2f}' for r in rs)}")
        print(line)
        f.write(line + "\n")
