"""End of an era (rules.md §2.20, R-ERA-01 … R-ERA-09)."""

from __future__ import annotations

from collections import Counter

from position import (
    card_id,
    era,
    last_cards,
    links_and_tiles_for_link_scoring,
    merchant,
    merchants,
    new_game,
    pass_round,
    set_player,
    tile,
    turn,
)


def last_canal_round(players: int = 2, cards: dict[int, list[str]] | None = None):
    """The last Canal round: empty deck, one card each, seat order 1, 2, … ; player 1 to act."""
    g = new_game(players)
    turn(g, 1, order=list(range(1, players + 1)), round=10)
    last_cards(g, cards or {1: ["birmingham"], 2: ["dudley"]})
    return g


def test_R_ERA_01_the_era_ends_after_the_round_in_which_the_last_cards_are_played() -> None:
    """R-ERA-01: player 1 plays its last card: still the Canal Era; player 2 plays its last two
    cards: the round ends and with it the era (Rail Era, round 1)."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=10)
    last_cards(g, {1: ["birmingham"], 2: ["dudley", "coventry"]})
    g.apply({"action": "pass", "card": card_id(g, 1, "birmingham")})
    assert (g.table.era, g.table.me.seat) == ("canal", 2)
    g.apply({"action": "pass", "card": card_id(g, 2, "dudley")})
    assert g.table.era == "canal"
    g.apply({"action": "pass", "card": card_id(g, 2, "coventry")})
    assert (g.table.era, g.table.round) == ("rail", 1)


def test_R_ERA_01_not_while_a_player_still_holds_cards() -> None:
    """R-ERA-01: deck empty, but player 2 still holds a card after the round: the era goes on (round 11),
    player 1 (no cards) is skipped, and it ends after player 2's last card."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=10)
    last_cards(g, {1: ["birmingham"], 2: ["dudley", "coventry", "stafford"]})
    pass_round(g)
    assert (g.table.era, g.table.round, g.table.me.seat, len(g.table.player(2).hand)) == ("canal", 11, 2, 1)
    pass_round(g)
    assert (g.table.era, g.table.round) == ("rail", 1)


def test_R_ERA_02_links_score_the_link_icons_of_their_locations() -> None:
    """R-ERA-02: player 1: Birmingham–Dudley 2 (flipped Manufacturer I) + 0 (unflipped Cotton I) + 2
    (flipped Coal Mine I) = 4; Birmingham–Oxford 2 + 2 (merchant) = 4. Player 2: Stoke–Warrington
    0 + 2 (merchant without a tile at 2P) = 2; Kidderminster–Worcester–farm 0 + 2 (flipped Cotton II)
    + 2 (flipped Brewery I) = 4. Then tiles: player 1 Coal I 1 + Brewery I 4 = 5; player 2
    Manufacturer I 3 + Cotton II 5 = 8. Totals 13 and 14; links removed, 14 link tiles each again."""
    g = last_canal_round()
    links_and_tiles_for_link_scoring(g)
    pass_round(g)
    assert g.table.era == "rail"
    assert (g.table.player(1).vp, g.table.player(2).vp) == (13, 14)
    assert g.state.links == {}
    assert (g.table.player(1).links_left, g.table.player(2).links_left) == (14, 14)
    scoring = next(e for e in g.state.log if e["event"] == "link scoring")
    assert {x["link"]: x["vp"] for x in scoring["links"]} == {"L04": 4, "L06": 4, "L36": 2, "L30": 4}


def test_R_ERA_03_flipped_tiles_score_their_vp_unflipped_score_nothing() -> None:
    """R-ERA-03: player 1's flipped Cotton Mill III (9) and Iron Works II (5) score 14; the unflipped
    Manufacturer II scores 0; player 2's flipped Coal Mine II scores 2 for player 2."""
    g = last_canal_round()
    tile(g, 1, "worcester/0", "cotton", 3, flipped=True)
    tile(g, 1, "dudley/1", "iron", 2, flipped=True)
    tile(g, 1, "birmingham/1", "manufacturer", 2)
    tile(g, 2, "cannock/1", "coal", 2, flipped=True)
    pass_round(g)
    assert (g.table.player(1).vp, g.table.player(2).vp) == (14, 2)


def test_R_ERA_04_vp_beyond_100_keep_counting() -> None:
    """R-ERA-04: 98 VP + a flipped Cotton Mill IV (12) = 110."""
    g = last_canal_round()
    set_player(g, 1, vp=98)
    tile(g, 1, "worcester/0", "cotton", 4, flipped=True)
    pass_round(g)
    assert g.table.player(1).vp == 110


def test_R_ERA_05_level_1_tiles_leave_the_board_at_the_end_of_the_canal_era() -> None:
    """R-ERA-05: Coal Mine I (2 cubes) and a flipped Cotton Mill I leave; Brewery II (1 barrel,
    unflipped) and a flipped Iron Works II stay as they are; the mats are untouched."""
    g = last_canal_round()
    tile(g, 1, "dudley/0", "coal", 1)
    tile(g, 2, "worcester/0", "cotton", 1, flipped=True)
    tile(g, 1, "stafford/0", "brewery", 2)
    tile(g, 2, "coalbrookdale/1", "iron", 2, flipped=True)
    mats = [dict(p.mat_used) for p in g.state.players]
    pass_round(g)
    assert g.table.era == "rail"
    assert sorted(g.state.tiles) == ["coalbrookdale/1", "stafford/0"]
    brewery, works = g.state.tiles["stafford/0"], g.state.tiles["coalbrookdale/1"]
    assert (brewery.flipped, brewery.cubes, works.flipped, works.cubes) == (False, 1, True, 0)
    assert [dict(p.mat_used) for p in g.state.players] == mats
    assert (g.table.player(1).vp, g.table.player(2).vp) == (0, 5 + 5)  # scored before removal: Cotton I 5, Iron II 5


def test_R_ERA_05_only_at_the_end_of_the_canal_era() -> None:
    """R-ERA-05: at the end of the Rail Era (game end) level 1 tiles are not removed (Pottery I stays)."""
    g = new_game(2)
    era(g, "rail", round=10)
    turn(g, 1, order=[1, 2])
    last_cards(g, {1: ["birmingham"], 2: ["dudley"]})
    tile(g, 1, "stafford/1", "pottery", 1, flipped=True)
    pass_round(g)
    assert g.is_over
    assert sorted(g.state.tiles) == ["stafford/1"]
    assert g.table.player(1).vp == 10


def test_R_ERA_06_merchant_beer_refilled_beside_non_blank_tiles() -> None:
    """R-ERA-06: all barrels used during the Canal Era: after it, the 3 non-blank merchants have one
    again, the 2 blank ones none."""
    g = last_canal_round()
    merchants(g, {"oxford/0": "cotton", "gloucester/0": "wild", "shrewsbury/0": "manufacturer"})
    for m in list(g.state.merchants):
        merchant(g, m.id, m.tile, beer=False)
    pass_round(g)
    assert {m.id: m.has_beer for m in g.state.merchants} == {
        "shrewsbury/0": True, "gloucester/0": True, "gloucester/1": False, "oxford/0": True, "oxford/1": False}


def test_R_ERA_07_discard_piles_become_the_new_deck_wild_cards_stay() -> None:
    """R-ERA-07: at 2 players the 40 cards (all in discard piles, including the setup cards) form the
    new deck: 40 - 16 dealt = 24 left; the Wild Location played last goes back to its pile (4 and 4)."""
    g = last_canal_round(cards={1: ["wild_location"], 2: ["dudley"]})
    pass_round(g)
    s = g.state
    assert (len(s.deck), len(g.table.player(1).hand), len(g.table.player(2).hand)) == (24, 8, 8)
    assert (g.table.player(1).discard, g.table.player(2).discard) == ([], [])
    assert {k: len(v) for k, v in s.wild_piles.items()} == {"wild_location": 4, "wild_industry": 4}
    cards = s.deck + g.table.player(1).hand + g.table.player(2).hand
    assert not any(c.wild for c in cards)
    assert len({c.id for c in cards}) == 40
    assert Counter(c.face for c in cards)["birmingham"] == 3


def test_R_ERA_08_new_hands_of_8_rail_era_in_the_last_turn_order() -> None:
    """R-ERA-08: player 1 spent £5 in the last Canal round, player 2 £0: the Rail Era starts with
    player 2, then player 1, each holding 8 cards, 2 actions."""
    g = last_canal_round()
    set_player(g, 1, spent=5)
    pass_round(g)
    assert (g.table.era, g.table.round, g.state.turn_order, g.table.me.seat, g.state.actions_left) == \
        ("rail", 1, [2, 1], 2, 2)
    assert [len(p.hand) for p in g.state.players] == [8, 8]


def test_R_ERA_09_level_2_tiles_score_in_both_eras() -> None:
    """R-ERA-09: a flipped Cotton Mill II (5 VP) scores at the end of the Canal Era (5) and again at the
    end of the Rail Era (10)."""
    g = last_canal_round()
    tile(g, 1, "worcester/0", "cotton", 2, flipped=True)
    pass_round(g)
    assert (g.table.era, g.table.player(1).vp) == ("rail", 5)
    turn(g, 1, order=[1, 2], round=10)
    last_cards(g, {1: ["birmingham"], 2: ["dudley"]})
    pass_round(g)
    assert g.is_over
    assert g.table.player(1).vp == 10
