"""The variants shipped as rulesets (rulesets/tiebreak-by-level, summary-es, what-if).

Each variant extends the full game and changes it only through YAML. Each test builds
one concrete position twice, in the full game and in the variant (positions are built
by editing a fresh game's state with the helpers of tests/rules/position.py), and
shows the exact difference.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))

from interpreter.engine.game import Game
from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.cli.main import main

from position import (
    card_id,
    cubes,
    era,
    hand,
    last_cards,
    link,
    links_and_tiles_for_link_scoring,
    merchant,
    merchants,
    pass_round,
    refused,
    set_mat,
    set_player,
    tile,
    turn,
)

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"
VARIANTS = ("tiebreak-by-level", "summary-es", "what-if")


def new(ruleset: str, players: int = 2, seed: int = 1) -> Game:
    return Game.new(load_ruleset(RULESETS / ruleset), players, seed)


# -- every variant -------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_checks_and_extends_birmingham(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(RULESETS / variant)]) == 0
    assert "extends:    birmingham <- " + variant in capsys.readouterr().out
    ruleset = load_ruleset(RULESETS / variant)
    assert [Path(f).name for f in ruleset.folders] == ["birmingham", variant]


@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_plays_with_invariants_checked(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`brass simulate <variant> --players 4 --games 2 --seed 1 --check` finishes."""
    args = ["simulate", str(RULESETS / variant), "--players", "4", "--games", "2", "--seed", "1", "--check"]
    assert main(args) == 0
    assert "2 game(s), 4 players" in capsys.readouterr().out


# -- tiebreak-by-level (C-10) ----------------------------------------------------------------

def final_round(ruleset: str, income_1: int = 12) -> Game:
    """The last Rail round: empty deck, one card each; 30 VP each; player 1 on income space 12 (by
    default) with £5, player 2 on space 11 with £50: spaces 11 and 12 are both income level 1."""
    g = new(ruleset)
    era(g, "rail", round=10)
    turn(g, 1, order=[1, 2])
    last_cards(g, {1: ["birmingham"], 2: ["dudley"]})
    set_player(g, 1, vp=30, income=income_1, money=5)
    set_player(g, 2, vp=30, income=11, money=50)
    pass_round(g)
    assert g.is_over
    return g


def test_tiebreak_base_game_compares_the_track_space() -> None:
    g = final_round("birmingham")
    assert [(s["place"], s["seat"]) for s in g.standings()] == [(1, 1), (2, 2)]
    assert g.standings()[0]["keys"] == {"VP": 30, "income track space": 12, "money": 5}


def test_tiebreak_by_level_same_level_then_money_decides() -> None:
    """Both are on income level 1, so money decides: £50 beats £5 and player 2 wins."""
    g = final_round("tiebreak-by-level")
    assert [(s["place"], s["seat"]) for s in g.standings()] == [(1, 2), (2, 1)]
    assert [s["keys"] for s in g.standings()] == [
        {"VP": 30, "income level": 1, "money": 50},
        {"VP": 30, "income level": 1, "money": 5},
    ]


def test_tiebreak_by_level_a_higher_level_still_wins() -> None:
    """Spaces 14 (level 2) against 11 (level 1): the higher level wins whatever the money."""
    g = final_round("tiebreak-by-level", income_1=14)
    assert [(s["seat"], s["keys"]["income level"]) for s in g.standings()] == [(1, 2), (2, 1)]


# -- summary-es: C-01 link scoring ----------------------------------------------------------------

def links_at_canal_end(ruleset: str) -> Game:
    """The position of test_era's R-ERA-02 test, then the end of the Canal Era.

    Player 1: L04 Birmingham–Dudley and L06 Birmingham–Oxford (both touch Birmingham); player 2:
    L36 Stoke–Warrington and L30 Kidderminster–Worcester–farm (no location shared). Flipped tiles:
    player 2's Manufacturer I at Birmingham, player 1's Coal Mine I at Dudley and Brewery I at the
    south farm, player 2's Cotton Mill II at Worcester; player 1's unflipped Cotton Mill I at Birmingham.
    """
    g = new(ruleset)
    turn(g, 1, order=[1, 2], round=10)
    last_cards(g, {1: ["birmingham"], 2: ["dudley"]})
    links_and_tiles_for_link_scoring(g)
    pass_round(g)
    assert g.table.era == "rail" and g.state.links == {}
    return g


def link_scores(g: Game) -> dict[str, tuple[int, dict[str, int]]]:
    scoring = next(e for e in g.state.log if e["event"] == "link scoring")
    return {x["link"]: (x["vp"], x["icons"]) for x in scoring["links"]}


def test_summary_es_base_links_score_link_icons() -> None:
    """Full game: links 4 + 4 and 2 + 4; tiles 5 and 8: totals 13 and 14."""
    g = links_at_canal_end("birmingham")
    assert {k: vp for k, (vp, _) in link_scores(g).items()} == {"L04": 4, "L06": 4, "L36": 2, "L30": 4}
    assert (g.table.player(1).vp, g.table.player(2).vp) == (13, 14)


def test_summary_es_links_score_locations_holding_another_own_link() -> None:
    """Spanish summary: Birmingham holds player 1's other link, so L04 and L06 score 1 each (their
    Dudley and Oxford ends 0); player 2's links share no location: 0. Tiles are unchanged (5 and 8):
    totals 7 and 8 instead of 13 and 14."""
    g = links_at_canal_end("summary-es")
    assert link_scores(g) == {
        "L04": (1, {"birmingham": 1, "dudley": 0}),
        "L06": (1, {"birmingham": 1, "oxford": 0}),
        "L30": (0, {"kidderminster": 0, "worcester": 0, "farm_south": 0}),
        "L36": (0, {"stoke_on_trent": 0, "warrington": 0}),
    }
    assert (g.table.player(1).vp, g.table.player(2).vp) == (7, 8)
    assert (g.table.player(1).links_left, g.table.player(2).links_left) == (14, 14)


def test_summary_es_an_opponents_link_does_not_count() -> None:
    """Player 2's link L09 Birmingham–Walsall touches Birmingham too, but it is not player 1's:
    player 1's lone L04 scores 0; L09 scores 0 as well (player 2 has no other link)."""
    g = new("summary-es")
    turn(g, 1, order=[1, 2], round=10)
    last_cards(g, {1: ["birmingham"], 2: ["dudley"]})
    link(g, 1, "L04")
    link(g, 2, "L09")
    pass_round(g)
    assert {k: vp for k, (vp, _) in link_scores(g).items()} == {"L04": 0, "L09": 0}


# -- summary-es: C-02 beer from any brewery ------------------------------------------------------

def selling(ruleset: str) -> Game:
    """Player 1 sells a Manufacturer I at Birmingham (1 beer) to Oxford (linked by player 2's L06), with
    no merchant barrel; the only beer is player 2's Brewery I at Walsall, NOT connected to Birmingham."""
    g = new(ruleset)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    merchants(g, {"oxford/0": "manufacturer"}, others="blank")
    merchant(g, "oxford/0", "manufacturer", beer=False)
    link(g, 2, "L06")
    tile(g, 1, "birmingham/1", "manufacturer", 1)
    tile(g, 2, "walsall/1", "brewery", 1)
    return g


def sale(g: Game) -> dict:
    return {"action": "sell", "card": card_id(g, 1, "dudley"),
            "sales": [{"tile": "birmingham/1", "merchant": "oxford/0", "merchant_beer": False}]}


def test_summary_es_base_unconnected_opponent_brewery_is_refused() -> None:
    g = selling("birmingham")
    assert "R-SELL-06" in refused(g, sale(g))


def test_summary_es_any_opponent_brewery_without_connection() -> None:
    """Spanish summary: the Walsall barrel is taken; the Brewery flips (player 2's income 10 → 14)
    and the Manufacturer I flips (player 1's income 10 → 15)."""
    g = selling("summary-es")
    g.apply(sale(g))
    assert (cubes(g, "walsall/1"), g.state.tiles["walsall/1"].flipped) == (0, True)
    assert g.state.tiles["birmingham/1"].flipped
    assert (g.table.player(1).income_position, g.table.player(2).income_position) == (15, 14)


def test_summary_es_own_brewery_still_first_choice_and_flipped_ones_hold_nothing() -> None:
    """A flipped Brewery has no beer, in the Spanish reading too: with only player 2's flipped
    Brewery the sale is refused."""
    g = new("summary-es")
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    merchants(g, {"oxford/0": "manufacturer"}, others="blank")
    merchant(g, "oxford/0", "manufacturer", beer=False)
    link(g, 2, "L06")
    tile(g, 1, "birmingham/1", "manufacturer", 1)
    tile(g, 2, "walsall/1", "brewery", 1, flipped=True)
    assert "R-SELL-06" in refused(g, sale(g))


# -- what-if --------------------------------------------------------------------------------------

def canal_turn(ruleset: str) -> Game:
    g = new(ruleset)
    era(g, "canal", round=2)
    turn(g, 1, order=[1, 2])
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    set_player(g, 1, money=17)
    tile(g, 1, "birmingham/1", "manufacturer", 1, flipped=True)
    return g


@pytest.mark.parametrize("ruleset, money", [("birmingham", 14), ("what-if", 13)])
def test_what_if_canal_link_costs_4(ruleset: str, money: int) -> None:
    """Birmingham–Dudley in the Canal Era: £17 → £14 in the full game, → £13 in the what-if."""
    g = canal_turn(ruleset)
    g.apply({"action": "network", "card": card_id(g, 1, "birmingham"), "links": [{"link": "L04"}]})
    assert (g.state.links, g.table.player(1).money, g.table.player(1).spent) == ({"L04": 1}, money, 17 - money)


def test_what_if_canal_link_refused_with_3() -> None:
    """£3 buys a canal link in the full game, not in the what-if (R-LINK-02)."""
    g = canal_turn("what-if")
    set_player(g, 1, money=3)
    action = {"action": "network", "card": card_id(g, 1, "birmingham"), "links": [{"link": "L04"}]}
    assert refused(g, action) == ["R-LINK-02"]


@pytest.mark.parametrize("ruleset, money", [("birmingham", 47), ("what-if", 42)])
def test_what_if_loan_gives_25(ruleset: str, money: int) -> None:
    """A loan from £17 on income level 0 (space 10): £47 in the full game, £42 in the what-if; the
    marker drops 3 levels to space 7 in both."""
    g = new(ruleset)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley"])
    g.apply({"action": "loan", "card": card_id(g, 1, "birmingham")})
    assert (g.table.player(1).money, g.table.player(1).income_position) == (money, 7)


def rail_build(ruleset: str) -> tuple[Game, dict]:
    """Rail Era: player 1 has a Coal Mine II at Coalbrookdale and builds Iron Works II there."""
    g = new(ruleset)
    era(g, "rail", round=2)
    turn(g, 1, order=[1, 2])
    hand(g, 1, ["coalbrookdale", "dudley"])
    set_mat(g, 1, "iron", 2)
    tile(g, 1, "coalbrookdale/2", "coal", 2)
    action = {"action": "build", "card": card_id(g, 1, "coalbrookdale"), "industry": "iron",
              "location": "coalbrookdale", "slot": "coalbrookdale/1"}
    return g, action


def test_what_if_base_rail_era_allows_two_own_tiles_in_a_location() -> None:
    g, action = rail_build("birmingham")
    g.apply(action)
    assert [t.owner.seat for t in g.table.tiles_at("coalbrookdale")] == [1, 1]
    assert g.table.player(1).money == 17 - 7 + 2


def test_what_if_one_own_tile_per_location_in_the_rail_era_too() -> None:
    g, action = rail_build("what-if")
    assert refused(g, action) == ["R-BUILD-12"]
    failure = next(f for f in g.explain(action)["failures"] if f.rule == "R-BUILD-12")
    assert "only one industry tile in each location" in failure.message
    assert [t.owner.seat for t in g.table.tiles_at("coalbrookdale")] == [1]


def test_what_if_an_opponents_tile_does_not_count() -> None:
    """The limit is on the player's own tiles: beside player 2's Coal Mine the build is allowed."""
    g = new("what-if")
    era(g, "rail", round=2)
    turn(g, 1, order=[1, 2])
    hand(g, 1, ["coalbrookdale", "dudley"])
    set_mat(g, 1, "iron", 2)
    tile(g, 2, "coalbrookdale/2", "coal", 2)
    g.apply({"action": "build", "card": card_id(g, 1, "coalbrookdale"), "industry": "iron",
             "location": "coalbrookdale", "slot": "coalbrookdale/1"})
    assert sorted(t.owner.seat for t in g.table.tiles_at("coalbrookdale")) == [1, 2]


def test_what_if_patches_exactly_one_requirement() -> None:
    """`$patch` with `key: rule` changed only the R-BUILD-12 requirement of Build, in place."""
    base, variant = load_ruleset("birmingham").data, load_ruleset(RULESETS / "what-if").data
    before, after = base["actions"]["build"]["requires"], variant["actions"]["build"]["requires"]
    assert len(before) == len(after)
    changed = [n for n, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert [after[n]["rule"] for n in changed] == ["R-BUILD-12"]
    assert after[changed[0]]["check"] == "not any(t in tiles_at(location) where t.owner == me and t.slot != slot)"
