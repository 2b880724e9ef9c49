"""Taking resources, and selling a new producer's cubes to its market: the changes of sourcing.

Which producers may be used, in which order, and whether the market is open is
`sourcing.py`; this module takes the cubes. Where the rules leave the player a choice
(equally near coal mines, which iron works, which brewery) the player is asked through
`Table.ask` before anything changes; the documented default when no answer is given is
board order (location order of the ruleset, then slot).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interpreter.engine.errors import Failure, IllegalAction
from interpreter.engine.exclusions import Excluded, SourceUnit, source_exclusion, source_rule
from interpreter.engine.named_sources import MARKET
from interpreter.engine.sourcing import market_buy_cost, market_sell_price
from interpreter.engine.state import PlacedTile, Player
from interpreter.engine.table import Table
from interpreter.ruleset.model import Resource


def consume(table: Table, player: Player, resource_id: str, amount: int, at: Sequence[str],
            action: str | None = None) -> list[dict[str, Any]]:
    """Take the amount (producers first, then the market); return what came from where, for the log.

    A source named for a unit by the whole action (`{resource}_from`) is taken if the rules allow
    it, else the action is refused with the rule it breaks, before anything changes."""
    resource = table.ruleset.resources[resource_id]
    naming = table.named_sources.named(resource.id)
    picks = _choose_producers(table, player, resource, amount, at, action, naming)
    for unit in range(len(picks), amount if naming else len(picks)):  # the rest comes from the market
        named = table.named_sources.at(resource.id, unit)
        if named is None:
            break  # no more names: the loop is as long as the names, whatever the amount
        if named != MARKET:
            raise _not_a_source(table, resource, player, named, unit, amount, at, action)
    taken: dict[str, dict[str, Any]] = {}
    for tile in picks:
        tile.cubes -= 1
        entry = taken.setdefault(tile.slot.id, {"from": tile.slot.id, "owner": tile.owner.seat, "amount": 0})
        entry["amount"] += 1
        if tile.cubes == 0:
            table.flip(tile)  # R-FLIP-02
    result = list(taken.values())
    if amount > len(picks):
        result.append(_buy(table, player, resource, amount - len(picks)))
    if naming:
        table.named_sources.taken(resource.id, amount)
    return result


def _choose_producers(table: Table, player: Player, resource: Resource, amount: int, at: Sequence[str],
                      action: str | None, naming: bool) -> list[PlacedTile]:
    """One producer per unit: the one the whole action names, else the player's choice wherever
    several are equally allowed."""
    ranked = table.sourcing.ranked(resource, player, at, action)
    kinds = resource.sources_for(action)
    left = {tile.slot.id: tile.cubes for _, tile in ranked}
    picks: list[PlacedTile] = []
    for n in range(amount):
        available = [(rank, tile) for rank, tile in ranked if left[tile.slot.id] > 0]
        if not available:
            break
        best = min(rank for rank, _ in available)
        options = [tile for rank, tile in available if rank == best]
        kind = kinds[best[0]] if resource.choice != "any_mix" else None
        unit = SourceUnit(resource, player, n, amount, at, action, ranked, dict(left), options)
        named = table.named_sources.at(resource.id, n) if naming else None
        if named is not None:
            tile = _named_producer(table, unit, named)
        elif len(options) > 1 and sum(left[t.slot.id] for t in options) > amount - n:
            tile = _asked_producer(table, unit, kind)
        else:
            tile = options[0]
        picks.append(tile)
        left[tile.slot.id] -= 1
    return picks


def _named_producer(table: Table, unit: SourceUnit, named: str) -> PlacedTile:
    """The producer a whole action names for one unit, if the rules allow it now."""
    chosen = next((t for t in unit.options if t.slot.id == named), None)
    if chosen is None:
        raise _refusal(unit, named, source_exclusion(table, unit, named))
    return chosen


def _asked_producer(table: Table, unit: SourceUnit, kind: str | None) -> PlacedTile:
    """The player's choice among equally allowed producers; every other producer of the resource on
    the board, and the market, is refused with the reason that excludes it."""
    produces = {i for i, spec in table.ruleset.industries.items() if spec.produces == unit.resource.id}
    named = [t.slot.id for t in table.state.tiles.values() if t.spec.industry in produces and t not in unit.options]
    excluded = {value: source_exclusion(table, unit, value).as_answer() for value in [*named, MARKET]}
    rule, where = source_rule(table, unit.resource, None, kind, unit.action)
    chosen = table.ask(unit.player, f"{unit.resource.id}/{unit.unit + 1}", [t.slot.id for t in unit.options],
                       f"Take {unit.resource.name.lower()} {unit.unit + 1} of {unit.amount} from which tile?",
                       rule, where, excluded=excluded)
    return next(t for t in unit.options if t.slot.id == chosen)


def _not_a_source(table: Table, resource: Resource, player: Player, named: str, unit: int, amount: int,
                  at: Sequence[str], action: str | None) -> IllegalAction:
    """A named producer for a unit that no producer can give (every one allowed is used up)."""
    ranked = table.sourcing.ranked(resource, player, at, action)
    spent = SourceUnit(resource, player, unit, amount, at, action, ranked, {t.slot.id: 0 for _, t in ranked}, [])
    return _refusal(spent, named, source_exclusion(table, spent, named))


def _refusal(unit: SourceUnit, named: str, excluded: Excluded) -> IllegalAction:
    message = f"{unit.what} cannot come from {named}: {excluded.clause}."
    return IllegalAction(f"{unit.resource.name} from a source the rules do not allow",
                         [Failure(excluded.rule, message, excluded.where)])


def _buy(table: Table, player: Player, resource: Resource, amount: int) -> dict[str, Any]:
    assert resource.market is not None  # the sourcing rules buy only a resource that has a market
    market = table.ruleset.markets[resource.market]
    cubes = table.state.markets[market.id]
    cost = market_buy_cost(market, cubes, amount)
    table.state.markets[market.id] = max(0, cubes - amount)
    table.spend(player, cost)
    return {"from": f"{market.id} market", "amount": amount, "cost": cost}


def sell_to_market(table: Table, tile: PlacedTile) -> dict[str, Any] | None:
    """Move cubes of a newly built producer to its market, dearest empty space first (R-MKT-01/02)."""
    rs = table.ruleset
    resource = rs.resources.get(rs.industries[tile.spec.industry].produces or "")
    if resource is None or resource.market is None or resource.sell_on_build == "never":
        return None
    if resource.sell_on_build == "merchant_connection" \
            and not table.connected_to_merchant(tile.slot.location, resource):
        return None  # R-MKT-05
    market = rs.markets[resource.market]
    markets = table.state.markets
    sold, income = 0, 0
    while tile.cubes > 0:
        price = market_sell_price(market, markets[market.id])
        if price is None:
            break
        markets[market.id] += 1
        tile.cubes -= 1
        sold += 1
        income += price
    tile.owner.money += income
    if sold and tile.cubes == 0:
        table.flip(tile)  # R-MKT-03
    return {"sold": sold, "to": f"{market.id} market", "money": income} if sold else None
