#!/usr/bin/env python3
"""khal as an outside reader of span-edit results: what `khal list` shows for a set of vdirs.

Input on stdin, one JSON object:
  {"cases": [["BEGIN:VCALENDAR...", ...], ...],   each case's files, written into a vdir of its own
   "folders": ["/path/to/vdir", ...],              or existing vdirs (one calendar each)
   "from": "2020-01-01", "to": "2039-12-31"}       khal's range, both days included
Output on stdout, one JSON object:
  {"lists": [[{"uid": .., "start": .., "end": .., "allDay": bool, "summary": ..}, ...], ...],
   "warnings": [...]}
  one list per case (or folder), in input order, sorted by (start, uid). Times are as khal prints
  them with `local_timezone = UTC`: "2026-03-09T09:00" for zoned and UTC events (the instant in
  UTC), the wall-clock time for floating ones, "2026-03-09" for all-day ones (end: the last day,
  khal's inclusive form). `warnings` holds what khal logged (an EXDATE it could not place, a rule
  it would not expand).

The cases go through as few khal runs as there are cores (one calendar per folder, each run
taking a contiguous share of them), because khal's start-up is slow and one run of hundreds of
calendars would keep one core busy while the other idles.
"""
import json
import os
import subprocess
import sys
import tempfile

FIELDS = ["calendar", "start", "end", "all-day", "uid", "title"]


def write_config(root, folders, first=0):
    """A khal configuration for `folders`, calendars named by their index among all folders."""
    lines = ["[calendars]"]
    for i, folder in enumerate(folders, start=first):
        lines += [f"[[c{i:04d}]]", f"path = {folder}", "type = calendar"]
    lines += [
        "[sqlite]", f"path = {os.path.join(root, 'khal.db')}",
        # UTC as the local and the default zone: zoned and UTC times print as the instant in
        # UTC, floating times print their wall-clock time unchanged.
        "[locale]", "timeformat = %H:%M", "dateformat = %Y-%m-%d", "longdateformat = %Y-%m-%d",
        "datetimeformat = %Y-%m-%dT%H:%M", "longdatetimeformat = %Y-%m-%dT%H:%M",
        "local_timezone = UTC", "default_timezone = UTC",
        "[default]", f"default_calendar = c{first:04d}",
    ]
    path = os.path.join(root, "khal.conf")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def run_khal(root, folders, start, end):
    """`khal list` of every folder, in one run per core, at once; their output and warnings."""
    form = "\x1f".join("{" + field + "}" for field in FIELDS)
    env = dict(os.environ, TZ="UTC")
    runs = max(1, min(os.cpu_count() or 1, len(folders)))
    share = -(-len(folders) // runs)
    processes = []
    for first in range(0, len(folders), share):
        part = os.path.join(root, f"run{first:04d}")
        os.makedirs(part)
        config = write_config(part, folders[first:first + share], first)
        processes.append(subprocess.Popen(
            ["khal", "-c", config, "list", "--format", form, "--day-format", "#{date}", start, end],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env))
    output, warnings = "", []
    for process in processes:
        out, err = process.communicate()
        if process.returncode != 0:
            sys.stderr.write(err)
            sys.exit(f"khal list exited {process.returncode}")
        # Each run's output starts with its first day's line: the runs' outputs follow one another.
        output += out
        warnings += [line for line in err.splitlines() if line.strip()]
    return output, warnings


def parse(output, count):
    lists = [[] for _ in range(count)]
    day = None
    for line in output.splitlines():
        if line.startswith("#"):
            day = line[1:]
            continue
        if not line:
            continue
        values = line.split("\x1f")
        if len(values) != len(FIELDS):
            sys.exit(f"unexpected khal line: {line!r}")
        row = dict(zip(FIELDS, values))
        # khal prints an event under every day it touches; keep it under the day it starts.
        if row["start"][:10] != day:
            continue
        lists[int(row["calendar"][1:])].append({
            "uid": row["uid"], "start": row["start"], "end": row["end"],
            "allDay": row["all-day"] == "True", "summary": row["title"],
        })
    for entries in lists:
        entries.sort(key=lambda o: (o["start"], o["uid"]))
    return lists


def main():
    request = json.load(sys.stdin)
    with tempfile.TemporaryDirectory(prefix="calgw-khal-") as root:
        folders = list(request.get("folders") or [])
        for i, files in enumerate(request.get("cases") or []):
            folder = os.path.join(root, f"case{i:04d}")
            os.makedirs(folder)
            for j, text in enumerate(files):
                with open(os.path.join(folder, f"{j}.ics"), "w", newline="") as f:
                    f.write(text)
            folders.append(folder)
        output, warnings = run_khal(root, folders, request.get("from", "2020-01-01"), request.get("to", "2039-12-31"))
        json.dump({"lists": parse(output, len(folders)), "warnings": warnings}, sys.stdout)


if __name__ == "__main__":
    main()
