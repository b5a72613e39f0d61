"""Reads a bench/ results directory: every JSON result whose file name matches a pattern, as (match, result); a file
that could not be read or parsed (a run that failed before printing) as a result without repetitions."""
import glob
import json
import os
import re


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
