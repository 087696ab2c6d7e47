#!/usr/bin/env python3
"""Draws docs/bench/instructions.tsv as an SVG: calgw's own instructions per event of a first
sync (Scripts/bench/instructions, the varied corpus) against the number of events, one line per
build. A flat line is a cost that grows linearly with the calendar; the dashed lines are half of
the first build's cost at 10,000 events, the goal of issue 68, and the goal of issue 84 (half of
the parse, hash, row and file of an event as measured when it was filed).

    plot_instructions.py TABLE.tsv OUT.svg

The table: build, label, events, instructions (the total counted), one row per count.
"""
import csv
import math
import sys
from collections import defaultdict

from logplot import decades, label, legend_entry, svg_start

COLOURS = ["#7f7f7f", "#bcbd22", "#17becf", "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
           "#ff7f0e", "#393b79", "#637939", "#843c39", "#5254a3"]
# Issue 84's goal, instructions an event: half of 348,176.
GOAL_84 = 174_088
WIDTH, HEIGHT = 620, 380
X0, Y0, W, H = 80, 90, 500, 240


def read(path):
    builds, points = [], defaultdict(list)
    with open(path, newline="") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            key = (r["build"], r["label"])
            if key not in builds:
                builds.append(key)
            n = int(r["events"])
            points[key].append((n, int(r["instructions"]) / n))
    return builds, points


def main(table, out):
    global Y0, HEIGHT
    builds, points = read(table)
    # The legend, two builds a row, above the title and the plot.
    rows = (len(builds) + 1) // 2
    Y0 = max(Y0, 16 + rows * 18 + 30)
    HEIGHT = Y0 + H + 50
    xs = [n for pts in points.values() for n, _ in pts]
    xticks = decades(min(xs), max(xs))
    top = max(per for pts in points.values() for _, per in pts)
    step = 100_000
    ymax = math.ceil(top / step) * step

    def x(n):
        lo, hi = math.log10(xticks[0]), math.log10(xticks[-1])
        return X0 + (math.log10(n) - lo) / max(hi - lo, 1e-9) * W

    def y(v):
        return Y0 + H - v / ymax * H

    svg = svg_start(WIDTH, HEIGHT)
    svg.append(f'<text x="{X0 + W / 2}" y="{Y0 - 12}" text-anchor="middle" font-weight="bold">'
               'a first sync from Cyrus: calgw\'s own instructions per event</text>')
    svg.append(f'<rect x="{X0}" y="{Y0}" width="{W}" height="{H}" fill="none" stroke="#999"/>')
    for t in xticks:
        svg.append(f'<line x1="{x(t):.1f}" y1="{Y0}" x2="{x(t):.1f}" y2="{Y0 + H}" stroke="#eee"/>')
        svg.append(f'<text x="{x(t):.1f}" y="{Y0 + H + 16}" text-anchor="middle">{label(t)}</text>')
    for v in range(0, ymax + 1, step):
        svg.append(f'<line x1="{X0}" y1="{y(v):.1f}" x2="{X0 + W}" y2="{y(v):.1f}" stroke="#eee"/>')
        svg.append(f'<text x="{X0 - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v // 1000}k</text>')
    svg.append(f'<text x="{X0 + W / 2}" y="{Y0 + H + 34}" text-anchor="middle">events</text>')
    first = dict(points[builds[0]])
    if 10_000 in first:
        goal = first[10_000] / 2
        svg.append(f'<line x1="{X0}" y1="{y(goal):.1f}" x2="{X0 + W}" y2="{y(goal):.1f}" stroke="#d62728" '
                   'stroke-dasharray="5,4"/>')
        svg.append(f'<text x="{X0 + W - 4}" y="{y(goal) - 6:.1f}" text-anchor="end" fill="#d62728">'
                   f'goal: half of {builds[0][0]} at 10k ({goal:,.0f})</text>')
    svg.append(f'<line x1="{X0}" y1="{y(GOAL_84):.1f}" x2="{X0 + W}" y2="{y(GOAL_84):.1f}" stroke="#444" '
               'stroke-dasharray="2,3"/>')
    svg.append(f'<text x="{X0 + W - 4}" y="{y(GOAL_84) + 14:.1f}" text-anchor="end" fill="#444">'
               f'goal of issue 84 ({GOAL_84:,})</text>')
    for i, key in enumerate(builds):
        colour = COLOURS[i % len(COLOURS)]
        pts = sorted(points[key])
        path = " ".join(f"{x(n):.1f},{y(v):.1f}" for n, v in pts)
        svg.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for n, v in pts:
            svg.append(f'<circle cx="{x(n):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}">'
                       f'<title>{key[0]}, {n} events: {v:,.0f} an event</title></circle>')
        legend_entry(svg, X0 + (i % 2) * 260, 16 + (i // 2) * 18, colour, None, f"{key[0]}: {key[1]}")
    svg.append(f'<text x="{WIDTH - 8}" y="{HEIGHT - 8}" text-anchor="end" fill="#666">'
               'instructions per event (callgrind), events on a log scale; lower is better</text>')
    svg.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
