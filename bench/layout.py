#!/usr/bin/env python3
"""loopbench's pair against a C pair of its own layout (never run by the tests): bench/c/echo_pair.c, one process of
N epoll threads, each owning client i and its server end for i mod N, refills gathered into one write, no content
check. loopbench shared 1 against the C pair's 1 thread, sharded 2 against its 2 threads, each run a fresh process,
the two sides alternated (each side first in every other pair), tcp over loopback, epoll, fixed warm-up.

Prints each pair, then median [min, max] of each side and of the per-pair ratio loopbench ÷ C, and of loopbench's CPU
per round trip. Raw output, the summary and a one-line README go to bench/results/layout-<UTC>/. Needs gcc. Run
nothing else on the machine meanwhile.

  bench/layout.py [--pairs 5] [--seconds 3] [--warmup 1] [--clients 16] [--window 16] [--payload 1024]
"""
import argparse, json, os, subprocess, sys

import results

BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAYOUTS = [("shared", 1), ("sharded", 2)]


def c_pair(out, name, threads, a):
    text = subprocess.run([f"{BASE}/bench/c/build/echo_pair", "--threads", str(threads), "--clients", str(a.clients),
                           "--window", str(a.window), "--payload", str(a.payload), "--seconds", str(a.seconds),
                           "--warmup", str(a.warmup)], capture_output=True, text=True).stdout
    open(f"{out}/{name}.json", "w").write(text)
    r = json.loads(text)
    return None if r["errors"] else (r["roundTripsPerSecond"], None)


def loopbench(out, name, model, threads, a):
    cmd = ["./loopbench", "measure", "--protocol", "tcp", "--io-model", model, "--io-threads", str(threads),
           "--transport", "epoll", "--clients", str(a.clients), "--window", str(a.window), "--payload",
           str(a.payload), "--seconds", str(a.seconds), "--warmup", str(a.warmup), "--warmup-mode", "fixed",
           "--repetitions", "1"]
    r = results.measure_once(BASE, out, name, cmd)
    return None if r is None else (r["roundTripsPerSecond"], r["cpu"]["seconds"] / r["messages"] * 1e6)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--warmup", type=float, default=1)
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--window", type=int, default=16)
    ap.add_argument("--payload", type=int, default=1024)
    a = ap.parse_args()
    os.makedirs(f"{BASE}/bench/c/build", exist_ok=True)
    subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-pthread", "-o", f"{BASE}/bench/c/build/echo_pair",
                    f"{BASE}/bench/c/echo_pair.c"], check=True)
    out, commit = results.new_folder(BASE, "layout")
    summary = []
    for model, threads in LAYOUTS:
        rows = []
        for i in range(1, a.pairs + 1):
            sides = [("c", lambda n: c_pair(out, n, threads, a)),
                     ("loopbench", lambda n: loopbench(out, n, model, threads, a))]
            got = {}
            for side, measure in (sides if i % 2 else sides[::-1]):
                got[side] = measure(f"{model}{threads}-{side}-pair{i}")
            print(f"[{model} {threads}] pair {i}/{a.pairs}: {got}", file=sys.stderr)
            if got["c"] and got["loopbench"]:
                rows.append((got["c"][0], got["loopbench"][0], got["loopbench"][1]))
        if not rows:
            summary.append(f"{model} {threads}: no pair with both figures")
            continue
        summary.append(f"{model} {threads} against the C pair's {threads} thread{'s' if threads > 1 else ''}, "
                       f"{len(rows)} pairs: C {results.stat([r[0] for r in rows], '{:,.0f}')}, loopbench "
                       f"{results.stat([r[1] for r in rows], '{:,.0f}')} round trips/s; loopbench ÷ C "
                       f"{results.stat([r[1] / r[0] for r in rows], '{:.3f}')}; loopbench's CPU per round trip "
                       f"{results.stat([r[2] for r in rows], '{:.3f}')} µs")
    open(f"{out}/summary.txt", "w").write("\n".join(summary) + "\n")
    print("\n".join(summary))
    print(f"results: {os.path.relpath(out, BASE)}")


if __name__ == "__main__":
    main()
