"""The colours and labels of `board_svg`'s picture, and what the picture reads of a game.

Colours and labels come from the ruleset when it gives them (a colour group's or an industry's
`colour`, an industry's `short`); otherwise they are chosen here, in the ruleset's order, so the
same ruleset always gets the same ones. Players have the colours of their seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from interpreter.engine.table import Table
from interpreter.ruleset.model import Ruleset


class BoardSource(Protocol):
    """What the picture reads: a `Game` or a `SeatView` (`game.view(seat)`) both have these."""

    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def table(self) -> Table: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def deciding_seat(self) -> int: ...


# One colour per seat (a ruleset allows up to 10 players), from Okabe and Ito's palette for colour-blind
# readers: the first four stay far apart under deuteranopia, protanopia and tritanopia (red and
# green, the old seats 1 and 4, looked alike under deuteranopia); every tile and link also carries
# its seat's number (picture.py), so no colour has to be told apart alone.
PLAYER_COLOURS = ("#d55e00", "#56b4e9", "#f0e442", "#cc79a7", "#009e73", "#e69f00", "#0072b2", "#000000",
                  "#999999", "#ffffff")
# For industries and colour groups that give no `colour` of their own, in their order in the ruleset.
FALLBACK_COLOURS = ("#8dd3c7", "#fdb462", "#bebada", "#fb8072", "#80b1d3", "#b3de69", "#fccde5", "#bc80bd",
                    "#ccebc5", "#ffed6f")
NEUTRAL = "#8d7b68"  # a location without a colour group (farm breweries, merchants)
UNKNOWN = "#9a9a9a"
LINK_BED = "#d9d0bf"  # the band under a link line
# For link kinds that give no `colour` (or `dashed`) of their own, in their order in the ruleset:
# a first kind drawn solid in water blue, a second dashed in black (Birmingham's canal and rail).
LINK_STYLES = (("#4f8fc0", False), ("#3b3b3b", True), ("#b5651d", False), ("#6a3d9a", True))


@dataclass(frozen=True)
class LinkStyle:
    """How lines of one link kind are drawn: a dashed kind's built links show sleepers."""

    name: str  # lower case, for the legend and the tooltips
    colour: str
    dashed: bool


def player_colour(seat: int) -> str:
    """The colour of a seat (from 1) on every picture of the board."""
    return PLAYER_COLOURS[(seat - 1) % len(PLAYER_COLOURS)]


@dataclass(frozen=True)
class Palette:
    """The colours and labels of one ruleset's picture."""

    industries: dict[str, str]
    labels: dict[str, str]
    groups: dict[str, str]
    resources: dict[str, str]
    barrel: str  # a merchant's barrel: the colour of the resource merchants hold
    barrel_resource: str | None  # that resource: drawn as barrels (circles) on tiles too, other resources as cubes
    links: dict[str, LinkStyle]  # link kind -> its style

    @classmethod
    def of(cls, ruleset: Ruleset) -> Palette:
        industries = {iid: ind.colour or FALLBACK_COLOURS[n % len(FALLBACK_COLOURS)]
                      for n, (iid, ind) in enumerate(ruleset.industries.items())}
        groups = {gid: g.colour or FALLBACK_COLOURS[-1 - n % len(FALLBACK_COLOURS)]
                  for n, (gid, g) in enumerate(ruleset.colour_groups.items())}
        resources = {}
        for rid in ruleset.resources:
            producer = next((i for i in ruleset.industries.values() if i.produces == rid), None)
            resources[rid] = industries[producer.id] if producer else UNKNOWN
        held = ruleset.barrel_resource
        links = {}
        for n, kind in enumerate(ruleset.link_kinds.values()):
            colour, dashed = LINK_STYLES[n % len(LINK_STYLES)]
            links[kind.id] = LinkStyle(kind.name.lower(), kind.colour or colour,
                                       dashed if kind.dashed is None else kind.dashed)
        return cls(industries, _labels(ruleset), groups, resources, resources.get(held or "", UNKNOWN), held, links)

    def seat(self, seat: int) -> str:
        return player_colour(seat)

    @staticmethod
    def player_name(seat: int | None) -> str:
        return f"player {seat}"

    def group(self, group: str | None) -> str:
        return self.groups.get(group or "", NEUTRAL)

    def industry(self, industry: str) -> str:
        return self.industries.get(industry, UNKNOWN)

    def label(self, industry: str) -> str:
        return self.labels.get(industry, industry)

    def resource(self, resource: str | None) -> str:
        return self.resources.get(resource or "", UNKNOWN)


def _labels(ruleset: Ruleset) -> dict[str, str]:
    """Each industry's `short`, else the shortest start of its name (3 letters at least) that no
    other industry's name starts with."""
    names = {iid: ind.name for iid, ind in ruleset.industries.items()}
    labels = {}
    for iid, ind in ruleset.industries.items():
        if ind.short:
            labels[iid] = ind.short
            continue
        others = [n.lower() for other, n in names.items() if other != iid]
        size = 3
        while size < len(ind.name) and any(o.startswith(ind.name[:size].lower()) for o in others):
            size += 1
        labels[iid] = ind.name[:size]
    return labels
