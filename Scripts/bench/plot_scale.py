#!/usr/bin/env python3
"""Draws Scripts/bench/scale's table as an SVG: wall time against calendar size, log-log,
one panel per server and step (first sync, no-op sync, takeover), one line per contender.

    plot_scale.py TABLE.tsv OUT.svg

Plain SVG written by hand, so that the plot needs nothing beyond Python.
"""
import csv
import math
import sys
from collections import defaultdict

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


def decades(lo, hi):
    return [10.0 ** e for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)]


def label(v, unit=""):
    if v >= 1000:
        return f"{v / 1000:g}k{unit}" if unit == "" else f"{v:g}{unit}"
    return f"{v:g}{unit}"


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
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>']

    def px(x, x0):
        lo, hi = math.log10(xticks[0]), math.log10(xticks[-1])
        return x0 + (math.log10(x) - lo) / max(hi - lo, 1e-9) * PANEL_W

    def py(y, y0):
        lo, hi = math.log10(yticks[0]), math.log10(yticks[-1])
        return y0 + PANEL_H - (math.log10(y) - lo) / max(hi - lo, 1e-9) * PANEL_H

    for row, server in enumerate(servers):
        y0 = 30 + row * (MARGIN_T + PANEL_H + MARGIN_B) + MARGIN_T
        for col, step in enumerate(steps):
            x0 = MARGIN_L + col * (PANEL_W + GAP + MARGIN_L)
            svg.append(f'<text x="{x0 + PANEL_W / 2}" y="{y0 - 12}" text-anchor="middle" font-weight="bold">'
                       f'{server}: {step}</text>')
            svg.append(f'<rect x="{x0}" y="{y0}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#999"/>')
            for t in xticks:
                x = px(t, x0)
                svg.append(f'<line x1="{x:.1f}" y1="{y0}" x2="{x:.1f}" y2="{y0 + PANEL_H}" stroke="#eee"/>')
                svg.append(f'<text x="{x:.1f}" y="{y0 + PANEL_H + 16}" text-anchor="middle">{label(t)}</text>')
            for t in yticks:
                y = py(t, y0)
                svg.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + PANEL_W}" y2="{y:.1f}" stroke="#eee"/>')
                svg.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end">{t:g} s</text>')
            svg.append(f'<text x="{x0 + PANEL_W / 2}" y="{y0 + PANEL_H + 34}" text-anchor="middle">events</text>')
            for who in ["floor", "files floor", "vdirsyncer", "calgw"]:
                pts = sorted(series.get((server, step, who), []))
                if not pts:
                    continue
                path = " ".join(f"{px(n, x0):.1f},{py(t, y0):.1f}" for n, t in pts)
                dash = f' stroke-dasharray="{DASHES[who]}"' if who in DASHES else ""
                svg.append(f'<polyline points="{path}" fill="none" stroke="{COLORS[who]}" stroke-width="2"{dash}/>')
                for n, t in pts:
                    svg.append(f'<circle cx="{px(n, x0):.1f}" cy="{py(t, y0):.1f}" r="3" fill="{COLORS[who]}">'
                               f'<title>{who}, {n} events: {t:g} s</title></circle>')
    # Legend along the top.
    x = MARGIN_L
    for who, name in [("calgw", "calgw"), ("vdirsyncer", "vdirsyncer 0.21"), ("floor", "server floor (curl)"), ("files floor", "file floor (C: create the files)")]:
        dash = f' stroke-dasharray="{DASHES[who]}"' if who in DASHES else ""
        svg.append(f'<line x1="{x}" y1="18" x2="{x + 24}" y2="18" stroke="{COLORS[who]}" stroke-width="2"{dash}/>')
        svg.append(f'<text x="{x + 30}" y="22">{name}</text>')
        x += 40 + 8 * len(name)
    svg.append(f'<text x="{width - 8}" y="40" text-anchor="end" fill="#666">wall time, log-log; lower is better</text>')
    svg.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
