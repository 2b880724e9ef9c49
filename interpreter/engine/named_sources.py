"""The sources a whole action names for the resources it takes (`coal_from: [dudley/0, market]`).

A whole action (or one repetition of it) may name, per resource, where each unit it takes comes
from: a producer's slot, or `market`. The `consume` steps of that part take the units in order
and check each against the sourcing rules (`resources.py`); a name no step used is refused when
the part ends. A step may run more than once (it is run again after a question is answered), so
units are read by position, never popped, and a step's units count as used only once it is done.
"""

from __future__ import annotations

MARKET = "market"


class NamedSources:
    """The named sources of the part being decided, by resource, and how many units were used."""

    def __init__(self) -> None:
        self._part: int | None = None
        self._named: dict[str, list[str]] = {}
        self._used: dict[str, int] = {}

    def name(self, part: int, named: dict[str, list[str]]) -> None:
        """The sources named by part `part` (an identity); naming the same part again changes nothing."""
        if part != self._part:
            self._part, self._named, self._used = part, named, dict.fromkeys(named, 0)

    def named(self, resource: str) -> bool:
        return resource in self._named

    def at(self, resource: str, unit: int) -> str | None:
        """The source named for the `unit`-th unit (from 0) the running step takes, if one is named."""
        names = self._named.get(resource)
        if names is None:
            return None
        index = self._used[resource] + unit
        return names[index] if index < len(names) else None

    def taken(self, resource: str, units: int) -> None:
        """The running step is done and took `units` units of the resource."""
        if resource in self._used:
            self._used[resource] = min(len(self._named[resource]), self._used[resource] + units)

    def unused(self) -> dict[str, list[str]]:
        """The named sources no step took, by resource."""
        return {r: names[self._used[r]:] for r, names in self._named.items() if self._used[r] < len(names)}

    def clear(self) -> None:
        self._part, self._named, self._used = None, {}, {}
