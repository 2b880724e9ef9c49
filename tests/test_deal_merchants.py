"""The `deal_merchants` effect (issue 27, item 4a): the merchant tiles of the player count dealt
again with the game's own generator, as at setup (R-SETUP-04/05), shown with
tests/data/merchants-each-round (a deal at the end of every round, R-MDEAL-01)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import load_ruleset

VARIANT = Path(__file__).resolve().parent / "data" / "merchants-each-round"


def tiles(g: Game) -> list[tuple[str, str, bool]]:
    return [(m.id, m.tile, m.has_beer) for m in g.state.merchants]


def end_round(g: Game) -> None:
    """Every player passes their actions until the round number changes."""
    start = g.state.round
    while g.state.round == start and not g.state.finished:
        g.apply({"action": "pass", "card": g.table.me.hand[0].id})


def test_each_round_end_deals_the_same_tiles_again_with_the_games_generator() -> None:
    """3 players: 7 merchant spaces in use (R-SETUP-04); after each round the same multiset of
    tiles lies on them, each non-blank one with a barrel (R-SETUP-05), and the deal is what the
    game's generator gives: two games of the same seed deal alike, the base game never re-deals."""
    g, twin, base = (Game.new(load_ruleset(VARIANT), 3, 7), Game.new(load_ruleset(VARIANT), 3, 7),
                     Game.new(load_ruleset("birmingham"), 3, 7))
    setup = tiles(g)
    assert len(setup) == 7 and tiles(base) == setup
    deals = []
    for _ in range(3):
        for m in g.state.merchants:
            m.has_beer = False  # barrels used up: the deal brings them back
        for game in (g, twin, base):
            end_round(game)
        deals.append(tiles(g))
        assert Counter(t for _, t, _ in tiles(g)) == Counter(t for _, t, _ in setup)
        assert all(beer == (t != "blank") for _, t, beer in tiles(g))
        assert [t for _, t, _ in tiles(twin)] == [t for _, t, _ in tiles(g)]
        assert tiles(base) == setup
    assert len({tuple(d) for d in deals} | {tuple(setup)}) > 1  # the tiles moved
    events = [e for e in g.state.log if e["event"] == "merchants dealt"]
    assert len(events) == 3 and events[-1]["merchants"] == {i: t for i, t, _ in tiles(g)}


def test_a_saved_game_deals_the_same_tiles() -> None:
    """The generator's state is part of the save: a game restored before the round's end deals
    exactly what the original deals."""
    g = Game.new(load_ruleset(VARIANT), 2, 3)
    restored = Game.from_json(g.ruleset, g.to_json())
    end_round(g)
    end_round(restored)
    assert tiles(restored) == tiles(g)


def test_deal_merchants_is_refused_inside_an_action(tmp_path: Path) -> None:
    (tmp_path / "ruleset.yaml").write_text(
        f"name: t\nextends: {VARIANT}\nactions:\n  pass:\n    effects: [deal_merchants]\n", encoding="utf-8")
    with pytest.raises(RulesetError) as refused:
        load_ruleset(tmp_path)
    assert "ruleset.yaml:5:15: effect 'deal_merchants' cannot be used here (action); it belongs in: era, round" \
        in str(refused.value)
