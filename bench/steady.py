"""Tabulates a bench/steady.sh directory: per case, each variant's throughput and p99 (median [min, max] over the
rounds), how long its JVM took from start to its first phase (the progress line's "JVM up N ms"), its warm-up and
the compilations in its measured phase, then each forked variant's ratios to the warmed JVM against issue 9's
target (throughput >= 0.9x, p99 <= 1.5x): ratios of the medians, and in brackets the range of the per-round ratios.
The warmed variant's figures are those of its 3rd repetition; its JVM start is that of its first."""
import glob
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tabulate import cpu_model, fmt  # noqa: E402

VARIANTS = ["aot", "cds", "warmed"]
THROUGHPUT_TARGET = 0.9
P99_TARGET = 1.5


def load(directory):
    """{case: {variant: {round: run}}}, where run has the repetition that counts, its environment and JVM start."""
    cases = {}
    for path in glob.glob(os.path.join(directory, "case*-*-round*.json")):
        m = re.search(r"case(\d+)-(\w+)-round(\d+)\.json$", path)
        case, variant, rnd = int(m.group(1)), m.group(2), int(m.group(3))
        run = {"error": None, "rep": None, "env": None, "spec": None}
        try:
            result = json.load(open(path))
            reps = result.get("repetitions") or []
            index = 2 if variant == "warmed" else 0
            run.update(env=result.get("environment"), spec=result.get("spec"))
            if len(reps) > index and reps[index].get("roundTripsPerSecond") is not None:
                run["rep"] = reps[index]
                run["error"] = None if reps[index]["ok"] else reps[index]["error"]
            else:
                run["error"] = result.get("error") or "no such repetition"
        except (OSError, ValueError) as e:
            run["error"] = f"unreadable: {e}"
        err = path[:-len(".json")] + ".err"
        ups = re.findall(r"JVM up (\d+) ms", open(err).read()) if os.path.exists(err) else []
        run["jvmUpMs"] = int(ups[0]) if ups else None
        cases.setdefault(case, {}).setdefault(variant, {})[rnd] = run
    return cases


def spread(xs, digits=0):
    if not xs:
        return "n/a"
    return f"{fmt(statistics.median(xs), digits)} [{fmt(min(xs), digits)}, {fmt(max(xs), digits)}]"


def describe(spec):
    return (f"{spec['protocol']} {spec['payloadBytes']} / {spec['clients']} / {spec['window']} "
            f"{spec['ioModel']} {spec['ioThreads']}")


def main(directory, command):
    cases = load(directory)
    if not cases:
        print("No results.")
        return
    env = next((r["env"] for c in cases.values() for v in c.values() for r in v.values() if r["env"]), None)
    print(f"Measured {os.path.basename(directory).split('-', 1)[1]} (UTC) on {cpu_model()}"
          + (f", {env['logicalCpus']} logical CPUs, {env['os']}; JVM {env['javaVendor']} {env['javaVersion']}"
             if env else "") + f". Command: `{command}`.\n")
    print("| case | variant | JVM start | rounds ok | round trips/s median [min, max] | p99 µs median [min, max] "
          "| JVM start to first phase, ms | warm-up s (why it stopped) | measured-phase compilations |")
    print("|---|---|---|---|---|---|---|---|---|")
    for case in sorted(cases):
        by = cases[case]
        spec = next((r["spec"] for v in by.values() for r in v.values() if r["spec"]), None)
        name = describe(spec) if spec else f"case {case}"
        for variant in VARIANTS:
            runs = list(by.get(variant, {}).values())
            ok = [r["rep"] for r in runs if r["rep"] is not None and r["error"] is None]
            failed = [r["error"] for r in runs if r["error"] is not None]
            sharing = "/".join(sorted({str(r["env"].get("classSharing")) for r in runs if r["env"]})) or "n/a"
            stopped = {}
            for rep in ok:
                stopped[rep["warmup"]["stoppedBecause"]] = stopped.get(rep["warmup"]["stoppedBecause"], 0) + 1
            print(f"| {name} | {variant} | {sharing} | {len(ok)} of {len(runs)}"
                  + (f" ({failed[0][:80]})" if failed else "")
                  + f" | {spread([r['roundTripsPerSecond'] for r in ok])}"
                  + f" | {spread([r['latency']['p99Us'] for r in ok], 1)}"
                  + f" | {spread([r['jvmUpMs'] for r in runs if r['jvmUpMs'] is not None])}"
                  + f" | {spread([r['warmup']['elapsedSeconds'] for r in ok], 1)} "
                  + f"({', '.join(f'{k} {v}' for k, v in sorted(stopped.items()))})"
                  + f" | {spread([r['jit']['compilations'] for r in ok])} |")
    print(f"\nForked ÷ warmed (target: round trips/s ≥ {THROUGHPUT_TARGET}×, p99 ≤ {P99_TARGET}×; ratio of the "
          "medians, [min, max] of the per-round ratios):\n")
    print("| case | variant | round trips/s ratio | meets | p99 ratio | meets |")
    print("|---|---|---|---|---|---|")
    for case in sorted(cases):
        by = cases[case]
        spec = next((r["spec"] for v in by.values() for r in v.values() if r["spec"]), None)
        warmed = {k: r["rep"] for k, r in by.get("warmed", {}).items() if r["rep"] is not None and r["error"] is None}
        for variant in ("aot", "cds"):
            forked = {k: r["rep"] for k, r in by.get(variant, {}).items()
                      if r["rep"] is not None and r["error"] is None}
            if not forked or not warmed:
                print(f"| {describe(spec) if spec else case} | {variant} | n/a | | n/a | |")
                continue
            cells = []
            for figure, target, better_low in ((lambda r: r["roundTripsPerSecond"], THROUGHPUT_TARGET, False),
                                               (lambda r: r["latency"]["p99Us"], P99_TARGET, True)):
                ratio = (statistics.median(figure(r) for r in forked.values())
                         / statistics.median(figure(r) for r in warmed.values()))
                matched = [figure(forked[k]) / figure(warmed[k]) for k in forked if k in warmed]
                met = ratio <= target if better_low else ratio >= target
                cells.append(f"{ratio:.2f}" + (f" [{min(matched):.2f}, {max(matched):.2f}]" if matched else ""))
                cells.append("yes" if met else "**no**")
            print(f"| {describe(spec) if spec else case} | {variant} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
