"""The variants of Brass: Lancashire (issue 16), written in YAML over `rulesets/lancashire`:
the Introductory Game (lancashire-intro), the Warfrog 2007 rules (lancashire-warfrog), Roxley's
classic Virtual Link (lancashire-classic) and the test variant tests/data/lancashire-open-points,
which decides four open points of the reference the other way. Each loads and lints clean, random
games finish with every invariant checked, and each difference gives the rulebook's numbers (their
scenarios, scenarios/lancashire/intro_* and classic_* and scenarios/lancashire-warfrog/, are run by
tests/test_scenarios.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interpreter import IllegalAction
from interpreter.engine.errors import SetupError
from interpreter.engine.game import Game
from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.cli.main import main

OPEN_POINTS = str(Path(__file__).resolve().parent / "data" / "lancashire-open-points")
VARIANTS = ["lancashire-intro", "lancashire-warfrog", "lancashire-classic", OPEN_POINTS]


def game(ruleset: str, players: int, given: dict[str, Any]) -> Game:
    return Game.from_setup(load_ruleset(ruleset), players, given, seed=1)


def card(g: Game, seat: int, face: str) -> str:
    """The id of a card of that face in the seat's hand."""
    return next(c.id for c in g.table.player(seat).hand if c.face == face)


def apply(g: Game, seat: int, move: dict[str, Any], *faces: str) -> None:
    """Apply a whole action of `seat`, its `card` (and `second_card`) named by face."""
    move = dict(move)
    for key, face in zip(("card", "second_card"), faces, strict=False):
        move[key] = card(g, seat, face)
    g.apply(move, seat=seat)


def refusal(g: Game, seat: int, move: dict[str, Any], face: str) -> str:
    """The text of the refusal (its summary and every failure): the move must be illegal."""
    before = g.to_json()
    with pytest.raises(IllegalAction) as caught:
        apply(g, seat, move, face)
    assert g.to_json() == before
    return str(caught.value) + " | " + " | ".join(f"{f.rule} {f.message}" for f in caught.value.failures)


# -- every variant loads, lints clean and plays ------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: Path(v).name)
def test_check_and_lint_pass(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", variant]) == 0
    assert main(["lint", variant]) == 0
    assert "warning" not in capsys.readouterr().out


@pytest.mark.parametrize(("variant", "players"), [
    ("lancashire-intro", 2), ("lancashire-intro", 3), ("lancashire-intro", 4),
    ("lancashire-warfrog", 3), ("lancashire-warfrog", 4), ("lancashire-classic", 2), ("lancashire-classic", 4),
    (OPEN_POINTS, 3)],
    ids=lambda v: Path(str(v)).name)
def test_random_games_finish_with_invariants(variant: str, players: int,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", variant, "--players", str(players), "--games", "2", "--check"]) == 0
    assert "invariants checked" in capsys.readouterr().out


# -- lancashire-intro ----------------------------------------------------------------------------

def test_the_introductory_game_ends_after_the_canal_era() -> None:
    """L-INTRO-01/02: the last Canal round (10th at 2 players) ends the game. Player 1: £21, level
    3 (space 16), a flipped Port II in Preston (4 VP): era 4 + £21 → 5 + level 3 + Port II again
    4 = 16. Player 2: £120 → 15 (not 30), 0 + 15 + 0 = 15. No £10 = 1 VP."""
    g = game("lancashire-intro", 2, {
        "round": 10, "turn_order": [1, 2], "current": 1, "deck": 0,
        "players": {1: {"money": 21, "income": 16, "hand": ["manchester"]},
                    2: {"money": 120, "income": 10, "hand": ["preston"]}},
        "tiles": [{"slot": "preston/2", "owner": 1, "industry": "port", "level": 2, "flipped": True}]})
    apply(g, 1, {"action": "pass"}, "manchester")
    apply(g, 2, {"action": "pass"}, "preston")
    assert g.is_over
    assert [(s["seat"], s["vp"], s["money"]) for s in g.standings()] == [(1, 16, 21), (2, 15, 120)]


# -- lancashire-warfrog ---------------------------------------------------------------------------

def test_warfrog_numbers() -> None:
    """3 and 4 players, the same 64 cards and all 12 Distant Market tiles at both counts; 7 / 4 cards
    set aside at setup: 33 / 28 left to draw; 10 / 8 rounds; Cotton Mill I 3 VP, the other tiles as
    Roxley's (Cotton Mill II 5 VP, £14); a shortfall may leave money below £0 (no floor)."""
    r = load_ruleset("lancashire-warfrog")
    assert r.players == (3, 4)
    assert (r.deck_size(3), r.deck_size(4)) == (64, 64)
    assert [dict(e.set_aside) for e in r.eras] == [{3: 7, 4: 4}, {3: 4, 4: 0}]
    assert [e.end_before_round_end for e in r.eras] == [True, False]
    assert r.economy.shortfall_money_floor is None and r.setup.face_down_discards == 0
    for players, deck, aside, rounds in ((3, 33, 7, 10), (4, 28, 4, 8)):
        g = Game.new(r, players, 1)
        assert (len(g.state.deck), len(g.state.aside), r.setup.rounds_per_era[players]) == (deck, aside, rounds)
        assert sorted(g.state.stacks["dm_tiles"]) == [0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4]
    mills = {t.level: (t.vp, t.cost) for t in r.tiles["cotton_mill"]}
    assert mills == {1: (3, 12), 2: (5, 14), 3: (9, 16), 4: (12, 18)}
    with pytest.raises(SetupError, match="played by 3, 4 players, not 2"):
        Game.new(r, 2, 1)


@pytest.mark.parametrize(("players", "rounds"), [(3, 10), (4, 8)])
def test_warfrog_eras_last_their_rounds_and_the_loan_ban_its_4(players: int, rounds: int) -> None:
    """A game played to its end by random bots: both eras last 10 rounds at 3 players and 8 at 4
    (the cards set aside make the deck fit: L-SETUP-11), and the draw deck is empty in exactly the
    last 4 rounds of the Rail Era, the rounds without loans (L-LOAN-03)."""
    from interpreter.tools.bots.ladder import bot_seed, decide, make_bot

    g = Game.new(load_ruleset("lancashire-warfrog"), players, 5)
    bots = {s: make_bot("random", bot_seed(5, s)) for s in range(1, players + 1)}
    rounds_seen: dict[tuple[int, int], int] = {}  # (era, round) -> cards in the draw deck when it began
    while not g.is_over:
        rounds_seen.setdefault((g.state.era_index, g.state.round), len(g.state.deck))
        if g.state.era_index == 1 and g.state.round == 1:
            assert len(g.state.aside) == (4 if players == 3 else 0)
        g.apply(decide(bots[g.deciding_seat], g))
    assert max(r for e, r in rounds_seen if e == 0) == rounds
    assert max(r for e, r in rounds_seen if e == 1) == rounds
    empty = [r for (e, r), deck in sorted(rounds_seen.items()) if e == 1 and deck == 0]
    assert empty == list(range(rounds - 3, rounds + 1))


def test_warfrog_set_aside_must_fit_the_deck(tmp_path: Path) -> None:
    """The deck arithmetic counts the cards an era sets aside (R-SETUP-12 of the format): 6 instead
    of 7 at 3 players leaves 63 Canal cards for a deck of 64, an error located at the table."""
    (tmp_path / "ruleset.yaml").write_text(
        "name: wf-six\ntitle: six\nversion: '1'\nextends: lancashire-warfrog\n"
        "eras:\n  $patch:\n    key: id\n    set:\n      - {id: canal, set_aside: {3: 6, 4: 4}}\n",
        encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(tmp_path)
    assert "with 3 players, 10 rounds of the Canal Era use 63 cards (19 actions each + 6 set aside), " \
           "but the deck has 64" in str(caught.value)


def test_warfrog_set_aside_cards_are_saved_and_restored() -> None:
    """A save holds the cards set aside (`aside`), read back exactly; a Birmingham save has no such key."""
    g = Game.new(load_ruleset("lancashire-warfrog"), 3, 2)
    saved = g.to_json()
    assert len(json.loads(saved)["state"]["aside"]) == 7
    assert Game.from_json(g.ruleset, saved).to_json() == saved
    assert "aside" not in json.loads(Game.new(load_ruleset("birmingham"), 2, 2).to_json())["state"]


VIRTUAL = {"era": "rail", "round": 2, "turn_order": [1, 2], "current": 1}


@pytest.mark.parametrize(("variant", "to_liverpool"), [
    ("lancashire", False), ("lancashire-warfrog", False), ("lancashire-classic", True)])
def test_the_virtual_link_towards_liverpool(variant: str, to_liverpool: bool) -> None:
    """L-CLASSIC-01: with only the rail Birkenhead–Ellesmere Port (K02), a Port card builds a Port
    II (£7) in Liverpool through Roxley's Virtual Link (both ways), not in the Warfrog original
    (towards Birkenhead only) nor in the game without the option."""
    players = 4 if variant == "lancashire-warfrog" else 2
    given = dict(VIRTUAL, turn_order=list(range(1, players + 1)),
                 players={1: {"money": 30, "hand": ["port", "manchester"], "mat": {"port": 2}}},
                 links=[{"link": "K02", "owner": 1}])
    g = game(variant, players, given)
    move = {"action": "build", "industry": "port", "location": "liverpool", "slot": "liverpool/0"}
    if to_liverpool:
        apply(g, 1, move, "port")
        assert g.table.player(1).money == 23 and g.state.tiles["liverpool/0"].spec.level == 2
    else:
        assert "may build only in your network" in refusal(g, 1, move, "port")


@pytest.mark.parametrize(("variant", "to_birkenhead"), [
    ("lancashire", False), ("lancashire-warfrog", True), ("lancashire-classic", True)])
def test_the_virtual_link_towards_birkenhead(variant: str, to_birkenhead: bool) -> None:
    """L-CLASSIC-01: with only the rail Liverpool–Wigan (K24), the Shipyard card builds a Shipyard
    II in Birkenhead; its coal comes over player 2's real rail K02 from the trade icon of the Port
    in Ellesmere Port: £30 − £25 − £1 coal − £1 iron = £3, +1 income space (flipped when built)."""
    players = 4 if variant == "lancashire-warfrog" else 2
    given = dict(VIRTUAL, turn_order=list(range(1, players + 1)),
                 players={1: {"money": 30, "income": 10, "hand": ["shipyard", "manchester"], "mat": {"shipyard": 2}}},
                 links=[{"link": "K24", "owner": 1}, {"link": "K02", "owner": 2}],
                 tiles=[{"slot": "ellesmere_port/0", "owner": 2, "industry": "port", "level": 2}])
    g = game(variant, players, given)
    move = {"action": "build", "industry": "shipyard", "location": "birkenhead", "slot": "birkenhead/0"}
    if to_birkenhead:
        apply(g, 1, move, "shipyard")
        p = g.table.player(1)
        assert (p.money, p.income_position) == (3, 11) and g.state.tiles["birkenhead/0"].flipped
        assert g.state.markets == {"coal": 7, "iron": 7}
    else:
        assert "may build only in your network" in refusal(g, 1, move, "shipyard")


def test_no_coal_travels_over_the_virtual_link() -> None:
    """L-CLASSIC-01, L-BUILD-15: in the Canal Era Birkenhead has no line at all; the Virtual Link
    from Liverpool (player 1's Port I, a trade icon) lets the Shipyard card choose it, but Shipyard
    I's 1 coal cannot come from Liverpool's trade icon: refused for L-COAL-01 alone."""
    g = game("lancashire-classic", 2, {
        "round": 3, "turn_order": [1, 2], "current": 1,
        "players": {1: {"money": 30, "hand": ["shipyard", "manchester"], "mat": {"shipyard": 1}}},
        "tiles": [{"slot": "liverpool/0", "owner": 1, "industry": "port", "level": 1}]})
    move = {"action": "build", "industry": "shipyard", "location": "birkenhead", "slot": "birkenhead/0"}
    with pytest.raises(IllegalAction) as caught:
        apply(g, 1, move, "shipyard")
    assert [f.rule for f in caught.value.failures] == ["L-COAL-01"]


# -- the open points decided the other way ------------------------------------------------------

@pytest.mark.parametrize(("variant", "cost"), [("lancashire", 14), (OPEN_POINTS, 15)])
def test_o1_cotton_mill_ii_cost(variant: str, cost: int) -> None:
    """O-1: Cotton Mill II in Manchester, its coal free from player 2's Coal Mine in the same town
    (2 cubes → 1): £30 − £14 in the game, − £15 in the variant."""
    g = game(variant, 2, {
        "round": 2, "turn_order": [1, 2], "current": 1,
        "players": {1: {"money": 30, "hand": ["manchester", "bolton"], "mat": {"cotton_mill": 2}}},
        "tiles": [{"slot": "manchester/1", "owner": 2, "industry": "coal_mine", "level": 1, "cubes": 2}]})
    apply(g, 1, {"action": "build", "industry": "cotton_mill", "location": "manchester", "slot": "manchester/0"},
          "manchester")
    assert g.table.player(1).money == 30 - cost
    assert g.state.tiles["manchester/1"].cubes == 1


def k10_game(variant: str) -> Game:
    return game(variant, 2, {
        "round": 2, "turn_order": [1, 2], "current": 1,
        "players": {1: {"money": 30, "hand": ["manchester", "bolton"]}},
        "tiles": [{"slot": "wigan/0", "owner": 1, "industry": "coal_mine", "level": 1, "cubes": 2}]})


def test_o5_bolton_wigan_takes_a_canal_in_the_variant() -> None:
    """O-5: from player 1's Coal Mine in Wigan, a canal on K10 Bolton–Wigan: refused in the game
    (rail-only, L-LINK-06), placed for £3 in the variant (£30 → £27)."""
    move = {"action": "network", "links": [{"link": "K10"}]}
    assert "L-LINK-06" in refusal(k10_game("lancashire"), 1, move, "bolton")
    g = k10_game(OPEN_POINTS)
    apply(g, 1, move, "bolton")
    assert g.state.links == {"K10": 1} and g.table.player(1).money == 27


def test_o6_a_player_without_tiles_places_a_link_anywhere_in_the_variant() -> None:
    """O-6: player 1 has no tile and no link on the board: a canal on K09 Bolton–Manchester is
    refused in the game (no Network exception) and placed for £3 in the variant."""
    given = {"round": 2, "turn_order": [1, 2], "current": 1,
             "players": {1: {"money": 30, "hand": ["manchester", "bolton"]}}}
    move = {"action": "network", "links": [{"link": "K09"}]}
    assert "next to a location in your network" in refusal(game("lancashire", 2, given), 1, move, "bolton")
    g = game(OPEN_POINTS, 2, given)
    apply(g, 1, move, "bolton")
    assert g.state.links == {"K09": 1} and g.table.player(1).money == 27


@pytest.mark.parametrize(("variant", "winner"), [("lancashire", 2), (OPEN_POINTS, 1)])
def test_o7_the_tie_break_reads_the_level_in_the_variant(variant: str, winner: int) -> None:
    """O-7: the last Rail round; player 1 £20 and 10 VP on income space 29, player 2 £5 and 12 VP on
    space 30 (both level 10). £10 = 1 VP: 12 VP each. The game compares the space (30 > 29: player
    2 wins); the variant the level (10 = 10), then money (£20 > £5: player 1 wins)."""
    g = game(variant, 2, {
        "era": "rail", "round": 10, "turn_order": [1, 2], "current": 1, "deck": 0,
        "players": {1: {"money": 20, "vp": 10, "income": 29, "hand": ["manchester"]},
                    2: {"money": 5, "vp": 12, "income": 30, "hand": ["bolton"]}}})
    apply(g, 1, {"action": "pass"}, "manchester")
    apply(g, 2, {"action": "pass"}, "bolton")
    assert g.is_over
    standings = g.standings()
    assert [(s["seat"], s["vp"], s["place"]) for s in standings] == [(winner, 12, 1), (3 - winner, 12, 2)]
