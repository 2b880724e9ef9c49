"""Obtaining resources and the market ladders, driven by each resource's data.

A resource's `sources` (resources.yaml) name where it may come from, in order of
obligation for `choice: in_order` (coal, iron) or freely mixed for `any_mix`
(beer); `sources_in: {ACTION: [...]}` replaces them while that action is taken (a
variant's beer for the Network action only from your own Breweries). The engine
knows these source kinds:

- nearest_connected_producer: unflipped producers of any owner connected to the
  place, nearest first (R-COAL-02); ties default to board order (location, slot).
- any_producer: unflipped producers anywhere (R-IRON-02).
- own_producer / connected_opponent_producer / any_opponent_producer: beer.
- merchant_barrel: served only by a Sell's `use_merchant_beer` step, never here.
- market: buy from the market, cheapest filled space first, then at the empty
  price without limit (R-COAL-03/04, R-IRON-03); `market_access:
  merchant_connection` requires a connection to a merchant location.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from interpreter.ruleset.model import Market, Resource
from interpreter.engine.state import PlacedTile, Player

if TYPE_CHECKING:
    from interpreter.engine.game import Game


def market_buy_cost(market: Market, cubes_in_market: int, amount: int) -> int:
    """Price of buying `amount` cubes, cheapest filled space first (R-COAL-03/04)."""
    cost, cubes = 0, cubes_in_market
    for _ in range(amount):
        if cubes > 0:
            cost += market.prices[market.capacity - cubes]
            cubes -= 1
        else:
            cost += market.empty_price
    return cost


def market_sell_price(market: Market, cubes_in_market: int) -> int | None:
    """What the dearest empty space pays, or None when the market is full (R-MKT-01)."""
    if cubes_in_market >= market.capacity:
        return None
    return market.prices[market.capacity - cubes_in_market - 1]


class Sourcing:
    """Resource queries and consumption for one game."""

    def __init__(self, game: "Game") -> None:
        self.game = game
        self.rs = game.ruleset
        self.slot_order = {s.id: n for n, s in enumerate(self.rs.slots)}

    def producers(self, resource: Resource, player: Player, at: list[str], action: str | None = None
                  ) -> Iterator[PlacedTile]:
        """Producer tiles holding the resource, in the order they must (or by default will) be used."""
        seen: set[str] = set()
        for kind in resource.sources_for(action):
            for tile in self._producers_of_kind(kind, resource.id, player, at):
                if tile.slot.id not in seen:
                    seen.add(tile.slot.id)
                    yield tile

    def _producers_of_kind(self, kind: str, resource: str, player: Player, at: list[str]) -> list[PlacedTile]:
        game = self.game
        tiles = [t for t in game.state.tiles.values()
                 if not t.flipped and t.cubes > 0 and self.rs.industries[t.spec.industry].produces == resource]
        if kind == "nearest_connected_producer":
            placed = [(game.network.distance(at, t.slot.location), t) for t in tiles]
            near = [(d, self.slot_order[t.slot.id], t) for d, t in placed if d is not None]
            return [t for _, _, t in sorted(near, key=lambda x: (x[0], x[1]))]
        if kind == "any_producer":
            return sorted(tiles, key=lambda t: self.slot_order[t.slot.id])
        if kind == "own_producer":
            return sorted((t for t in tiles if t.owner is player), key=lambda t: self.slot_order[t.slot.id])
        if kind == "connected_opponent_producer":
            return sorted((t for t in tiles if t.owner is not player
                           and game.network.distance(at, t.slot.location) is not None),
                          key=lambda t: self.slot_order[t.slot.id])
        if kind == "any_opponent_producer":
            return sorted((t for t in tiles if t.owner is not player), key=lambda t: self.slot_order[t.slot.id])
        return []  # merchant_barrel and market are not producers

    def market_open(self, resource: Resource, at: list[str], action: str | None = None) -> bool:
        """The resource can be bought from its market for something at `at`."""
        if "market" not in resource.sources_for(action) or resource.market is None:
            return False
        if resource.market_access == "anywhere":
            return True
        return any(self.game.connected_to_merchant(loc) for loc in at)

    def free_amount(self, resource: Resource, player: Player, at: list[str], action: str | None = None) -> int:
        return sum(t.cubes for t in self.producers(resource, player, at, action))

    def can_source(self, player: Player, resource_id: str, amount: int, at: list[str],
                   action: str | None = None) -> bool:
        """`amount` of the resource can be had for something at `at`, during `action` (its sources)."""
        if amount <= 0:
            return True
        resource = self.rs.resources[resource_id]
        return self.free_amount(resource, player, at, action) >= amount or self.market_open(resource, at, action)

    def source_cost(self, player: Player, resource_id: str, amount: int, at: list[str],
                    action: str | None = None) -> int:
        if amount <= 0:
            return 0
        resource = self.rs.resources[resource_id]
        missing = max(0, amount - self.free_amount(resource, player, at, action))
        if missing == 0 or not self.market_open(resource, at, action):
            return 0
        market = self.rs.markets[resource.market]
        return market_buy_cost(market, self.game.state.markets[market.id], missing)

    def consume(self, player: Player, resource_id: str, amount: int, at: list[str],
                action: str | None = None) -> list[dict]:
        """Take the amount (producers first, then the market); return what came from where, for the log.

        Where the rules leave the player a choice (equally near coal mines, which iron works,
        which brewery) the player is asked, before anything changes; the documented default
        when no answer is given is board order (location order of the ruleset, then slot).
        """
        resource = self.rs.resources[resource_id]
        picks = self._choose_producers(player, resource, amount, at, action)
        taken: dict[str, dict] = {}
        for tile in picks:
            tile.cubes -= 1
            entry = taken.setdefault(tile.slot.id, {"from": tile.slot.id, "owner": tile.owner.seat, "amount": 0})
            entry["amount"] += 1
            if tile.cubes == 0:
                self.game.flip(tile)  # R-FLIP-02
        result = list(taken.values())
        if amount > len(picks):
            result.append(self._buy(player, resource, amount - len(picks)))
        return result

    def _choose_producers(self, player: Player, resource: Resource, amount: int, at: list[str],
                          action: str | None) -> list[PlacedTile]:
        """One producer per unit, asking the player wherever several are equally allowed."""
        ranked = self._ranked(resource, player, at, action)
        left = {tile.slot.id: tile.cubes for _, tile in ranked}
        picks: list[PlacedTile] = []
        for unit in range(amount):
            available = [(rank, tile) for rank, tile in ranked if left[tile.slot.id] > 0]
            if not available:
                break
            best = min(rank for rank, _ in available)
            options = [tile for rank, tile in available if rank == best]
            if len(options) > 1 and sum(left[t.slot.id] for t in options) > amount - unit:
                chosen = self.game.ask(player, f"{resource.id}/{unit + 1}", [t.slot.id for t in options],
                                       f"Take {resource.name.lower()} {unit + 1} of {amount} from which tile?")
                tile = next(t for t in options if t.slot.id == chosen)
            else:
                tile = options[0]
            picks.append(tile)
            left[tile.slot.id] -= 1
        return picks

    def _ranked(self, resource: Resource, player: Player, at: list[str],
                action: str | None) -> list[tuple[tuple[int, int], PlacedTile]]:
        """Eligible producers with a rank: only the best rank may be used (R-COAL-02, R-COAL-06)."""
        ranked: list[tuple[tuple[int, int], PlacedTile]] = []
        seen: set[str] = set()
        free_mix = resource.choice == "any_mix"
        for order, kind in enumerate(resource.sources_for(action)):
            for tile in self._producers_of_kind(kind, resource.id, player, at):
                if tile.slot.id in seen:
                    continue
                seen.add(tile.slot.id)
                distance = self.game.network.distance(at, tile.slot.location) or 0
                near = distance if kind == "nearest_connected_producer" else 0
                ranked.append(((0, 0) if free_mix else (order, near), tile))
        return ranked

    def _buy(self, player: Player, resource: Resource, amount: int) -> dict:
        market = self.rs.markets[resource.market]
        cubes = self.game.state.markets[market.id]
        cost = market_buy_cost(market, cubes, amount)
        self.game.state.markets[market.id] = max(0, cubes - amount)
        self.game.spend(player, cost)
        return {"from": f"{market.id} market", "amount": amount, "cost": cost}

    def sell_to_market(self, tile: PlacedTile) -> dict | None:
        """Move cubes of a newly built producer to its market, dearest empty space first (R-MKT-01/02)."""
        resource = self.rs.resources.get(self.rs.industries[tile.spec.industry].produces or "")
        if resource is None or resource.market is None or resource.sell_on_build == "never":
            return None
        if resource.sell_on_build == "merchant_connection" and not self.game.connected_to_merchant(tile.slot.location):
            return None  # R-MKT-05
        market = self.rs.markets[resource.market]
        sold, income = 0, 0
        while tile.cubes > 0:
            price = market_sell_price(market, self.game.state.markets[market.id])
            if price is None:
                break
            self.game.state.markets[market.id] += 1
            tile.cubes -= 1
            sold += 1
            income += price
        tile.owner.money += income
        if sold and tile.cubes == 0:
            self.game.flip(tile)  # R-MKT-03
        return {"sold": sold, "to": f"{market.id} market", "money": income} if sold else None
