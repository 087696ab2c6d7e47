#!/usr/bin/env python3
"""Draws Scripts/bench/list's table as an SVG: wall time against the number of events, log-log,
one panel for the first listing (cold: calgw building its index, khal its cache) and one for the
listings after it (warm), one line per contender; calgw without its index costs the same every
run and is drawn in both.

    plot_list.py TABLE.tsv OUT.svg

The drawing is Scripts/bench/logplot.py's, shared with plot_scale.py.
"""
import sys
from collections import defaultdict

from logplot import Panel, decades, legend_entry, svg_finish, svg_start, timed_rows

CONTENDERS = [  # (name in the table, legend, colour, dashes)
    ("calgw", "calgw list (index)", "#1f77b4", None),
    ("calgw --json", "calgw list --json (index)", "#17becf", "2,3"),
    ("calgw, no index", "calgw list, no index (every file read)", "#7f7f7f", "5,4"),
    ("calgw before the index", "calgw list before the index", "#bcbd22", "2,3"),
    ("khal 0.14.1", "khal 0.14.1 list (its cache)", "#d62728", None),
]
PANELS = [("cold", "first listing (index or cache built)"), ("warm", "later listings (index or cache in place)")]
PANEL_W, PANEL_H = 360, 260
MARGIN_L, MARGIN_T, MARGIN_B, GAP = 66, 90, 46, 30


def read(path):
    points = defaultdict(list)
    for r, n, t in timed_rows(path):
        steps = ["cold", "warm"] if r["step"] == "every" else [r["step"]]
        for step in steps:
            points[(step, r["contender"])].append((n, t))
    return points


def main(table, out):
    points = read(table)
    xs = [n for pts in points.values() for n, _ in pts] or [1000]
    ts = [t for pts in points.values() for _, t in pts] or [1]
    xticks, yticks = decades(min(xs), max(xs)), decades(min(ts), max(ts))
    width = MARGIN_L + len(PANELS) * (PANEL_W + GAP + MARGIN_L) - GAP
    height = MARGIN_T + PANEL_H + MARGIN_B + 10
    svg = svg_start(width, height)
    for col, (step, title) in enumerate(PANELS):
        x0 = MARGIN_L + col * (PANEL_W + GAP + MARGIN_L)
        panel = Panel(svg, x0, MARGIN_T, PANEL_W, PANEL_H, f"one month: {title}", xticks, yticks)
        for who, name, color, dash in CONTENDERS:
            pts = sorted(points.get((step, who), []))
            if pts:
                panel.line(pts, color, dash, name)
    # The legend, two to a line.
    for i, (who, name, color, dash) in enumerate(CONTENDERS):
        legend_entry(svg, MARGIN_L + (i % 2) * 330, 16 + (i // 2) * 18, color, dash, name)
    svg_finish(svg, out, width, 20)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
