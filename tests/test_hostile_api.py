"""Hostile input to the Python API: whatever a caller hands `Game`, the answer is a `BrassError`
(an `IllegalAction`, `SetupError`, `GameFileError` or `GivenError`) and the game is unchanged.
Each class found by fuzzing the API has a test here."""

from __future__ import annotations

import json
from typing import Any

import pytest

from interpreter import BrassError, Game, GameFileError, IllegalAction, SetupError, load_ruleset
from interpreter.engine.given import GivenError


@pytest.fixture(scope="module")
def rs():
    return load_ruleset("birmingham")


def unchanged_refusal(game: Game, move: Any) -> IllegalAction:
    before = game.to_json()
    with pytest.raises(IllegalAction) as caught:
        game.apply(move)
    assert game.to_json() == before
    return caught.value


def nested(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


def test_done_during_an_action_without_a_repeated_part_is_refused(rs) -> None:
    game = Game.new(rs, 2, seed=1)
    game.apply({"action": "loan"})
    error = unchanged_refusal(game, {"done": True})
    assert "Loan has no repeated part" in str(error)


@pytest.mark.parametrize("move", [
    {"action": ["build"]},
    {"action": ["build"], "card": "x"},
    {"action": {"a": 1}, "card": "x"},
    {"action": "pass", "card": "x", "answers": 5},
    {"action": "pass", "card": "x", "answers": "abc"},
    {"action": "develop", "card": "x", "tiles": 5},
    {"action": "develop", "card": "x", "tiles": [5]},
    {"action": "build", "card": nested(3000)},
    {"card": nested(3000)},
    {"action": "loan", 5: "x"},
    {"action": "loan", "card": 10**5000},
    {"action": "loan", "card": "x" * 100_000},
    {"action": "loan", "card": float("nan")},
    {"action": "loan", "card": object()},
    "loan",
    None,
    ["action", "loan"],
])
def test_malformed_moves_are_refused_not_raised(rs, move: Any) -> None:
    game = Game.new(rs, 2, seed=1)
    unchanged_refusal(game, move)
    explained = game.explain(move)
    assert explained["legal"] is False and explained["failures"]


def test_the_move_is_copied_so_the_caller_may_change_its_dict(rs) -> None:
    game = Game.new(rs, 2, seed=1)
    move = {"action": "pass", "card": game.table.me.hand[0].id}
    game.apply(move)
    saved = game.to_json()
    move["card"] = "changed#1"
    move["extra"] = [1, 2, 3]
    assert game.to_json() == saved
    assert Game.from_json(rs, saved).to_json() == saved


@pytest.mark.parametrize(("players", "seed"), [(5, 1), (1, 1), (True, 1), ("2", 1), (2.0, 1), (2, "1"), (2, 1.5),
                                               (2, None), (2, True)])
def test_a_game_that_cannot_be_set_up_is_a_setup_error(rs, players: Any, seed: Any) -> None:
    with pytest.raises(SetupError) as caught:
        Game.new(rs, players, seed)
    assert isinstance(caught.value, BrassError)


def test_any_whole_number_seed_deals_a_game(rs) -> None:
    assert Game.new(rs, 2, seed=-5).to_json() != Game.new(rs, 2, seed=10**40).to_json()


def saved(rs, **changes: Any) -> str:
    data = json.loads(Game.new(rs, 2, seed=1).to_json())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize("text", [
    '{"format": "brass-game/1", "ruleset": "birmingham", "players": 2, "seed": Infinity, "moves": [], "state": {}}',
    '{"format": "brass-game/1", "ruleset": "birmingham", "players": 2, "seed": NaN, "moves": [], "state": {}}',
    "[" * 100_000 + "]" * 100_000,
    '{"a": ' * 100_000 + "1" + "}" * 100_000,
    "",
    "\udc80",
])
def test_unreadable_saves_are_game_file_errors(rs, text: str) -> None:
    with pytest.raises(GameFileError):
        Game.from_json(rs, text)


@pytest.mark.parametrize("changes", [
    {"seed": 1.5}, {"players": 9}, {"players": "2"}, {"moves": 5}, {"moves": [["action", "loan"]]},
    {"moves": [{"action": nested(100)}]}, {"seed": 10**400}, {"given": 5}, {"given": {"round": 99}},
])
def test_broken_saves_are_game_file_errors(rs, changes: dict[str, Any]) -> None:
    with pytest.raises(GameFileError):
        Game.from_json(rs, saved(rs, **changes))


def test_a_given_position_gives_at_most_a_whole_turn_of_actions(rs) -> None:
    with pytest.raises(GivenError, match="actions_left: 3 is above the highest possible value, 2"):
        Game.from_setup(rs, 2, {"round": 2, "actions_left": 3}, seed=1)
    with pytest.raises(GivenError, match="above the highest possible value, 1"):
        Game.from_setup(rs, 2, {"round": 1, "actions_left": 2}, seed=1)
    assert Game.from_setup(rs, 2, {"round": 2, "actions_left": 2}, seed=1).state.actions_left == 2


def test_a_huge_amount_from_a_ruleset_costs_no_time(rs) -> None:
    """A ruleset may compute any amount (`tile.coal * 1000000000`): taking it is one sum, not a loop
    per cube, so a game cannot hang on it."""
    from interpreter.engine.resources import consume

    game = Game.new(rs, 2, seed=1)
    table = game.table
    with table.editing():
        taken = consume(table, table.me, "coal", 10**15, ["birmingham"])
    assert taken == [{"from": "coal market", "amount": 10**15,
                      "cost": 1 + 2 * (2 + 3 + 4 + 5 + 6 + 7) + (10**15 - 13) * 8}]
    assert table.state.markets["coal"] == 0
