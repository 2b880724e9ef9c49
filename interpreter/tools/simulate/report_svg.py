"""The pictures of a balance report, as inline SVG written here: no plotting library, no script,
nothing fetched, so the page is one file that any browser opens as it is.

    grouped_bars(["build", "sell"], [Series("what-if", BLUE, [18.3, 4.0]), …], "actions per game")
    stacked_bars(["seat 1", "seat 2"], ["what-if", "birmingham"], segments, values, "VP per game")
    intervals(["seat 1", "seat 2"], [Series("what-if", BLUE, [0.5, 0.5])], [[(0.4, 0.6), …]], 0.5, "win rate")
    histograms([Series("what-if", BLUE, [238, 240, …]), …], "decisions per game")
    lines(["canal 1", …], [Series(…)], "money per player (£)", marks=[(10, "Rail Era")])
    strip(-3.2, -1.1, 5.0)                       # a difference's interval on a line through 0

Every mark carries a <title> with its value, which a browser shows on hover. The same data give
the same text (no ids from a counter or a clock), so a report can be compared with another.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 900, 300
LEFT, RIGHT, TOP, BOTTOM = 60, 16, 34, 58  # margins of the plotting area
FONT = 'font-family="system-ui, sans-serif" font-size="12"'
GRID = "#e3e3e3"
AXIS = "#555"
SEAT_COLOURS = ("#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#edc948")  # a colour per bot of the seating grid


@dataclass(frozen=True)
class Series:
    """A named set of values drawn in one colour (a ruleset, usually)."""

    name: str
    colour: str
    values: Sequence[float]


@dataclass(frozen=True)
class Segment:
    """A part of a stacked bar: its key in the values, its name in the legend, its colour."""

    key: str
    label: str
    colour: str


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About `count` round values (steps of 1, 2 or 5 times 10^k) from below `low` to above `high`."""
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(power * m for m in (1, 2, 5, 10) if power * m >= raw)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value < high + step * 0.999:
        ticks.append(round(value, 10) + 0.0)
        value += step
    return ticks


class Frame:
    """The plotting area of a chart and its vertical scale (from `low` to `high`)."""

    def __init__(self, low: float, high: float, legend: Sequence[tuple[str, str]] = (), width: int = WIDTH,
                 height: int = HEIGHT) -> None:
        self.ticks = nice_ticks(min(low, 0.0), max(high, 0.0))  # 0 always shown: bars start there
        self.low, self.high = self.ticks[0], self.ticks[-1]
        self.width = width
        self.left, self.right = LEFT, width - RIGHT
        self.keys = self._place(legend)
        rows = max((row for _, _, _, row in self.keys), default=0)
        self.top, self.height = TOP + 18 * rows, height + 18 * rows
        self.bottom = self.height - BOTTOM

    def _place(self, legend: Sequence[tuple[str, str]]) -> list[tuple[str, str, float, int]]:
        """Each colour key's place in rows above the plotting area: (label, colour, x, row)."""
        placed, x, row = [], float(self.left), 0
        for label, colour in legend:
            size = 28 + 7 * len(label)
            if x + size > self.right and x > self.left:
                x, row = float(self.left), row + 1
            placed.append((label, colour, x, row))
            x += size
        return placed

    def y(self, value: float) -> float:
        span = self.high - self.low or 1.0
        return self.bottom - (value - self.low) / span * (self.bottom - self.top)

    def open(self, title: str, y_label: str) -> list[str]:
        """The <svg> start, its title, the colour keys, the horizontal grid with its values, and the
        axis label."""
        parts = [f'<svg role="img" viewBox="0 0 {self.width} {self.height}" '
                 f'width="{self.width}" height="{self.height}" {FONT}>', f"<title>{escape(title)}</title>"]
        for tick in self.ticks:
            y = self.y(tick)
            parts.append(f'<line x1="{self.left}" x2="{self.right}" y1="{y:.1f}" y2="{y:.1f}" '
                         f'stroke="{AXIS if tick == 0 else GRID}"/>')
            parts.append(f'<text x="{self.left - 6}" y="{y + 4:.1f}" text-anchor="end" fill="{AXIS}">'
                         f"{_number(tick)}</text>")
        for label, colour, x, row in self.keys:
            parts.append(f'<rect x="{x:.1f}" y="{8 + 18 * row}" width="12" height="12" fill="{colour}"/>')
            parts.append(f'<text x="{x + 16:.1f}" y="{18 + 18 * row}">{escape(label)}</text>')
        middle = (self.top + self.bottom) / 2
        parts.append(f'<text transform="translate(14 {middle:.1f}) rotate(-90)" text-anchor="middle" '
                     f'fill="{AXIS}">{escape(y_label)}</text>')
        return parts

    def x_labels(self, labels: Sequence[str], centres: Sequence[float], below: float = 16) -> list[str]:
        """The labels under the plotting area, slanted when they would not fit side by side."""
        slanted = max((len(label) for label in labels), default=0) * 7 > (self.right - self.left) / max(len(labels), 1)
        parts = []
        for label, x in zip(labels, centres, strict=True):
            y = self.bottom + below
            if slanted:
                parts.append(f'<text transform="translate({x:.1f} {y - 4:.1f}) rotate(-30)" text-anchor="end">'
                             f"{escape(label)}</text>")
            else:
                parts.append(f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle">{escape(label)}</text>')
        return parts


def _number(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e6 else f"{value:.3g}"


def _bar(x: float, width: float, y0: float, y1: float, colour: str, tip: str) -> str:
    top, height = min(y0, y1), abs(y1 - y0)
    return (f'<rect x="{x:.1f}" y="{top:.1f}" width="{width:.1f}" height="{height:.1f}" fill="{colour}">'
            f"<title>{escape(tip)}</title></rect>")


def _slots(frame: Frame, groups: int, per_group: int) -> tuple[list[float], float]:
    """The centre of each group and the width of one bar in it."""
    step = (frame.right - frame.left) / max(groups, 1)
    return [frame.left + step * (i + 0.5) for i in range(groups)], step * 0.8 / max(per_group, 1)


def grouped_bars(categories: Sequence[str], series: Sequence[Series], y_label: str, title: str) -> str:
    """A bar per series in each category, side by side."""
    values = [v for s in series for v in s.values]
    frame = Frame(min(values, default=0.0), max(values, default=1.0), [(s.name, s.colour) for s in series])
    parts = frame.open(title, y_label)
    centres, width = _slots(frame, len(categories), len(series))
    for index, category in enumerate(categories):
        for n, each in enumerate(series):
            x = centres[index] - width * len(series) / 2 + width * n
            value = each.values[index]
            parts.append(_bar(x, width * 0.92, frame.y(0), frame.y(value), each.colour,
                              f"{each.name}, {category}: {value:.2f}"))
    parts += frame.x_labels(categories, centres)
    return _figure(title, parts)


def stacked_bars(groups: Sequence[str], bars: Sequence[str], segments: Sequence[Segment],
                 values: dict[tuple[str, str], dict[str, float]], y_label: str, title: str) -> str:
    """In each group a bar per name of `bars`, each a stack of `segments` (`values[(group, bar)][key]`):
    positive parts upward from 0, negative parts downward; the bar's name under it."""
    tops = [sum(v for v in parts.values() if v > 0) for parts in values.values()] or [1.0]
    bottoms = [sum(v for v in parts.values() if v < 0) for parts in values.values()] or [0.0]
    used = {key for parts in values.values() for key, v in parts.items() if v}
    shown = [segment for segment in segments if segment.key in used]
    frame = Frame(min(bottoms), max(tops), [(s.label, s.colour) for s in shown], height=HEIGHT + 18)
    frame.bottom -= 18  # room for the bars' names
    parts = frame.open(title, y_label)
    centres, width = _slots(frame, len(groups), len(bars))
    for index, group in enumerate(groups):
        for n, bar in enumerate(bars):
            x = centres[index] - width * len(bars) / 2 + width * n
            up = down = 0.0
            for segment in shown:
                value = values.get((group, bar), {}).get(segment.key, 0.0)
                if not value:
                    continue
                start = up if value > 0 else down
                end = start + value
                parts.append(_bar(x, width * 0.92, frame.y(start), frame.y(end), segment.colour,
                                  f"{bar}, {group}, {segment.label}: {value:.2f}"))
                up, down = (end, down) if value > 0 else (up, end)
            parts.append(f'<text x="{x + width * 0.46:.1f}" y="{frame.bottom + 14:.1f}" text-anchor="middle" '
                         f'font-size="10" fill="{AXIS}">{escape(bar)}</text>')
    parts += frame.x_labels(groups, centres, below=32)
    return _figure(title, parts)


def intervals(groups: Sequence[str], series: Sequence[Series], bounds: Sequence[Sequence[tuple[float, float]]],
              reference: float | None, y_label: str, title: str) -> str:
    """A point per series in each group with its interval (`bounds[series][group]`) as a vertical
    bar, on a scale from 0 to 1, and a dashed line at `reference`."""
    frame = Frame(0.0, 1.0, [(s.name, s.colour) for s in series])
    parts = frame.open(title, y_label)
    if reference is not None:
        y = frame.y(reference)
        parts.append(f'<line x1="{frame.left}" x2="{frame.right}" y1="{y:.1f}" y2="{y:.1f}" stroke="{AXIS}" '
                     f'stroke-dasharray="5 4"><title>an even share: {reference:.2f}</title></line>')
    centres, width = _slots(frame, len(groups), len(series))
    for index, group in enumerate(groups):
        for n, each in enumerate(series):
            x = centres[index] - width * len(series) / 2 + width * (n + 0.5)
            low, high = bounds[n][index]
            rate = each.values[index]
            tip = f"{each.name}, {group}: {rate:.2f} (95% interval {low:.2f}–{high:.2f})"
            parts.append(f'<g stroke="{each.colour}" stroke-width="2"><title>{escape(tip)}</title>'
                         f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{frame.y(low):.1f}" y2="{frame.y(high):.1f}"/>'
                         f'<line x1="{x - 6:.1f}" x2="{x + 6:.1f}" y1="{frame.y(low):.1f}" y2="{frame.y(low):.1f}"/>'
                         f'<line x1="{x - 6:.1f}" x2="{x + 6:.1f}" y1="{frame.y(high):.1f}" y2="{frame.y(high):.1f}"/>'
                         f'<circle cx="{x:.1f}" cy="{frame.y(rate):.1f}" r="5" fill="{each.colour}"/></g>')
    parts += frame.x_labels(groups, centres)
    return _figure(title, parts)


def histograms(series: Sequence[Series], x_label: str, title: str, bins: int = 20) -> str:
    """The values of each series counted in the same bins, the bars of each series side by side
    in a bin (whole numbers: a bin never splits a value)."""
    values = [v for s in series for v in s.values]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    edges = _bin_edges(low, high, bins)
    counts = [[sum(1 for v in s.values if _in_bin(v, edges, i)) for i in range(len(edges) - 1)] for s in series]
    frame = Frame(0.0, max((max(c, default=0) for c in counts), default=1) or 1.0, [(s.name, s.colour) for s in series])
    parts = frame.open(title, "games")
    centres, width = _slots(frame, len(edges) - 1, len(series))
    for i in range(len(edges) - 1):
        for n, each in enumerate(series):
            x = centres[i] - width * len(series) / 2 + width * n
            parts.append(_bar(x, width, frame.y(0), frame.y(counts[n][i]), each.colour,
                              f"{each.name}: {counts[n][i]} game(s) with {_range(edges, i)} {x_label}"))
    labels = [_range(edges, i) for i in range(len(edges) - 1)]
    parts += frame.x_labels(labels, centres)
    parts.append(f'<text x="{(frame.left + frame.right) / 2:.1f}" y="{frame.height - 6}" text-anchor="middle" '
                 f'fill="{AXIS}">{escape(x_label)}</text>')
    return _figure(title, parts)


def _bin_edges(low: float, high: float, bins: int) -> list[float]:
    """Edges of whole-number bins from `low` to `high` inclusive: at most `bins` of them."""
    low, high = math.floor(low), math.floor(high)
    size = max(1, math.ceil((high - low + 1) / bins))
    edges = [float(low)]
    while edges[-1] <= high:
        edges.append(edges[-1] + size)
    return edges


def _in_bin(value: float, edges: Sequence[float], index: int) -> bool:
    return edges[index] <= value < edges[index + 1]


def _range(edges: Sequence[float], index: int) -> str:
    first, last = int(edges[index]), int(edges[index + 1]) - 1
    return str(first) if first == last else f"{first}–{last}"


def lines(x_labels: Sequence[str], series: Sequence[Series], y_label: str, title: str,
          marks: Sequence[tuple[int, str]] = ()) -> str:
    """A line with points per series over the x labels; a dashed vertical line before each mark's
    index, with its label (where an era begins)."""
    values = [v for s in series for v in s.values]
    frame = Frame(min(values, default=0.0), max(values, default=1.0), [(s.name, s.colour) for s in series])
    parts = frame.open(title, y_label)
    step = (frame.right - frame.left) / max(len(x_labels), 1)
    xs = [frame.left + step * (i + 0.5) for i in range(len(x_labels))]
    for index, label in marks:
        x = frame.left + step * index
        parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{frame.top}" y2="{frame.bottom}" stroke="{AXIS}" '
                     f'stroke-dasharray="3 3"/>')
        parts.append(f'<text x="{x + 4:.1f}" y="{frame.top + 12}" fill="{AXIS}">{escape(label)}</text>')
    for each in series:
        points = " ".join(f"{xs[i]:.1f},{frame.y(v):.1f}" for i, v in enumerate(each.values))
        parts.append(f'<polyline points="{points}" fill="none" stroke="{each.colour}" stroke-width="2"/>')
        for i, value in enumerate(each.values):
            parts.append(f'<circle cx="{xs[i]:.1f}" cy="{frame.y(value):.1f}" r="3" fill="{each.colour}">'
                         f"<title>{escape(f'{each.name}, {x_labels[i]}: {value:.2f}')}</title></circle>")
    every = max(1, math.ceil(len(x_labels) / 20))
    shown = [(label, x) for i, (label, x) in enumerate(zip(x_labels, xs, strict=True)) if i % every == 0]
    parts += frame.x_labels([label for label, _ in shown], [x for _, x in shown])
    return _figure(title, parts)


def strip(low: float | None, high: float | None, centre: float, significant: bool) -> str:
    """A small picture of a difference: its interval and centre on a line with 0 in the middle,
    scaled to the largest of its ends (so each row shows whether its interval holds 0)."""
    width, height, middle = 160, 18, 80
    reach = max(abs(v) for v in (low, high, centre, 1e-9) if v is not None)
    scale = (middle - 8) / reach

    def x(value: float) -> float:
        return middle + value * scale

    colour = "#c0392b" if significant else "#7f8c8d"
    parts = [f'<svg role="img" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}"><title>difference {centre:+.3g}'
             + (f", 95% interval {low:+.3g} to {high:+.3g}" if low is not None and high is not None else "")
             + "</title>",
             f'<line x1="{middle}" x2="{middle}" y1="1" y2="{height - 1}" stroke="{AXIS}"/>']
    if low is not None and high is not None:
        parts.append(f'<line x1="{x(low):.1f}" x2="{x(high):.1f}" y1="9" y2="9" stroke="{colour}" stroke-width="3"/>')
    parts.append(f'<circle cx="{x(centre):.1f}" cy="9" r="4" fill="{colour}"/>')
    return "".join(parts + ["</svg>"])


def seating(rows: Sequence[str], columns: Sequence[str], cells: Sequence[Sequence[str]], title: str) -> str:
    """A grid: a row per game, a column per seat, each cell the bot sitting there, a colour per bot."""
    names = list(dict.fromkeys(name for row in cells for name in row))
    colours = dict(zip(names, (*SEAT_COLOURS, *SEAT_COLOURS), strict=False))
    cell_width, cell_height, left, top = 120, 24, 90, 26
    width, height = left + cell_width * len(columns) + 8, top + cell_height * len(rows) + 8
    parts = [f'<svg role="img" viewBox="0 0 {width} {height}" width="{width}" height="{height}" {FONT}>',
             f"<title>{escape(title)}</title>"]
    for n, column in enumerate(columns):
        parts.append(f'<text x="{left + cell_width * (n + 0.5):.1f}" y="{top - 8}" text-anchor="middle">'
                     f"{escape(column)}</text>")
    for r, (row, names_in_row) in enumerate(zip(rows, cells, strict=True)):
        y = top + cell_height * r
        parts.append(f'<text x="{left - 8}" y="{y + 16}" text-anchor="end">{escape(row)}</text>')
        for n, name in enumerate(names_in_row):
            x = left + cell_width * n
            tip = escape(f"{row}, {columns[n]}: {name}")
            parts.append(f'<rect x="{x + 1}" y="{y + 1}" width="{cell_width - 2}" height="{cell_height - 2}" '
                         f'fill="{colours.get(name, GRID)}" fill-opacity="0.35"><title>{tip}</title></rect>'
                         f'<text x="{x + cell_width / 2:.1f}" y="{y + 16}" text-anchor="middle">{escape(name)}</text>')
    return _figure(title, parts)


def _figure(title: str, parts: list[str]) -> str:
    """The picture with its title shown above it (the <title> inside is what a screen reader says)."""
    return f"<figure>\n<figcaption>{escape(title)}</figcaption>\n" + "\n".join(parts + ["</svg>", "</figure>"])
