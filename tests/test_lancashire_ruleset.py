"""The Brass: Lancashire ruleset (rulesets/lancashire, issue 16): it loads and lints clean, sets up
the numbers of the reference (components.md §3-§7, rules.md L-SETUP-*), its Lancashire-only
actions do what the rules say (Port and Distant Market sales, the Double Action Build, £10-£30
loans, locked Shipyards), and random bots play whole games at 2, 3 and 4 players with every
invariant checked."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))

from interpreter.engine.game import Game
from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.cli.main import main

from position import (
    card_id,
    deck,
    era,
    hand,
    last_cards,
    link,
    market,
    on_top,
    pass_round,
    refused,
    set_player,
    tile,
    turn,
)

DECK = {2: 40, 3: 54, 4: 64}                      # L-SETUP-02 (components.md §5, O-2)
DM_TILES = {2: [1, 2, 2, 2, 3, 3, 3, 4],         # L-SETUP-02, L-SETUP-05 (components.md §3.2, O-3)
            3: [0, 1, 2, 2, 2, 2, 3, 3, 3, 4],
            4: [0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4]}
ROUNDS = {2: 10, 3: 9, 4: 8}                      # L-SETUP-11


def lancashire() -> Ruleset:
    return load_ruleset("lancashire")


def test_brass_check_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "lancashire"]) == 0
    out = capsys.readouterr().out
    assert "Brass: Lancashire (lancashire 1.0.0): OK" in out
    assert "locations:  25 (6 external, 19 town)" in out and "slots:      43" in out
    assert "links:      36 (23 canal, 35 rail)" in out
    assert "tiles:      37 per player (12 cotton_mill, 7 coal_mine, 4 iron_works, 8 port, 6 shipyard)" in out
    assert "deck:       40 cards at 2p, 54 cards at 3p, 64 cards at 4p\n" in out  # no wild cards
    assert "rules:      124 rule IDs in the index, 2 not implemented (L-CLASSIC-02, L-CLASSIC-03)" in out
    assert "rules:      124 rule IDs in the index" in out


def test_brass_lint_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", "lancashire"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_it_is_its_own_game() -> None:
    """Not a variant of Birmingham: its own board, industries and rule index (L-* IDs only)."""
    r = load_ruleset("lancashire")
    assert r.name == "lancashire"
    assert sorted(r.industries) == ["coal_mine", "cotton_mill", "iron_works", "port", "shipyard"]
    assert sorted(r.resources) == ["coal", "iron"]
    assert all(rid.startswith("L-") for rid in r.rules) and len(r.rules) == 124
    assert sorted(r.actions) == ["build", "develop", "double_build", "loan", "network", "pass", "sell"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup(players: int) -> None:
    """£30, VP 0, income space 10 (level 0), 14 links, 8 cards each, 1 card per player under the
    Canal-Era Deck tile (out of the draw deck), 8 coal + 8 iron, the Distant Market marker on its
    top space and the 12/10/8 tiles face down; 1 action in the first Canal round."""
    g = Game.new(lancashire(), players, 1)
    s = g.state
    assert len(g.table.cards) == DECK[players]
    assert [len(p.hand) for p in s.players] == [8] * players
    assert [len(p.discard) for p in s.players] == [1] * players          # the Deck tile's cards
    assert len(s.deck) == DECK[players] - 9 * players                    # 22 / 27 / 28
    assert [(p.money, p.vp, p.income_position, p.links_left) for p in s.players] == [(30, 0, 10, 14)] * players
    assert g.table.income_level(s.players[0]) == 0
    assert s.markets == {"coal": 8, "iron": 8}
    assert sorted(s.stacks["dm_tiles"]) == DM_TILES[players] and s.drawn == {"dm_tiles": []}
    assert s.tracks == {"distant_market": 1, "dm_tile": 0, "sell_failed": 0}
    assert s.actions_left == 1 and s.round == 1 and s.era_index == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_canal_deck_lasts_exactly_its_rounds(players: int) -> None:
    """Deck arithmetic (components.md §5): the Canal deck serves 1 + 2 x (rounds - 1) cards per
    player, the Rail deck 2 x rounds."""
    canal = DECK[players] - players
    assert canal == players * (1 + 2 * (ROUNDS[players] - 1))
    assert DECK[players] == players * 2 * ROUNDS[players]


# -- the Lancashire actions --------------------------------------------------------------------

def seller(top: list[int] | None = None, marker: int = 1) -> Game:
    """2 players, Canal round 2, player 1 to act: their Cotton Mill I at Preston beside player 2's
    unflipped Port I (a trade icon in the same town); the Distant Market marker on `marker` and
    `top` the top tiles of the pile (top last)."""
    g = Game.new(lancashire(), 2, 1)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["manchester", "bolton", "wigan"])
    tile(g, 1, "preston/0", "cotton_mill", 1)
    tile(g, 2, "preston/2", "port", 1)
    with g.table.editing():
        g.state.tracks["distant_market"] = marker
    if top is not None:
        on_top(g, "dm_tiles", top)
    return g


def test_a_mill_sold_to_a_port_flips_both() -> None:
    """L-SELL-02: the Port flips (its owner, player 2, gains 3 spaces), then the mill (player 1
    gains 5 spaces); the Distant Market is untouched."""
    g = seller()
    g.apply({"action": "sell", "card": card_id(g, 1, "bolton"),
             "sales": [{"tile": "preston/0", "via": "port", "port": "preston/2"}]})
    s = g.state
    assert [p.income_position for p in s.players] == [15, 13]
    assert s.tiles["preston/0"].flipped and s.tiles["preston/2"].flipped
    assert s.tracks["distant_market"] == 1 and s.drawn == {"dm_tiles": []}


def test_a_distant_market_sale_moves_the_marker_and_gains_income() -> None:
    """L-DM-02, L-DM-04: tile 3 moves the marker 1 -> 4, whose space gains +2; the mill flips (+5):
    10 -> 17. The Port only gave the trade icon: it stays unflipped (L-DM-01)."""
    g = seller(top=[3])
    g.apply({"action": "sell", "card": card_id(g, 1, "bolton"),
             "sales": [{"tile": "preston/0", "via": "distant_market"}]})
    s = g.state
    assert [p.income_position for p in s.players] == [17, 10]
    assert s.tiles["preston/0"].flipped and not s.tiles["preston/2"].flipped
    assert s.tracks == {"distant_market": 4, "dm_tile": 3, "sell_failed": 0} and s.drawn == {"dm_tiles": [3]}


def test_a_draw_reaching_x_fails_the_sale_and_ends_the_sell() -> None:
    """L-DM-03: marker 7, tile 2 -> X (9): no income, the mill stays unflipped, and the Sell ends
    although a second mill (Lancaster) could have been sold to a connected Port."""
    g = seller(top=[2], marker=7)
    tile(g, 1, "lancaster/1", "cotton_mill", 2)
    tile(g, 2, "lancaster/0", "port", 1)
    g.apply({"action": "sell"})
    g.apply({"card": card_id(g, 1, "bolton")})
    for step in ({"tile": "preston/0"}, {"via": "distant_market"}):
        g.apply(step)
    s = g.state
    assert g.pending is None and s.actions_left == 1                     # the action is over
    assert [p.income_position for p in s.players] == [10, 10]
    assert not s.tiles["preston/0"].flipped and not s.tiles["lancaster/1"].flipped
    assert s.tracks == {"distant_market": 9, "dm_tile": 2, "sell_failed": 1}
    assert "L-DM-01" in refused(g, {"action": "sell", "card": card_id(g, 1, "wigan"),
                                    "sales": [{"tile": "lancaster/1", "via": "distant_market"}]})


def test_a_port_of_any_owner_is_a_market_trade_icon() -> None:
    """L-TRADE-01, L-TRADE-03, L-COAL-03: an Iron Works I at Preston needs 1 coal; with no mine
    and no trade icon it is refused; beside player 2's Port the coal comes from the market (£1, the
    cheapest cube): £5 + £1. A Coal Mine I at Wigan, connected to that Port by a canal, sells its
    2 cubes to a market holding 5 (the £2 and a £1 space: +£3) and flips (+4 spaces, L-MKT-01)."""
    def position(port: bool) -> Game:
        g = Game.new(lancashire(), 2, 1)
        turn(g, 1, order=[1, 2], round=2)
        hand(g, 1, ["preston", "wigan", "bolton"])
        if port:
            tile(g, 2, "preston/2", "port", 1)
        return g

    def iron_works(g: Game) -> dict:
        return {"action": "build", "card": card_id(g, 1, "preston"), "industry": "iron_works",
                "location": "preston", "slot": "preston/1"}

    alone = position(port=False)
    assert refused(alone, iron_works(alone)) == ["L-COAL-01"]
    g = position(port=True)
    g.apply(iron_works(g))
    assert g.table.player(1).money == 24 and g.state.markets == {"coal": 7, "iron": 8}
    assert g.state.tiles["preston/1"].cubes == 4                         # the iron market is full
    mine = position(port=True)
    market(mine, coal=5)
    link(mine, 2, "K33")
    mine.apply({"action": "build", "card": card_id(mine, 1, "wigan"), "industry": "coal_mine",
                "location": "wigan", "slot": "wigan/0"})
    p = mine.table.player(1)
    assert (p.money, p.income_position, mine.state.markets["coal"]) == (28, 14, 7)
    assert mine.state.tiles["wigan/0"].flipped and mine.state.tiles["wigan/0"].cubes == 0


def test_loans_of_10_20_30_pounds() -> None:
    """L-LOAN-01: £20 costs 2 income levels: level 0 (space 10) -> level -2 (space 8)."""
    g = Game.new(lancashire(), 2, 1)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["manchester", "bolton"])
    g.apply({"action": "loan", "card": card_id(g, 1, "bolton"), "amount": 20})
    p = g.table.player(1)
    assert (p.money, p.income_position) == (50, 8)


def test_no_loans_in_the_rail_era_once_the_deck_is_empty() -> None:
    """L-LOAN-03: with 2 cards left in the Rail deck a £30 loan is taken (space 10 -> 7); with the
    deck empty (the last 4 rounds) a loan is refused; in the Canal Era the empty deck does not
    matter (L-LOAN-04)."""
    g = Game.new(lancashire(), 2, 1)
    era(g, "rail", round=6)
    turn(g, 1, order=[1, 2])
    deck(g, size=2)
    hand(g, 1, ["manchester", "bolton"], rest="discard")
    g.apply({"action": "loan", "card": card_id(g, 1, "bolton"), "amount": 30})
    p = g.table.player(1)
    assert (p.money, p.income_position) == (60, 7)
    late = Game.new(lancashire(), 2, 1)
    era(late, "rail", round=7)
    turn(late, 1, order=[1, 2])
    deck(late, size=0)
    hand(late, 1, ["manchester", "bolton"], rest="discard")
    assert refused(late, {"action": "loan", "card": card_id(late, 1, "bolton"), "amount": 10}) == ["L-LOAN-03"]
    canal = Game.new(lancashire(), 2, 1)
    turn(canal, 1, order=[1, 2], round=9)
    deck(canal, size=0)
    hand(canal, 1, ["manchester", "bolton"], rest="discard")
    canal.apply({"action": "loan", "card": card_id(canal, 1, "bolton"), "amount": 10})
    assert canal.table.player(1).money == 40


def test_the_double_action_build_takes_both_actions() -> None:
    """L-BUILD-04: refused in the 1-action first Canal round; in round 2 two cards build a Cotton
    Mill I (£12) in Colne, outside any network and with no Colne card; the turn is over and the
    hand refilled to 8."""
    g = Game.new(lancashire(), 2, 1)
    turn(g, 1, order=[1, 2], round=1)
    hand(g, 1, ["manchester", "bolton", "wigan"])
    move = {"action": "double_build", "card": card_id(g, 1, "bolton"), "second_card": card_id(g, 1, "wigan"),
            "industry": "cotton_mill", "location": "colne", "slot": "colne/0"}
    assert refused(g, move) == ["L-BUILD-04"]
    turn(g, 1, order=[1, 2], round=2)
    g.apply(move)
    p = g.table.player(1)
    assert (p.money, len(p.hand), len(p.discard)) == (18, 8, 3)
    assert g.state.tiles["colne/0"].spec.level == 1 and g.table.me.seat == 2


def test_locked_shipyards_are_developed_never_built() -> None:
    """L-BUILD-13, L-DEV-03: the lowest Shipyard is a level-0 tile: Build refuses it; Develop
    removes both for 1 iron each from the market (£1 + £1)."""
    g = Game.new(lancashire(), 2, 1)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["liverpool", "bolton", "wigan"])
    assert refused(g, {"action": "build", "card": card_id(g, 1, "liverpool"), "industry": "shipyard",
                       "location": "liverpool", "slot": "liverpool/3"}) == ["L-BUILD-13"]
    g.apply({"action": "develop", "card": card_id(g, 1, "bolton"),
             "tiles": [{"industry": "shipyard"}, {"industry": "shipyard"}]})
    assert g.table.player(1).money == 28 and g.state.markets["iron"] == 6
    assert g.table.lowest_tile(g.table.player(1), "shipyard").level == 1


def test_the_end_of_the_canal_era() -> None:
    """L-ERA-02 … L-ERA-08, 2 players: player 1's canal Preston-Wigan scores 1 VP per flipped tile
    at its ends (their own Cotton Mill I and player 2's Port II at Preston: 2; the unflipped Coal
    Mine at Wigan: 0), then the flipped tiles score (Mill I 5, Port II 4). Level-I tiles leave the
    board, level II stays with its cubes; the Distant Market marker goes back to space 1 with every
    tile face down; the Rail deck is all 40 cards (the Deck tile's too) less the new hands."""
    g = Game.new(lancashire(), 2, 1)
    turn(g, 1, order=[1, 2], round=10)
    last_cards(g, {1: ["bolton"], 2: ["wigan"]})
    tile(g, 1, "preston/0", "cotton_mill", 1, flipped=True)
    tile(g, 2, "preston/2", "port", 2, flipped=True)
    tile(g, 2, "wigan/0", "coal_mine", 2, cubes=1)
    link(g, 1, "K33")
    with g.table.editing():
        g.state.tracks["distant_market"] = 6
        g.state.drawn["dm_tiles"].append(g.state.stacks["dm_tiles"].pop())
    pass_round(g)
    s = g.state
    assert (g.ruleset.eras[s.era_index].id, s.round) == ("rail", 1)
    assert [p.vp for p in s.players] == [7, 4] and s.links == {}
    assert sorted((slot, t.spec.level, t.flipped, t.cubes) for slot, t in s.tiles.items()) == [
        ("preston/2", 2, True, 0), ("wigan/0", 2, False, 1)]
    assert s.tracks["distant_market"] == 1 and len(s.stacks["dm_tiles"]) == 8 and s.drawn == {"dm_tiles": []}
    assert len(s.deck) == 40 - 16 and [len(p.hand) for p in s.players] == [8, 8]


def test_the_end_of_the_game_scores_1_vp_per_10_pounds() -> None:
    """L-END-01, L-INC-03: no income after the last Rail round; then £57 scores 5 VP and £30
    scores 3; VP decide (L-END-02)."""
    g = Game.new(lancashire(), 2, 1)
    era(g, "rail", round=10)
    turn(g, 1, order=[1, 2])
    last_cards(g, {1: ["bolton"], 2: ["wigan"]})
    set_player(g, 1, money=57, income=20)
    pass_round(g)
    assert g.is_over
    assert [(p.vp, p.money) for p in g.state.players] == [(5, 57), (3, 30)]
    assert [row["seat"] for row in g.standings()] == [1, 2]


# -- whole games ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_bots_finish_games_with_every_invariant_checked(players: int,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Each turn discards one card per action and a Double Action Build two for both actions, so
    the actions of a whole game plus its Double Action Builds are the cards of both eras' decks:
    (40 - 2) + 40, (54 - 3) + 54, (64 - 4) + 64."""
    assert main(["simulate", "lancashire", "--players", str(players), "--games", "1", "--seed", "3",
                 "--bot", "random", "--check", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["summary"]["violations"] == 0
    (game,) = result["per_game"]
    cards = 2 * DECK[players] - players
    assert game["actions"] + game["action_counts"].get("double_build", 0) == cards
    assert len(game["standings"]) == players
