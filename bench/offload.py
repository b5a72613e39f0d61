#!/usr/bin/env python3
"""Where the server's work runs (issue 41; never run by the tests): tcp and http, 16 clients × window 1 × 1024 B,
shared 1 on epoll, with a 1 ms blocking call per echo and with 10,000 xorshift iterations per echo, each on the loop,
on executors of 4, 16 and 64 threads, and on virtual threads. Every case runs once per round, each a fresh process
(./loopbench measure --repetitions 1), the cases rotated from round to round.

Prints a table per protocol and work: round trips/s median [min, max], p50 and p99 medians, the messages in work and
the hand-offs queued at once (median of the measured phases' time averages / largest peak), and the messages in flight by Little's law (median of round trips/s × mean RTT), which
the closed load keeps at clients × window = 16. For the blocking rows it also prints the ceiling 1 ms calls allow,
min(threads, 16) × 1,000/s (one loop thread: 1,000/s), which no row may pass. Raw output, the table and a one-line
README go to bench/results/offload-<UTC>/. Run nothing else on the machine meanwhile.

  bench/offload.py [--rounds 3] [--seconds 2] [--warmup 1] [--protocols tcp,http]
"""
import argparse, os, statistics, sys

import results

BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLIENTS, WINDOW = 16, 1
WORKS = [("1 ms blocking", ["--blocking-us", "1000"], 1000), ("10,000 CPU iterations", ["--work", "10000"], None)]
OFFLOADS = [("loop", ["--offload", "loop"], 1), ("executor 4", ["--offload", "executor", "--offload-threads", "4"], 4),
            ("executor 16", ["--offload", "executor", "--offload-threads", "16"], 16),
            ("executor 64", ["--offload", "executor", "--offload-threads", "64"], 64),
            ("virtual threads", ["--offload", "virtual-threads"], None)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2)
    ap.add_argument("--warmup", type=float, default=1)
    ap.add_argument("--protocols", default="tcp,http")
    a = ap.parse_args()
    out, commit = results.new_folder(BASE, "offload")
    cases = [(p, w, o) for p in a.protocols.split(",") for w in WORKS for o in OFFLOADS]
    got = {(p, w[0], o[0]): [] for p, w, o in cases}
    for rnd in range(a.rounds):
        shift = rnd * len(cases) // a.rounds
        for i, (p, w, o) in enumerate(cases[shift:] + cases[:shift]):
            name = f"{p}-{w[0].split()[0]}-{o[0].replace(' ', '')}-r{rnd + 1}".replace(",", "")
            cmd = ["./loopbench", "measure", "--protocol", p, "--io-model", "shared", "--io-threads", "1",
                   "--transport", "epoll", "--clients", str(CLIENTS), "--window", str(WINDOW), "--seconds",
                   str(a.seconds), "--warmup", str(a.warmup), "--warmup-mode", "fixed", "--repetitions", "1",
                   *w[1], *o[1]]
            r = results.measure_once(BASE, out, name, cmd)
            print(f"round {rnd + 1}: {name}: " + ("failed" if r is None else f"{r['roundTripsPerSecond']:,.0f}/s"),
                  file=sys.stderr, flush=True)
            if r is not None:
                got[(p, w[0], o[0])].append(r)
    lines = [f"shared 1 · epoll · {CLIENTS} clients × window {WINDOW} × 1024 B, {a.rounds} rounds, each a fresh "
             f"process, {a.seconds:g} s measured after {a.warmup:g} s fixed warm-up; at {commit}", ""]
    for p in a.protocols.split(","):
        for w in WORKS:
            lines += [f"### {p} · {w[0]} per echo", "",
                      "| Offload | Round trips/s median [min, max] | p50 / µs | p99 / µs | Busy: mean / peak "
                      "| Queued: mean / peak | In flight (Little) |" + (" Ceiling /s |" if w[2] else ""),
                      "| --- | --- | --- | --- | --- | --- | --- |" + (" --- |" if w[2] else "")]
            for o in OFFLOADS:
                rs = got[(p, w[0], o[0])]
                if not rs:
                    lines.append(f"| {o[0]} | failed | | | | | |" + (" |" if w[2] else ""))
                    continue
                use = [r.get("offloadUse") or {} for r in rs]
                ceiling = ""
                if w[2]:
                    threads = CLIENTS if o[2] is None else min(o[2], CLIENTS)
                    ceiling = f" {threads * 1_000_000 // w[2]:,} |"
                lines.append(
                    f"| {o[0]} | {results.stat([r['roundTripsPerSecond'] for r in rs], '{:,.0f}')} "
                    f"| {statistics.median(r['latency']['p50Us'] for r in rs):,.0f} "
                    f"| {statistics.median(r['latency']['p99Us'] for r in rs):,.0f} "
                    f"| {statistics.median(u.get('busyMean', 0) for u in use):.1f} / {max(u.get('busyPeak', 0) for u in use)} "
                    f"| {statistics.median(u.get('queueMean', 0) for u in use):.1f} / {max(u.get('queuePeak', 0) for u in use)} "
                    f"| {statistics.median(r['roundTripsPerSecond'] * r['latency']['meanUs'] / 1e6 for r in rs):.1f} |"
                    + ceiling)
            lines.append("")
    text = "\n".join(lines)
    open(f"{out}/summary.md", "w").write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
