"""Reads a bench/ results directory: every JSON result whose file name matches a pattern, as (match, result); a file
that could not be read or parsed (a run that failed before printing) as a result without repetitions. Also runs one
`./loopbench measure` into such a directory."""
import glob
import json
import os
import re
import subprocess
import sys


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
