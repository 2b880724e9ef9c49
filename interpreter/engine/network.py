"""Connections over placed links: who is connected to what, and how far (R-CONN-*).

Every location is a node; a placed link joins all the locations it touches (the
Kidderminster–Worcester line joins three). Distances are counted in links. The
results are cached until the set of placed links changes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from interpreter.ruleset.model import Ruleset

# The links a graph was built for, the neighbours of every location, the distances and the connected
# parts known (`LinkNetwork.graph`).
Graph = tuple[frozenset[str], dict[str, set[str]], dict[str, dict[str, int]], dict[str, str]]


class LinkNetwork:
    """Breadth-first distances over the links currently on the board."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self._links: frozenset[str] = frozenset()
        self._neighbours: dict[str, set[str]] = {}
        self._distances: dict[str, dict[str, int]] = {}
        # location -> a representative of its connected part, for the locations some link touches;
        # made at the first question whether two places are connected (`part_of`), kept with the graph
        self._parts: dict[str, str] = {}

    def update(self, placed: Iterable[str]) -> None:
        """Rebuild the graph if the placed links changed."""
        links = frozenset(placed)
        before = self._links
        if links == before:
            return
        self._distances = {}
        self._parts = {}
        if self._neighbours and len(links) == len(before) + 1 and before < links:
            # One link more (a search trying a link): the sets it touches replaced, the others shared
            # (a graph set aside may still use them: none is changed once made).
            neighbours = dict(self._neighbours)
            for link_id in links - before:
                ends = self.ruleset.links[link_id].ends
                for a in ends:
                    neighbours[a] = neighbours[a].union(e for e in ends if e != a)
            self._links, self._neighbours = links, neighbours
            return
        self._links = links
        self._neighbours = {loc: set() for loc in self.ruleset.locations}
        for link_id in links:
            ends = self.ruleset.links[link_id].ends
            for a in ends:
                self._neighbours[a].update(e for e in ends if e != a)

    def graph(self) -> Graph:
        """The links it was built for, the graph and what is known of it: to put back with `set_graph`
        (`update` rebuilds them whenever the links differ, so any graph put back is safe)."""
        return self._links, self._neighbours, self._distances, self._parts

    def set_graph(self, graph: Graph) -> None:
        self._links, self._neighbours, self._distances, self._parts = graph

    def copy(self) -> LinkNetwork:
        """A network of the same links that can change independently (the graph and the distances
        computed so far are shared until one of them changes its links: both are only replaced)."""
        twin = LinkNetwork(self.ruleset)
        twin._links, twin._neighbours, twin._distances = self._links, self._neighbours, dict(self._distances)
        twin._parts = self._parts  # (never changed once made: only replaced)
        return twin

    def part_of(self, location: str) -> str:
        """A representative of the location's connected part: two locations are connected (at some
        distance) exactly when their representatives are equal. Cheaper than the distances when only
        connection matters (whether a producer or a merchant can be reached)."""
        parts = self._parts
        if not parts and self._links:
            parts = self._parts = self._connected_parts()
        return parts.get(location, location)

    def parts_of(self, places: Iterable[str]) -> frozenset[str]:
        """The representatives of the places' connected parts (`part_of`)."""
        parts = self._parts
        if not parts and self._links:
            parts = self._parts = self._connected_parts()
        return frozenset(map(parts.get, places, places))  # (a place no link touches is its own part)

    def _connected_parts(self) -> dict[str, str]:
        parts: dict[str, str] = {}
        for start, around in self._neighbours.items():
            if start in parts or not around:
                continue
            parts[start] = start
            queue = [start]
            while queue:
                for there in self._neighbours[queue.pop()]:
                    if there not in parts:
                        parts[there] = start
                        queue.append(there)
        return parts

    def distances_from(self, location: str) -> dict[str, int]:
        """Link distance from `location` to every location connected to it (itself at 0)."""
        cached = self._distances.get(location)
        if cached is not None:
            return cached
        seen = {location: 0}
        queue = deque([location])
        while queue:
            here = queue.popleft()
            for there in self._neighbours.get(here, ()):
                if there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        self._distances[location] = seen
        return seen

    def distance(self, sources: Iterable[str], target: str) -> int | None:
        """Fewest links from any of `sources` to `target`, or None if not connected."""
        best = None
        for source in sources:
            d = self.distances_from(source).get(target)
            if d is not None and (best is None or d < best):
                best = d
        return best

    def connected(self, a: str, b: str) -> bool:
        return b in self.distances_from(a)
