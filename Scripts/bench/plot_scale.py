#!/usr/bin/env python3
"""Draws Scripts/bench/scale's table as an SVG: wall time against calendar size, log-log,
one panel per server and step (first sync, no-op sync, takeover), one line per contender.

    plot_scale.py TABLE.tsv OUT.svg

The drawing is Scripts/bench/logplot.py's, shared with plot_list.py.
"""
import csv
import sys
from collections import defaultdict

from logplot import Panel, decades, legend_entry, svg_finish, svg_start

COLORS = {"calgw": "#1f77b4", "vdirsyncer": "#d62728", "floor": "#7f7f7f", "files floor": "#2ca02c"}
DASHES = {"floor": "5,4", "files floor": "2,3"}
PANEL_W, PANEL_H = 330, 250
MARGIN_L, MARGIN_T, MARGIN_B, GAP = 62, 48, 46, 28
STEPS = ["first sync", "no-op sync", "takeover"]


def read(path):
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            try:
                rows.append((r["server"], int(r["events"]), r["contender"], r["step"], float(r["seconds"])))
            except ValueError:
                pass  # a failed run ("fail") is not drawn
    return rows


def main(table, out):
    rows = read(table)
    steps = [s for s in STEPS if any(r[3] == s for r in rows)]
    servers = list(dict.fromkeys(r[0] for r in rows))
    series = defaultdict(list)
    for server, n, who, step, t in rows:
        series[(server, step, who)].append((n, max(t, 0.005)))
    xs = [r[1] for r in rows] or [1000]
    ts = [p[1] for pts in series.values() for p in pts] or [1]
    xticks, yticks = decades(min(xs), max(xs)), decades(min(ts), max(ts))

    width = MARGIN_L + len(steps) * (PANEL_W + GAP + MARGIN_L) - GAP
    height = len(servers) * (MARGIN_T + PANEL_H + MARGIN_B) + 40
    svg = svg_start(width, height)
    for row, server in enumerate(servers):
        y0 = 30 + row * (MARGIN_T + PANEL_H + MARGIN_B) + MARGIN_T
        for col, step in enumerate(steps):
            x0 = MARGIN_L + col * (PANEL_W + GAP + MARGIN_L)
            panel = Panel(svg, x0, y0, PANEL_W, PANEL_H, f"{server}: {step}", xticks, yticks)
            for who in ["floor", "files floor", "vdirsyncer", "calgw"]:
                pts = sorted(series.get((server, step, who), []))
                if pts:
                    panel.line(pts, COLORS[who], DASHES.get(who), who)
    # Legend along the top.
    x = MARGIN_L
    for who, name in [("calgw", "calgw"), ("vdirsyncer", "vdirsyncer 0.21"), ("floor", "server floor (curl)"), ("files floor", "file floor (C: create the files)")]:
        legend_entry(svg, x, 18, COLORS[who], DASHES.get(who), name)
        x += 40 + 8 * len(name)
    svg_finish(svg, out, width, 40)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
