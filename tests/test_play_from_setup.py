"""`brass play --from SETUP.yaml` and `Game.from_setup`: a real game started from a chosen
position (issue 4, part 3), saved with its position so that it reloads and replays exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.engine.game import Game, GameFileError
from interpreter.ruleset.loader import load_ruleset

PUZZLE = """\
description: Player 1 holds three cards with £30; the top of the deck is fixed.
players: 2
seed: 5
given:
  round: 2
  current: 1
  turn_order: [1, 2]
  players:
    1: {money: 30, hand: [birmingham, birmingham, dudley]}
    2: {hand: [coalbrookdale, stafford]}
  markets: {coal: 3}
  merchants: {"oxford/0": {tile: cotton}, "oxford/1": blank}
  deck: [worcester, coventry, brewery]
"""


def write(tmp_path: Path, text: str, name: str = "setup.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_play_from_a_setup_file_saves_a_game_that_reloads_and_replays(tmp_path: Path, run) -> None:
    setup, save = write(tmp_path, PUZZLE), tmp_path / "game.json"
    # player 1 loans with a Birmingham card (£30 + £30 = £60), then passes; then the bot plays.
    status, out, err = run("play", "--from", str(setup), "--seats", "human,greedy", "--save", str(save),
                           stdin="\n".join(['{"action": "loan", "card": "birmingham#2"}', "s", "q"]))
    assert status == 0, err
    assert "birmingham: started from a given position, 2 players, seed 5" in out
    saved = json.loads(save.read_text())
    assert saved["seed"] == 5 and saved["given"]["markets"] == {"coal": 3}
    game = Game.from_json(load_ruleset("birmingham"), save.read_text())
    player = game.table.player(1)
    assert (player.money, player.income_position) == (60, 7)  # level 0 (space 10) -> level -3 (space 7)
    assert [c.face for c in player.hand] == ["birmingham", "dudley"]
    assert game.state.markets["coal"] == 3
    assert [c.face for c in game.state.deck] == ["worcester", "coventry", "brewery"]
    status, out, err = run("replay", str(save))
    assert status == 0, err
    assert "   1. player 1" in out


def test_the_position_is_that_of_the_file_and_the_rest_comes_from_its_seed() -> None:
    rs = load_ruleset("birmingham")
    given = {"players": {1: {"money": 30}}, "markets": {"coal": 3}}
    a, b = Game.from_setup(rs, 2, given, seed=5), Game.from_setup(rs, 2, given, seed=5)
    assert a.to_json() == b.to_json()
    assert a.table.player(1).money == 30 and a.table.player(2).money == 17 and a.state.markets["iron"] == 8
    plain = Game.new(rs, 2, 5)
    assert [c.id for c in a.table.player(2).hand] == [c.id for c in plain.table.player(2).hand]


def test_a_fixed_deck_order_decides_the_cards_drawn(tmp_path: Path, run) -> None:
    """Round 2, player 1's second action of the turn: after it they refill from the fixed deck
    (top card last: brewery, coventry, worcester are drawn in that order)."""
    rs = load_ruleset("birmingham")
    game = Game.from_setup(rs, 2, {"round": 2, "current": 1, "turn_order": [1, 2], "actions_left": 1,
                                   "players": {1: {"hand": ["birmingham", "birmingham", "dudley"]}},
                                   "deck": ["worcester", "coventry", "brewery"]}, seed=5)
    game.apply({"action": "pass", "card": "birmingham#2"})
    assert sorted(c.face for c in game.table.player(1).hand) == \
        ["birmingham", "brewery", "coventry", "dudley", "worcester"]
    assert game.state.deck == []


@pytest.mark.parametrize("args, message", [
    (["--players", "3"], "is a 2-player position, not 3"),
    (["--load", "x.json"], "give only one"),
])
def test_conflicting_options_are_refused(tmp_path: Path, run, args: list[str], message: str) -> None:
    setup = write(tmp_path, PUZZLE)
    status, _, err = run("play", "--from", str(setup), *args)
    assert status != 0 and message in err and "Traceback" not in err


def test_the_ruleset_is_the_files_or_else_the_one_named(tmp_path: Path, run) -> None:
    named = write(tmp_path, "ruleset: birmingham\n" + PUZZLE, "named.yaml")
    status, _, err = run("play", "birmingham-intro", "--from", str(named))
    assert status != 0 and "is a position of ruleset 'birmingham', not 'birmingham-intro'" in err
    unnamed = write(tmp_path, PUZZLE)
    status, out, err = run("play", "birmingham-intro", "--from", str(unnamed), "--seats", "greedy,greedy")
    assert status == 0, err
    assert "birmingham-intro: started from a given position" in out and "Final standings" in out


def test_an_impossible_position_is_a_located_error(tmp_path: Path, run) -> None:
    setup = write(tmp_path, PUZZLE.replace("coal: 3", "coal: 15"))
    status, _, err = run("play", "--from", str(setup))
    assert status != 0
    assert f"{setup}:11:19: the coal market holds at most 14 cubes, not 15" in err


def test_a_scenario_file_is_a_setup_file_too(run) -> None:
    status, out, err = run("play", "--from", "scenarios/birmingham/coal_market_fallback.yaml",
                           "--seats", "greedy,greedy", stdin="")
    assert status == 0, err
    assert "Final standings" in out


def test_a_saved_position_that_no_longer_applies_is_a_file_error() -> None:
    rs = load_ruleset("birmingham")
    text = Game.from_setup(rs, 2, {"markets": {"coal": 3}}, seed=1).to_json()
    broken = text.replace('"coal":3}', '"coal":99}', 1)
    assert broken != text
    with pytest.raises(GameFileError, match="starting position cannot be applied"):
        Game.from_json(rs, broken)


