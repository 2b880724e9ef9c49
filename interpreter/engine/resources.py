"""Taking resources, and selling a new producer's cubes to its market: the changes of sourcing.

Which producers may be used, in which order, and whether the market is open is
`sourcing.py`; this module takes the cubes. Where the rules leave the player a choice
(equally near coal mines, which iron works, which brewery) the player is asked through
`Table.ask` before anything changes; the documented default when no answer is given is
board order (location order of the ruleset, then slot).
"""

from __future__ import annotations

from typing import Any

from interpreter.engine.errors import Failure, IllegalAction
from interpreter.engine.named_sources import MARKET
from interpreter.engine.sourcing import market_buy_cost, market_sell_price
from interpreter.engine.state import PlacedTile, Player
from interpreter.engine.table import Table
from interpreter.ruleset.model import Resource
from interpreter.ruleset.words import EMPTY_SOURCE


def consume(table: Table, player: Player, resource_id: str, amount: int, at: list[str],
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
            raise _not_a_source(table, resource, named, unit, amount, at, action)
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


def _choose_producers(table: Table, player: Player, resource: Resource, amount: int, at: list[str],
                      action: str | None, naming: bool) -> list[PlacedTile]:
    """One producer per unit: the one the whole action names, else the player's choice wherever
    several are equally allowed."""
    ranked = table.sourcing.ranked(resource, player, at, action)
    kinds = resource.sources_for(action)
    left = {tile.slot.id: tile.cubes for _, tile in ranked}
    picks: list[PlacedTile] = []
    for unit in range(amount):
        available = [(rank, tile) for rank, tile in ranked if left[tile.slot.id] > 0]
        if not available:
            break
        best = min(rank for rank, _ in available)
        options = [tile for rank, tile in available if rank == best]
        kind = kinds[best[0]] if resource.choice != "any_mix" else None
        named = table.named_sources.at(resource.id, unit) if naming else None
        if named is not None:
            tile = _named_producer(table, resource, named, options, available, kind, unit, amount, at, action)
        elif len(options) > 1 and sum(left[t.slot.id] for t in options) > amount - unit:
            rule, where = _source_rule(table, resource, kind)
            chosen = table.ask(player, f"{resource.id}/{unit + 1}", [t.slot.id for t in options],
                               f"Take {resource.name.lower()} {unit + 1} of {amount} from which tile?", rule, where)
            tile = next(t for t in options if t.slot.id == chosen)
        else:
            tile = options[0]
        picks.append(tile)
        left[tile.slot.id] -= 1
    return picks


def _named_producer(table: Table, resource: Resource, named: str, options: list[PlacedTile],
                    available: list[tuple[tuple[int, int], PlacedTile]], kind: str | None, unit: int, amount: int,
                    at: list[str], action: str | None) -> PlacedTile:
    """The producer a whole action names for one unit, if the rules allow it now."""
    what = f"{resource.name} {unit + 1} of {amount}"
    first = ", ".join(t.slot.id for t in options)
    if named == MARKET:
        raise _refusal(table, resource, MARKET, f"{what} may not be bought from the market while {first} "
                                                f"still has {resource.name.lower()}.")
    chosen = next((t for t in options if t.slot.id == named), None)
    if chosen is not None:
        return chosen
    if any(t.slot.id == named for _, t in available):
        raise _refusal(table, resource, kind, f"{what} may not come from {named} while {first} must be used "
                                              f"first.")
    raise _not_a_source(table, resource, named, unit, amount, at, action)


def _not_a_source(table: Table, resource: Resource, named: str, unit: int, amount: int, at: list[str],
                  action: str | None) -> IllegalAction:
    """A named source that cannot give this unit at all (no producer of it, empty, not connected …)."""
    what = f"{resource.name} {unit + 1} of {amount}"
    tile = table.state.tiles.get(named)
    if named == MARKET:
        reason = "the market is not a source of it here"
    elif tile is None:
        reason = f"there is no tile in {named}"
    elif table.ruleset.industries[tile.spec.industry].produces != resource.id:
        reason = f"{table.describe(tile)} does not produce {resource.name.lower()}"
    elif tile.cubes == 0 and EMPTY_SOURCE in resource.source_rules:  # the rule that says an empty producer has none
        return _refusal(table, resource, EMPTY_SOURCE, f"{what} cannot come from {named}: {table.describe(tile)} has "
                                                f"no {resource.name.lower()} left.")
    else:
        reason = f"{table.describe(tile)} is not a source of it here, or has none left"
    kinds = [k for k in resource.sources_for(action) if k != MARKET]
    return _refusal(table, resource, kinds[0] if kinds else None, f"{what} cannot come from {named}: {reason}.")


def _source_rule(table: Table, resource: Resource, kind: str | None) -> tuple[str | None, str]:
    """The rule (and where it is cited) that governs taking the resource from a kind of source:
    the resource's `source_rules` for that kind, else its first one."""
    rules = resource.source_rules
    if kind not in rules:
        kind = next((k for k in rules if k != EMPTY_SOURCE), None)
    if kind is None:
        return None, ""
    return rules[kind], table.ruleset.where(("resources", resource.id, "source_rules", kind, "rule"))


def _refusal(table: Table, resource: Resource, kind: str | None, message: str) -> IllegalAction:
    rule, where = _source_rule(table, resource, kind)
    return IllegalAction(f"{resource.name} from a source the rules do not allow", [Failure(rule, message, where)])


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
