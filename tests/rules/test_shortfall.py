"""Shortfall: negative income a player cannot pay (rules.md §2.5, R-SHORT-01 … R-SHORT-05)."""

from __future__ import annotations

from position import card_id, hand, last_cards, link, new_game, pass_round, refused, set_player, tile, turn


def end_of_round_for(g, seat_owing: int) -> None:
    """Turn order 1, 2 in round 3: it is player 2's last action, so a pass ends the round."""
    turn(g, 2, order=[1, 2], round=3, actions_left=1)


def test_R_SHORT_01_pay_what_you_have_then_remove_a_tile_worth_half_its_cost() -> None:
    """R-SHORT-01: level -5, £2: pays £2, still owes £3; the only industry tile (Cotton Mill I,
    £12 → £6) is removed; links stay. R-SHORT-02: the £3 excess is kept."""
    g = new_game(2)
    end_of_round_for(g, 1)
    set_player(g, 1, money=2, income=5)
    tile(g, 1, "birmingham/0", "cotton", 1)
    link(g, 1, "L06")
    pass_round(g)
    p1 = g.table.player(1)
    assert g.question is None
    assert "birmingham/0" not in g.state.tiles
    assert g.state.links == {"L06": 1}
    assert (p1.money, p1.vp, p1.income_position) == (3, 0, 5)


def test_R_SHORT_02_the_player_chooses_and_stops_once_covered() -> None:
    """R-SHORT-02: level -6 with £2 leaves £4 to raise; tiles: Iron Works I (£5 → £2), Coal Mine II
    (£7 → £3), Manufacturer II (£10 → £5). The player is asked, picks the Coal Mine (£3), is asked
    again, picks the Iron Works (£2): £1 excess kept, the Manufacturer stays."""
    g = new_game(2)
    end_of_round_for(g, 1)
    set_player(g, 1, money=2, income=4)
    tile(g, 1, "dudley/1", "iron", 1, flipped=True)
    tile(g, 1, "cannock/1", "coal", 2, cubes=1)
    tile(g, 1, "birmingham/1", "manufacturer", 2)
    pass_round(g)
    assert sorted(d["answer"] for d in g.legal_actions()) == ["birmingham/1", "cannock/1", "dudley/1"]
    g.apply({"answer": "cannock/1"})
    assert sorted(d["answer"] for d in g.legal_actions()) == ["birmingham/1", "dudley/1"]
    g.apply({"answer": "dudley/1"})
    assert g.question is None
    assert sorted(g.state.tiles) == ["birmingham/1"]
    assert (g.table.player(1).money, g.table.player(1).vp) == (1, 0)


def test_R_SHORT_02_no_second_tile_once_the_first_covers_the_debt() -> None:
    """R-SHORT-02: same position; picking the Manufacturer II (£5 ≥ £4) ends it: £1 kept, the
    other two tiles stay, the round goes on."""
    g = new_game(2)
    end_of_round_for(g, 1)
    set_player(g, 1, money=2, income=4)
    tile(g, 1, "dudley/1", "iron", 1, flipped=True)
    tile(g, 1, "cannock/1", "coal", 2, cubes=1)
    tile(g, 1, "birmingham/1", "manufacturer", 2)
    pass_round(g)
    g.apply({"answer": "birmingham/1"})
    assert g.question is None
    assert sorted(g.state.tiles) == ["cannock/1", "dudley/1"]
    assert g.table.player(1).money == 1
    assert g.table.round == 4


def test_R_SHORT_03_vp_pay_for_what_is_still_missing() -> None:
    """R-SHORT-03: level -5, £1, no industry tiles, 10 VP: £4 short → 6 VP."""
    g = new_game(2)
    end_of_round_for(g, 1)
    set_player(g, 1, money=1, income=5, vp=10)
    pass_round(g)
    assert (g.table.player(1).money, g.table.player(1).vp) == (0, 6)


def test_R_SHORT_03_vp_do_not_go_below_zero() -> None:
    """R-SHORT-03: level -8, £0, no tiles, 3 VP: £8 short → 0 VP, the rest is dropped."""
    g = new_game(2)
    end_of_round_for(g, 1)
    set_player(g, 1, money=0, income=2, vp=3)
    pass_round(g)
    assert (g.table.player(1).money, g.table.player(1).vp) == (0, 0)


def test_R_SHORT_03_tiles_first_then_vp() -> None:
    """R-SHORT-01/03: level -10, £0: the Coal Mine I (£5 → £2) goes, then 8 VP of the £10 → 12 - 8 = 4 VP."""
    g = new_game(2)
    end_of_round_for(g, 1)
    set_player(g, 1, money=0, income=0, vp=12)
    tile(g, 1, "dudley/0", "coal", 1, cubes=2)
    pass_round(g)
    assert g.state.tiles == {}
    assert (g.table.player(1).money, g.table.player(1).vp) == (0, 4)


def test_R_SHORT_04_tiles_cannot_be_sold_to_pay_for_an_action() -> None:
    """R-SHORT-04: with £3 and a Coal Mine II on the board, a £5 Coal Mine build is refused; the
    tile is not turned into money."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["dudley", "coventry"])
    set_player(g, 1, money=3)
    tile(g, 1, "cannock/1", "coal", 2, cubes=3)
    rules = refused(g, {"action": "build", "card": card_id(g, 1, "dudley"), "industry": "coal",
                        "location": "dudley", "slot": "dudley/0"})
    assert "R-BUILD-10" in rules
    assert not any("answer" in d for d in g.legal_actions())
    assert (g.table.player(1).money, sorted(g.state.tiles)) == (3, ["cannock/1"])


def test_R_SHORT_04_no_tile_removed_when_income_is_payable() -> None:
    """R-SHORT-04: level -2 with £2 pays from money only (ends at £0); the tile stays."""
    g = new_game(2)
    end_of_round_for(g, 1)
    set_player(g, 1, money=2, income=8)
    tile(g, 1, "cannock/1", "coal", 2, cubes=3)
    pass_round(g)
    assert (g.table.player(1).money, sorted(g.state.tiles)) == (0, ["cannock/1"])


def test_R_SHORT_05_removing_tiles_does_not_move_income_and_they_do_not_score() -> None:
    """R-SHORT-05: in the last Canal round, level -4 with £0: the flipped Manufacturer II (£10 → £5,
    5 VP) is chosen and removed (£1 excess kept); income stays at space 6; at the era end only the
    player's flipped Coal Mine II (2 VP) scores."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=10)
    last_cards(g, {1: ["birmingham"], 2: ["dudley"]})
    set_player(g, 1, money=0, income=6, vp=0)
    tile(g, 1, "birmingham/1", "manufacturer", 2, flipped=True)
    tile(g, 1, "cannock/1", "coal", 2, flipped=True)
    pass_round(g)
    g.apply({"answer": "birmingham/1"})
    p1 = g.table.player(1)
    assert g.table.era == "rail"
    assert p1.income_position == 6
    assert p1.money == 1
    assert p1.vp == 2  # only the Coal Mine II scored (no links)
    assert sorted(g.state.tiles) == ["cannock/1"]
