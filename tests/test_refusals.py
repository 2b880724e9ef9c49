"""Every refusal names a rule: each way the engine refuses a move is walked here, and each refusal
must list at least one failure with a rule ID and the YAML line citing it.

Three checks keep this complete:
- only `refusals.py` and `resources.py` build an `IllegalAction` in the engine (so every refusal
  goes through a builder of `Refusals` or the sourcing refusal);
- every public builder of `Refusals` is reached by one of the cases below (a new builder without a
  case fails `test_every_refusal_builder_is_walked`);
- random bot games in every shipped ruleset, probed with malformed and out-of-place moves at every
  step, raise only refusals with a rule.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, IllegalAction, load_ruleset
from interpreter.engine.refusals import Refusals
from interpreter.engine.rng import Rng

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ("birmingham", "birmingham-intro", "summary-es", "tiebreak-by-level", "what-if", "quasrain-compat",
            "sell-level-ii", "lancashire")
BUILDERS = sorted(name for name, fn in inspect.getmembers(Refusals, inspect.isfunction)
                  if not name.startswith("_") and inspect.signature(fn).return_annotation == "IllegalAction")


def refused(game: Game, move: Any, seat: int | None = None) -> IllegalAction:
    """The refusal of a move, after checking that it names a rule and left the game as it was."""
    before = game.to_json()
    with pytest.raises(IllegalAction) as caught:
        game.apply(move, seat=seat)
    assert game.to_json() == before, "a refused move changed the game"
    assert_names_a_rule(caught.value)
    return caught.value


def refusal_of(game: Game, move: Any, seat: int | None = None) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        game.apply(move, seat=seat)
    return caught.value


def refused_view(game: Game) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        game.view(3 - game.deciding_seat).legal_actions()
    assert_names_a_rule(caught.value)
    return caught.value


def assert_names_a_rule(error: IllegalAction) -> None:
    cited = [f for f in error.failures if f.rule and re.search(r"\.yaml:\d+:\d+$", f.where)]
    assert cited, f"a refusal without a rule and its YAML line:\n{error}"


def card_of(game: Game, seat: int | None = None, nth: int = 0) -> str:
    player = game.table.player(seat) if seat else game.table.me
    return player.hand[nth].id


def shortfall_question() -> Game:
    """Player 2's Pass ends the round; player 1 must choose the tiles to remove for unpaid income."""
    given = {"round": 3, "turn_order": [1, 2], "current": 2, "actions_left": 1,
             "players": {1: {"money": 3, "income": 0, "vp": 5}, 2: {"hand": ["stafford", "dudley"]}},
             "tiles": [{"slot": "worcester/0", "owner": 1, "industry": "cotton", "level": 1},
                       {"slot": "dudley/0", "owner": 1, "industry": "coal", "level": 1, "cubes": 2}]}
    game = Game.from_setup(load_ruleset("birmingham"), 2, given, seed=1)
    game.apply({"action": "pass", "card": card_of(game, 2)})
    assert game.question is not None and game.deciding_seat == 1
    return game


def coal_position() -> Game:
    """Player 1 can build a Manufacturer at Birmingham; Dudley's mine is 1 link away, Wolverhampton's 2."""
    given = {"round": 2, "current": 1, "turn_order": [1, 2],
             "players": {1: {"hand": ["birmingham", "dudley", "coventry"]}},
             "tiles": [{"slot": "dudley/0", "owner": 2, "industry": "coal", "level": 1},
                       {"slot": "wolverhampton/1", "owner": 2, "industry": "coal", "level": 2}],
             "links": [{"link": "L04", "owner": 2}, {"link": "L27", "owner": 2}]}
    return Game.from_setup(load_ruleset("birmingham"), 2, given, seed=1)


def build_manufacturer(game: Game, **extra: Any) -> dict[str, Any]:
    card = next(c.id for c in game.table.me.hand if c.face == "birmingham")
    return {"action": "build", "card": card, "industry": "manufacturer", "location": "birmingham",
            "slot": "birmingham/1", **extra}


def finished_game() -> Game:
    game, rng = Game.new(load_ruleset("birmingham-intro"), 2, seed=3), Rng(3)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.below(len(legal))])
    return game


# -- one case per way of refusing -------------------------------------------------------------------

def cases() -> Iterator[tuple[str, Callable[[], IllegalAction]]]:
    rs = load_ruleset("birmingham")

    def new() -> Game:
        return Game.new(rs, 2, seed=1)

    def mid_loan() -> Game:
        game = new()
        game.apply({"action": "loan"})
        return game

    yield "not_an_action", lambda: refused(new(), 5)
    yield "not_an_action", lambda: refused(new(), {"action": "no-such-action"})
    yield "not_an_action", lambda: refused(new(), {"action": ["build"], "card": "x"})
    yield "not_an_action", lambda: refused(new(), {"nonsense": 1})
    yield "not_an_action", lambda: refused(new(), {"action": "loan", "card": [[[[[[[[[[[1]]]]]]]]]]]})
    yield "action_open", lambda: refused(mid_loan(), {"action": "pass", "card": card_of(new())})
    yield "question_open", lambda: refused(shortfall_question(), {"action": "pass", "card": "x#1"})
    yield "not_deciding", lambda: refused_view(new())
    yield "out_of_turn", lambda: refused(new(), {"action": "loan"}, seat=3 - new().deciding_seat)
    yield "game_is_over", lambda: refused(finished_game(), {"action": "loan"})
    yield "not_possible", lambda: refused(Game.from_setup(rs, 2, {"round": 2, "current": 1, "players": {
        1: {"hand": ["birmingham", "dudley"]}}}, seed=1), {"action": "scout"})
    yield "wrong_key", lambda: refused(mid_loan(), {"industry": "coal"})
    yield "not_among", lambda: refused(mid_loan(), {"card": "no-such-card#1"})

    def pottery_not_developable() -> IllegalAction:
        game = new()
        game.apply({"action": "develop"})
        game.apply({"card": card_of(game)})
        return refused(game, {"industry": "pottery"})

    yield "not_completable", pottery_not_developable
    yield "missing_choice", lambda: refused(new(), {"action": "build", "card": card_of(new())})
    yield "missing_choice", lambda: refused(new(), {"action": "develop", "card": card_of(new()), "tiles": [{}]})
    yield "malformed", lambda: refused(new(), {"action": "pass", "card": card_of(new()), "slott": "x"})
    yield "malformed", lambda: refused(new(), {"action": "pass", "card": card_of(new()), "answers": 5})
    yield "malformed", lambda: refused(new(), {"action": "develop", "card": card_of(new()), "tiles": 5})
    yield "malformed", lambda: refused(coal_position(), build_manufacturer(coal_position(), coal_from="dudley/0"))
    yield "not_done", lambda: refused(mid_loan(), {"done": True})
    yield "unused_answers", lambda: refused(new(), {"action": "pass", "card": card_of(new()), "answers": ["x"]})
    yield "unused_sources", lambda: refused(coal_position(), build_manufacturer(
        coal_position(), coal_from=["dudley/0", "dudley/0"]))
    yield "extra_repeat", lambda: refused(new(), {"action": "develop", "card": card_of(new()), "tiles": [
        {"industry": "coal"}, {"industry": "coal"}, {"industry": "coal"}]})
    yield "bad_answer", lambda: refused(shortfall_question(), {"answer": "birmingham/0"})
    variant = load_ruleset("sell-level-ii")
    level_i_only = {"round": 2, "current": 1, "turn_order": [1, 2],
                    "players": {1: {"hand": ["birmingham", "dudley", "coventry"]}},
                    "tiles": [{"slot": "birmingham/1", "owner": 1, "industry": "manufacturer", "level": 1},
                              {"slot": "stafford/0", "owner": 1, "industry": "brewery", "level": 2, "cubes": 1}],
                    "links": [{"link": "L06", "owner": 1}],
                    "merchants": {"oxford/0": {"tile": "manufacturer", "beer": False},
                                  "oxford/1": {"tile": "cotton", "beer": False}}}
    with_level_ii = {**level_i_only, "tiles": [*level_i_only["tiles"], {"slot": "birmingham/0", "owner": 1,
                                                                         "industry": "cotton", "level": 2}]}

    def selling(given: dict[str, Any], *decisions: dict[str, Any]) -> Game:
        game = Game.from_setup(variant, 2, given, seed=1)
        for decision in ({"action": "sell"}, {"card": card_of(game)}, *decisions):
            game.apply(decision)
        return game

    yield "cannot_start", lambda: refused(Game.from_setup(variant, 2, level_i_only, seed=1), {"action": "sell"})
    yield "whole_unreachable", lambda: refused(selling(with_level_ii), {"tile": "birmingham/1"})
    yield "whole_fails", lambda: refused(selling(
        {**with_level_ii, "tiles": [*with_level_ii["tiles"][:1], {**with_level_ii["tiles"][1], "cubes": 2},
                                    with_level_ii["tiles"][2]]},
        {"tile": "birmingham/1"}, {"merchant": "oxford/0"}, {"merchant_beer": False}), {"done": True})
    yield "sourcing", lambda: refused(coal_position(), build_manufacturer(coal_position(),
                                                                          coal_from=["wolverhampton/1"]))


CASES = list(cases())


@pytest.mark.parametrize(("builder", "case"), CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_each_refusal_names_its_rule(builder: str, case: Callable[[], IllegalAction]) -> None:
    error = case()
    assert error.failures


def test_every_refusal_builder_is_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    called: set[str] = set()
    for name in BUILDERS:
        original = getattr(Refusals, name)

        def spy(self: Refusals, *args: Any, _name: str = name, _original: Any = original, **kw: Any) -> Any:
            called.add(_name)
            return _original(self, *args, **kw)

        monkeypatch.setattr(Refusals, name, spy)
    for _, case in CASES:
        case()
    assert sorted(set(BUILDERS) - called) == []


def test_only_the_refusal_modules_build_refusals() -> None:
    engine = ROOT / "interpreter" / "engine"
    builders = {p.name for p in engine.glob("*.py") if "IllegalAction(" in p.read_text(encoding="utf-8")}
    assert builders == {"errors.py", "refusals.py", "resources.py"}


def test_the_14_link_limit_refuses_a_second_rail_link_with_its_own_rule() -> None:
    """R-SETUP-08: with one link tile left, the second rail link of a double Network is refused for
    the link tiles, judged while it is still the player's turn (not 'the game is over', not R-LINK-01)."""
    rs = load_ruleset("birmingham")
    game = Game.from_setup(rs, 2, {"era": "rail", "round": 2, "current": 1, "turn_order": [1, 2],
                                   "players": {1: {"money": 30, "hand": ["birmingham", "dudley"], "links_left": 1}},
                                   "tiles": [{"slot": "birmingham/1", "owner": 1, "industry": "manufacturer",
                                              "level": 2, "flipped": True},
                                             {"slot": "dudley/0", "owner": 2, "industry": "coal", "level": 2},
                                             {"slot": "stafford/0", "owner": 1, "industry": "brewery", "level": 2}]},
                           seed=1)
    error = refused(game, {"action": "network", "card": card_of(game), "links": [{"link": "L04"}, {"link": "L27"}]})
    assert [f.rule for f in error.failures] == ["R-SETUP-08"]
    assert error.failures[0].message == "You have no link tiles left."


@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_games_probed_at_every_step_refuse_only_with_rules(ruleset: str) -> None:
    rs = load_ruleset(ruleset)
    probes: list[Any] = [None, [], {"action": "no-such-action"}, {"card": "no-such-card#1"}, {"done": True},
                         {"answer": "nowhere"}, {"action": "build", "card": "no-such-card#1"},
                         {"action": "pass", "card": "no-such-card#1", "answers": ["x"]}, {"industry": "pottery"}]
    for seed in (1, 2):
        game, rng = Game.new(rs, 3, seed=seed), Rng(seed)
        while not game.is_over:
            legal = game.legal_actions()
            for probe in probes:
                if probe not in legal:
                    assert_names_a_rule(refusal_of(game, probe))
            other = 1 + game.deciding_seat % 3
            move = legal[rng.below(len(legal))]
            assert_names_a_rule(refusal_of(game, move, seat=other))
            game.apply(move, seat=game.deciding_seat)
        assert_names_a_rule(refusal_of(game, {"action": "loan"}))
