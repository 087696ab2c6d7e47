"""What Scripts/bench's plots share: log-log panels of wall time against a count of events,
written as plain SVG by hand, so that a plot needs nothing beyond Python."""
import csv
import math


def timed_rows(path):
    """The rows of a bench table (tab-separated, with `events` and `seconds` columns) that
    carry a time, each with its count and its seconds (at least 5 ms, for a log scale)."""
    with open(path, newline="") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            try:
                n, t = int(r["events"]), max(float(r["seconds"]), 0.005)
            except ValueError:
                continue
            yield r, n, t


def decades(lo, hi):
    """The powers of ten from at or below `lo` to at or above `hi`."""
    return [10.0 ** e for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)]


def label(v):
    """A count as a plot's axis says it: 1k, 10k, 1M."""
    return f"{v / 1_000_000:g}M" if v >= 1_000_000 else f"{v / 1000:g}k" if v >= 1000 else f"{v:g}"


def svg_start(width, height):
    """The opening of an SVG of this size, on white."""
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="sans-serif" font-size="12">',
            f'<rect width="{width}" height="{height}" fill="white"/>']


class Panel:
    """One panel at (x0, y0): its title, frame, grid lines and axis labels, each decade of
    `xticks` (events) and `yticks` (seconds) one grid line; `point` places a value in it."""

    def __init__(self, svg, x0, y0, width, height, title, xticks, yticks):
        self.svg, self.x0, self.y0, self.width, self.height = svg, x0, y0, width, height
        self.xticks, self.yticks = xticks, yticks
        svg.append(f'<text x="{x0 + width / 2}" y="{y0 - 12}" text-anchor="middle" font-weight="bold">'
                   f'{title}</text>')
        svg.append(f'<rect x="{x0}" y="{y0}" width="{width}" height="{height}" fill="none" stroke="#999"/>')
        for t in xticks:
            x = self.x(t)
            svg.append(f'<line x1="{x:.1f}" y1="{y0}" x2="{x:.1f}" y2="{y0 + height}" stroke="#eee"/>')
            svg.append(f'<text x="{x:.1f}" y="{y0 + height + 16}" text-anchor="middle">{label(t)}</text>')
        for t in yticks:
            y = self.y(t)
            svg.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + width}" y2="{y:.1f}" stroke="#eee"/>')
            svg.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end">{t:g} s</text>')
        svg.append(f'<text x="{x0 + width / 2}" y="{y0 + height + 34}" text-anchor="middle">events</text>')

    def x(self, value):
        lo, hi = math.log10(self.xticks[0]), math.log10(self.xticks[-1])
        return self.x0 + (math.log10(value) - lo) / max(hi - lo, 1e-9) * self.width

    def y(self, value):
        lo, hi = math.log10(self.yticks[0]), math.log10(self.yticks[-1])
        return self.y0 + self.height - (math.log10(value) - lo) / max(hi - lo, 1e-9) * self.height

    def line(self, points, color, dash, name):
        """A contender's line through `points` (events, seconds), each point titled with `name`."""
        path = " ".join(f"{self.x(n):.1f},{self.y(t):.1f}" for n, t in points)
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        self.svg.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"{dashes}/>')
        for n, t in points:
            self.svg.append(f'<circle cx="{self.x(n):.1f}" cy="{self.y(t):.1f}" r="3" fill="{color}">'
                            f'<title>{name}, {n} events: {t:g} s</title></circle>')


def legend_entry(svg, x, y, color, dash, name):
    """A legend's line and name, the line's middle at height `y`."""
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    svg.append(f'<line x1="{x}" y1="{y}" x2="{x + 24}" y2="{y}" stroke="{color}" stroke-width="2"{dashes}/>')
    svg.append(f'<text x="{x + 30}" y="{y + 4}">{name}</text>')


def svg_finish(svg, out, width, y):
    """The caption at height `y`, the closing tag, and the file written to `out`."""
    svg.append(f'<text x="{width - 8}" y="{y}" text-anchor="end" fill="#666">wall time, log-log; lower is better</text>')
    svg.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(svg) + "\n")
