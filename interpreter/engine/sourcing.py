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

This module only answers where a resource can come from and at what price; taking it
(and selling a new producer's cubes to its market) is `resources.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from interpreter.engine.network import LinkNetwork
from interpreter.engine.state import GameState, PlacedTile, Player
from interpreter.ruleset.model import Market, Resource, Ruleset


def market_buy_cost(market: Market, cubes_in_market: int, amount: int) -> int:
    """Price of buying `amount` cubes, cheapest filled space first, then at the empty price
    (R-COAL-03/04); in one sum, so that a ruleset's huge amount costs no time."""
    filled = max(0, min(amount, cubes_in_market))
    first = market.capacity - cubes_in_market  # the cheapest filled space
    return sum(market.prices[first:first + filled]) + max(0, amount - filled) * market.empty_price


def market_sell_price(market: Market, cubes_in_market: int) -> int | None:
    """What the dearest empty space pays, or None when the market is full (R-MKT-01)."""
    if cubes_in_market >= market.capacity:
        return None
    return market.prices[market.capacity - cubes_in_market - 1]


class Sourcing:
    """Where resources can come from, and at what price, in one game's state."""

    def __init__(self, ruleset: Ruleset, state: GameState, network: LinkNetwork, slot_order: dict[str, int],
                 access_through: Callable[[Resource], list[str]] | None = None,
                 network_now: Callable[[], None] | None = None) -> None:
        self.rs = ruleset
        self.state = state
        self.network = network
        self.slot_order = slot_order  # board order of the slots: ties default to it
        self.merchant_locations = [loc.id for loc in ruleset.locations.values() if loc.kind == "merchant"]
        self.access_through = access_through  # the locations of a resource's `access_through`, as things stand
        # brings the network up to the placed links (the table's, which looks once per state)
        self.network_now = network_now or (lambda: network.update(self.state.links))
        self._produces = {key: industry.produces for key, industry in ruleset.industries.items()}

    def connected_to_merchant(self, location: str, resource: Resource | None = None) -> bool:
        """A route of links joins the location to one through which the resource's market is reached:
        its `access_through` locations, else the merchant locations."""
        network = self.network
        self.network_now()
        through = self.merchant_locations
        if resource is not None and resource.access_through is not None and self.access_through is not None:
            through = self.access_through(resource)
        part_of = network.part_of
        here = part_of(location)
        return any(part_of(m) == here for m in through)

    def producers(self, resource: Resource, player: Player, at: Sequence[str], action: str | None = None
                  ) -> Iterator[PlacedTile]:
        """Producer tiles holding the resource, in the order they must (or by default will) be used."""
        seen: set[str] = set()
        for kind in resource.sources_for(action):
            for tile in self._producers_of_kind(kind, resource.id, player, at):
                if tile.slot.id not in seen:
                    seen.add(tile.slot.id)
                    yield tile

    def _holding(self, resource: str, memo: dict[Any, Any] | None = None) -> list[PlacedTile]:
        """The unflipped tiles that produce the resource and hold some (remembered in `memo`)."""
        found = memo.get(("holding", resource)) if memo is not None else None
        if found is None:
            produces = self._produces
            found = [t for t in self.state.tiles.values()
                     if not t.flipped and t.cubes > 0 and produces[t.spec.industry] == resource]
            if memo is not None:
                memo[("holding", resource)] = found
        return found

    def _eligible(self, kind: str, tiles: list[PlacedTile], player: Player, at: Sequence[str]) -> list[PlacedTile]:
        """The tiles a kind of source allows, in no particular order (`_producers_of_kind` ranks them)."""
        part_of = self.network.part_of  # connected at some distance: the same connected part
        if kind == "nearest_connected_producer":
            parts = self.network.parts_of(at)
            return [t for t in tiles if part_of(t.slot.location) in parts]
        if kind == "any_producer":
            return tiles
        if kind == "own_producer":
            return [t for t in tiles if t.owner is player]
        if kind == "connected_opponent_producer":
            parts = self.network.parts_of(at)
            return [t for t in tiles if t.owner is not player and part_of(t.slot.location) in parts]
        if kind == "any_opponent_producer":
            return [t for t in tiles if t.owner is not player]
        return []  # merchant_barrel and market are not producers

    def _producers_of_kind(self, kind: str, resource: str, player: Player, at: Sequence[str]) -> list[PlacedTile]:
        network = self.network
        tiles = self._holding(resource)
        if kind == "nearest_connected_producer":
            placed = [(network.distance(at, t.slot.location), t) for t in tiles]
            near = [(d, self.slot_order[t.slot.id], t) for d, t in placed if d is not None]
            return [t for _, _, t in sorted(near, key=lambda x: (x[0], x[1]))]
        if kind == "any_producer":
            return sorted(tiles, key=lambda t: self.slot_order[t.slot.id])
        if kind == "own_producer":
            return sorted((t for t in tiles if t.owner is player), key=lambda t: self.slot_order[t.slot.id])
        if kind == "connected_opponent_producer":
            return sorted((t for t in tiles if t.owner is not player
                           and network.distance(at, t.slot.location) is not None),
                          key=lambda t: self.slot_order[t.slot.id])
        if kind == "any_opponent_producer":
            return sorted((t for t in tiles if t.owner is not player), key=lambda t: self.slot_order[t.slot.id])
        return []  # merchant_barrel and market are not producers

    def market_open(self, resource: Resource, at: Sequence[str], action: str | None = None) -> bool:
        """The resource can be bought from its market for something at `at`."""
        if "market" not in resource.sources_for(action) or resource.market is None:
            return False
        if resource.market_access == "anywhere":
            return True
        return any(self.connected_to_merchant(loc, resource) for loc in at)

    def free_amount(self, resource: Resource, player: Player, at: Sequence[str], action: str | None = None,
                    memo: dict[Any, Any] | None = None) -> int:
        """The cubes of every producer the player may take the resource from: those `producers`
        yields, summed, and so counted without ranking them."""
        holding = self._holding(resource.id, memo)
        seen: set[str] = set()
        total = 0
        for kind in resource.sources_for(action):
            for tile in self._eligible(kind, holding, player, at):
                if tile.slot.id not in seen:
                    seen.add(tile.slot.id)
                    total += tile.cubes
        return total

    def can_source(self, player: Player, resource_id: str, amount: int, at: Sequence[str],
                   action: str | None = None, memo: dict[Any, Any] | None = None) -> bool:
        """`amount` of the resource can be had for something at `at`, during `action` (its sources).
        `memo`: where to remember the free amount and the market's access while the state stays as
        it is (the rules ask the same of every amount, and `source_cost` right after)."""
        if amount <= 0:
            return True
        resource = self.rs.resources[resource_id]
        return self._free(resource, player, at, action, memo) >= amount or self._open(resource, at, action, memo)

    def source_cost(self, player: Player, resource_id: str, amount: int, at: Sequence[str],
                    action: str | None = None, memo: dict[Any, Any] | None = None) -> int:
        if amount <= 0:
            return 0
        resource = self.rs.resources[resource_id]
        missing = max(0, amount - self._free(resource, player, at, action, memo))
        if missing == 0 or not self._open(resource, at, action, memo) or resource.market is None:
            return 0  # (a resource without a market never has an open one)
        market = self.rs.markets[resource.market]
        return market_buy_cost(market, self.state.markets[market.id], missing)

    def _free(self, resource: Resource, player: Player, at: Sequence[str], action: str | None,
              memo: dict[Any, Any] | None) -> int:
        if memo is None:
            return self.free_amount(resource, player, at, action)
        key = ("free", resource.id, player.seat, action, *at)  # (`at` last: a key of any length)
        found = memo.get(key)
        if found is None:
            # What is free depends on `at` only through the connected parts of its places (`_eligible`):
            # remembered per parts too, every link end or location of a connected part counts once.
            by_parts = ("free", resource.id, player.seat, action, self.network.parts_of(at))
            found = memo.get(by_parts)
            if found is None:
                found = memo[by_parts] = self.free_amount(resource, player, at, action, memo)
            memo[key] = found
        return found

    def _open(self, resource: Resource, at: Sequence[str], action: str | None, memo: dict[Any, Any] | None) -> bool:
        if memo is None:
            return self.market_open(resource, at, action)
        key = ("open", resource.id, action, *at)
        found = memo.get(key)
        if found is None:
            by_parts = ("open", resource.id, action, self.network.parts_of(at))  # (as `_free`)
            found = memo.get(by_parts)
            if found is None:
                found = memo[by_parts] = self.market_open(resource, at, action)
            memo[key] = found
        return found

    def ranked(self, resource: Resource, player: Player, at: Sequence[str],
               action: str | None) -> list[tuple[tuple[int, int], PlacedTile]]:
        """Eligible producers with a rank: only the best rank may be used (R-COAL-02, R-COAL-06)."""
        self.network.update(self.state.links)  # a link placed by this very action counts (R-COAL-01)
        ranked: list[tuple[tuple[int, int], PlacedTile]] = []
        seen: set[str] = set()
        free_mix = resource.choice == "any_mix"
        for order, kind in enumerate(resource.sources_for(action)):
            for tile in self._producers_of_kind(kind, resource.id, player, at):
                if tile.slot.id in seen:
                    continue
                seen.add(tile.slot.id)
                distance = self.network.distance(at, tile.slot.location) or 0
                near = distance if kind == "nearest_connected_producer" else 0
                ranked.append(((0, 0) if free_mix else (order, near), tile))
        return ranked
