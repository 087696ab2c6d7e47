#!/usr/bin/env python3
"""Outside reference for calgw's round-trip tests: reads pairs of .ics files with the python
`icalendar` library's content-line parser and reports every content line (name, parameters,
value) of the first file that is missing from the second.

Input on stdin: one JSON array of [original_path, rewritten_path] pairs.
Output on stdout: one JSON object {original_path: [missing line descriptions]}; an empty list
means every content line of the original is present in the rewritten file.
"""
import json
import sys
from collections import Counter

from icalendar.parser import Contentline


def decode_lines(data: bytes):
    """Per physical line: UTF-8 when valid, else Latin-1 (as calgw reads files)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    out = []
    for raw in data.split(b"\n"):
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        try:
            out.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            out.append(raw.decode("latin-1"))
    return out


def unfold(lines):
    logical = []
    for line in lines:
        if line == "":
            continue
        if line[0] in " \t" and logical:
            logical[-1] += line[1:]
        else:
            logical.append(line)
    return logical


def key(line: str):
    try:
        name, params, value = Contentline(line).parts()
    except Exception:
        return ("RAW", line)
    norm_params = []
    for pname, pvalue in params.items():
        values = pvalue if isinstance(pvalue, list) else [pvalue]
        norm_params.append((pname.upper(), tuple(str(v) for v in values)))
    return (name.upper(), tuple(sorted(norm_params)), value)


def lines_of(path):
    with open(path, "rb") as f:
        return Counter(key(l) for l in unfold(decode_lines(f.read())))


def main():
    pairs = json.load(sys.stdin)
    report = {}
    for original, rewritten in pairs:
        a, b = lines_of(original), lines_of(rewritten)
        missing = []
        for k, n in a.items():
            if b[k] < n:
                missing.append(repr(k)[:300])
        report[original] = missing
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
