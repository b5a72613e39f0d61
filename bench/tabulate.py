"""Turns a directory of per-repetition `loopbench measure` JSON files into a Markdown table.

Groups the files by their spec (repetitions aside), and gives per case the median [min, max] of round trips/s
and the medians of the other figures, as arknet's reports do: latencies are medians of per-repetition
percentiles, never pooled. A case with any failed repetition shows the failure instead of figures. With more than
one execution, a second table gives each execution's ratios to the first (netty), matched by repetition index
(the file name's -repN), as median (min–max) over the repetitions where both succeeded."""
import glob
import json
import os
import platform
import re
import statistics
import sys


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def fmt(x, digits=0):
    return f"{x:,.{digits}f}"


def main(directory, suite, command):
    runs = []
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        try:
            run = json.load(open(path))
            m = re.search(r"-rep(\d+)\.json$", path)
            run["_rep"] = int(m.group(1)) if m else 0
            runs.append(run)
        except (OSError, ValueError):
            print(f"<!-- unreadable: {path} -->")
    if not runs:
        print("No results.")
        return
    groups = {}
    for r in runs:
        spec = dict(r["spec"])
        spec.pop("repetitions")
        groups.setdefault(json.dumps(spec, sort_keys=True), []).append(r)
    env = runs[0]["environment"]
    print(f"Measured {os.path.basename(directory).split('-', 1)[1]} (UTC) on {cpu_model()}, "
          f"{env['logicalCpus']} logical CPUs, {env['os']}; JVM {env['javaVendor']} {env['javaVersion']} "
          f"({' '.join(env['jvmArguments'])}; GC {', '.join(env['garbageCollectors'])}); "
          f"Netty {env['nettyVersion']}, Reactor Netty {env['reactorNettyVersion']}, allocator {env['allocator']}.")
    s0 = runs[0]["spec"]
    mode = s0.get("warmupMode", "fixed")
    warmup = (f"warm-up auto (at least {s0['warmupSeconds']} s, at most {s0['warmupMaxSeconds']} s)" if mode == "auto"
              else f"warm-up {s0['warmupSeconds']} s")
    print(f"Command: `{command}` — each repetition a fresh JVM ({env.get('classSharing', 'class sharing not recorded')}); "
          f"{warmup}, measured {s0['seconds']} s, {len(next(iter(groups.values())))} repetitions per case. "
          "Self-checks: warm-up is the median time it ran (how many stopped steady); JIT quiet counts the repetitions "
          "whose measured phase had no deoptimization and under 1 ms of compilation; Jain is the lowest Jain's "
          "fairness index; Little is the median of round trips/s × mean RTT ÷ (clients × window).\n")
    print("| protocol | payload B / clients / window | IO model | work | execution | transport "
          "| round trips/s median [min, max] | MiB/s | p50 µs | p99 µs | p99.9 µs | CPU % | peak RSS MiB | GCs "
          "| ends on one thread | warm-up s | JIT quiet | Jain | Little |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    order = {"nio": 0, "epoll": 1, "io_uring": 2, "auto": 3}
    def sort_key(item):
        s = json.loads(item[0])
        return (order.get(s["transport"], 9), s["ioModel"], s["ioThreads"], s["protocol"], -s["payloadBytes"],
                -s["clients"], s["work"], EXECUTIONS.index(s.get("execution", "netty")))
    for key, rs in sorted(groups.items(), key=sort_key):
        s = json.loads(key)
        reps = [r["repetitions"][0] for r in rs if r.get("repetitions")]
        head = (f"| {s['protocol']} | {s['payloadBytes']} / {s['clients']} / {s['window']} | "
                f"{s['ioModel']} {s['ioThreads']} | {s['work']} | {s.get('execution', 'netty')} "
                f"| {reps[0]['transport'] if reps else s['transport']} ")
        failed = [r for r in reps if not r["ok"]]
        if failed or len(reps) < len(rs):
            err = failed[0]["error"] if failed else "no result"
            print(head + f"| FAILED ({len(failed)} of {len(rs)}): {err[:120]} | | | | | | | | | | | | |")
            continue
        med = lambda f: statistics.median(f(r) for r in reps)
        rt = [r["roundTripsPerSecond"] for r in reps]
        rss = [r["memory"]["peakRssBytes"] for r in reps if r["memory"]["peakRssBytes"] is not None]
        print(head + f"| {fmt(statistics.median(rt))} [{fmt(min(rt))}, {fmt(max(rt))}] "
              f"| {fmt(med(lambda r: r['payloadMibPerSecond']), 1)} "
              f"| {fmt(med(lambda r: r['latency']['p50Us']), 1)} | {fmt(med(lambda r: r['latency']['p99Us']), 1)} "
              f"| {fmt(med(lambda r: r['latency']['p999Us']), 1)} | {fmt(med(lambda r: r['cpu']['percent']))} "
              f"| {fmt(statistics.median(rss) / 2**20, 1) if rss else 'n/a'} | {fmt(med(lambda r: r['gc']['collections']))} "
              f"| {ends_on_one_thread(reps, s['clients'])} | {self_checks(reps)} |")
    matched(runs)
    open_load(groups)


def self_checks(reps):
    """Warm-up time (steady count), JIT-quiet count, lowest Jain's index, median Little's-law ratio."""
    def cell(values, f):
        values = [v for v in values if v is not None]
        return f(values) if values else "n/a"
    warm = [r["warmup"] for r in reps if r.get("warmup")]
    warmup = cell([w["elapsedSeconds"] for w in warm], lambda v: f"{statistics.median(v):.1f}") + (
        f" ({sum(w.get('stoppedBecause') == 'steady' for w in warm)} steady)" if warm else "")
    quiet = cell([r.get("jit") for r in reps], lambda v: f"{sum(j['quiet'] for j in v)} of {len(v)}")
    jain = cell([(r.get("fairness") or {}).get("jainIndex") for r in reps], lambda v: f"{min(v):.3f}")
    little = cell([(r.get("littlesLaw") or {}).get("ratio") for r in reps], lambda v: f"{statistics.median(v):.3f}")
    return f"{warmup} | {quiet} | {jain} | {little}"


def open_load(groups):
    """Open-load cases: latency from the intended and from the actual send time, the pacer's send lag, late, drops."""
    rows = []
    for key, rs in groups.items():
        reps = [r["repetitions"][0] for r in rs if r.get("repetitions") and r["repetitions"][0].get("openLoad")]
        if not reps:
            continue
        s = json.loads(key)
        med = lambda f: statistics.median(f(r) for r in reps)
        rows.append(f"| {s['protocol']} | {s['payloadBytes']} / {s['clients']} / {s['window']} | {s['ioModel']} "
                    f"{s['ioThreads']} | {fmt(s['rate'])} | {sum(r['ok'] for r in reps)} of {len(reps)} "
                    f"| {fmt(med(lambda r: r['roundTripsPerSecond']))} "
                    f"| {fmt(med(lambda r: r['latency']['p50Us']), 1)} / {fmt(med(lambda r: r['latency']['p99Us']), 1)} "
                    f"| {fmt(med(lambda r: r['uncorrectedLatency']['p50Us']), 1)} / "
                    f"{fmt(med(lambda r: r['uncorrectedLatency']['p99Us']), 1)} "
                    f"| {med(lambda r: r['latency']['p50Us'] / r['uncorrectedLatency']['p50Us']):.2f} "
                    f"| {fmt(med(lambda r: r['openLoad']['sendLag']['p50Us']), 1)} / "
                    f"{fmt(med(lambda r: r['openLoad']['sendLag']['p99Us']), 1)} "
                    f"| {fmt(med(lambda r: r['openLoad']['lateMessages']))} "
                    f"| {fmt(med(lambda r: r['openLoad']['droppedMessages']))} "
                    f"| {fmt(med(lambda r: r['cpu']['percent']))} |")
    if rows:
        print("\nOpen load (medians over repetitions): latency from the intended send time (corrected) and from the "
              "actual one (uncorrected), the pacer's send lag (actual − intended), messages sent over 100 µs late, "
              "messages dropped, process CPU (% of one CPU):\n")
        print("| protocol | payload B / clients / window | IO model | rate /s | passed | round trips/s "
              "| corrected p50 / p99 µs | uncorrected p50 / p99 µs | corrected ÷ uncorrected p50 "
              "| send lag p50 / p99 µs | late | dropped | CPU % |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for row in rows:
            print(row)


EXECUTIONS = ["netty", "reactive", "virtual-threads"]


def ends_on_one_thread(reps, clients):
    counts = {r["connectionsOnOneThread"] for r in reps}
    if counts == {None}:
        return "n/a"  # virtual threads move between carriers
    return f"{'/'.join(sorted(str(c) for c in counts))} of {clients}"


def matched(runs):
    """Each execution's ratios to netty's, repetition index by repetition index."""
    cases = {}
    for r in runs:
        spec = dict(r["spec"])
        spec.pop("repetitions")
        execution = spec.pop("execution", "netty")
        rep = r["repetitions"][0] if r.get("repetitions") else None
        if rep and rep["ok"]:
            cases.setdefault(json.dumps(spec, sort_keys=True), {}).setdefault(execution, {})[r["_rep"]] = rep
    if not any(len(by) > 1 for by in cases.values()):
        return
    print("\nMatched ratios to netty (other ÷ netty per repetition index; median (min–max) over the pairs; "
          "*not established* where the range contains 1):\n")
    print("| protocol | payload B / clients / window | IO model | execution | pairs | round trips/s ratio "
          "| CPU ratio | CPU per round trip ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for key, by in sorted(cases.items(), key=lambda kv: (json.loads(kv[0])["ioThreads"], json.loads(kv[0])["protocol"],
                                                          -json.loads(kv[0])["payloadBytes"])):
        s = json.loads(key)
        base = by.get("netty", {})
        for execution in EXECUTIONS[1:]:
            other = by.get(execution, {})
            pairs = [(base[i], other[i]) for i in sorted(base) if i in other]
            if not pairs:
                continue
            def ratio(f):
                xs = [f(o) / f(b) for b, o in pairs]
                med, lo, hi = statistics.median(xs), min(xs), max(xs)
                return f"{med:.2f} ({lo:.2f}–{hi:.2f}){', *not established*' if lo <= 1 <= hi else ''}"
            print(f"| {s['protocol']} | {s['payloadBytes']} / {s['clients']} / {s['window']} "
                  f"| {s['ioModel']} {s['ioThreads']} | {execution} | {len(pairs)} "
                  f"| {ratio(lambda r: r['roundTripsPerSecond'])} | {ratio(lambda r: r['cpu']['percent'])} "
                  f"| {ratio(lambda r: r['cpu']['seconds'] / r['messages'])} |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
