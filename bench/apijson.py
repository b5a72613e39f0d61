#!/usr/bin/env python3
"""The API's JSON before and after a change (never run by the tests): builds two commits of this repository, starts
each as the service on a port of its own with a data directory of its own, posts the same short run and the same
4-case matrix (in-process), waits for both to finish, and compares the JSON each answers and stores: the set of
field paths (arrays' elements merged), and the spec each echoes. Prints the paths only one side has, and writes both
sides' records to bench/results/apijson-<UTC time>/.

    bench/apijson.py BEFORE_REV AFTER_REV

Commit first. Run nothing else meanwhile (the runs are short; the figures themselves are not compared).
"""
import json, os, subprocess, sys, tempfile, time, urllib.request, glob, datetime

JAVA = os.environ.get("LOOPBENCH_JAVA", "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java")
RUN = {"clients": 2, "window": 2, "payloadBytes": 256, "warmupSeconds": 0.2, "warmupMode": "fixed", "seconds": 0.5,
       "repetitions": 2, "isolation": "in-process"}
MATRIX = {"protocols": ["tcp"], "payloads": [256], "profiles": [{"clients": 2, "window": 2}], "ioModels": ["shared"],
          "ioThreads": [1, 2], "executions": ["netty", "reactive"], "seconds": 0.5, "warmupSeconds": 0.2,
          "repetitions": 1, "keepGoing": True, "isolation": "in-process", "warmupMode": "fixed"}


def paths(value, prefix=""):
    out = set()
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(prefix + "/" + k)
            out |= paths(v, prefix + "/" + k)
    elif isinstance(value, list):
        for v in value:
            out |= paths(v, prefix + "[]")
    return out


def call(port, path, body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=None if body is None else
                                 json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def side(rev, port, out):
    work = tempfile.mkdtemp(prefix="apijson-")
    subprocess.run(["git", "worktree", "add", "--detach", "-q", work, rev], check=True)
    try:
        subprocess.run(["./mvnw", "-o", "-q", "package", "-DskipTests"], cwd=work, check=True)
        jar = [j for j in glob.glob(work + "/target/loopbench-*.jar") if not j.endswith(("-plain.jar", "-cli.jar"))][0]
        data = tempfile.mkdtemp(prefix="apijson-data-")
        service = subprocess.Popen([JAVA, "--enable-native-access=ALL-UNNAMED", "-jar", jar, f"--server.port={port}",
                                    f"--loopbench.data-directory={data}"], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        try:
            for _ in range(120):
                try:
                    call(port, "/actuator/health")
                    break
                except OSError:
                    time.sleep(0.5)
            run = call(port, "/api/runs", RUN)["id"]
            matrix = call(port, "/api/matrices", MATRIX)["id"]
            records = {}
            for kind, rid in (("runs", run), ("matrices", matrix)):
                for _ in range(600):
                    r = call(port, f"/api/{kind}/{rid}")
                    if r["status"] not in ("queued", "running"):
                        break
                    time.sleep(0.5)
                records[kind] = r
                stored = glob.glob(f"{data}/**/{rid}.json", recursive=True)
                records[kind + " stored"] = json.load(open(stored[0])) if stored else None
            json.dump(records, open(f"{out}/{rev}.json", "w"), indent=1)
            return records
        finally:
            service.terminate()
            service.wait(30)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", work], check=True)


def main():
    before, after = sys.argv[1], sys.argv[2]
    out = os.path.join(os.path.dirname(__file__), "results",
                       "apijson-" + datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ"))
    os.makedirs(out, exist_ok=True)
    a = side(before, 18081, out)
    b = side(after, 18082, out)
    same = True
    for key in a:
        pa, pb = paths(a[key]), paths(b[key])
        print(f"{key}: {a[key] and a[key].get('status')} / {b[key] and b[key].get('status')}; "
              f"{len(pa)} field paths before, {len(pb)} after")
        for p in sorted(pa - pb):
            print(f"  only before: {p}")
            same = False
        for p in sorted(pb - pa):
            print(f"  only after:  {p}")
            same = False
    for key in ("runs", "matrices"):
        spec_a, spec_b = a[key]["spec"], b[key]["spec"]
        print(f"{key}: spec {'identical' if spec_a == spec_b else 'DIFFERS'}")
        same &= spec_a == spec_b
    print("the same fields" if same else "fields differ", f"(records in {out})")


if __name__ == "__main__":
    main()
