#!/usr/bin/env python3
"""Writes result files (./loopbench measure's output, one object after another) with each spec's measured-phase
length set to SECONDS, so that the regression gate matches an earlier revision's case with this one's where only
their default phase length differs (bench/gate-beside.sh).

  bench/samecase.py IN OUT SECONDS
"""
import json
import sys

src, dst, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
text = open(src).read()
decoder = json.JSONDecoder()
at = 0
with open(dst, "w") as out:
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            break
        result, at = decoder.raw_decode(text, at)
        result["spec"]["seconds"] = seconds
        out.write(json.dumps(result) + "\n")
