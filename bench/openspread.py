"""Tabulates a bench/openspread.sh directory: per layout, every steady reference's (repetitions 3 and 4) spread of
client p99s (slowest ÷ fastest), its fewest observations per client, whether the repetition warned of uneven clients,
and the smallest spread threshold that would have warned on at most 1 in 20 of all steady references."""
import sys

import results


def main(directory):
    rows = {}
    for m, result in results.matching(directory, r"(\w+)-(\d+)-round(\d+)\.json$"):
        layout = f"{m.group(1)} {m.group(2)}"
        for rep in (result.get("repetitions") or [])[2:]:
            spread = ((rep.get("openLoad") or {}).get("clientSpread")) if rep.get("ok") else None
            rows.setdefault(layout, []).append((rep, spread))
    print("| layout | steady references | client p99 spread (slowest ÷ fastest), each | fewest observations per "
          "client | warned uneven |")
    print("| --- | --- | --- | --- | --- |")
    spreads = []
    for layout, reps in rows.items():
        ratios = []
        fewest = []
        warned = 0
        failed = 0
        for rep, s in reps:
            if s is None:
                failed += 1
                continue
            ratio = s["maxP99Us"] / s["minP99Us"] if s["minP99Us"] > 0 else float("inf")
            ratios.append(ratio)
            fewest.append(s["fewestMessages"])
            spreads.append(ratio)
            warned += any(w.startswith("uneven clients under open load") for w in rep.get("warnings") or [])
        print(f"| {layout} | {len(reps)}{f' ({failed} failed)' if failed else ''} | "
              f"{', '.join(f'{r:.2f}' for r in sorted(ratios))} | {min(fewest) if fewest else '–'} | "
              f"{warned} of {len(ratios)} |")
    if spreads:
        spreads.sort()
        allowed = len(spreads) // 20
        # warns when spread > threshold: at most `allowed` references may lie above it
        threshold = spreads[len(spreads) - 1 - allowed]
        print(f"\nA threshold at or above {threshold:.2f}× warns on at most {allowed} of the {len(spreads)} steady "
              f"references (1 in 20).")


if __name__ == "__main__":
    main(sys.argv[1])
