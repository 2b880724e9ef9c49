"""The sizes of one ruleset's games, and what the condition-language checker's bound on the work of
one evaluation (brass_dsl/cost.py) reads of them: the most items of each kind of list, and the cost
of the names and functions whose own work grows with the board."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from brass_dsl.registry import Cost, Registry


@dataclass(frozen=True)
class Sizes:
    """How long the lists of a ruleset's games can be, from the validated ruleset. Eras and
    merchants are read from the data: the registry is built before they are compiled."""

    players: int
    player_counts: int
    locations: int
    links: int
    slots: int
    slots_per_location: int
    slot_icons: int
    link_ends: int
    links_per_location: int
    eras: int
    network_options: int
    mat_tiles: int
    cards: int
    card_kinds: int
    hand: int
    merchant_spaces: int
    merchants: int
    stack_tiles: int
    source_kinds: int
    income_positions: int

    @classmethod
    def of(cls, rs: Any) -> Sizes:
        locations, links, data = rs.locations.values(), rs.links.values(), rs.data
        eras = data.get("eras", [])
        spaces = [m["spaces"] for m in data.get("merchants", {}).values()]
        return cls(
            players=max(rs.players, default=0),
            player_counts=len(rs.players),
            locations=len(rs.locations),
            links=len(rs.links),
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
            card_kinds=len(rs.cards),
            # a hand is dealt or refilled up to hand_size; only a wild card taken adds one more
            hand=rs.setup.hand_size + sum(wild.count for wild in rs.wild_cards.values()),
            merchant_spaces=max((sum(table.get(p, 0) for table in spaces) for p in rs.players), default=0),
            merchants=len(spaces),
            stack_tiles=max((len(s.pile(p)) for s in rs.stacks.values() for p in rs.players), default=0),
            source_kinds=max((len(kinds) for r in rs.resources.values()
                              for kinds in (r.sources, *r.sources_in.values())), default=0),
            income_positions=rs.income.positions,
        )


def costs(sizes: Sizes) -> dict[str, Cost]:
    """What one read or call costs, in units of the bound (about the work of one operator), for the
    names and functions of the vocabulary whose work grows with the board; all others cost 1. A cost
    counts the work done when nothing is remembered yet (the network's distances, a player's network
    are remembered until the board changes), so it is an upper bound."""
    s = sizes
    network = f"one search of the network ({s.locations} locations and {s.links} links)"
    sourcing = Cost(1 + s.source_kinds * s.slots, s.slots + s.locations + s.links,
                    f"a pass over the tiles for each of up to {s.source_kinds} kinds of source ({s.slots} slots each), "
                    f"and for each location of `at` its distance to each tile ({s.slots}) and {network}")
    tiles_and_links = _work(s.slots + s.links, f"a pass over the tiles ({s.slots} slots) and the links ({s.links})")
    location_slots = _work(s.slots_per_location, f"a pass over the location's slots ({s.slots_per_location})")
    network_options = _work(s.network_options, f"a pass over the era's Network options ({s.network_options})")
    return {
        "connected": _work(s.locations + s.links, network),
        "in_network": tiles_and_links,
        "has_board_tiles": tiles_and_links,
        "cubes_available": _work(s.slots, f"a pass over the tiles ({s.slots} slots)"),
        "can_source": sourcing,
        "source_cost": sourcing,
        "links_at": _work(s.links, f"a pass over the links ({s.links})"),
        "tiles_at": location_slots,
        "link_icons_at": location_slots,
        "board_tiles": _work(s.slots, f"the tiles sorted in board order ({s.slots} slots)"),
        "network_step": network_options,
        "network_row": network_options,
        "top_position": _work(s.income_positions, f"a pass over the income track ({s.income_positions} positions)"),
        "tile_spec": _work(s.mat_tiles, f"a pass over the industry's levels (at most {s.mat_tiles})"),
        "deck_cards": _work(s.player_counts * s.card_kinds, f"the cards counted for each player count "
                            f"({s.player_counts} x {s.card_kinds} kinds of card)"),
        "merchant_spaces": _work(s.player_counts * s.merchants, f"the spaces counted for each player count "
                                 f"({s.player_counts} x {s.merchants} merchants)"),
    }


def _work(steps: int, why: str) -> Cost:
    """The cost of a call that takes `steps` steps (and 1 for the call)."""
    return Cost(1 + steps, 0, why)


def declare_bounds(registry: Registry, rs: Any, sizes: Sizes) -> None:
    """State in `registry` the most items of any list of each type (for nested aggregates; lists of
    text or numbers, in scenarios, count as long as the longest of these) and the costs above."""
    for type_name, length in (("player", sizes.players), ("location", sizes.locations), ("link", sizes.links),
                              ("industry", len(rs.industries)), ("resource", len(rs.resources)),
                              ("era", sizes.eras), ("slot", sizes.slots), ("tile", sizes.slots),
                              ("mat_tile", sizes.mat_tiles), ("card", sizes.cards),
                              ("merchant_tile", sizes.merchant_spaces), ("network_option", sizes.network_options),
                              ("market_terms", len(rs.markets)), ("track", len(rs.tracks)),
                              ("stack", len(rs.stacks))):
        record = registry.lookup_type(type_name)
        assert record is not None, type_name  # every one is defined by the vocabulary
        registry.set_max_length(record, length)
    for name, cost in costs(sizes).items():
        registry.set_cost(name, cost)
