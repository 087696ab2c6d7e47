#!/usr/bin/env python3
"""Draws Scripts/bench/reading's table as an SVG: wall time against the number of events,
log-log, one line per command answered from its index (warm), beside the floor measured in the
same run (a `stat` of every file on two threads, and with the folder's names read first, the floor
of a run right after an edit) and, dashed, the same commands reading every
file (`CALGW_LIST_INDEX=off`).

    plot_reading.py TABLE.tsv OUT.svg

The drawing is Scripts/bench/logplot.py's, shared with plot_list.py.
"""
import sys
from collections import defaultdict

from logplot import Panel, decades, legend_entry, svg_finish, svg_start, timed_rows

LINES = [  # (command in the table, contender, step, legend, colour, dashes)
    ("stat every file", "C, two threads", "floor", "floor: a stat of every file", "#000000", None),
    ("read the names, stat every file", "C, two threads", "floor", "floor after an edit: names too", "#000000", "2,3"),
    ("stat every file, read the files list shows", "C, two threads", "floor", "floor of list: its files read", "#8c564b", "2,3"),
    ("list", "calgw", "warm", "list, one month (memo)", "#8c564b", None),
    ("list-unkept", "calgw", "warm", "list, one month (index, no memo)", "#e377c2", None),
    ("alarms", "calgw", "warm", "alarms, one day (index)", "#1f77b4", None),
    ("invitations", "calgw", "warm", "invitations (index)", "#2ca02c", None),
    ("event-search", "calgw", "warm", "search by UID (index)", "#9467bd", None),
    ("event-edit-warm", "calgw", "warm", "event edit, index up to date", "#ff7f0e", None),
    ("event-edit", "calgw", "warm", "event edit, right after another", "#d62728", None),
    ("alarms", "calgw, no index", "every", "alarms, every file read", "#1f77b4", "5,4"),
    ("invitations", "calgw, no index", "every", "invitations, every file read", "#2ca02c", "5,4"),
    ("event-search", "calgw, no index", "every", "search, every file read", "#9467bd", "5,4"),
]
PANEL_W, PANEL_H = 520, 300
MARGIN_L, MARGIN_T, MARGIN_B = 66, 128, 46


def read(path):
    points = defaultdict(list)
    for r, n, t in timed_rows(path):
        points[(r["command"], r["contender"], r["step"])].append((n, t))
    return points


def main(table, out):
    points = read(table)
    drawn = [(key, pts) for key, pts in points.items() if any(key == line[:3] for line in LINES)]
    xs = [n for _, pts in drawn for n, _ in pts] or [1000]
    ts = [t for _, pts in drawn for _, t in pts] or [1]
    xticks, yticks = decades(min(xs), max(xs)), decades(min(ts), max(ts))
    width = MARGIN_L + PANEL_W + 30
    height = MARGIN_T + PANEL_H + MARGIN_B + 10
    svg = svg_start(width, height)
    panel = Panel(svg, MARGIN_L, MARGIN_T, PANEL_W, PANEL_H, "reading commands, by vdir size", xticks, yticks)
    for command, contender, step, name, color, dash in LINES:
        pts = sorted(points.get((command, contender, step), []))
        if pts:
            panel.line(pts, color, dash, name)
    # The legend, two to a line.
    for i, (_, _, _, name, color, dash) in enumerate(LINES):
        legend_entry(svg, MARGIN_L + (i % 2) * 280, 16 + (i // 2) * 18, color, dash, name)
    svg_finish(svg, out, width, 20)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
