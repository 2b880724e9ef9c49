"""Setup (rules.md §2.1, R-SETUP-01 … R-SETUP-12)."""

from __future__ import annotations

from collections import Counter

import pytest

from interpreter.engine.game import Game

from position import card_id, hand, market, new_game, ruleset, set_mat, tile, turn


def all_cards_in_play(g: Game) -> list:
    s = g.state
    return list(s.deck) + [c for p in s.players for c in p.hand + p.discard]


def test_R_SETUP_01_one_board_whatever_its_side() -> None:
    """R-SETUP-01: the day and night sides are the same board: 20 towns, 2 farm breweries,
    5 merchant locations, 49 industry slots, 39 link lines (components.md §1)."""
    rs = ruleset()
    kinds = Counter(loc.kind for loc in rs.locations.values())
    assert kinds == {"town": 20, "farm_brewery": 2, "merchant": 5}
    assert len(rs.slots) == 49
    assert len(rs.links) == 39
    assert sum(k.takes("canal") for k in rs.links.values()) == 31
    assert sum(k.takes("rail") for k in rs.links.values()) == 38


@pytest.mark.parametrize("players, size", [(2, 40), (3, 54), (4, 64)])
def test_R_SETUP_02_deck_size_per_player_count(players: int, size: int) -> None:
    """R-SETUP-02: 40/54/64 cards with 2/3/4 players (hands + setup discards + draw deck)."""
    g = new_game(players)
    cards = all_cards_in_play(g)
    assert len(cards) == size
    assert len({c.id for c in cards}) == size


def test_R_SETUP_02_cards_marked_for_more_players_are_removed() -> None:
    """R-SETUP-02: 2P has no blue/teal location cards and no Cotton/Manufacturer cards;
    3P keeps 1 Uttoxeter card and no Belper/Derby cards."""
    two = Counter(c.face for c in all_cards_in_play(new_game(2)))
    for face in ("leek", "stoke_on_trent", "stone", "uttoxeter", "belper", "derby", "cotton_manufacturer"):
        assert two[face] == 0
    assert (two["birmingham"], two["coalbrookdale"], two["brewery"], two["iron_works"]) == (3, 3, 5, 4)
    three = Counter(c.face for c in all_cards_in_play(new_game(3)))
    assert (three["uttoxeter"], three["belper"], three["derby"], three["leek"]) == (1, 0, 0, 2)
    assert three["cotton_manufacturer"] == 6
    four = Counter(c.face for c in all_cards_in_play(new_game(4)))
    assert (four["uttoxeter"], four["belper"], four["derby"], four["cotton_manufacturer"]) == (2, 2, 3, 8)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R_SETUP_03_wild_cards_are_beside_the_deck(players: int) -> None:
    """R-SETUP-03: 4 Wild Location + 4 Wild Industry face up, none in the deck or in hands."""
    g = new_game(players)
    assert {k: len(v) for k, v in g.state.wild_piles.items()} == {"wild_location": 4, "wild_industry": 4}
    assert not any(c.wild for c in all_cards_in_play(g))


@pytest.mark.parametrize("players, spaces, tiles", [
    (2, {"shrewsbury": 1, "gloucester": 2, "oxford": 2},
     {"cotton": 1, "manufacturer": 1, "wild": 1, "blank": 2}),
    (3, {"shrewsbury": 1, "gloucester": 2, "oxford": 2, "warrington": 2},
     {"cotton": 1, "manufacturer": 1, "wild": 1, "blank": 3, "pottery": 1}),
    (4, {"shrewsbury": 1, "gloucester": 2, "oxford": 2, "warrington": 2, "nottingham": 2},
     {"cotton": 2, "manufacturer": 2, "wild": 1, "blank": 3, "pottery": 1}),
])
def test_R_SETUP_04_merchant_tiles_per_player_count(players: int, spaces: dict, tiles: dict) -> None:
    """R-SETUP-04: 5 tiles at 2P (none at Warrington, Nottingham), 7 at 3P (none at Nottingham), 9 at 4P."""
    for seed in (1, 2, 3):
        g = new_game(players, seed)
        assert Counter(m.location for m in g.state.merchants) == spaces
        assert Counter(m.tile for m in g.state.merchants) == tiles


@pytest.mark.parametrize("players, barrels", [(2, 3), (3, 4), (4, 6)])
def test_R_SETUP_05_one_barrel_beside_each_non_blank_merchant(players: int, barrels: int) -> None:
    """R-SETUP-05: a barrel beside each non-blank tile (3/4/6 barrels), none beside a blank tile."""
    g = new_game(players)
    assert sum(m.has_beer for m in g.state.merchants) == barrels
    for m in g.state.merchants:
        assert m.has_beer == (m.tile != "blank")


def test_R_SETUP_06_markets_start_with_13_coal_and_8_iron() -> None:
    """R-SETUP-06: 13 coal (one £1 space empty), 8 iron (both £1 spaces empty): the first coal costs
    £1, two coal £1+£2; the first iron costs £2, two iron £4."""
    g = new_game(2)
    assert g.state.markets == {"coal": 13, "iron": 8}
    me = g.table.me
    assert g.table.source_cost(me, "coal", 1, ["oxford"]) == 1
    assert g.table.source_cost(me, "coal", 2, ["oxford"]) == 3
    assert g.table.source_cost(me, "coal", 13, ["oxford"]) == 1 + 2 * (2 + 3 + 4 + 5 + 6 + 7)
    assert g.table.source_cost(me, "iron", 1, []) == 2
    assert g.table.source_cost(me, "iron", 2, []) == 4
    assert g.table.source_cost(me, "iron", 8, []) == 2 * (2 + 3 + 4 + 5)


def test_R_SETUP_07_general_supply_is_unlimited() -> None:
    """R-SETUP-07: with more cubes on the board than the 30 coal pieces in the box, a new Coal Mine IV
    still gets its 5 cubes (no merchant connection: it keeps them)."""
    g = new_game(4)
    turn(g, 1, order=[1, 2, 3, 4], round=2)
    mines = ["cannock/1", "dudley/0", "belper/1", "tamworth/0", "tamworth/1", "nuneaton/1"]
    for n, slot in enumerate(mines):
        tile(g, 2 + n % 3, slot, "coal", 4, cubes=5)  # 30 cubes on the board
    market(g, coal=14)  # and a full market
    hand(g, 1, ["redditch"])
    set_mat(g, 1, "coal", 4)
    g.table.player(1).money = 30
    g.apply({"action": "build", "card": card_id(g, 1, "redditch"), "industry": "coal",
             "location": "redditch", "slot": "redditch/0"})
    # Coal Mine IV needs 1 iron: from the market (£2); the mine keeps its 5 cubes.
    assert g.state.tiles["redditch/0"].cubes == 5
    assert sum(t.cubes for t in g.state.tiles.values()) == 35
    assert g.table.player(1).money == 30 - 10 - 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R_SETUP_08_player_area(players: int) -> None:
    """R-SETUP-08: £17, 14 link tiles, 45 industry tiles (11/7/4/11/5/7) on the mat, nothing spent."""
    g = new_game(players)
    per_industry = {"cotton": 11, "coal": 7, "iron": 4, "manufacturer": 11, "pottery": 5, "brewery": 7}
    for p in g.state.players:
        assert (p.money, p.links_left, p.spent) == (17, 14, 0)
        assert {i: g.table.tiles_left(p, i) for i in per_industry} == per_industry
        assert sum(g.table.tiles_left(p, i) for i in per_industry) == 45
        assert g.table.lowest_tile(p, "manufacturer").level == 1


def test_R_SETUP_09_vp_zero_income_space_10() -> None:
    """R-SETUP-09: VP marker on 0, income marker on space 10 = income level 0."""
    g = new_game(3)
    for p in g.state.players:
        assert (p.vp, p.income_position, g.table.income_level(p)) == (0, 10, 0)


@pytest.mark.parametrize("players, deck_left", [(2, 40 - 18), (3, 54 - 27), (4, 64 - 36)])
def test_R_SETUP_10_eight_cards_and_one_face_down_discard(players: int, deck_left: int) -> None:
    """R-SETUP-10: each player holds 8 cards and has 1 card on their discard pile."""
    g = new_game(players)
    for p in g.state.players:
        assert (len(p.hand), len(p.discard)) == (8, 1)
    assert len(g.state.deck) == deck_left


def test_R_SETUP_11_turn_order_is_a_random_permutation() -> None:
    """R-SETUP-11: the character tiles are shuffled: every order is a permutation of the seats,
    and the seed decides it (not always seat order)."""
    orders = set()
    for seed in range(12):
        g = new_game(4, seed)
        assert sorted(g.state.turn_order) == [1, 2, 3, 4]
        assert g.state.turn_index == 0
        assert g.table.me.seat == g.state.turn_order[0]
        orders.add(tuple(g.state.turn_order))
    assert len(orders) > 1
    assert orders != {(1, 2, 3, 4)}


def pass_to_the_end(g: Game) -> list[tuple[str, int]]:
    """Pass with the first card of every hand until the game ends; the (era, round) of each round end."""
    while not g.is_over:
        g.apply({"action": "pass", "card": g.table.me.hand[0].id})
    return [(e["era"], e["round"]) for e in g.state.log if e["event"] == "end of round"]


@pytest.mark.parametrize("players, rounds", [(2, 10), (3, 9), (4, 8)])
def test_R_SETUP_12_rounds_per_era(players: int, rounds: int) -> None:
    """R-SETUP-12: exactly 10/9/8 rounds in each era with 2/3/4 players."""
    ends = pass_to_the_end(new_game(players))
    assert ends == [("canal", r) for r in range(1, rounds + 1)] + [("rail", r) for r in range(1, rounds + 1)]
