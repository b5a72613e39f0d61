#!/usr/bin/env python3
"""loopbench's client beside the tools people cross-check a load generator with (never run by the tests): each
against the same server, pinned apart (server on CPU 0, client on CPU 1), alternated, every run a fresh client process.

  sockperf  sockperf's ping-pong pair (its server on CPU 0, its client on CPU 1) and loopbench's own pair (tcp, 64 B,
            1 client x window 1, shared IO model with 2 loop threads on CPUs 0 and 1): round trips/s and RTT p50/p99
            of each. Pair against pair, since sockperf's client takes only its own server's replies (an echo of its
            message back, as any echo server gives, does not count) and its server answers only sockperf's messages
  wrk       wrk (1 thread, 16 connections, keep-alive, one request at a time each) and loopbench's http client
            (16 clients x window 1) against one standing HTTP echo server of the service (POST /api/echo-servers,
            1024 B): requests/s and latency p50/p99 of each; wrk posts a body that passes the server's header check
            ("ANB", a tag byte, then the body). The server's error counters are read after each run: wrk's runs add
            one per connection (wrk ends by resetting its connections), loopbench's none; a malformed body would add
            one per request. The server is warmed up first (wrk for 5 s, discarded)
  h2load    h2load (nghttp2-client; h2c, prior knowledge) and loopbench's h2c client against one standing h2c echo
            server of the service, 1024 B POST /echo bodies that pass the header check, at 16 connections x 16
            concurrent streams and at 1 x 1: requests/s and mean request time (h2load gives no percentiles)
  grpc      h2load driving gRPC unary calls (POST /loopbench.Echo/Unary, content-type application/grpc, te trailers,
            a body file holding one length-prefixed EchoMessage of a 1024 B message) and loopbench's grpc client
            (unary, window = concurrent calls) against one standing grpc echo server of the service, at 16 x 16 and
            1 x 1, as for h2load. h2load counts a 200 as done without reading grpc-status; the server's error
            counter, read at the end, says whether any call failed
  grpcjava  grpc-java's own benchmark (AsyncServer on CPU 0, AsyncClient on CPU 1: channels x outstanding RPCs, 1024 B
            each way, netty_epoll, directExecutor at both ends) beside loopbench's grpc client (CPU 1) against a
            standing grpc echo server of the service (CPU 0, calls on the loop), unary and streaming, at 16 x 16 and
            1 x 1: calls/s and latency p50/p99 of each. At 1 x 1 both do the same; at 16 x 16 grpc-java's streaming
            runs 16 streams per channel, one message each in flight, loopbench's one stream of 16. Needs
            bench/grpc-benchmarks/lib (see the pom there)

Each figure is median [min, max] over the repetitions, and loopbench ÷ the tool per repetition. Raw output, the
summary and a one-line README go to bench/results/crosscheck-<UTC>/. Needs gcc, taskset, sockperf, wrk and, for wrk,
the service's jar (./mvnw -q -o -DskipTests package). Run nothing else on the machine meanwhile.

  bench/crosscheck.py [--modes sockperf,wrk,h2load,grpc,grpcjava] [--repetitions 5] [--seconds 3] [--warmup 1]
"""
import argparse, glob, json, os, re, shutil, socket, subprocess, sys, tempfile, time
import urllib.request

import results

BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAVA = os.environ.get("JAVA", "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java")
WRK_SCRIPT = 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/octet-stream"\n' \
             'wrk.body = "ANB\\1" .. string.rep("x", 1020)\n'


def loopbench(out, name, target, protocol, payload, clients, a, window=1, mean=False, extra=()):
    """One fresh loopbench client on CPU 1 against target, or with none loopbench's own pair on CPUs 0 and 1
    (two loop threads): (round trips/s, p50 µs, p99 µs), or with mean (round trips/s, mean µs), or None with
    loopbench's failure."""
    where = ["taskset", "-c", "1", "./loopbench", "measure", "--target", target, "--io-threads", "1"] if target \
        else ["taskset", "-c", "0,1", "./loopbench", "measure", "--io-threads", "2"]
    cmd = where + ["--protocol", protocol, "--payload", str(payload), "--clients", str(clients), "--window", str(window),
                   "--io-model", "shared", "--transport", "epoll", "--seconds", str(a.seconds),
                   "--warmup", str(a.warmup), "--warmup-mode", "fixed", "--repetitions", "1"] + list(extra)
    r = results.measure_once(BASE, out, name, cmd)
    if r is None:
        return None
    if mean:
        return r["roundTripsPerSecond"], r["latency"]["meanUs"]
    return r["roundTripsPerSecond"], r["latency"]["p50Us"], r["latency"]["p99Us"]


def h2load(out, name, url, body, connections, streams, a, headers=("content-type: application/octet-stream",)):
    """h2load on CPU 1 (h2c, prior knowledge): connections × concurrent streams, POST of the body file with these
    headers, a warm-up of a.warmup s then a.seconds: (requests/s, mean request time µs); h2load gives no
    percentiles."""
    cmd = ["taskset", "-c", "1", "h2load", "-c", str(connections), "-m", str(streams), "-d", body] \
        + [x for h in headers for x in ("-H", h)] + [f"--warm-up-time={max(1, round(a.warmup))}",
           "-D", str(max(1, round(a.seconds))), url]
    text = subprocess.run(cmd, capture_output=True, text=True).stdout
    open(f"{out}/{name}.txt", "w").write(text)
    rate = re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", text)
    mean = re.search(r"time for request:\s+\S+\s+\S+\s+([\d.]+)(us|ms|s)", text)
    failed = re.search(r"requests: \d+ total, \d+ started, \d+ done, \d+ succeeded, (\d+) failed, (\d+) errored", text)
    if not (rate and mean and failed) or int(failed.group(1)) or int(failed.group(2)):
        print(f"  {name}: no figures or failed requests (see {name}.txt)", file=sys.stderr)
        return None
    return float(rate.group(1)), micros(*mean.groups())


GRPC_JAVA = f"{BASE}/bench/grpc-benchmarks/lib/*"


def grpc_java_server(out):
    """grpc-java's AsyncServer on CPU 0 (netty_epoll, directExecutor); (process, port)."""
    port = free_port()
    p = subprocess.Popen(["taskset", "-c", "0", JAVA, "--enable-native-access=ALL-UNNAMED", "-cp", GRPC_JAVA,
                          "io.grpc.benchmarks.qps.AsyncServer", f"--address=127.0.0.1:{port}",
                          "--transport=netty_epoll", "--directexecutor"],
                         stdout=open(f"{out}/grpc-java-server.log", "w"), stderr=subprocess.STDOUT)
    deadline = time.time() + 60
    while "Server started" not in open(f"{out}/grpc-java-server.log").read():
        if time.time() > deadline or p.poll() is not None:
            p.kill()
            sys.exit(f"grpc-java's AsyncServer did not start (see {out}/grpc-java-server.log)")
        time.sleep(0.2)
    return p, port


def grpc_java(out, name, port, channels, outstanding, streaming, a):
    """grpc-java's AsyncClient on CPU 1, a fresh process: (calls/s, p50, p99 µs)."""
    cmd = ["taskset", "-c", "1", JAVA, "--enable-native-access=ALL-UNNAMED", "-cp", GRPC_JAVA,
           "io.grpc.benchmarks.qps.AsyncClient", f"--address=127.0.0.1:{port}", f"--channels={channels}",
           f"--outstanding_rpcs={outstanding}", "--client_payload=1024", "--server_payload=1024",
           "--transport=netty_epoll", "--directexecutor", f"--duration={max(1, round(a.seconds))}",
           f"--warmup_duration={max(1, round(a.warmup))}"] + (["--streaming_rpcs"] if streaming else [])
    text = subprocess.run(cmd, capture_output=True, text=True).stdout
    open(f"{out}/{name}.txt", "w").write(text)
    qps = re.search(r"QPS:\s+([\d.]+)", text)
    p50 = re.search(r"50%ile Latency \(in micros\):\s+(\d+)", text)
    p99 = re.search(r"99%ile Latency \(in micros\):\s+(\d+)", text)
    if not (qps and p50 and p99):
        print(f"  {name}: no figures (see {name}.txt)", file=sys.stderr)
        return None
    return float(qps.group(1)), float(p50.group(1)), float(p99.group(1))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sockperf(out, name, a):
    """sockperf's server on CPU 0 and its ping-pong client on CPU 1 (its own warm-up, then a.seconds): (round
    trips/s, p50, p99 µs)."""
    port = free_port()
    server = subprocess.Popen(["taskset", "-c", "0", "sockperf", "server", "--tcp", "-i", "127.0.0.1", "-p", str(port)],
                              stdout=subprocess.DEVNULL, stderr=open(f"{out}/server.log", "a"))
    try:
        time.sleep(0.5)
        cmd = ["taskset", "-c", "1", "sockperf", "ping-pong", "--tcp", "-i", "127.0.0.1", "-p", str(port), "-m", "64",
               "-t", str(a.seconds), "--full-rtt"]
        text = subprocess.run(cmd, capture_output=True, text=True).stdout
    finally:
        server.kill()
        server.wait()
    open(f"{out}/{name}.txt", "w").write(text)
    run = re.search(r"RunTime=([\d.]+) sec; SentMessages=(\d+); ReceivedMessages=(\d+)", text)
    p50 = re.search(r"percentile 50\.000 =\s+([\d.]+)", text)
    p99 = re.search(r"percentile 99\.000 =\s+([\d.]+)", text)
    if not (run and p50 and p99):
        print(f"  {name}: no figures (see {name}.txt)", file=sys.stderr)
        return None
    return int(run.group(3)) / float(run.group(1)), float(p50.group(1)), float(p99.group(1))


def micros(value, unit):
    return float(value) * {"us": 1, "ms": 1e3, "s": 1e6}[unit]


def wrk(out, name, url, a, script):
    """wrk on CPU 1 (a discarded warm-up of a.warmup s, then a.seconds): (requests/s, p50, p99 µs)."""
    base = ["taskset", "-c", "1", "wrk", "-t1", "-c16", "--latency", "-s", script]
    subprocess.run(base + [f"-d{max(1, round(a.warmup))}s", url], capture_output=True)
    text = subprocess.run(base + [f"-d{round(a.seconds)}s", url], capture_output=True, text=True).stdout
    open(f"{out}/{name}.txt", "w").write(text)
    rate = re.search(r"Requests/sec:\s+([\d.]+)", text)
    p50 = re.search(r"^\s+50%\s+([\d.]+)(us|ms|s)", text, re.M)
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)", text, re.M)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)|Socket errors", text)
    if not (rate and p50 and p99) or errors:
        print(f"  {name}: no figures or errors (see {name}.txt)", file=sys.stderr)
        return None
    return float(rate.group(1)), micros(*p50.groups()), micros(*p99.groups())


def call(port, path, body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method="POST" if body is not None else "GET",
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def service(out):
    """The service on CPU 0 with a data directory of its own; (process, port, data directory)."""
    jars = [j for j in glob.glob(f"{BASE}/target/loopbench-*.jar") if not j.endswith(("-plain.jar", "-cli.jar"))]
    if not jars:
        sys.exit("no service jar: run ./mvnw -q -o -DskipTests package first")
    port = free_port()
    data = tempfile.mkdtemp(prefix="crosscheck-")
    p = subprocess.Popen(["taskset", "-c", "0", JAVA, "--enable-native-access=ALL-UNNAMED", "-jar", jars[0],
                          f"--server.port={port}", f"--loopbench.data-directory={data}"],
                         stdout=open(f"{out}/service.log", "w"), stderr=subprocess.STDOUT)
    deadline = time.time() + 120
    while True:
        try:
            call(port, "/actuator/health")
            return p, port, data
        except OSError:
            if time.time() > deadline or p.poll() is not None:
                p.kill()
                sys.exit(f"the service did not start (see {out}/service.log)")
            time.sleep(0.5)


def compare(out, mode, a, tool, ours, after=None, labels=("round trips/s", "p50 µs", "p99 µs")):
    """Alternates the tool and loopbench a.repetitions times, calling after(side) after each run; returns
    the summary's lines."""
    rows = []
    for i in range(1, a.repetitions + 1):
        sides = [("tool", tool), ("loopbench", ours)]
        figures = {}
        for side, measure in (sides if i % 2 else sides[::-1]):
            figures[side] = measure(f"{mode}-{side}-rep{i}")
            if after:
                after(side)
        print(f"[{mode}] {i}/{a.repetitions}: {figures}", file=sys.stderr)
        if figures["tool"] and figures["loopbench"]:
            rows.append((figures["tool"], figures["loopbench"]))
    if not rows:
        return [f"{mode}: no repetition with both figures"]
    stat = results.stat
    lines = [f"{mode}: {len(rows)} repetitions with both figures"]
    for k, what in enumerate(labels):
        fmt = "{:,.0f}" if k == 0 else "{:.1f}"
        lines.append(f"  {what}: {mode} {stat([t[k] for t, _ in rows], fmt)}, loopbench {stat([l[k] for _, l in rows], fmt)}, "
                     f"loopbench ÷ {mode} {stat([l[k] / t[k] for t, l in rows], '{:.3f}')}")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modes", default="sockperf,wrk")
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--warmup", type=float, default=1)
    a = ap.parse_args()
    tools = {"grpc": "h2load", "grpcjava": "java"}
    for tool in ["taskset"] + [tools.get(m, m) for m in a.modes.split(",")]:
        if shutil.which(tool if tool != "java" else JAVA) is None:
            sys.exit(f"bench/crosscheck.py needs {tool}")
    out, commit = results.new_folder(BASE, "crosscheck")
    summary = []
    if "sockperf" in a.modes:
        summary += compare(out, "sockperf", a, lambda n: sockperf(out, n, a),
                           lambda n: loopbench(out, n, None, "tcp", 64, 1, a))
    if "wrk" in a.modes:
        svc, port, data = service(out)
        try:
            echo = call(port, "/api/echo-servers", {"protocol": "http", "payloadBytes": 1024, "transport": "epoll"})
            script = f"{out}/post.lua"
            open(script, "w").write(WRK_SCRIPT)
            target = f"127.0.0.1:{echo['port']}"
            url = f"http://{target}/echo"
            subprocess.run(["taskset", "-c", "1", "wrk", "-t1", "-c16", "-d5s", "-s", script, url],
                           capture_output=True)  # the server's JIT warm-up, discarded
            errors = {"tool": 0, "loopbench": 0}
            seen = [call(port, f"/api/echo-servers/{echo['id']}")["counts"]["errors"]]

            def after(side):
                now = call(port, f"/api/echo-servers/{echo['id']}")["counts"]["errors"]
                errors[side] += now - seen[0]
                seen[0] = now
            summary += compare(out, "wrk", a, lambda n: wrk(out, n, url, a, script),
                               lambda n: loopbench(out, n, target, "http", 1024, 16, a), after)
            counts = call(port, f"/api/echo-servers/{echo['id']}")["counts"]
            json.dump({"counts": counts, "errorsAddedBy": errors}, open(f"{out}/echo-server-counts.json", "w"),
                      indent=1)
            summary.append(f"  the echo server's errors added by wrk's runs (warm-up and measured, 16 connections "
                           f"each): {errors['tool']}; by loopbench's: {errors['loopbench']}")
        finally:
            svc.kill()
            svc.wait()
            shutil.rmtree(data, ignore_errors=True)
    for mode in [m for m in ("h2load", "grpc") if m in a.modes.split(",")]:
        svc, port, data = service(out)
        try:
            protocol = "h2c" if mode == "h2load" else "grpc"
            echo = call(port, "/api/echo-servers", {"protocol": protocol, "payloadBytes": 1024, "transport": "epoll"})
            message = b"ANB\1" + b"x" * 1020
            body = f"{out}/body-{protocol}.bin"
            # gRPC: one uncompressed length-prefixed message, an EchoMessage whose field 1 (0x0A, length 1024 as a
            # varint: 0x80 0x08) holds the loopbench message
            open(body, "wb").write(message if mode == "h2load" else
                                   b"\0" + (3 + len(message)).to_bytes(4, "big") + b"\x0a\x80\x08" + message)
            headers = ("content-type: application/octet-stream",) if mode == "h2load" else \
                ("content-type: application/grpc", "te: trailers")
            target = f"127.0.0.1:{echo['port']}"
            url = f"http://{target}/echo" if mode == "h2load" else f"http://{target}/loopbench.Echo/Unary"
            for connections, streams in [(16, 16), (1, 1)]:
                name = f"{mode}-{connections}x{streams}"
                summary += compare(out, name, a,
                                   lambda n, c=connections, m=streams: h2load(out, n, url, body, c, m, a, headers),
                                   lambda n, c=connections, m=streams: loopbench(out, n, target, protocol, 1024, c,
                                                                                 a, window=m, mean=True),
                                   labels=("requests/s", "mean µs"))
            counts = call(port, f"/api/echo-servers/{echo['id']}")["counts"]
            json.dump(counts, open(f"{out}/echo-server-counts-{protocol}.json", "w"), indent=1)
            summary.append(f"  the {protocol} echo server's errors over every run: {counts['errors']}")
        finally:
            svc.kill()
            svc.wait()
            shutil.rmtree(data, ignore_errors=True)
    if "grpcjava" in a.modes.split(","):
        if not glob.glob(GRPC_JAVA):
            sys.exit("no grpc-java benchmark: see bench/grpc-benchmarks/pom.xml")
        svc, port, data = service(out)
        theirs, their_port = grpc_java_server(out)
        try:
            echo = call(port, "/api/echo-servers", {"protocol": "grpc", "payloadBytes": 1024, "transport": "epoll"})
            target = f"127.0.0.1:{echo['port']}"
            for method in ("unary", "stream"):
                for connections, window in [(16, 16), (1, 1)]:
                    name = f"grpcjava-{method}-{connections}x{window}"
                    summary += compare(out, name, a,
                                       lambda n, c=connections, w=window, m=method: grpc_java(
                                           out, n, their_port, c, w, m == "stream", a),
                                       lambda n, c=connections, w=window, m=method: loopbench(
                                           out, n, target, "grpc", 1024, c, a, window=w,
                                           extra=("--grpc-method", m)),
                                       labels=("calls/s", "p50 µs", "p99 µs"))
            counts = call(port, f"/api/echo-servers/{echo['id']}")["counts"]
            summary.append(f"  the grpc echo server's errors over every run: {counts['errors']}")
        finally:
            for p in (svc, theirs):
                p.kill()
                p.wait()
            shutil.rmtree(data, ignore_errors=True)
    open(f"{out}/summary.txt", "w").write("\n".join(summary) + "\n")
    print("\n".join(summary))
    print(f"results: {os.path.relpath(out, BASE)}")


if __name__ == "__main__":
    main()
