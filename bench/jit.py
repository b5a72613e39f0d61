"""Tabulates a bench/jit.sh directory: per protocol, where the auto warm-up of each warm run's first repetition
stopped (and what held it back at a cap), and how many of the steady references (repetitions 3 and 4 of the warm
runs) and of the cold phases each rule calls not JIT-quiet. The old rule: any deoptimization or 1 ms of compilation
anywhere in the JVM; today's: the repetition's own `jit.quiet` (JitActivity's rule), its reasons taken from its
warning."""
import sys

import results

OLD_QUIET_MS = 1.0


def old_warns(jit):
    return jit["deoptimizations"] > 0 or jit["compileMillis"] >= OLD_QUIET_MS


def load(directory):
    runs = {}
    for m, result in results.matching(directory, r"(warm|cold)-(\w+)-round(\d+)\.json$"):
        runs.setdefault(m.group(2), []).append((m.group(1), int(m.group(3)), result))
    return runs


def main(directory):
    runs = load(directory)
    order = ["tcp", "udp", "tcps", "websocket", "wss", "http", "https"]
    print("| protocol | auto warm-up of repetition 1 (s, why it stopped) | steady references warned: old rule | "
          "today's rule | cold phases warned: old rule | today's rule | today's reasons (steady) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    totals = [0, 0, 0, 0, 0, 0]
    for protocol in sorted(runs, key=lambda p: order.index(p) if p in order else 99):
        warmups, steady, cold, reasons = [], [], [], []
        for kind, rnd, result in sorted(runs[protocol], key=lambda x: (x[1], x[0])):
            reps = result.get("repetitions") or []
            if kind == "warm":
                if reps and reps[0].get("warmup"):
                    w = reps[0]["warmup"]
                    why = w["stoppedBecause"] + (f": {w['heldBackBy']}" if w.get("heldBackBy") else "")
                    warmups.append(f"{w['elapsedSeconds']:.1f} {why}")
                for rep in reps[2:]:
                    if rep.get("ok") and rep.get("jit"):
                        steady.append(rep["jit"])
                        if not rep["jit"]["quiet"]:
                            reasons += [w.split(": ", 1)[1] for w in rep.get("warnings", [])
                                        if w.startswith("measured phase not JIT-quiet")]
                    else:
                        warmups.append(f"repetition {rep.get('repetition')} failed: {rep.get('error')}")
            else:
                for rep in reps:
                    if rep.get("ok") and rep.get("jit"):
                        cold.append(rep["jit"])
        counts = [sum(old_warns(j) for j in steady), sum(not j["quiet"] for j in steady), len(steady),
                  sum(old_warns(j) for j in cold), sum(not j["quiet"] for j in cold), len(cold)]
        totals = [a + b for a, b in zip(totals, counts)]
        print(f"| {protocol} | {'; '.join(warmups)} | {counts[0]} of {counts[2]} | {counts[1]} of {counts[2]} | "
              f"{counts[3]} of {counts[5]} | {counts[4]} of {counts[5]} | {'; '.join(reasons) or '–'} |")
    print(f"| all | | {totals[0]} of {totals[2]} | {totals[1]} of {totals[2]} | {totals[3]} of {totals[5]} | "
          f"{totals[4]} of {totals[5]} | |")


if __name__ == "__main__":
    main(sys.argv[1])
