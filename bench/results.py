"""Reads a bench/ results directory: every JSON result whose file name matches a pattern, as (match, result); a file
that could not be read or parsed (a run that failed before printing) as a result without repetitions. Also makes such
a directory, runs one `./loopbench measure` into it, and writes a figure as median [min, max]."""
import datetime
import glob
import json
import os
import re
import statistics
import subprocess
import sys


def new_folder(base, kind):
    """bench/results/{kind}-<UTC>/ under {base}, with a one-line README naming the command line and the commit;
    (its path, the commit). Builds loopbench first, outside the runs."""
    out = f"{base}/bench/results/{kind}-{datetime.datetime.now(datetime.UTC):%Y%m%dT%H%MZ}"
    os.makedirs(out)
    commit = subprocess.run(["git", "-C", base, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    command = os.path.relpath(sys.argv[0], base) + " " + " ".join(sys.argv[1:])
    open(f"{out}/README.md", "w").write(f"`{command.strip()}` at {commit}\n")
    subprocess.run(["./loopbench", "--version"], cwd=base, capture_output=True)
    return out, commit


def stat(values, fmt):
    """Median [min, max] of {values}, each formatted by {fmt} (e.g. "{:,.0f}")."""
    return f"{fmt.format(statistics.median(values))} [{fmt.format(min(values))}, {fmt.format(max(values))}]"


def matching(directory, pattern):
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        m = re.search(pattern, path)
        if not m:
            continue
        try:
            with open(path) as f:
                result = json.load(f)
        except (OSError, ValueError):
            result = {"repetitions": []}
        yield m, result


def measure_once(base, out, name, cmd):
    """Runs one `./loopbench measure --repetitions 1` command line (from {base}) with its JSON and log in {out} as
    {name}.json and {name}.log; its one repetition's result, or None (with the reason on stderr) when it failed or
    printed nothing."""
    with open(f"{out}/{name}.json", "w") as o, open(f"{out}/{name}.log", "w") as e:
        subprocess.run(cmd, cwd=base, stdout=o, stderr=e)
    try:
        r = json.load(open(f"{out}/{name}.json"))["repetitions"][0]
    except (ValueError, KeyError, IndexError):
        print(f"  {name}: no result (see {name}.log)", file=sys.stderr)
        return None
    if not r["ok"]:
        print(f"  {name} failed: {r['error']}", file=sys.stderr)
        return None
    return r
