"""Real-game traces: translate the trace's identifiers (cards, locations, links, slots, merchant tiles,
players) into ours, checked against our board when a trace is read.

Mapping (checked, not assumed):
- cards: `loc-<location>-<n>` -> `<location>#<n+1>`; `ind-coal-<n>` -> `coal_mine#<n+1>`,
  `ind-iron-` -> `iron_works#`, `ind-brewery-` -> `brewery#`, `ind-pottery-` -> `pottery#`,
  `ind-cotton-manufacturer-` -> `cotton_manufacturer#`; wild cards are matched to the wild card
  our engine actually hands out when the Scout is replayed (our piles are ordered differently).
- locations: kebab-case -> snake_case (`farm-north` -> `farm_north`).
- links: by the endpoints in `catalogue.links` (index 15 is L17 Cannock–Stafford and index 16 is
  L16 Cannock–Farm North; every other index i is L(i+1)).
- slots: by comparing `catalogue.locationSlots` with our slot icons; they agree slot for slot,
  so slot index i is our `<location>/<i>` (a difference would be reported by `TraceMapping`).
- merchant tiles: `any` -> `wild`; the others keep their names; space i of a merchant is our
  `<merchant>/<i>`.
- players: trace player p is our seat p+1.
"""

from __future__ import annotations

import json
import re
from typing import Any

from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.model import Ruleset

INDUSTRY_CARD_FACES = {"coal": "coal_mine", "iron": "iron_works", "brewery": "brewery", "pottery": "pottery",
                       "cotton-manufacturer": "cotton_manufacturer"}
MERCHANT_TILES = {"any": "wild", "cotton": "cotton", "manufacturer": "manufacturer", "pottery": "pottery",
                  "blank": "blank"}
CARD_ID = re.compile(r"^(loc|ind|wild)-(.+)-(\d+)$")


class TraceError(BrassError):
    """A trace file that cannot be read or does not fit the ruleset."""


def location_id(name: str) -> str:
    return name.replace("-", "_")


class TraceMapping:
    """Translates the trace's identifiers into ours, from the trace's own catalogue. A catalogue
    that does not fit our board is a TraceError naming `source` (the trace's file), the field
    (its JSON path) and the value."""

    def __init__(self, ruleset: Ruleset, trace: dict[str, Any], source: str = "the trace") -> None:
        self.ruleset = ruleset
        self.source = source
        self.notes: list[str] = []  # where the trace's catalogue differs from our board
        self.links = self._links(trace["catalogue"]["links"])
        self.slots = self._slots(trace["catalogue"]["locationSlots"])
        self.wild: dict[str, str] = {}  # trace wild card id -> our wild card id, while held

    def _links(self, links: list[dict[str, Any]]) -> dict[int, str]:
        by_ends = {frozenset(our_link.ends): our_link.id for our_link in self.ruleset.links.values()}
        found = {}
        for number, link in enumerate(links):
            ends = frozenset(location_id(x) for x in [link["a"], link["b"], *link.get("extraEndpoints", [])])
            ours = by_ends.get(ends)
            if ours is None:
                raise TraceError(f"{self.source}: catalogue.links[{number}] (index {link['index']}) joins "
                                 f"{', '.join(sorted(ends))}: no link of our board joins these places")
            ours_link = self.ruleset.links[ours]
            kinds = (ours_link.takes("canal"), ours_link.takes("rail"))
            if kinds != (link["canal"], link["rail"]):
                self.notes.append(f"link {link['index']} = {ours}: canal/rail {link['canal']}/{link['rail']} "
                                  f"in the trace, {kinds[0]}/{kinds[1]} here")
            if ours != f"L{link['index'] + 1:02d}":
                self.notes.append(f"trace link index {link['index']} is {ours} ({'–'.join(ours_link.ends)})")
            found[link["index"]] = ours
        return found

    def _slots(self, location_slots: dict[str, list[list[str]]]) -> dict[tuple[str, int], str]:
        """Trace (location, slot index) -> our slot id, matching slot icons in order."""
        found = {}
        for trace_location, slots in location_slots.items():
            field = f"catalogue.locationSlots.{trace_location}"
            location = self.ruleset.locations.get(location_id(trace_location))
            if location is None:
                raise TraceError(f"{self.source}: {field}: {location_id(trace_location)!r} is not a place on our "
                                 "board")
            free = list(location.slots)
            for index, icons in enumerate(slots):
                match = next((s for s in free if set(s.industries) == set(icons)), None)
                if match is None:
                    ours = json.dumps([list(s.industries) for s in location.slots])
                    taken = any(set(s.industries) == set(icons) for s in location.slots)
                    which = f"left after the slots before it (ours: {ours})" if taken else f"(ours: {ours})"
                    raise TraceError(f"{self.source}: {field}[{index}] is {json.dumps(icons)}, which matches no "
                                     f"slot of {location.id} on our board {which}")
                free.remove(match)
                if match.index != index or list(match.industries) != icons:
                    self.notes.append(f"{trace_location} slot {index} {icons} is our {match.id} "
                                      f"{list(match.industries)}")
                found[(trace_location, index)] = match.id
        return found

    def slot(self, location: str, index: int) -> str:
        found = self.slots.get((location, index))
        if found is None:
            raise TraceError(f"slot {index} of {location!r} is not in the trace's catalogue.locationSlots")
        return found

    def link(self, index: int) -> str:
        found = self.links.get(index)
        if found is None:
            raise TraceError(f"link index {index} is not in the trace's catalogue.links")
        return found

    def card(self, card_id: str) -> str:
        match = CARD_ID.match(card_id)
        if match is None:
            raise TraceError(f"unknown card id {card_id!r}")
        kind, name, n = match.group(1), match.group(2), int(match.group(3)) + 1
        if kind == "loc":
            return f"{location_id(name)}#{n}"
        if kind == "ind":
            if name not in INDUSTRY_CARD_FACES:
                raise TraceError(f"unknown industry card {card_id!r}")
            return f"{INDUSTRY_CARD_FACES[name]}#{n}"
        if card_id in self.wild:
            return self.wild[card_id]
        return f"wild_{name}#{n}"  # only before it is matched (not held by anybody)

    def player(self, index: int) -> int:
        return index + 1
