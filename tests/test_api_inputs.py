"""Hostile input to every public method of `Game` and of a seat's view (issue 26, part 4).

Whatever a caller hands the API, only the project's own errors come out (a `BrassError`: an
`IllegalAction`, `SetupError`, `GameFileError` or `GivenError`), an input that is refused leaves
the game exactly as it was (the same `to_json()`), and valid input still works. Hypothesis makes
the input: JSON-like values of every kind (None, whole numbers huge and small, floats with NaN and
infinities, text, lists, mappings with the real keys of a move), real moves and real saves with a
field deleted, replaced or retyped at a random path, player counts and seeds of the wrong type or
range, and malformed positions for `from_setup`. The positions come from both rulesets: at the
start, in the middle of a game, in the middle of an action, with a question open inside an action,
with the round-end shortfall question open (which tiles to remove for unpaid income), and over.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter import BrassError, Game, GameFileError, IllegalAction, SetupError, load_ruleset
from interpreter.engine.errors import Failure
from interpreter.engine.given import GIVEN_KEYS, PLAYER_KEYS, TILE_KEYS, GivenError
from interpreter.engine.rng import Rng
from interpreter.ruleset.model import Ruleset

FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# The keys of moves in both rulesets (the params of every action and of its repeated part, the
# answers, the named sources), so that hostile moves reach past the first check.
MOVE_KEYS = ("action", "card", "industry", "location", "slot", "answer", "answers", "done", "links", "link",
             "tiles", "sales", "tile", "merchant", "merchant_beer", "second_card", "third_card", "via", "port",
             "amount", "coal_from", "iron_from", "beer_from")


# == positions =====================================================================================

@functools.cache
def ruleset(name: str) -> Ruleset:
    return load_ruleset(name)


def between(game: Game) -> bool:
    return game.pending is None and game.question is None


def played(name: str, players: int, seed: int, until: Callable[[Game], bool]) -> Game:
    """A game of random legal decisions (a seeded `Rng`), up to the first position `until` accepts."""
    game, rng = Game.new(ruleset(name), players, seed=seed), Rng(seed)
    for _ in range(3000):
        if until(game):
            return game
        legal = game.legal_actions()
        if not legal:
            break  # the game is over
        game.apply(legal[rng.below(len(legal))])
    raise AssertionError(f"no such position in {name} with seed {seed}")


def shortfall_given() -> dict[str, Any]:
    """Player 2's Pass ends the round; player 1 cannot pay their income (as in test_refusals.py)."""
    return {"round": 3, "turn_order": [1, 2], "current": 2, "actions_left": 1,
            "players": {1: {"money": 3, "income": 0, "vp": 5}, 2: {"hand": ["stafford", "dudley"]}},
            "tiles": [{"slot": "worcester/0", "owner": 1, "industry": "cotton", "level": 1},
                      {"slot": "dudley/0", "owner": 1, "industry": "coal", "level": 1, "cubes": 2}]}


def shortfall_question() -> Game:
    game = Game.from_setup(ruleset("birmingham"), 2, shortfall_given(), seed=1)
    game.apply({"action": "pass", "card": game.table.player(2).hand[0].id})
    assert game.question is not None and game.pending is None and game.deciding_seat == 1
    return game


def mid_action(game: Game) -> bool:
    return len(game.moves) >= 30 and game.pending is not None and game.question is None \
        and bool(game.pending.decisions)


def question_in_action(game: Game) -> bool:
    return game.question is not None and game.pending is not None


def round_end_question(game: Game) -> bool:
    return game.question is not None and game.pending is None


MAKERS: dict[str, Callable[[], Game]] = {
    "birmingham/start": lambda: Game.new(ruleset("birmingham"), 2, seed=1),
    "birmingham/midgame": lambda: played("birmingham", 3, 2, lambda g: len(g.moves) >= 60 and between(g)),
    "birmingham/mid-action": lambda: played("birmingham", 3, 3, mid_action),
    "birmingham/question-in-action": lambda: played("birmingham", 3, 18, question_in_action),
    "birmingham/shortfall": shortfall_question,
    "birmingham/round-end-question": lambda: played("birmingham", 3, 5, round_end_question),
    "birmingham/over": lambda: played("birmingham", 2, 7, lambda g: g.is_over),
    "lancashire/start": lambda: Game.new(ruleset("lancashire"), 3, seed=1),
    "lancashire/midgame": lambda: played("lancashire", 2, 2, lambda g: len(g.moves) >= 60 and between(g)),
    "lancashire/mid-action": lambda: played("lancashire", 3, 3, mid_action),
    "lancashire/question-in-action": lambda: played("lancashire", 3, 4, question_in_action),
    "lancashire/round-end-question": lambda: played("lancashire", 3, 5, round_end_question),
}
POSITIONS = sorted(MAKERS)


@functools.cache
def saved(position: str) -> str:
    return MAKERS[position]().to_json()


def fresh(position: str) -> Game:
    """A new game at the position (from its save: tests may change it)."""
    return Game.from_json(ruleset(position.split("/")[0]), saved(position))


@functools.cache
def legal_moves(position: str) -> tuple[dict[str, Any], ...]:
    """The legal next decisions of a position and, between actions, some of its whole actions."""
    game = fresh(position)
    moves = list(game.legal_actions())
    if between(game) and not game.is_over:
        moves += game.whole_actions()[:40]
    return tuple(moves)


@functools.cache
def ids_of(position: str) -> tuple[Any, ...]:
    """Every id a move could name in the position: actions, cards, industries, locations, slots,
    links, merchant spaces, and the values of its legal decisions."""
    game = fresh(position)
    rs = game.ruleset
    found: set[Any] = {*rs.actions, *game.table.cards, *rs.industries, *rs.locations, *rs.links,
                       *(slot.id for slot in rs.slots), *(m.id for m in game.state.merchants), "market"}
    for move in legal_moves(position):
        found.update(v for _, v in leaves(move) if isinstance(v, (str, int)))
    return tuple(sorted(found, key=repr))


# == hostile values =================================================================================

def scalars(ids: tuple[Any, ...] = ()) -> st.SearchStrategy[Any]:
    real = [st.sampled_from(ids)] if ids else []
    return st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.integers(),
                     st.sampled_from([2**63, 2**63 + 1, -(2**64), 10**400]),
                     st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12), *real)


def json_like(ids: tuple[Any, ...] = (), keys: tuple[str, ...] = MOVE_KEYS) -> st.SearchStrategy[Any]:
    """Any JSON-like value; mappings mostly use the real keys."""
    def containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(keys) | st.text(max_size=6), inner,
                                                             max_size=4)
    return st.recursive(scalars(ids), containers, max_leaves=10)


def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every path into a JSON value, with the value there (the root first)."""
    yield path, value
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from leaves(inner, path + (key,))
    elif isinstance(value, list):
        for n, inner in enumerate(value):
            yield from leaves(inner, path + (n,))


OPERATIONS = ("delete", "replace", "as list", "as mapping", "as text", "as float", "negated", "huge", "add key")


def changed(value: Any, operation: str, replacement: Any) -> Any:
    """`value` retyped or replaced by `operation`."""
    if operation == "as list":
        return [value]
    if operation == "as mapping":
        return {"value": value}
    if operation == "as text":
        return str(value)
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    if operation == "as float":
        return (float(value) + 0.5 if abs(value) < 1e300 else float("inf")) if numeric else float("nan")
    if operation == "negated":
        return -value if numeric else value
    if operation == "huge":
        return value * 10**30 if numeric else 10**30
    return replacement


def mutate(value: Any, path: tuple[Any, ...], operation: str, replacement: Any) -> Any:
    """`value` (a JSON value, changed in place where possible) with the place at `path` changed."""
    if not path:
        return replacement if operation in ("delete", "add key") else changed(value, operation, replacement)
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if operation == "delete":
        del parent[key]
    elif operation == "add key" and isinstance(parent[key], dict):
        parent[key]["unknown" if not isinstance(replacement, str) else replacement or "x"] = replacement
    else:
        parent[key] = changed(parent[key], operation, replacement)
    return value


@st.composite
def mutated(draw: st.DrawFn, original: Any, replacements: st.SearchStrategy[Any],
            within: Callable[[tuple[Any, ...]], bool] = lambda path: True) -> Any:
    """`original` with one to three places changed: deleted, replaced or retyped."""
    value = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        places = [path for path, _ in leaves(value)]
        preferred = [path for path in places if within(path)] or places
        path = draw(st.sampled_from(preferred if draw(st.integers(0, 3)) else places))
        value = mutate(value, path, draw(st.sampled_from(OPERATIONS)), draw(replacements))
    return value


@st.composite
def hostile_moves(draw: st.DrawFn, position: str) -> Any:
    """Anything, the real keys with any values, a whole action of any of the ruleset's actions, a
    whole action legal between actions (at the start or in the middle of a game), or a legal move
    with a part changed (or as it is)."""
    ids = ids_of(position)
    anything = json_like(ids)
    legal = legal_moves(position)
    name = position.split("/")[0]
    real_keys = st.dictionaries(st.sampled_from(MOVE_KEYS), anything, min_size=1, max_size=5)
    actions = st.sampled_from(sorted(ruleset(name).actions))
    elsewhere = legal_moves(f"{name}/start") + legal_moves(f"{name}/midgame")
    kinds = [anything, real_keys, st.builds(lambda action, rest: {**rest, "action": action}, actions, real_keys),
             st.sampled_from(elsewhere)]
    if legal:
        kinds += [st.sampled_from(legal).flatmap(lambda move: mutated(move, anything)), st.sampled_from(legal)]
    return draw(st.one_of(kinds))


# == what every call must do =========================================================================

def own_errors_only(call: Callable[[], Any]) -> tuple[Any, BrassError | None]:
    """The call's result, or the project's error it raised; any other exception fails the test."""
    try:
        return call(), None
    except BrassError as error:
        return None, error


def exercise(game: Game) -> None:
    """Every method without input on a game, and a legal move: only the project's errors."""
    own_errors_only(game.to_json)
    legal, _ = own_errors_only(game.legal_actions)
    own_errors_only(game.copy)
    own_errors_only(game.standings)
    view, _ = own_errors_only(lambda: game.view(1 if game.is_over else game.deciding_seat))
    if view is not None:
        own_errors_only(view.legal_actions)
        own_errors_only(lambda: view.determinize(Rng(1)))
    if legal:
        own_errors_only(lambda: game.explain(legal[0]))
        own_errors_only(lambda: list(game.decisions_of(legal[0])))
        own_errors_only(lambda: game.apply(legal[0]))
        own_errors_only(game.legal_actions)


positions = st.sampled_from(POSITIONS)


# == construction ==================================================================================

@FUZZ
@given(st.sampled_from(("birmingham", "lancashire")), json_like() | st.integers(-3, 8), json_like())
def test_new_refuses_hostile_player_counts_and_seeds_with_a_setup_error(name: str, players: Any, seed: Any) -> None:
    rs = ruleset(name)
    game, error = own_errors_only(lambda: Game.new(rs, players, seed))
    if error is not None:
        assert isinstance(error, SetupError), error
        return
    assert players in rs.players and isinstance(seed, int)
    assert game.legal_actions() and Game.from_json(rs, game.to_json()).to_json() == game.to_json()


@pytest.mark.parametrize("ruleset_argument", [None, "birmingham", 5, {"name": "birmingham"}])
def test_new_and_from_json_refuse_what_is_not_a_ruleset(ruleset_argument: Any) -> None:
    with pytest.raises(SetupError, match="ruleset"):
        Game.new(ruleset_argument, 2, seed=1)
    with pytest.raises(SetupError, match="ruleset"):
        Game.from_setup(ruleset_argument, 2, {"round": 2}, seed=1)
    with pytest.raises(SetupError, match="ruleset"):
        Game.from_json(ruleset_argument, saved("birmingham/start"))


def hostile_givens(name: str) -> st.SearchStrategy[Any]:
    rs = ruleset(name)
    ids = tuple(sorted({*rs.locations, *rs.industries, *(s.id for s in rs.slots), *rs.links, *rs.cards,
                        "coal", "iron", "beer", "canal", "rail"}))
    keys = GIVEN_KEYS + PLAYER_KEYS + TILE_KEYS + ("owner", "link", "tile")
    anything = json_like(ids, keys)
    givens = [real_given(name)] + ([shortfall_given()] if name == "birmingham" else [])
    return st.one_of(anything, st.dictionaries(st.sampled_from(GIVEN_KEYS), anything, max_size=5),
                     st.sampled_from(givens).flatmap(lambda real: mutated(real, anything)))


@functools.cache
def real_given(name: str) -> dict[str, Any]:
    """A position of the middle of a game of the ruleset written as a `given`: its era, round, turn
    order, players' figures and hands, some tiles and links, the markets."""
    game = fresh(f"{name}/midgame")
    state = game.state
    return {"era": game.ruleset.eras[state.era_index].id, "round": state.round, "turn_order": list(state.turn_order),
            "players": {p.seat: {"money": p.money, "vp": p.vp, "hand": [c.face for c in p.hand]}
                        for p in state.players},
            "tiles": [{"slot": sid, "owner": t.owner.seat, "industry": t.spec.industry, "level": t.spec.level}
                      for sid, t in sorted(state.tiles.items())][:4],
            "links": [{"link": link, "owner": seat} for link, seat in sorted(state.links.items())][:3],
            "markets": dict(state.markets)}


@FUZZ
@given(st.data(), st.sampled_from(("birmingham", "lancashire")), st.integers(1, 5) | json_like(),
       st.integers(0, 3) | json_like())
def test_from_setup_refuses_hostile_positions_with_the_projects_errors(data: st.DataObject, name: str, players: Any,
                                                                        seed: Any) -> None:
    rs, given_ = ruleset(name), data.draw(hostile_givens(name), label="given")
    game, error = own_errors_only(lambda: Game.from_setup(rs, players, given_, seed))
    if error is not None:
        assert isinstance(error, (GivenError, SetupError)), error
        return
    exercise(game)


@pytest.mark.parametrize("name", ["birmingham", "lancashire"])
def test_from_setup_still_makes_real_positions(name: str) -> None:
    players = len(fresh(f"{name}/midgame").state.players)
    game = Game.from_setup(ruleset(name), players, real_given(name), seed=1)
    assert game.legal_actions() and Game.from_json(game.ruleset, game.to_json()).to_json() == game.to_json()
    game = shortfall_question()
    assert game.question is not None and game.question["options"] == ["dudley/0", "worcester/0"]


# == saves ===========================================================================================

def with_check(data: Any) -> str:
    """`data` as a save between actions writes it: canonical JSON led by the SHA-256 of the rest, so
    that it is restored from its state (not replayed)."""
    rest = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    if not isinstance(data, dict) or not data:
        return rest
    return '{"check":"' + hashlib.sha256(rest.encode("utf-8", "surrogatepass")).hexdigest() + '",' + rest[1:]


def outside_the_log(path: tuple[Any, ...]) -> bool:
    return path[:2] != ("state", "log")


@st.composite
def mutated_saves(draw: st.DrawFn) -> tuple[str, str]:
    position = draw(positions)
    data = json.loads(saved(position))
    data.pop("check", None)
    data = draw(mutated(data, json_like(ids_of(position)), within=outside_the_log))
    text = with_check(data) if draw(st.booleans()) else json.dumps(data)
    return position, text


@FUZZ
@given(mutated_saves())
def test_from_json_refuses_mutated_saves_with_a_game_file_error(case: tuple[str, str]) -> None:
    position, text = case
    game, error = own_errors_only(lambda: Game.from_json(ruleset(position.split("/")[0]), text))
    if error is not None:
        assert isinstance(error, GameFileError), error
        return
    exercise(game)


@FUZZ
@given(st.sampled_from(("birmingham", "lancashire")),
       json_like().map(lambda value: json.dumps(value)) | st.text(max_size=40) | json_like().map(with_check)
       | st.binary(max_size=10) | json_like())
def test_from_json_refuses_what_is_not_a_save_with_a_game_file_error(name: str, text: Any) -> None:
    _, error = own_errors_only(lambda: Game.from_json(ruleset(name), text))
    assert isinstance(error, GameFileError), error


@pytest.mark.parametrize("position", POSITIONS)
def test_every_position_round_trips_through_its_save(position: str) -> None:
    assert fresh(position).to_json() == saved(position)


def test_a_checked_save_with_a_retyped_field_names_the_field() -> None:
    data = json.loads(saved("birmingham/midgame"))
    data.pop("check")
    data["state"]["players"][1]["hand"] = 5
    with pytest.raises(GameFileError, match=r"state\.players\[1\]\.hand"):
        Game.from_json(ruleset("birmingham"), with_check(data))


# == moves ===========================================================================================

@FUZZ
@given(st.data())
def test_apply_refuses_hostile_moves_and_leaves_the_game_as_it_was(data: st.DataObject) -> None:
    position = data.draw(positions)
    game, move = fresh(position), data.draw(hostile_moves(position))
    deciding = None if game.is_over else game.deciding_seat
    seat = data.draw(st.none() | st.just(deciding) | json_like(), label="seat")
    before = game.to_json()
    _, error = own_errors_only(lambda: game.apply(move, seat=seat))
    if error is not None:
        assert isinstance(error, IllegalAction), error
        assert game.to_json() == before
    if move in legal_moves(position) and seat in (None, deciding):
        assert error is None, f"a legal move was refused: {error}"


@FUZZ
@given(st.data())
def test_explain_answers_hostile_moves_and_changes_nothing(data: st.DataObject) -> None:
    position = data.draw(positions)
    game, move = fresh(position), data.draw(hostile_moves(position))
    before = game.to_json()
    answer, error = own_errors_only(lambda: game.explain(move))
    assert error is None, f"explain raised {error!r}"
    assert game.to_json() == before
    assert set(answer) == {"legal", "failures"} and isinstance(answer["legal"], bool)
    assert all(isinstance(f, Failure) for f in answer["failures"]) and answer["legal"] != bool(answer["failures"])
    if answer["legal"]:  # what explain calls legal, apply takes
        assert own_errors_only(lambda: game.apply(move))[1] is None
    elif isinstance(move, dict) and "action" in move and len(move) > 1:  # … and a whole action it refuses, apply too
        assert isinstance(own_errors_only(lambda: game.apply(move))[1], IllegalAction)


@FUZZ
@given(st.data())
def test_decisions_of_hostile_moves_are_refused_and_change_nothing(data: st.DataObject) -> None:
    position = data.draw(positions)
    game, move = fresh(position), data.draw(hostile_moves(position))
    before = game.to_json()
    _, error = own_errors_only(lambda: list(game.decisions_of(move)))
    assert error is None or isinstance(error, IllegalAction), error
    assert game.to_json() == before

    def take_them() -> None:  # as the trace replayer does: each decision applied before the next is asked for
        for decision in game.decisions_of(move):
            game.apply(decision)
    _, error = own_errors_only(take_them)
    assert error is None or isinstance(error, IllegalAction), error


def test_explain_while_the_shortfall_question_is_open_says_to_answer_it() -> None:
    game = shortfall_question()
    before = game.to_json()
    for move in ({"action": "pass", "card": game.table.player(1).hand[0].id}, {"action": "loan"}, {"action": "build"}):
        answer = game.explain(move)
        assert answer["legal"] is False and answer["failures"][0].rule == "R-TURN-01", answer
    assert game.to_json() == before


@pytest.mark.parametrize(("move", "named"), [
    (None, "mapping"), ("loan", "mapping"), (["action", "loan"], "mapping"),
    ({"action": ["loan"]}, "unknown action"), ({"action": "network", "card": "x", "links": 5}, "links"),
    ({"action": "network", "card": "x", "links": [5]}, "links"),
    ({"action": "loan", "card": float("nan")}, "float"), ({"action": "sell", "card": "x", "answers": "a"}, "answers"),
    ({"action": "build", "card": "x", "coal_from": {"a": 1}}, "coal_from"),
])
def test_decisions_of_a_malformed_action_is_refused_naming_what_is_wrong(move: Any, named: str) -> None:
    game = Game.new(ruleset("birmingham"), 2, seed=1)
    before = game.to_json()
    with pytest.raises(IllegalAction, match=named):
        list(game.decisions_of(move))
    assert game.to_json() == before


HUGE = 10**5000  # more digits than Python prints: a message naming it must not try


@pytest.mark.parametrize("call", [
    lambda rs: Game.new(rs, HUGE, 1), lambda rs: Game.new(rs, 2, HUGE), lambda rs: Game.new(rs, 2, -HUGE),
    lambda rs: Game.from_setup(rs, 2, {"round": 2}, seed=HUGE),
    lambda rs: Game.new(rs, 2, 1).view(HUGE), lambda rs: Game.new(rs, 2, 1).apply({"action": "loan"}, seat=HUGE),
    lambda rs: Game.from_setup(rs, 2, {"round": HUGE}), lambda rs: Game.from_setup(rs, 2, {"players": {HUGE: {}}}),
    lambda rs: Game.from_setup(rs, 2, {"players": {1: {"money": HUGE}}}),
    lambda rs: Game.from_setup(rs, 2, {"tiles": [{"slot": HUGE, "owner": 1, "industry": "coal", "level": 1}]}),
    lambda rs: Game.from_setup(rs, 2, {"round": "x" * 100_000}),
    lambda rs: Game.from_setup(rs, 2, {"players": {1: {"hand": [[[[[[[[["leek"]]]]]]]]]}}}),
])
def test_numbers_too_long_to_print_are_refused_by_the_projects_errors(call: Callable[[Ruleset], Any]) -> None:
    with pytest.raises((SetupError, IllegalAction, GivenError)) as caught:
        call(ruleset("birmingham"))
    assert "Exceeds the limit" not in str(caught.value)


def test_a_seed_of_any_printable_size_deals_a_game_that_saves() -> None:
    game = Game.new(ruleset("birmingham"), 2, seed=-(2**256))
    assert Game.from_json(game.ruleset, game.to_json()).to_json() == game.to_json()


# == views and the methods without input ===============================================================

@FUZZ
@given(positions, st.integers(-1, 5) | json_like(), st.integers(0, 2**64) | json_like())
def test_a_view_refuses_hostile_seats_and_random_generators(position: str, seat: Any, rng: Any) -> None:
    game = fresh(position)
    before = game.to_json()
    view, error = own_errors_only(lambda: game.view(seat))
    if error is not None:
        assert isinstance(error, SetupError), error
        return
    own_errors_only(view.legal_actions)
    generator = Rng(rng) if isinstance(rng, int) and not isinstance(rng, bool) else rng
    made, error = own_errors_only(lambda: view.determinize(generator))
    assert error is None or isinstance(error, (IllegalAction, SetupError)), error
    if isinstance(generator, Rng) and between(game):
        assert made is not None
    assert game.to_json() == before


@pytest.mark.parametrize("position", POSITIONS)
def test_the_methods_without_input_answer_or_refuse_at_every_position(position: str) -> None:
    game = fresh(position)
    before = game.to_json()
    for call in (game.legal_actions, game.whole_actions, game.copy, game.to_json, game.standings):
        _, error = own_errors_only(call)
        assert error is None or (isinstance(error, IllegalAction) and not between(game)), (call, error)
    view = game.view(1 if game.is_over else game.deciding_seat)
    for call in (view.legal_actions, view.whole_actions):
        _, error = own_errors_only(call)
        assert error is None or (isinstance(error, IllegalAction) and not between(game)), (call, error)
    assert game.to_json() == before
    if not game.is_over:
        assert game.legal_actions()
