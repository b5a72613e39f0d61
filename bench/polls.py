"""Status polls under load: 50 concurrent clients poll GET /api/runs/{id} while a 10-second forked run executes.

Starts the service (./mvnw spring-boot:run) on a free loopback port with a temporary data directory, posts the run,
waits until it is running, then lets 50 threads poll for 8 seconds over keep-alive connections and prints the
latency percentiles. Prints a Markdown paragraph for docs/performance.md. Not a test: run it on a quiet machine.

    python3 bench/polls.py
"""
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

CLIENTS = 50
POLL_SECONDS = 8.0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(conn, method, path, body=None):
    headers = {"Content-Type": "application/json"} if body else {}
    conn.request(method, path, body=body, headers=headers)
    r = conn.getresponse()
    return r.status, r.read()


def main():
    base = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    port = free_port()
    data = tempfile.mkdtemp(prefix="loopbench-polls-")
    service = subprocess.Popen(
        ["./mvnw", "-q", "spring-boot:run",
         f"-Dspring-boot.run.arguments=--server.port={port} --loopbench.data-directory={data}"],
        cwd=base, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.time() + 120
        while True:
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                if request(c, "GET", "/actuator/health")[0] == 200:
                    break
            except OSError:
                pass
            if time.time() > deadline:
                sys.exit("the service did not start")
            time.sleep(0.5)
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        status, body = request(c, "POST", "/api/runs", json.dumps(
            {"warmupSeconds": 0, "seconds": 10, "repetitions": 1, "isolation": "forked"}))
        assert status == 202, body
        run_id = json.loads(body)["id"]
        while json.loads(request(c, "GET", f"/api/runs/{run_id}")[1])["status"] != "running":
            time.sleep(0.1)
        time.sleep(1.5)  # let the worker JVM reach its measured phase
        samples = [[] for _ in range(CLIENTS)]
        errors = []
        stop_at = time.perf_counter() + POLL_SECONDS

        def poll(i):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            while time.perf_counter() < stop_at:
                t0 = time.perf_counter()
                st, _ = request(conn, "GET", f"/api/runs/{run_id}")
                samples[i].append((time.perf_counter() - t0) * 1000)
                if st != 200:
                    errors.append(st)

        threads = [threading.Thread(target=poll, args=(i,)) for i in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        final = json.loads(request(c, "GET", f"/api/runs/{run_id}")[1])
        while final["status"] in ("queued", "running"):
            time.sleep(0.5)
            final = json.loads(request(c, "GET", f"/api/runs/{run_id}")[1])
        all_ms = sorted(x for s in samples for x in s)
        q = lambda p: all_ms[min(len(all_ms) - 1, int(p * len(all_ms)))]
        print(f"{CLIENTS} concurrent pollers, {len(all_ms):,} polls in {POLL_SECONDS:.0f} s during a 10 s forked "
              f"run ({final['status']}, {final['summary']['roundTripsPerSecond']['median']:,.0f} round trips/s "
              f"measured meanwhile): p50 {q(0.50):.1f} ms, p99 {q(0.99):.1f} ms, max {all_ms[-1]:.1f} ms, "
              f"non-200 answers: {len(errors)}. Measured {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC; "
              f"command: `python3 bench/polls.py`.")
    finally:
        os.killpg(service.pid, signal.SIGTERM)
        service.wait(timeout=30)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
