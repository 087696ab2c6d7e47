#!/usr/bin/env python3
"""Draws Scripts/bench/list's table as an SVG: wall time against the number of events, log-log,
one panel for the first listing (cold: calgw building its index, khal its cache) and one for the
listings after it (warm), one line per contender; calgw without its index costs the same every
run and is drawn in both.

    plot_list.py TABLE.tsv OUT.svg

Plain SVG written by hand, so that the plot needs nothing beyond Python.
"""
import csv
import math
import sys
from collections import defaultdict

CONTENDERS = [  # (name in the table, legend, colour, dashes)
    ("calgw", "calgw list (index)", "#1f77b4", None),
    ("calgw --json", "calgw list --json (index)", "#17becf", "2,3"),
    ("calgw, no index", "calgw list, no index (every file read)", "#7f7f7f", "5,4"),
    ("khal 0.14.1", "khal 0.14.1 list (its cache)", "#d62728", None),
]
PANELS = [("cold", "first listing (index or cache built)"), ("warm", "later listings (index or cache in place)")]
PANEL_W, PANEL_H = 360, 260
MARGIN_L, MARGIN_T, MARGIN_B, GAP = 66, 70, 46, 30


def read(path):
    points = defaultdict(list)
    with open(path, newline="") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            try:
                n, t = int(r["events"]), max(float(r["seconds"]), 0.005)
            except ValueError:
                continue
            steps = ["cold", "warm"] if r["step"] == "every" else [r["step"]]
            for step in steps:
                points[(step, r["contender"])].append((n, t))
    return points


def decades(lo, hi):
    return [10.0 ** e for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)]


def label(v):
    return f"{v / 1_000_000:g}M" if v >= 1_000_000 else f"{v / 1000:g}k" if v >= 1000 else f"{v:g}"


def main(table, out):
    points = read(table)
    xs = [n for pts in points.values() for n, _ in pts] or [1000]
    ts = [t for pts in points.values() for _, t in pts] or [1]
    xticks, yticks = decades(min(xs), max(xs)), decades(min(ts), max(ts))
    width = MARGIN_L + len(PANELS) * (PANEL_W + GAP + MARGIN_L) - GAP
    height = MARGIN_T + PANEL_H + MARGIN_B + 10
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>']

    def px(x, x0):
        lo, hi = math.log10(xticks[0]), math.log10(xticks[-1])
        return x0 + (math.log10(x) - lo) / max(hi - lo, 1e-9) * PANEL_W

    def py(y):
        lo, hi = math.log10(yticks[0]), math.log10(yticks[-1])
        return MARGIN_T + PANEL_H - (math.log10(y) - lo) / max(hi - lo, 1e-9) * PANEL_H

    for col, (step, title) in enumerate(PANELS):
        x0 = MARGIN_L + col * (PANEL_W + GAP + MARGIN_L)
        svg.append(f'<text x="{x0 + PANEL_W / 2}" y="{MARGIN_T - 12}" text-anchor="middle" font-weight="bold">'
                   f'one month: {title}</text>')
        svg.append(f'<rect x="{x0}" y="{MARGIN_T}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#999"/>')
        for t in xticks:
            x = px(t, x0)
            svg.append(f'<line x1="{x:.1f}" y1="{MARGIN_T}" x2="{x:.1f}" y2="{MARGIN_T + PANEL_H}" stroke="#eee"/>')
            svg.append(f'<text x="{x:.1f}" y="{MARGIN_T + PANEL_H + 16}" text-anchor="middle">{label(t)}</text>')
        for t in yticks:
            y = py(t)
            svg.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + PANEL_W}" y2="{y:.1f}" stroke="#eee"/>')
            svg.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end">{t:g} s</text>')
        svg.append(f'<text x="{x0 + PANEL_W / 2}" y="{MARGIN_T + PANEL_H + 34}" text-anchor="middle">events</text>')
        for who, name, color, dash in CONTENDERS:
            pts = sorted(points.get((step, who), []))
            if not pts:
                continue
            path = " ".join(f"{px(n, x0):.1f},{py(t):.1f}" for n, t in pts)
            dashes = f' stroke-dasharray="{dash}"' if dash else ""
            svg.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"{dashes}/>')
            for n, t in pts:
                svg.append(f'<circle cx="{px(n, x0):.1f}" cy="{py(t):.1f}" r="3" fill="{color}">'
                           f'<title>{name}, {n} events: {t:g} s</title></circle>')
    # The legend, two to a line.
    for i, (who, name, color, dash) in enumerate(CONTENDERS):
        x, y = MARGIN_L + (i % 2) * 330, 16 + (i // 2) * 18
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        svg.append(f'<line x1="{x}" y1="{y}" x2="{x + 24}" y2="{y}" stroke="{color}" stroke-width="2"{dashes}/>')
        svg.append(f'<text x="{x + 30}" y="{y + 4}">{name}</text>')
    svg.append(f'<text x="{width - 8}" y="20" text-anchor="end" fill="#666">wall time, log-log; lower is better</text>')
    svg.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
