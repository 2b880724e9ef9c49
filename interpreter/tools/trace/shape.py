"""Real-game traces: the shape of every value the replay reads, checked when a trace is loaded.

A trace is a file from elsewhere: a missing key, a list where a mapping belongs or text where a
number belongs is reported here as a TraceError naming the place (`steps[12].action.cardId`),
instead of surfacing later as a Python error deep in the replay. Only what the replay reads is
described; any other key is left alone (the format has more, e.g. `scores.yuiffyAudit`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.ruleset.yaml_source import kind_name
from interpreter.tools.trace.mapping import TraceError


@dataclass(frozen=True)
class Omittable:
    """A key that may be absent (or, with `null`, hold null)."""

    spec: Any
    null: bool = False


@dataclass(frozen=True)
class Nullable:
    spec: Any


@dataclass(frozen=True)
class ListOf:
    item: Any
    at_least: int = 0


@dataclass(frozen=True)
class MapOf:
    """A mapping with keys of the trace's own choosing (locations, merchants), each value `value`."""

    value: Any


TILE = Nullable({"owner": int, "industry": str, "level": int, "resources": int, "flipped": bool})
BARRELS = ListOf({"merchant": str, "tileIndex": int, "barrel": ListOf(bool, at_least=2)})
EFFECTS = {
    "slots": Omittable(ListOf({"location": str, "slotIndex": int, "before": TILE, "after": TILE})),
    "linksAdded": Omittable(ListOf({"linkIndex": int, "owner": int})),
    "coalMarket": Omittable(ListOf(int, at_least=2)),
    "ironMarket": Omittable(ListOf(int, at_least=2)),
    "merchantBarrels": Omittable(BARRELS),
    "cardsSpent": Omittable(ListOf(str)),
    "cardsGained": Omittable(ListOf(str)),
    "players": Omittable(ListOf({"player": int, "money": Omittable(ListOf(int, at_least=2)),
                                 "matTilesRemoved": Omittable(ListOf(str))})),
}
SOURCE = {"location": str, "slotIndex": int}
ACTION = {
    "type": str,
    "cardId": Omittable(str),
    "cardIds": Omittable(ListOf(str, at_least=3)),
    "industry": Omittable(str),
    "location": Omittable(str),
    "slotIndex": Omittable(int, null=True),
    "links": Omittable(ListOf(int)),
    "removals": Omittable(ListOf(str)),
    "sales": Omittable(ListOf({"location": str, "slotIndex": int, "merchant": str,
                              "useMerchantBeer": Omittable(bool),
                              "beerSources": Omittable(ListOf({"kind": str, "location": Omittable(str),
                                                               "slotIndex": Omittable(int)}), null=True)})),
    "ironSources": Omittable(ListOf({**SOURCE, "count": Omittable(int)}), null=True),
    "beerSource": Omittable(SOURCE, null=True),
}
ROUND_END = {
    "effects": Omittable(EFFECTS),
    "railHands": Omittable(ListOf(ListOf(str))),
    "railDrawPile": Omittable(ListOf(str)),
    "eraEnd": Omittable(str, null=True),
    "linkVP": Omittable(ListOf(int)),
    "industryVP": Omittable(ListOf(int)),
    "newTurnOrder": ListOf(int),
}
PLAYER_AFTER = {"money": int, "incomeSpace": int, "incomeLevel": int, "vp": int}
STEP = {
    "seq": int, "player": int, "era": str, "round": int,
    "action": ACTION, "effects": EFFECTS, "after": ListOf(PLAYER_AFTER),
    "drew": Omittable(ListOf(str)),
    "roundEnd": Omittable(ROUND_END, null=True),
}
TRACE = {
    "playerCount": int,
    "seed": Omittable(int),
    "catalogue": {
        "links": ListOf({"index": int, "a": str, "b": str, "extraEndpoints": Omittable(ListOf(str)),
                         "canal": bool, "rail": bool}),
        "locationSlots": MapOf(ListOf(ListOf(str))),
    },
    "setup": {
        "hands": ListOf(ListOf(str)),
        "initialDiscard": Omittable(ListOf(str)),
        "drawPile": ListOf(str),
        "merchants": MapOf({"tiles": ListOf(str), "barrels": Omittable(ListOf(bool))}),
        "turnOrder": ListOf(int),
        "coalMarket": Omittable(int, null=True),
        "ironMarket": Omittable(int, null=True),
        "players": ListOf({"money": int, "incomeSpace": int, "vp": int}),
    },
    "steps": ListOf(STEP),
    "scores": Omittable({"finalVP": Omittable(ListOf(int), null=True), "winner": Omittable(ListOf(int), null=True)}),
    "source": Omittable({"path": Omittable(str, null=True)}),
}
KINDS = {int: "a whole number", str: "text", bool: "true or false"}


def check_trace_shape(trace: Any, name: str) -> None:
    """TraceError naming the first value of `trace` that is not of the shape the replay reads."""
    problem = _problem(trace, TRACE, "")
    if problem is not None:
        raise TraceError(f"{name} is not a trace the replay can read: {problem}")


def _problem(value: Any, spec: Any, path: str) -> str | None:
    if isinstance(spec, Nullable):
        return None if value is None else _problem(value, spec.spec, path)
    if spec in (int, str, bool):
        if isinstance(value, spec) and (spec is bool or not isinstance(value, bool)):
            return None
        return f"{path or 'the file'} must be {KINDS[spec]}, not {kind_name(value)}"
    if isinstance(spec, ListOf):
        return _list_problem(value, spec, path)
    if isinstance(spec, MapOf):
        if not isinstance(value, dict):
            return f"{path} must be a mapping, not {kind_name(value)}"
        return _first(_problem(item, spec.value, f"{path}.{key}") for key, item in value.items())
    return _mapping_problem(value, spec, path)


def _list_problem(value: Any, spec: ListOf, path: str) -> str | None:
    if not isinstance(value, list):
        return f"{path} must be a list, not {kind_name(value)}"
    if len(value) < spec.at_least:
        return f"{path} must hold at least {spec.at_least} values, not {len(value)}"
    return _first(_problem(item, spec.item, f"{path}[{n}]") for n, item in enumerate(value))


def _mapping_problem(value: Any, spec: dict[str, Any], path: str) -> str | None:
    if not isinstance(value, dict):
        return f"{path or 'the file'} must be a mapping, not {kind_name(value)}"
    for key, wanted in spec.items():
        where = f"{path}.{key}" if path else key
        if isinstance(wanted, Omittable):
            if key not in value or (wanted.null and value[key] is None):
                continue
            wanted = wanted.spec
        elif key not in value:
            return f"{path or 'the file'} has no {key!r}"
        problem = _problem(value[key], wanted, where)
        if problem is not None:
            return problem
    return None


def _first(problems: Any) -> str | None:
    return next((p for p in problems if p is not None), None)
