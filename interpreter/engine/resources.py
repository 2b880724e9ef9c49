"""Taking resources, and selling a new producer's cubes to its market: the changes of sourcing.

Which producers may be used, in which order, and whether the market is open is
`sourcing.py`; this module takes the cubes. Where the rules leave the player a choice
(equally near coal mines, which iron works, which brewery) the player is asked through
`Table.ask` before anything changes; the documented default when no answer is given is
board order (location order of the ruleset, then slot).
"""

from __future__ import annotations

from typing import Any

from interpreter.engine.sourcing import market_buy_cost, market_sell_price
from interpreter.engine.state import PlacedTile, Player
from interpreter.engine.table import Table
from interpreter.ruleset.model import Resource


def consume(table: Table, player: Player, resource_id: str, amount: int, at: list[str],
            action: str | None = None) -> list[dict[str, Any]]:
    """Take the amount (producers first, then the market); return what came from where, for the log."""
    resource = table.ruleset.resources[resource_id]
    picks = _choose_producers(table, player, resource, amount, at, action)
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
    return result


def _choose_producers(table: Table, player: Player, resource: Resource, amount: int, at: list[str],
                      action: str | None) -> list[PlacedTile]:
    """One producer per unit, asking the player wherever several are equally allowed."""
    ranked = table.sourcing.ranked(resource, player, at, action)
    left = {tile.slot.id: tile.cubes for _, tile in ranked}
    picks: list[PlacedTile] = []
    for unit in range(amount):
        available = [(rank, tile) for rank, tile in ranked if left[tile.slot.id] > 0]
        if not available:
            break
        best = min(rank for rank, _ in available)
        options = [tile for rank, tile in available if rank == best]
        if len(options) > 1 and sum(left[t.slot.id] for t in options) > amount - unit:
            chosen = table.ask(player, f"{resource.id}/{unit + 1}", [t.slot.id for t in options],
                               f"Take {resource.name.lower()} {unit + 1} of {amount} from which tile?")
            tile = next(t for t in options if t.slot.id == chosen)
        else:
            tile = options[0]
        picks.append(tile)
        left[tile.slot.id] -= 1
    return picks


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
    if resource.sell_on_build == "merchant_connection" and not table.connected_to_merchant(tile.slot.location):
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
