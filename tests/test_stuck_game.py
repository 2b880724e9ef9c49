"""A ruleset whose flow never deals the hands again (a variant without `deal_hands` at the Canal
Era's end) used to play empty rounds for ever, the log growing until memory ran out (found by
`brass verify --mutate`). The engine says at once that the game cannot go on."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.errors import StuckGame
from interpreter.tools.bots.ladder import bot_seed, decide, make_bot

NO_DEAL = """name: no-deal
title: No deal
version: "1"
extends: birmingham
eras:
  $patch:
    key: id
    set:
      - id: canal
        end:
          $patch:
            key: $name
            remove: [deal_hands]
"""


def test_a_flow_that_never_deals_the_hands_stops_with_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "no-deal").mkdir()
    (tmp_path / "no-deal" / "ruleset.yaml").write_text(NO_DEAL, encoding="utf-8")
    game = Game.new(load_ruleset(tmp_path / "no-deal"), 2, seed=1)
    bots = {seat: make_bot("greedy", bot_seed(1, seat)) for seat in (1, 2)}
    with pytest.raises(StuckGame) as stuck:
        for _ in range(5000):  # a whole Canal Era at 2 players is a few hundred decisions
            game.apply(decide(bots[game.deciding_seat], game))
    assert str(stuck.value).startswith("the game cannot go on: round 1 of the Rail Era begins with no card in any "
                                       "hand and 40 in the draw deck")


def test_the_full_game_is_not_stuck() -> None:
    game = Game.new(load_ruleset("birmingham"), 2, seed=1)
    bots = {seat: make_bot("greedy", bot_seed(1, seat)) for seat in (1, 2)}
    while not game.is_over:
        game.apply(decide(bots[game.deciding_seat], game))
    assert game.state.era_index == 1
