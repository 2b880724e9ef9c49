"""Property: any position the `given` format accepts is one the engine can play on.

Random positions (era, round, money, income, VP, hands, mats, tiles on slots that show their
industry, links, markets) are either refused with located errors (GivenError) or accepted; an
accepted one keeps every invariant, and random legal decisions from it keep them too, each one
being refused or applied without a crash."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.engine.game import Game, IllegalAction
from interpreter.engine.given import GivenError
from interpreter.engine.invariants import check_invariants
from interpreter.engine.rng import Rng
from interpreter.ruleset.loader import load_ruleset

RULESET = load_ruleset("birmingham")
SLOTS = [(s.id, industry) for s in RULESET.slots for industry in s.industries]
LINKS = list(RULESET.links)
FACES = sorted(c.id for c in RULESET.cards.values() if c.count.get(2, 0))


@st.composite
def positions(draw: st.DrawFn) -> dict[str, Any]:
    position: dict[str, Any] = {"era": draw(st.sampled_from(["canal", "rail"])),
                                "round": draw(st.integers(min_value=2, max_value=10))}
    players = {}
    for seat in (1, 2):
        players[seat] = {"money": draw(st.integers(0, 80)), "income": draw(st.integers(0, 99)),
                         "vp": draw(st.integers(0, 150)),
                         "hand": draw(st.lists(st.sampled_from(FACES), min_size=1, max_size=4))}
    position["players"] = players
    chosen = draw(st.lists(st.sampled_from(SLOTS), max_size=6, unique_by=lambda s: s[0]))
    position["tiles"] = [{"slot": slot, "owner": draw(st.sampled_from([1, 2])), "industry": industry,
                          "level": draw(st.integers(1, 3)), "flipped": draw(st.booleans())}
                         for slot, industry in chosen]
    position["links"] = [{"link": link, "owner": draw(st.sampled_from([1, 2]))}
                         for link in draw(st.lists(st.sampled_from(LINKS), max_size=5, unique=True))]
    position["markets"] = {"coal": draw(st.integers(0, 14)), "iron": draw(st.integers(0, 10))}
    position["current"] = draw(st.sampled_from([1, 2]))
    return position


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 2**16))
def test_an_accepted_position_is_playable_and_keeps_the_invariants(position: dict[str, Any], seed: int) -> None:
    try:
        game = Game.from_setup(RULESET, 2, position, seed=1)
    except GivenError as error:
        assert error.diagnostics and all(d.message for d in error.diagnostics)
        return
    assert check_invariants(game.table) == []
    play_on(game, Rng(seed), decisions=25)


def play_on(game: Game, rng: Rng, decisions: int) -> None:
    for _ in range(decisions):
        if game.is_over:
            return
        legal = game.legal_actions()
        assert legal, "a position with no legal decision"
        move = legal[rng.below(len(legal))]
        try:
            game.apply(move)
        except IllegalAction:  # pragma: no cover - a listed decision must apply
            pytest.fail(f"the listed decision {move} was refused")
        problems = check_invariants(game.table)
        assert problems == [], problems
