#!/usr/bin/env python3
"""HTTP/2 and gRPC beside HTTP/1.1 (issue 42; never run by the tests): h2c, h2, grpc (unary; grpc:stream its
bidirectional stream), http and https at 1024 B / 16 × 16 and 64 B / 1 × 1, shared 1 and sharded 2, epoll, netty
execution, grpc's calls on the loop (offload loop: directExecutor); every case once per round, each a fresh process
(./loopbench measure --repetitions 1, auto warm-up), the cases rotated from round to round.

Prints round trips/s median [min, max] and p99 median per case, and how many runs warned. Raw output, the table and
a one-line README go to bench/results/http2table-<UTC>/. Run nothing else on the machine meanwhile.

  bench/http2table.py [--rounds 3] [--protocols h2c,h2,grpc,grpc:stream,http,https]
"""
import argparse, os, statistics, sys

import results

BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOADS = [(1024, 16, 16), (64, 1, 1)]
LAYOUTS = [("shared", 1), ("sharded", 2)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--protocols", default="h2c,h2,grpc,grpc:stream,http,https")
    a = ap.parse_args()
    out, commit = results.new_folder(BASE, "http2table")
    protocols = a.protocols.split(",")
    cases = [(p, load, layout) for load in LOADS for layout in LAYOUTS for p in protocols]
    got = {c: [] for c in cases}
    warned = {c: 0 for c in cases}
    for rnd in range(a.rounds):
        shift = rnd * len(cases) // a.rounds
        for p, (payload, clients, window), (model, threads) in cases[shift:] + cases[:shift]:
            name = f"{p.replace(':', '-')}-{payload}-{clients}x{window}-{model}{threads}-r{rnd + 1}"
            protocol, _, method = p.partition(":")
            cmd = ["./loopbench", "measure", "--protocol", protocol] + (["--grpc-method", method] if method else []) \
                + ["--payload", str(payload), "--clients", str(clients),
                   "--window", str(window), "--io-model", model, "--io-threads", str(threads), "--transport", "epoll",
                   "--repetitions", "1"]
            r = results.measure_once(BASE, out, name, cmd)
            print(f"round {rnd + 1}: {name}: " + ("failed" if r is None else f"{r['roundTripsPerSecond']:,.0f}/s"),
                  file=sys.stderr, flush=True)
            key = (p, (payload, clients, window), (model, threads))
            if r is not None:
                got[key].append(r)
                warned[key] += 1 if r["warnings"] else 0
    lines = [f"epoll, netty execution, auto warm-up, {a.rounds} rounds, each a fresh process; at {commit}", "",
             "| Load | Layout | " + " | ".join(f"{p} round trips/s | {p} p99 / µs" for p in protocols) + " |",
             "| --- | --- | " + " | ".join("--- | ---" for _ in protocols) + " |"]
    for load in LOADS:
        for layout in LAYOUTS:
            cells = []
            for p in protocols:
                rs = got[(p, load, layout)]
                if not rs:
                    cells += ["failed", ""]
                    continue
                w = warned[(p, load, layout)]
                cells += [results.stat([r["roundTripsPerSecond"] for r in rs], "{:,.0f}")
                          + (f" ({w} of {len(rs)} warned)" if w else ""),
                          f"{statistics.median(r['latency']['p99Us'] for r in rs):,.0f}"]
            lines.append(f"| {load[0]} B / {load[1]} × {load[2]} | {layout[0]} {layout[1]} | " + " | ".join(cells)
                         + " |")
    text = "\n".join(lines)
    open(f"{out}/summary.md", "w").write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
