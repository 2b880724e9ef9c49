"""Runtime values as a decision carries them and as a player reads them.

At run time locations, industries and links are their ids, while cards, slots, placed tiles,
merchant spaces and players are objects. A decision names every one of them by its id
(`encode`); a message names them as the board does (`describe`).
"""

from __future__ import annotations

from typing import Any

from interpreter.engine.state import Card, MerchantSpace, PlacedTile, Player
from interpreter.ruleset.model import Ruleset, Slot


def encode(value: Any) -> Any:
    """A runtime value as it appears in a decision (ids for objects)."""
    if isinstance(value, (Card, Slot, MerchantSpace)):
        return value.id
    if isinstance(value, PlacedTile):
        return value.slot.id
    if isinstance(value, Player):
        return value.seat
    return value


def describe(ruleset: Ruleset, value: Any, type_name: str = "") -> str:
    """A value as a player reads it: names instead of ids, for messages."""
    if isinstance(value, str):
        tables: dict[str, Any] = {"location": ruleset.locations, "industry": ruleset.industries,
                                  "resource": ruleset.resources}
        if type_name in tables and value in tables[type_name]:
            return str(tables[type_name][value].name)
        if type_name == "era":
            return ruleset.era(value).name
        return value
    if isinstance(value, Player):
        return value.name
    if isinstance(value, Card):
        return value.name
    if isinstance(value, (Slot, MerchantSpace)):
        return value.id
    if isinstance(value, PlacedTile):
        return f"{ruleset.industries[value.spec.industry].name} {value.spec.level} at {value.slot.id}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
