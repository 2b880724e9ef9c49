"""Why the rules exclude a value a player names: a source of a resource (`coal_from`, or the answer
to "from which tile?"), or the answer to an effect's question. Each reason is one member of
`Exclusion`, worded as one clause and cited with its own rule where the ruleset gives one:

- a source: the resource's `source_rules` under the reason's own key (`empty`, `unconnected`,
  `farther`: SOURCE_EXCLUSION_KEYS), else the rule of the kind of source concerned, else the
  resource's first producer kind's rule (no rule ID is written in the engine);
- an answer of the develop bonus: its step's `rule:`, or the rule of the excluded tile row;
- a tile for unpaid income: the first rule of the economy's `shortfall`, or the step's `rule:`.

`tests/test_exclusion_refusals.py` walks every member in each base game, so a new reason added
here without a position that shows it fails that test.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from interpreter.engine.named_sources import MARKET
from interpreter.engine.state import PlacedTile, Player
from interpreter.engine.table import Table
from interpreter.ruleset.model import Resource
from interpreter.ruleset.words import EMPTY_SOURCE, FARTHER_SOURCE, UNCONNECTED_SOURCE

# Kinds of source that take a producer only when it is connected to where the resource is needed.
_CONNECTED_KINDS = ("nearest_connected_producer", "connected_opponent_producer")
_NOT_PRODUCERS = (MARKET, "merchant_barrel")
# The kinds of source (resources.yaml `sources`, sourcing.py) as a player reads them.
KIND_WORDS = {
    "nearest_connected_producer": "the nearest connected tiles", "any_producer": "any player's tiles",
    "own_producer": "your own tiles", "connected_opponent_producer": "other players' tiles connected to it",
    "any_opponent_producer": "other players' tiles", "merchant_barrel": "the merchant's barrel",
    MARKET: "the market",
}


class Exclusion(Enum):
    """Every reason a named value is excluded; the value is the reason's name in messages and tests."""

    # a named source of a resource, or the answer to which producer a unit comes from (resources.py)
    NO_TILE = "no tile"                      # nothing is built in the named slot
    NOT_PRODUCER = "not a producer"          # the tile there does not produce the resource
    EMPTY = "empty"                          # a producer with none left (flipped): `empty`
    USED_UP = "used up"                      # the action's earlier units take its last ones: `empty`
    UNCONNECTED = "unconnected"              # a producer the rules take only when connected: `unconnected`
    FARTHER = "farther"                      # a nearer producer of the same kind has some: `farther`
    LATER_KIND = "later kind"                # an earlier kind of source (choice: in_order) has some
    OTHER_KIND = "not a source kind"         # no kind of source of this action takes that producer
    PRODUCER_FIRST = "producer first"        # the market, while a producer must be used first
    NO_MARKET = "no market"                  # the market is no source of the resource in this action
    # an answer to the develop bonus (effect_impls.py, develop_without_iron)
    MAT_EMPTY = "mat empty"                  # no tile of that industry left on the mat
    NOT_DEVELOPABLE = "not developable"      # its lowest tile may not be developed (a lightbulb)
    # an answer to which tile is removed for unpaid income (effect_impls.py, collect_income)
    NOT_YOURS = "not yours"                  # another player's tile
    WORTH_NOTHING = "worth nothing"          # a tile that would raise £0
    ALREADY_REMOVED = "already removed"      # a tile this shortfall already removes


@dataclass(frozen=True, slots=True)
class Excluded:
    """One excluded value: why, in one clause, and the rule (with where it is cited) that says so."""

    why: Exclusion
    clause: str
    rule: str | None
    where: str

    def as_answer(self) -> dict[str, Any]:
        """The entry of a question's `excluded` map (`Table.ask`)."""
        return {"reason": self.clause, "rule": self.rule, "where": self.where, "why": self.why.value}


# == sources ===================================================================================

@dataclass(frozen=True, slots=True)
class SourceUnit:
    """One unit being taken: its resource, which unit of how many, where and for which action, the
    producers the rules rank for it, how many cubes each has left in this action, and the ones
    allowed now (the best rank among those with some left)."""

    resource: Resource
    player: Player
    unit: int
    amount: int
    at: Sequence[str]
    action: str | None
    ranked: list[tuple[tuple[int, int], PlacedTile]]
    left: dict[str, int]
    options: list[PlacedTile]

    @property
    def what(self) -> str:
        return f"{self.resource.name} {self.unit + 1} of {self.amount}"


def source_exclusion(table: Table, unit: SourceUnit, named: str) -> Excluded:
    """Why `named` (a slot or `market`) may not give this unit: the first reason that holds."""
    resource, noun = unit.resource, unit.resource.name.lower()
    kinds = unit.resource.sources_for(unit.action)
    if named == MARKET:
        if MARKET not in kinds or resource.market is None:
            return _source(table, unit, Exclusion.NO_MARKET, f"the market is no source of {noun}"
                                                              f"{_during(table, unit)}")
        have = "has" if len(unit.options) == 1 else "have"
        return _source(table, unit, Exclusion.PRODUCER_FIRST, f"{_first(unit)} still {have} {noun}", MARKET)
    tile = table.state.tiles.get(named)
    if tile is None:
        return _source(table, unit, Exclusion.NO_TILE, f"there is no tile in {named}")
    if table.ruleset.industries[tile.spec.industry].produces != resource.id:
        return _source(table, unit, Exclusion.NOT_PRODUCER, f"{table.describe(tile)} does not produce {noun}")
    if tile.cubes == 0:
        return _source(table, unit, Exclusion.EMPTY, f"{table.describe(tile)} has no {noun} left", EMPTY_SOURCE)
    rank = next((r for r, t in unit.ranked if t is tile), None)
    if rank is None:
        return _not_taken(table, unit, tile, kinds)
    if unit.left.get(tile.slot.id, 0) == 0:
        return _source(table, unit, Exclusion.USED_UP, f"the earlier units take the last {noun} of "
                                                       f"{table.describe(tile)}", EMPTY_SOURCE)
    return _ranked_after(table, unit, tile, rank, kinds)


def _not_taken(table: Table, unit: SourceUnit, tile: PlacedTile, kinds: tuple[str, ...]) -> Excluded:
    """A producer with some left that no kind of source of this action takes as things stand."""
    mine = tile.owner is unit.player
    connected = [k for k in kinds if k == "nearest_connected_producer" or (k == "connected_opponent_producer"
                                                                            and not mine)]
    if connected:
        return _source(table, unit, Exclusion.UNCONNECTED, f"{table.describe(tile)} is not connected to "
                                                           f"{_places(table, unit)}",
                       UNCONNECTED_SOURCE, connected[0])
    whose = "yours" if mine else f"player {tile.owner.seat}'s"
    return _source(table, unit, Exclusion.OTHER_KIND, f"{table.describe(tile)} is {whose}, and "
                                                      f"{unit.resource.name.lower()}{_during(table, unit)} comes only "
                                                      f"from {_kinds(kinds)}")


def _ranked_after(table: Table, unit: SourceUnit, tile: PlacedTile, rank: tuple[int, int],
                  kinds: tuple[str, ...]) -> Excluded:
    """A producer the rules rank after the ones allowed now (a farther mine, a later kind)."""
    best = min(r for r, t in unit.ranked if t in unit.options)
    if rank[0] == best[0]:
        return _source(table, unit, Exclusion.FARTHER, f"{table.describe(tile)} is {_links(rank[1])} from "
                                                       f"{_places(table, unit)}, farther than {_first(unit)} "
                                                       f"({_links(best[1])})", FARTHER_SOURCE, kinds[rank[0]])
    noun = unit.resource.name.lower()
    return _source(table, unit, Exclusion.LATER_KIND, f"{_first(unit)} must be used first: {noun} comes from "
                                                      f"{_kinds(kinds[best[0]:best[0] + 1])} before "
                                                      f"{_kinds(kinds[rank[0]:rank[0] + 1])}", kinds[best[0]])


def _source(table: Table, unit: SourceUnit, why: Exclusion, clause: str, key: str | None = None,
            kind: str | None = None) -> Excluded:
    rule, where = source_rule(table, unit.resource, key, kind, unit.action)
    return Excluded(why, clause, rule, where)


def source_rule(table: Table, resource: Resource, key: str | None, kind: str | None = None,
                action: str | None = None) -> tuple[str | None, str]:
    """The rule (and where it is cited) of `source_rules` under `key`, else under `kind`, else under
    the first producer kind of the action's sources that has one."""
    rules = resource.source_rules
    producers = _producer_kinds(resource.sources_for(action)) + _producer_kinds(resource.sources)
    chosen = next((k for k in (key, kind, *producers) if k is not None and k in rules), None)
    if chosen is None:
        return None, ""
    return rules[chosen], table.ruleset.where(("resources", resource.id, "source_rules", chosen, "rule"))


def _producer_kinds(kinds: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(k for k in kinds if k not in _NOT_PRODUCERS)


def _kinds(kinds: tuple[str, ...]) -> str:
    return " or ".join(KIND_WORDS.get(k, k) for k in kinds)


def _during(table: Table, unit: SourceUnit) -> str:
    action = table.ruleset.actions.get(unit.action or "")
    return f" in {action.name}" if action is not None else ""


def _first(unit: SourceUnit) -> str:
    return ", ".join(t.slot.id for t in unit.options)


def _places(table: Table, unit: SourceUnit) -> str:
    return " or ".join(table.describe(loc, "location") for loc in unit.at)


def _links(n: int) -> str:
    return f"{n} link" if n == 1 else f"{n} links"


# == answers to effects' questions ================================================================

def develop_exclusion(table: Table, industry: str, already: int) -> Excluded:
    """Why `industry` is not an answer to the develop bonus: no tile of it is left on the mat (the
    step's own rule), or its lowest tile may not be developed: the rule its tile row cites."""
    used = table.me.mat_used.get(industry, 0) + already
    stack = table.mat_stack(industry)
    name = table.ruleset.industries[industry].name
    step_rule, step_where = _step_rule(table)
    if used >= len(stack):
        return Excluded(Exclusion.MAT_EMPTY, f"no {name} tile is left on your mat", step_rule, step_where)
    level = stack[used].level
    rows = table.ruleset.data.get("tiles", {}).get(industry, [])
    row = next((i for i, r in enumerate(rows) if isinstance(r, dict) and r.get("level") == level), None)
    cited = (rows[row].get("rules") or [rows[row].get("rule")]) if row is not None else [None]
    where = table.ruleset.where(("tiles", industry, row, "develop")) if row is not None else ""
    return Excluded(Exclusion.NOT_DEVELOPABLE, f"your lowest {name} tile (level {level}) cannot be developed",
                    cited[0] or step_rule, where if cited[0] else step_where)


def shortfall_exclusion(table: Table, player: Player, tile: PlacedTile, chosen: list[PlacedTile]) -> Excluded:
    """Why a tile on the board is not an answer to which tile the player removes for unpaid income."""
    rules = table.ruleset.data.get("economy", {}).get("shortfall", {}).get("rules") or []
    step_rule, step_where = _step_rule(table)
    rule, where = (rules[0], table.ruleset.where(("economy", "shortfall", "rules", 0))) if rules \
        else (step_rule, step_where)
    if tile.owner is not player:
        return Excluded(Exclusion.NOT_YOURS, f"{table.describe(tile)} is player {tile.owner.seat}'s", rule, where)
    if tile in chosen:
        return Excluded(Exclusion.ALREADY_REMOVED, f"{table.describe(tile)} is already removed", step_rule,
                        step_where)
    return Excluded(Exclusion.WORTH_NOTHING, f"{table.describe(tile)} would raise £0", rule, where)


def _step_rule(table: Table) -> tuple[str | None, str]:
    step = table.step
    if step is None:
        return None, ""
    return step.rule, str(step.pos) if step.pos else ""
