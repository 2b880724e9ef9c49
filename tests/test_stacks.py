"""Ruleset-defined random stacks (`stacks:`, the `draw` and `reshuffle` effects, `stack_size` and
`drawn`), docs/lancashire.md item 5, shown with tests/data/distant-market: Birmingham with Brass:
Lancashire's Distant Market (a face-down tile pile drawn in a Sell, where a draw can fail the
sale), written with a stack and two tracks."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))

from brass_dsl import Env, compile_expression
from interpreter.engine.game import Game, IllegalAction
from interpreter.engine.given import GivenError
from interpreter.engine.invariants import check_invariants
from interpreter.engine.rng import Rng
from interpreter.ruleset.loader import load_ruleset

from position import card_id, last_cards, merchants, mill_for_oxford, on_top, pass_round, refused, tile, turn

MARKET = Path(__file__).resolve().parent / "data" / "distant-market"
FULL_SET = {2: [1, 2, 2, 2, 3, 3, 3, 4], 3: [0, 1, 2, 2, 2, 2, 3, 3, 3, 4], 4: [0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4]}


def value(g: Game, text: str) -> object:
    return compile_expression(text, g.ruleset.registry)(Env(g.table, {}))


def seller(marker: int = 1, top: list[int] | None = None, players: int = 2) -> Game:
    """Player 1 to act in Canal round 2, with a Cotton Mill I at Birmingham that can be sold to
    Oxford's wild merchant (with its barrel: +2 income spaces); the demand marker on `marker`;
    `top`, if given, the top tiles of the pile (top last)."""
    g = Game.new(load_ruleset(MARKET), players, 1)
    mill_for_oxford(g, players)
    with g.table.editing():
        g.state.tracks["distant_market"] = marker
    if top is not None:
        on_top(g, "dm_tiles", top)
    return g


def sell(g: Game, card: str = "dudley") -> dict:
    return {"action": "sell", "card": card_id(g, 1, card),
            "sales": [{"tile": "birmingham/0", "merchant": "oxford/0", "merchant_beer": True}]}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_pile_is_shuffled_face_down_at_setup(players: int) -> None:
    """8/10/12 tiles by player count, none drawn; the order comes from the seed: the same seed
    deals the same pile, and the save holds it."""
    g = Game.new(load_ruleset(MARKET), players, 3)
    pile = g.state.stacks["dm_tiles"]
    assert sorted(pile) == FULL_SET[players] and g.state.drawn == {"dm_tiles": []}
    assert value(g, 'stack_size("dm_tiles")') == len(FULL_SET[players])
    assert Game.new(load_ruleset(MARKET), players, 3).state.stacks["dm_tiles"] == pile
    saved = json.loads(g.to_json())["state"]
    assert (saved["stacks"], saved["drawn"]) == ({"dm_tiles": pile}, {"dm_tiles": []})
    full = json.loads(Game.new(load_ruleset("birmingham"), players, 3).to_json())["state"]
    assert "stacks" not in full and "drawn" not in full  # a ruleset without stacks saves as before


def test_different_seeds_shuffle_differently() -> None:
    piles = {tuple(Game.new(load_ruleset(MARKET), 4, seed).state.stacks["dm_tiles"]) for seed in range(1, 6)}
    assert len(piles) == 5


def test_a_sale_draws_and_moves_the_marker() -> None:
    """Top tile 3: the marker goes 1 -> 4, whose space gains +2; with Oxford's barrel (+2) and the
    mill's flip (+5) player 1's income marker goes 10 -> 19. The tile lies face up."""
    g = seller(top=[3])
    g.apply(sell(g))
    assert g.state.tiles["birmingham/0"].flipped
    assert (g.state.tracks, g.table.player(1).income_position) == ({"distant_market": 4, "dm_tile": 3}, 19)
    assert (value(g, 'drawn("dm_tiles")'), value(g, 'stack_size("dm_tiles")')) == ([3], 7)
    drawn = [e for e in g.state.log if e["event"] == "drawn"]
    assert drawn == [{"event": "drawn", "stack": "dm_tiles", "value": 3, "left": 7}]
    assert check_invariants(g.table) == []


def test_a_draw_that_reaches_x_fails_the_sale() -> None:
    """Marker on 6, top tile 4: the marker stops on X (9); no Distant Market income and the mill
    does not flip (only Oxford's barrel: 10 -> 12); a second Sell is refused with R-DM-01."""
    g = seller(marker=6, top=[4])
    g.apply(sell(g))
    assert not g.state.tiles["birmingham/0"].flipped
    assert (g.state.tracks["distant_market"], g.table.player(1).income_position) == (9, 12)
    assert refused(g, sell(g, "coventry")) == ["R-DM-01"]
    assert g.explain(sell(g, "coventry"))["failures"][0].message == \
        "The Distant Market is closed (its marker is on X) until the era ends."


def two_mills(marker: int, top: list[int]) -> Game:
    """`seller` with a second tile to sell, a Manufacturer I at Birmingham, and Oxford's two
    spaces wild merchants with their barrels."""
    g = seller(marker, top)
    merchants(g, {"oxford/0": "wild", "oxford/1": "wild"})
    tile(g, 1, "birmingham/1", "manufacturer", 1)
    return g


def two_sales(g: Game) -> dict:
    return {"action": "sell", "card": card_id(g, 1, "dudley"),
            "sales": [{"tile": "birmingham/0", "merchant": "oxford/0", "merchant_beer": True},
                      {"tile": "birmingham/1", "merchant": "oxford/1", "merchant_beer": True}]}


def test_each_sale_draws_its_own_tile() -> None:
    """Tiles 1 then 2: the marker goes 1 -> 2 (+3) -> 4 (+2); each sale also takes an Oxford barrel
    (+2) and flips its tile (+5): 10 + 10 + 9 -> 29."""
    g = two_mills(1, [2, 1])
    g.apply(two_sales(g))
    assert g.state.tiles["birmingham/0"].flipped and g.state.tiles["birmingham/1"].flipped
    assert (g.state.tracks["distant_market"], g.table.player(1).income_position) == (4, 29)
    assert g.state.drawn["dm_tiles"] == [1, 2]


def test_a_failed_draw_ends_the_sell() -> None:
    """Marker on 6, top tile 4: the first sale reaches X, flips nothing (barrel only: 10 -> 12), and
    the Sell ends at once. A whole action's second sale is not done, and the action is not refused:
    refusing it would put the drawn tile back, seen by the mover alone (issue 26; it was refused
    with R-DM-01 before). Taken one decision at a time, nothing of the Sell is left to decide."""
    g = two_mills(6, [2, 4])
    whole = g.copy()
    assert whole.explain(two_sales(whole)) == {"legal": True, "failures": []}
    whole.apply(two_sales(whole))
    assert whole.moves[-3:] == [{"tile": "birmingham/0"}, {"merchant": "oxford/0"}, {"merchant_beer": True}]
    assert (whole.state.tracks["distant_market"], whole.table.player(1).income_position) == (9, 12)
    assert not whole.state.tiles["birmingham/1"].flipped and whole.state.drawn["dm_tiles"] == [4]
    assert Game.from_json(whole.ruleset, whole.to_json()).to_json() == whole.to_json()
    g.apply({"action": "sell"})
    g.apply({"card": card_id(g, 1, "dudley")})
    for decision in ({"tile": "birmingham/0"}, {"merchant": "oxford/0"}, {"merchant_beer": True}):
        g.apply(decision)
    assert g.pending is None and {"tile": "birmingham/1"} not in g.legal_actions()
    assert not g.state.tiles["birmingham/0"].flipped and not g.state.tiles["birmingham/1"].flipped
    assert (g.state.tracks["distant_market"], g.table.player(1).income_position) == (9, 12)
    assert g.state.drawn["dm_tiles"] == [4] and g.state.actions_left == 1
    assert g.to_json() == whole.to_json()  # the same game, taken whole or one decision at a time


def test_a_zero_tile_keeps_the_marker() -> None:
    """4 players (the 2-player pile has no 0): top tile 0 on space 2, the marker stays, +3 income;
    flip +5 and barrel +2: 10 -> 20."""
    g = seller(marker=2, top=[0], players=4)
    g.apply(sell(g))
    assert (g.state.tracks["distant_market"], g.table.player(1).income_position) == (2, 20)


def test_the_era_end_reshuffles_the_pile() -> None:
    """After a sale (3 drawn, marker 4) the last Canal round ends: every tile is back face down,
    in an order drawn by the game's own generator, and the marker is back on 1."""
    g = seller(top=[3])
    g.apply(sell(g))
    last_cards(g, {1: ["coventry"], 2: ["stafford"]})
    turn(g, 1, round=10)
    pass_round(g)
    assert g.state.era_index == 1
    assert sorted(g.state.stacks["dm_tiles"]) == FULL_SET[2] and g.state.drawn == {"dm_tiles": []}
    assert g.state.tracks["distant_market"] == 1
    assert [e["event"] for e in g.state.log if e["event"] in ("reshuffled", "track")][-2:] == ["reshuffled", "track"]


def test_saves_copies_and_refusals_keep_the_pile() -> None:
    g = seller(top=[2, 3])
    twin = g.copy()
    twin.apply(sell(twin))
    assert (g.state.stacks["dm_tiles"][-1], twin.state.stacks["dm_tiles"][-1]) == (3, 2)
    again = Game.from_json(twin.ruleset, twin.to_json())
    assert (again.state.stacks, again.state.drawn) == (twin.state.stacks, twin.state.drawn)
    before = g.to_json()
    with pytest.raises(IllegalAction, match="no choice called"):
        g.apply({**sell(g), "sales": [{"tile": "birmingham/0", "merchant": "oxford/0", "merchant_beer": True,
                                      "colour": "red"}]})
    assert g.to_json() == before


def test_a_seat_view_hides_the_order() -> None:
    """The view shows which tiles are left (sorted), not their order; a determinized game deals
    them in a new order drawn from the bot's generator."""
    g = Game.new(load_ruleset(MARKET), 4, 9)
    view = g.view(1)
    assert view.state.stacks["dm_tiles"] == FULL_SET[4]
    guess = view.determinize(Rng(5))
    assert sorted(guess.state.stacks["dm_tiles"]) == FULL_SET[4]
    assert guess.state.stacks["dm_tiles"] != FULL_SET[4]
    assert check_invariants(guess.table) == []


def test_a_given_position_sets_the_pile() -> None:
    rs = load_ruleset(MARKET)
    g = Game.from_setup(rs, 2, {"stacks": {"dm_tiles": [2, 4]}}, seed=1)
    assert (g.state.stacks["dm_tiles"], g.state.drawn["dm_tiles"]) == ([2, 4], [1, 2, 2, 3, 3, 3])
    assert check_invariants(g.table) == []
    with pytest.raises(GivenError, match=r"no tile 0 is left for the dm_tiles stack"):
        Game.from_setup(rs, 2, {"stacks": {"dm_tiles": [0]}}, seed=1)
    with pytest.raises(GivenError, match="unknown key 'stacks'"):
        Game.from_setup(load_ruleset("birmingham"), 2, {"stacks": {"dm_tiles": []}}, seed=1)


def test_the_invariants_check_the_pile() -> None:
    g = seller()
    g.state.stacks["dm_tiles"].append(4)
    assert check_invariants(g.table) == [
        "stacks: the dm_tiles stack holds [1, 2, 2, 2, 3, 3, 3, 4, 4], not [1, 2, 2, 2, 3, 3, 3, 4]"]


STACK = "stacks:\n  pile:\n    name: Pile\n    tiles: {0: {2: 1, 3: 1, 4: 1}}\n"
TRACK = "tracks:\n  last: {name: Last, start: 0, min: 0, max: 4}\n"


@pytest.mark.parametrize("text, line, message", [
    ("stacks:\n  pile:\n    name: Pile\n    tiles: {0: {2: 1, 3: 1}}\n", 4,
     "stacks.pile.tiles.0 gives no value for 4 players"),
    ("stacks:\n  pile:\n    name: Pile\n    tiles: {}\n", 4, "stacks.pile.tiles must have at least 1 entries"),
    (STACK + TRACK + "round_end:\n  - set_turn_order\n  - draw: {stack: piles, into: last}\n", 9,
     "'piles' is not a stack; did you mean 'pile'?"),
    (STACK + TRACK + "round_end:\n  - set_turn_order\n  - draw: {stack: pile, into: lost}\n", 9,
     "'lost' is not a track; did you mean 'last'?"),
])
def test_bad_stacks_are_located(variant_errors, text: str, line: int, message: str) -> None:
    found = variant_errors(text)
    assert any(at == line and message in said for at, said in found), found


def test_the_variant_plays_with_invariants_checked(capsys: pytest.CaptureFixture[str]) -> None:
    from interpreter.tools.cli.main import main

    assert main(["simulate", str(MARKET), "--players", "4", "--games", "2", "--seed", "1", "--check"]) == 0
    assert "2 game(s), 4 players" in capsys.readouterr().out



def test_brass_check_lists_the_stacks_and_tracks(run) -> None:
    status, out, _ = run("check", str(Path(__file__).parent / "data" / "distant-market"))
    assert status == 0
    assert ("  tracks:     Distant Market demand (1..9, starts at 1), "
            "Last Distant Market tile drawn (0..4, starts at 0)\n") in out
    assert "  stacks:     Distant Market tiles (8 / 10 / 12 tiles at 2 / 3 / 4 players)\n" in out
    status, out, _ = run("check")
    assert "tracks:" not in out and "stacks:" not in out


def test_a_failed_draw_in_the_games_last_action_ends_the_sell_and_the_game() -> None:
    """The last action of a game (Rail Era, round 9 of 9, 3 players; a position a heuristic bot
    reached): a Sell of two tiles whose first draw, a 3 with the marker on 6, reaches X. The Sell
    ends, and with it the game, whose end shuffles the drawn tiles back (R-DM-04): the whole
    action's second sale is not done, as above, and the action is not refused. (It raised an
    IndexError while the refusal was worded: the count of drawn tiles had fallen back below its
    value at the action's start, so the draw went unseen.)"""
    saved = (MARKET / "last-action-sale-reaches-x.json").read_text(encoding="utf-8")
    whole, stepwise = Game.from_json(load_ruleset(MARKET), saved), Game.from_json(load_ruleset(MARKET), saved)
    sales = [{"tile": "birmingham/1", "merchant": "oxford/0", "merchant_beer": False},
             {"tile": "birmingham/3", "merchant": "oxford/0", "merchant_beer": False}]
    whole.apply({"action": "sell", "card": "stoke_on_trent#3", "sales": sales})
    for decision in ({"action": "sell"}, {"card": "stoke_on_trent#3"}, {"tile": "birmingham/1"},
                     {"merchant": "oxford/0"}, {"merchant_beer": False}):
        stepwise.apply(decision)
    assert whole.is_over and whole.to_json() == stepwise.to_json()
    drawn = [entry["value"] for entry in whole.state.log if entry.get("event") == "drawn"]
    assert drawn[-1] == 3 and whole.state.drawn == {"dm_tiles": []} and whole.state.tracks["distant_market"] == 1
