"""`Game.whole_actions()`: every legal whole action of a position, found by one search that forks
mid-action, is exactly what walking every decision path finds, each applies, and the search leaves
the position as it was."""

from __future__ import annotations

import json
from typing import Any

import pytest

from interpreter import Game, IllegalAction, load_ruleset
from interpreter.engine.rng import Rng
from interpreter.tools.bots.ladder import bot_seed, decide, make_bot


def brute_whole_actions(game: Game) -> list[dict[str, Any]]:
    """Every decision path from the position, each on a fresh copy, the action's own questions
    answered with their default (as `apply` does without answers)."""
    found: list[dict[str, Any]] = []
    actor = game.deciding_seat

    def replay(path: list[dict[str, Any]]) -> Game:
        g = game.copy()
        for decision in path:
            g.apply(decision)
            while g.question is not None and g.pending is not None and g.question["player"] == actor:
                g.apply({"answer": g.question["options"][0]})
        return g

    def finish(whole: dict[str, Any], reps: list[dict[str, Any]]) -> None:
        action = game.ruleset.actions[whole["action"]]
        found.append({**whole, action.repeat.name: reps} if action.repeat is not None else dict(whole))

    def walk(path: list[dict[str, Any]], whole: dict[str, Any], reps: list[dict[str, Any]],
             current: dict[str, Any]) -> None:
        g = replay(path)
        if g.pending is None:
            finish(whole, reps)
            return
        for decision in g.legal_actions():
            if decision == {"done": True}:
                finish(whole, reps)
                continue
            [(key, value)] = decision.items()
            pending = g.pending
            if pending.in_repeat:
                assert pending.action.repeat is not None
                chosen = {**current, key: value}
                if len(chosen) == len(pending.action.repeat.part.params):
                    walk([*path, decision], whole, [*reps, chosen], {})
                else:
                    walk([*path, decision], whole, reps, chosen)
            else:
                walk([*path, decision], {**whole, key: value}, reps, current)

    for first in game.legal_actions():
        walk([first], dict(first), [], {})
    return found


def canonical(moves: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(m, sort_keys=True) for m in moves)


def positions(ruleset: str, players: int, seed: int, bot: str, every: int) -> list[Game]:
    """Positions between actions of a bot game, every `every`-th."""
    game = Game.new(load_ruleset(ruleset), players, seed)
    bots = {s: make_bot(bot, bot_seed(seed, s)) for s in range(1, players + 1)}
    found, n = [], 0
    while not game.is_over:
        if game.pending is None and game.question is None:
            n += 1
            if n % every == 0:
                found.append(game.copy())
        game.apply(decide(bots[game.deciding_seat], game))
    return found


RAIL_DOUBLE_LINK = {  # rail era, money for two links, coal and beer around: many double Networks
    "era": "rail", "round": 2, "current": 1, "turn_order": [1, 2],
    "players": {1: {"money": 40, "hand": ["birmingham", "dudley", "coventry"]}},
    "tiles": [{"slot": "birmingham/1", "owner": 1, "industry": "manufacturer", "level": 2, "flipped": True},
              {"slot": "dudley/0", "owner": 2, "industry": "coal", "level": 2, "cubes": 2},
              {"slot": "coventry/1", "owner": 2, "industry": "coal", "level": 2, "cubes": 2},
              {"slot": "stafford/0", "owner": 1, "industry": "brewery", "level": 2, "cubes": 2}],
}
TWO_SALES = {  # two sellable tiles, merchant beer and a brewery: sales in either order, with or without beer
    "round": 2, "current": 1, "turn_order": [1, 2],
    "players": {1: {"hand": ["birmingham", "dudley", "coventry"]}},
    "tiles": [{"slot": "birmingham/1", "owner": 1, "industry": "manufacturer", "level": 1},
              {"slot": "birmingham/0", "owner": 1, "industry": "cotton", "level": 1},
              {"slot": "stafford/0", "owner": 1, "industry": "brewery", "level": 2, "cubes": 2}],
    "links": [{"link": "L06", "owner": 1}],
    "merchants": {"oxford/0": {"tile": "manufacturer", "beer": True}, "oxford/1": {"tile": "cotton", "beer": True}},
}


ONE_BARREL_FOR_TWO_SALES = {**TWO_SALES, "tiles": [
    {"slot": "birmingham/1", "owner": 1, "industry": "manufacturer", "level": 1},
    {"slot": "birmingham/0", "owner": 1, "industry": "cotton", "level": 2},
    {"slot": "stafford/0", "owner": 1, "industry": "brewery", "level": 2, "cubes": 1}],
    "merchants": {"oxford/0": {"tile": "manufacturer", "beer": False}, "oxford/1": {"tile": "cotton", "beer": False}}}


CANAL_LINKS = {  # the Canal Era: one link per Network (R-LINK-02), judged before any link is tried
    "round": 2, "current": 1, "turn_order": [1, 2],
    "players": {1: {"money": 20, "hand": ["birmingham", "dudley", "coventry"]}},
    "tiles": [{"slot": "birmingham/1", "owner": 1, "industry": "manufacturer", "level": 1}],
    "links": [{"link": "L06", "owner": 1}],
}
TWO_IRON_WORKS = {  # Develop's iron from either of two works (R-IRON-02): a question at every tile, its default taken
    "round": 2, "current": 1, "turn_order": [1, 2],
    "players": {1: {"money": 30, "hand": ["birmingham", "dudley", "coventry"]}},
    "tiles": [{"slot": "derby/2", "owner": 2, "industry": "iron", "level": 1, "cubes": 2},
              {"slot": "walsall/0", "owner": 2, "industry": "iron", "level": 2, "cubes": 2}],
}


@pytest.mark.parametrize(("ruleset", "given"), [
    ("birmingham", RAIL_DOUBLE_LINK), ("birmingham", TWO_SALES), ("sell-level-ii", TWO_SALES),
    ("sell-level-ii", ONE_BARREL_FOR_TWO_SALES), ("birmingham", CANAL_LINKS), ("birmingham", TWO_IRON_WORKS)],
    ids=["rail-double-link", "two-sales", "whole-check-two-sales", "whole-check-one-barrel", "canal-links",
         "two-iron-works"])
def test_a_rich_position_lists_what_every_decision_path_reaches(ruleset: str, given: dict[str, Any]) -> None:
    game = Game.from_setup(load_ruleset(ruleset), 2, given, seed=1)
    listed = game.whole_actions()
    assert canonical(listed) == canonical(brute_whole_actions(game))
    assert len(listed) == len(canonical(listed)), "each whole action once"


@pytest.mark.parametrize(("ruleset", "players", "seed", "bot", "every"), [
    ("birmingham", 4, 1, "greedy", 17), ("birmingham", 3, 2, "random", 23), ("summary-es", 2, 3, "greedy", 11),
    ("birmingham-intro", 2, 4, "greedy", 9), ("sell-level-ii", 2, 5, "greedy", 13),
])
def test_bot_game_positions_list_what_every_decision_path_reaches(ruleset: str, players: int, seed: int,
                                                                   bot: str, every: int) -> None:
    for game in positions(ruleset, players, seed, bot, every):
        assert canonical(game.whole_actions()) == canonical(brute_whole_actions(game))


def test_a_canal_network_lists_one_link_and_a_develop_asks_its_iron_of_no_one() -> None:
    """R-LINK-02: one link per Network in the Canal Era, though money and links would allow more;
    R-DEV-01/02: two tiles developed with iron from either works, listed once each (the questions
    which works keep their default), and each whole action applies without a question left open."""
    canal = Game.from_setup(load_ruleset("birmingham"), 2, CANAL_LINKS, seed=1)
    networks = [m for m in canal.whole_actions() if m["action"] == "network"]
    assert networks and all(len(m["links"]) == 1 for m in networks)
    develop = Game.from_setup(load_ruleset("birmingham"), 2, TWO_IRON_WORKS, seed=1)
    developed = [m for m in develop.whole_actions() if m["action"] == "develop"]
    assert any(len(m["tiles"]) == 2 for m in developed)
    for move in developed:
        trial = develop.copy()
        trial.apply(move)
        assert trial.pending is None and trial.question is None


def test_every_listed_action_applies_and_listing_changes_nothing() -> None:
    game = Game.from_setup(load_ruleset("birmingham"), 2, TWO_SALES, seed=1)
    before, me = game.to_json(), game.table.me
    listed = game.whole_actions()
    assert game.to_json() == before and game.table.me is me
    assert any(m["action"] == "sell" and len(m["sales"]) == 2 for m in listed)
    for move in listed:
        trial = game.copy()
        trial.apply(move)
        assert trial.pending is None


def test_whole_actions_only_between_actions() -> None:
    game = Game.new(load_ruleset("birmingham"), 2, seed=1)
    game.apply({"action": "loan"})
    with pytest.raises(IllegalAction):
        game.whole_actions()


def test_a_finished_game_has_no_whole_actions() -> None:
    game, rng = Game.new(load_ruleset("birmingham-intro"), 2, seed=5), Rng(5)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.below(len(legal))])
    assert game.whole_actions() == []
