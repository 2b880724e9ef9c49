"""Where each location of a ruleset's board is drawn (`brass board`, `board/picture.py`).

A location's `at: [x, y]` (board.yaml, in board units, y to the south) places it. A location
without one — every location of a designer's new map, or one a variant adds — is placed by a
small force-directed layout (Fruchterman–Reingold): linked locations pull together, all locations
push apart, and the placed ones stay where they are. It starts from a fixed arrangement and uses
no random numbers, so the same ruleset always gives the same picture, byte for byte. A last pass
pushes apart any two boxes that still overlap.

The layout is written here rather than taken from networkx, whose layouts need numpy: the picture
of a board is not worth two dependencies, and the algorithm is some forty lines.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from interpreter.ruleset.model import Ruleset

Point = tuple[float, float]
Size = tuple[float, float]  # width, height of a location's box, in board units

LINK_LENGTH = 230.0  # the distance the layout aims at between two linked locations
GAP = 14.0  # the least space left between two boxes by the last pass
MAX_STEPS = 300  # of the force-directed layout
MAX_PAIR_VISITS = 3_000_000  # steps times pairs of locations: a larger map gets fewer steps
# Beyond this many locations to place, the force-directed layout (time growing with the square of
# the locations) gives way to a grid: a ruleset may hold thousands of locations, and a picture of
# it must still come in seconds.
MAX_FORCE_LOCATIONS = 250


@dataclass(frozen=True)
class _Graph:
    nodes: tuple[str, ...]
    edges: tuple[tuple[int, int], ...]  # indexes into nodes
    pinned: frozenset[int]


def location_positions(ruleset: Ruleset, sizes: Mapping[str, Size] | None = None) -> dict[str, Point]:
    """The centre of every location, in board units: its `at` when it has one, else laid out.

    `sizes` (location id -> box size) lets the last pass keep boxes apart; without it every box
    counts as a point."""
    graph = _graph(ruleset)
    points = [_given_point(ruleset, lid) for lid in graph.nodes]
    if len(graph.pinned) == len(graph.nodes):
        return {lid: (float(p[0]), float(p[1])) for lid, p in zip(graph.nodes, points, strict=True) if p}
    box = [sizes.get(lid, (0.0, 0.0)) if sizes else (0.0, 0.0) for lid in graph.nodes]
    if len(graph.nodes) - len(graph.pinned) > MAX_FORCE_LOCATIONS:
        return dict(zip(graph.nodes, _grid(graph, points, box), strict=True))
    start = _start(graph, points)
    spread = _spring(graph, start)
    if not graph.pinned:
        spread = _scaled(graph, spread)
    apart = _separate(graph, spread, box)
    return {lid: (round(x, 1), round(y, 1)) for lid, (x, y) in zip(graph.nodes, apart, strict=True)}


def _given_point(ruleset: Ruleset, lid: str) -> tuple[int, int] | None:
    return ruleset.locations[lid].at


def _graph(ruleset: Ruleset) -> _Graph:
    nodes = tuple(ruleset.locations)
    index = {lid: i for i, lid in enumerate(nodes)}
    edges: list[tuple[int, int]] = []
    for link in ruleset.links.values():
        ends = [index[e] for e in link.ends if e in index]
        edges.extend((a, b) for n, a in enumerate(ends) for b in ends[n + 1:])
    pinned = frozenset(i for i, lid in enumerate(nodes) if ruleset.locations[lid].at is not None)
    return _Graph(nodes, tuple(edges), pinned)


def _start(graph: _Graph, given: list[tuple[int, int] | None]) -> list[Point]:
    """A fixed first arrangement: the free locations on a circle in the ruleset's order (around
    the placed ones' middle, when there are some)."""
    fixed = [p for p in given if p is not None]
    centre = (sum(p[0] for p in fixed) / len(fixed), sum(p[1] for p in fixed) / len(fixed)) if fixed \
        else (0.0, 0.0)
    free_count = len(graph.nodes) - len(graph.pinned)
    radius = LINK_LENGTH * max(1.0, len(graph.nodes) / (2 * math.pi))

    def on_circle(free: int) -> Point:
        angle = 2 * math.pi * free / free_count
        return centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle)
    return _placed_or(given, on_circle)


def _placed_or(given: list[tuple[int, int] | None], free_point: Callable[[int], Point]) -> list[Point]:
    """Each location at its given position, the n-th one without a position at `free_point(n)`."""
    points: list[Point] = []
    free = 0
    for p in given:
        if p is not None:
            points.append((float(p[0]), float(p[1])))
        else:
            points.append(free_point(free))
            free += 1
    return points


def _spring(graph: _Graph, start: list[Point]) -> list[Point]:
    """Fruchterman–Reingold with a linearly falling temperature; placed locations do not move."""
    n = len(start)
    xs, ys = [p[0] for p in start], [p[1] for p in start]
    k = LINK_LENGTH
    steps = max(20, min(MAX_STEPS, MAX_PAIR_VISITS // max(1, n * n)))
    for step in range(steps):
        dx, dy = [0.0] * n, [0.0] * n
        for a in range(n):
            for b in range(a + 1, n):
                ox, oy = xs[a] - xs[b], ys[a] - ys[b]
                dist = math.hypot(ox, oy) or 0.01
                push = k * k / dist / dist
                dx[a] += ox * push
                dy[a] += oy * push
                dx[b] -= ox * push
                dy[b] -= oy * push
        for a, b in graph.edges:
            ox, oy = xs[a] - xs[b], ys[a] - ys[b]
            pull = math.hypot(ox, oy) / k
            dx[a] -= ox * pull
            dy[a] -= oy * pull
            dx[b] += ox * pull
            dy[b] += oy * pull
        temperature = k * (1 - step / steps)
        for i in range(n):
            if i in graph.pinned:
                continue
            length = math.hypot(dx[i], dy[i])
            if length > 0:
                move = min(length, temperature) / length
                xs[i] += dx[i] * move
                ys[i] += dy[i] * move
    return list(zip(xs, ys, strict=True))


def _grid(graph: _Graph, given: list[tuple[int, int] | None], sizes: list[Size]) -> list[Point]:
    """The free locations in rows of a square grid, in the ruleset's order, below the placed ones;
    each cell is as large as the largest box, so no two boxes meet."""
    width = max((w for w, _ in sizes), default=0.0) + GAP
    height = max((h for _, h in sizes), default=0.0) + GAP
    placed = [p for p in given if p is not None]
    top = max((p[1] for p in placed), default=0) + height
    columns = max(1, math.isqrt(sum(p is None for p in given)))

    def in_cell(free: int) -> Point:
        row, column = divmod(free, columns)
        return column * width, top + row * height
    return _placed_or(given, in_cell)


def _scaled(graph: _Graph, points: list[Point]) -> list[Point]:
    """The layout shrunk or grown so that linked locations lie LINK_LENGTH apart on average: the
    repulsion of every location from every other one spreads a sparse map far wider than its
    links need (a map with placed locations keeps their scale)."""
    lengths = [math.dist(points[a], points[b]) for a, b in graph.edges]
    mean = sum(lengths) / len(lengths) if lengths else 0.0
    if mean <= 0:
        return points
    factor = LINK_LENGTH / mean
    return [(x * factor, y * factor) for x, y in points]


def _separate(graph: _Graph, points: list[Point], sizes: list[Size], passes: int = 200) -> list[Point]:
    """Push apart any two boxes closer than GAP, along the axis where they overlap least; a placed
    location never moves (two placed ones that overlap are the designer's choice)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    n = len(points)
    for _ in range(passes):
        moved = False
        for a in range(n):
            for b in range(a + 1, n):
                if a in graph.pinned and b in graph.pinned:
                    continue
                need_x = (sizes[a][0] + sizes[b][0]) / 2 + GAP - abs(xs[a] - xs[b])
                need_y = (sizes[a][1] + sizes[b][1]) / 2 + GAP - abs(ys[a] - ys[b])
                if need_x <= 0 or need_y <= 0:
                    continue
                moved = True
                share_a = 0.0 if a in graph.pinned else (1.0 if b in graph.pinned else 0.5)
                if need_x < need_y:
                    sign = 1.0 if xs[a] >= xs[b] else -1.0
                    xs[a] += sign * need_x * share_a
                    xs[b] -= sign * need_x * (1 - share_a)
                else:
                    sign = 1.0 if ys[a] >= ys[b] else -1.0
                    ys[a] += sign * need_y * share_a
                    ys[b] -= sign * need_y * (1 - share_a)
        if not moved:
            break
    return list(zip(xs, ys, strict=True))
