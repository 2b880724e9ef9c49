"""The most items of each kind of list one ruleset can hold: the condition-language checker bounds
the cost of nested aggregates with them (brass_dsl/cost.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Sizes:
    """How long the lists of a ruleset's games can be, from the validated ruleset. Eras and
    merchants are read from the data: the registry is built before they are compiled."""

    players: int
    slots: int
    slots_per_location: int
    slot_icons: int
    link_ends: int
    links_per_location: int
    eras: int
    network_options: int
    mat_tiles: int
    cards: int
    merchant_spaces: int
    stack_tiles: int

    @classmethod
    def of(cls, rs: Any) -> Sizes:
        locations, links, data = rs.locations.values(), rs.links.values(), rs.data
        eras = data.get("eras", [])
        spaces = [m["spaces"] for m in data.get("merchants", {}).values()]
        return cls(
            players=max(rs.players, default=0),
            slots=sum(len(loc.slots) for loc in locations),
            slots_per_location=max((len(loc.slots) for loc in locations), default=0),
            slot_icons=max((len(slot.industries) for loc in locations for slot in loc.slots), default=0),
            link_ends=max((len(link.ends) for link in links), default=0),
            links_per_location=max((sum(lid in link.ends for link in links) for lid in rs.locations), default=0),
            eras=len(eras),
            network_options=max((len(era["network"]) for era in eras), default=0),
            mat_tiles=sum(len(specs) for specs in rs.tiles.values()),
            cards=max((rs.deck_size(p) for p in rs.players), default=0)
            + sum(wild.count for wild in rs.wild_cards.values()),
            merchant_spaces=max((sum(table.get(p, 0) for table in spaces) for p in rs.players), default=0),
            stack_tiles=max((len(s.pile(p)) for s in rs.stacks.values() for p in rs.players), default=0),
        )
