"""The public Game API: reproducibility, JSON round trips, atomic refusal of illegal actions,
and the agreement of `legal_actions()` with `apply()`."""

from __future__ import annotations

import json

import pytest

from interpreter.engine.decisions import DecisionEngine
from interpreter.engine.game import Game, GameFileError, IllegalAction
from interpreter.engine.rng import Rng
from interpreter.ruleset.loader import load_ruleset


@pytest.fixture(scope="module")
def rs():
    return load_ruleset("birmingham")


def play(game: Game, decisions: int, seed: int) -> None:
    rng = Rng(seed)
    for _ in range(decisions):
        if game.is_over:
            return
        legal = game.legal_actions()
        game.apply(legal[rng.below(len(legal))])


def test_same_seed_and_moves_give_identical_json(rs) -> None:
    a, b = Game.new(rs, 3, seed=7), Game.new(rs, 3, seed=7)
    play(a, 60, seed=1)
    for move in a.moves:
        b.apply(move)
    assert a.to_json() == b.to_json()
    assert a.state_hash() == b.state_hash()


def test_different_seeds_deal_differently(rs) -> None:
    hands = {tuple(c.id for c in Game.new(rs, 4, seed=s).state.players[0].hand) for s in range(5)}
    assert len(hands) == 5


def test_json_round_trip(rs) -> None:
    game = Game.new(rs, 4, seed=3)
    play(game, 80, seed=3)
    text = game.to_json()
    again = Game.from_json(rs, text)
    assert again.to_json() == text


def test_corrupt_save_is_refused(rs) -> None:
    game = Game.new(rs, 2, seed=1)
    play(game, 20, seed=2)
    data = json.loads(game.to_json())
    data["state"]["players"][0]["money"] += 5
    with pytest.raises(GameFileError, match="does not match"):
        Game.from_json(rs, json.dumps(data))
    with pytest.raises(GameFileError):
        Game.from_json(rs, "{not json")
    with pytest.raises(GameFileError, match="format"):
        Game.from_json(rs, json.dumps({"format": "other"}))


def test_setup_numbers(rs) -> None:
    """R-SETUP-06/08/09/10: markets, £17, income space 10, 8 cards + 1 face down, 14 links."""
    game = Game.new(rs, 4, seed=11)
    assert game.state.markets == {"coal": 13, "iron": 8}
    for player in game.state.players:
        assert (player.money, player.income_position, player.vp, player.links_left) == (17, 10, 0, 14)
        assert (len(player.hand), len(player.discard)) == (8, 1)
    assert len(game.state.deck) == 64 - 4 * 9
    assert game.state.actions_left == 1  # R-TURN-03
    assert sorted(game.state.turn_order) == [1, 2, 3, 4]


def test_illegal_whole_action_lists_every_reason_and_changes_nothing(rs) -> None:
    game = Game.new(rs, 2, seed=5)
    me = game.table.me
    me.income_position = 2  # level -8: a loan would take income below -10 (R-LOAN-02)
    before = game.to_json()
    card = me.hand[0].id
    with pytest.raises(IllegalAction) as refused:
        game.apply({"action": "loan", "card": card})
    assert [f.rule for f in refused.value.failures] == ["R-LOAN-02"]
    assert "below level -10" in refused.value.failures[0].message
    assert "actions.yaml" in refused.value.failures[0].where
    assert game.to_json() == before


def test_loan_moves_the_marker_three_levels_to_the_top_space(rs) -> None:
    """R-LOAN-01: from space 10 (level 0) to level -3, whose top space is 7; +£30."""
    game = Game.new(rs, 2, seed=5)
    me = game.table.me
    game.apply({"action": "loan", "card": me.hand[0].id})
    assert (me.money, me.income_position, game.table.income_level(me)) == (47, 7, -3)
    assert me.spent == 0  # R-LOAN-03: the £30 is not spent


def test_explain_reports_failures_with_rule_ids(rs) -> None:
    game = Game.new(rs, 2, seed=5)
    game.table.me.income_position = 0
    result = game.explain({"action": "loan", "card": game.table.me.hand[0].id})
    assert result["legal"] is False
    assert [f.rule for f in result["failures"]] == ["R-LOAN-02"]
    assert game.explain({"action": "pass", "card": game.table.me.hand[0].id})["legal"] is True


def test_every_listed_decision_applies_and_an_unlisted_one_is_refused(rs) -> None:
    game = Game.new(rs, 3, seed=21)
    play(game, 40, seed=21)
    base = game.to_json()
    legal = game.legal_actions()
    assert legal
    for decision in legal:
        trial = Game.from_json(rs, base)
        trial.apply(decision)  # never raises: listed means completable
    key = next(iter(legal[0]))
    if key != "action":
        with pytest.raises(IllegalAction):
            game.apply({key: "no-such-value"})
    else:
        with pytest.raises(IllegalAction):
            game.apply({"action": "no-such-action"})
    assert game.to_json() == base


@pytest.mark.parametrize("players, actions", [(2, 78), (3, 105), (4, 124)])
def test_random_game_runs_to_the_end_with_the_rulebook_card_arithmetic(rs, players: int, actions: int) -> None:
    """R-SETUP-12 / R-TURN-03: 2 actions a turn (1 in the first Canal round) for 10/9/8 rounds an era."""
    game = Game.new(rs, players, seed=players)
    rng = Rng(players)
    started = 0
    while not game.is_over:
        legal = game.legal_actions()
        decision = legal[rng.below(len(legal))]
        started += "action" in decision
        game.apply(decision)
    assert started == actions
    assert not game.state.deck and all(not p.hand for p in game.state.players)
    assert game.standings()[0]["place"] == 1
    # after the end nothing is accepted, and the refusal cites the rule that ends the game
    assert game.legal_actions() == []
    before = game.to_json()
    with pytest.raises(IllegalAction) as refused:
        game.apply({"action": "pass"})
    assert [f.rule for f in refused.value.failures] == ["R-END-01"]
    assert game.explain({"action": "loan", "card": "x"})["failures"][0].rule == "R-END-01"
    assert game.to_json() == before


def test_a_value_outside_the_choices_is_explained_by_the_rule_that_excludes_it(rs) -> None:
    """A location card names its own town (R-BUILD-02): Dudley is not among the choices of a
    Coventry card, and the refusal says which rule excludes it, not only that it is not listed."""
    game = Game.from_setup(rs, 2, {"round": 2, "current": 1, "players": {1: {"hand": ["coventry", "dudley"]}}}, 1)
    card = next(c.id for c in game.table.player(1).hand if c.face == "coventry")
    failures = game.explain({"action": "build", "card": card, "industry": "coal", "location": "dudley",
                             "slot": "dudley/0"})["failures"]
    assert [(f.rule, f.message) for f in failures] == [
        ("R-BUILD-02", "'dudley' is not a possible location"),
        ("R-BUILD-02", "This location card lets you build only in Coventry."),
    ]


def test_one_repetition_too_many_cites_the_rule_of_the_limit(rs) -> None:
    game = Game.from_setup(rs, 2, {"round": 2, "current": 1, "players": {1: {"money": 30, "hand": ["dudley"]}}}, 1)
    card = game.table.player(1).hand[0].id
    with pytest.raises(IllegalAction) as refused:
        game.apply({"action": "develop", "card": card,
                    "tiles": [{"industry": "coal"}, {"industry": "iron"}, {"industry": "cotton"}]})
    assert [(f.rule, f.message) for f in refused.value.failures] == [
        ("R-DEV-01", "Develop allows at most 2 tiles in one action.")]
    assert game.table.player(1).money == 30


def test_the_search_order_changes_the_work_not_the_answer(rs) -> None:
    """Build is searched industry first (its tiles-left, era and price checks need only the
    industry); whether each action can be completed is the same in either order, all game long."""
    from interpreter.engine.decisions import search_order

    build = rs.actions["build"]
    assert [p.name for p in search_order(build.part).params] == ["industry", "card", "location", "slot"]
    assert search_order(rs.actions["scout"].part) is rs.actions["scout"].part  # nothing gained: kept as written
    game, rng = Game.new(rs, 3, seed=5), Rng(5)
    while not game.is_over:
        if game.pending is None and game.question is None:
            engine = DecisionEngine(game.table)
            for action in rs.actions.values():
                written = engine.part_completable(action.part, engine.env({"@action": action.id}))
                engine.forget()
                assert engine.action_completable(action, engine.env({})) == written, action.id
                engine.forget()
        legal = game.legal_actions()
        game.apply(legal[rng.below(len(legal))])


def test_the_search_memo_is_keyed_by_what_the_rest_of_the_action_reads(rs) -> None:
    """The links of a Network do not read its card: whether they can be placed is searched once
    per state, whichever card is tried; the rest of a Build after its card reads the card."""
    engine = DecisionEngine(Game.new(rs, 2, seed=1).table)
    network, build = rs.actions["network"], rs.actions["build"]
    assert "card" not in engine.reads(network.part, 1)
    assert "nth" in engine.reads(network.repeat.part, 0) and "card" not in engine.reads(network.repeat.part, 0)
    assert {"card", "industry", "tile"} <= set(engine.reads(build.part, 2))


def test_a_save_between_actions_is_restored_from_its_state_without_replaying(rs, monkeypatch) -> None:
    game = Game.new(rs, 3, seed=4)
    play(game, 60, seed=4)
    while game.pending is not None or game.question is not None:
        game.apply(game.legal_actions()[0])
    text = game.to_json()
    assert text.startswith('{"check":"')
    monkeypatch.setattr(Game, "apply", lambda *a, **k: pytest.fail("a checked save must not be replayed"))
    again = Game.from_json(rs, text)
    assert again.to_json() == text and again.moves == game.moves
    monkeypatch.undo()
    move = again.legal_actions()[0]
    again.apply(move)
    game.apply(move)
    assert again.to_json() == game.to_json()


def test_saves_without_a_valid_check_are_replayed_and_compared(rs) -> None:
    game = Game.new(rs, 2, seed=6)
    play(game, 30, seed=6)
    while game.pending is not None or game.question is not None:
        game.apply(game.legal_actions()[0])
    text = game.to_json()
    reformatted = json.dumps(json.loads(text), indent=2)  # edited by hand, same content: replayed, accepted
    assert Game.from_json(rs, reformatted).to_json() == text
    game.apply({"action": "loan"})  # half an action: no check, replayed
    half = game.to_json()
    assert not half.startswith('{"check"') and Game.from_json(rs, half).to_json() == half


def test_a_save_with_a_forged_check_must_still_be_a_possible_state(rs) -> None:
    import hashlib

    game = Game.new(rs, 2, seed=1)
    data = json.loads(game.to_json())
    data.pop("check")
    data["state"]["players"][0]["money"] = -5  # a state no game reaches
    rest = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    forged = '{"check":"' + hashlib.sha256(rest.encode()).hexdigest() + '",' + rest[1:]
    with pytest.raises(GameFileError, match="not a possible state"):
        Game.from_json(rs, forged)
