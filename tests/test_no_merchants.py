"""A ruleset may leave out `merchants` and `merchant_tiles` (docs/ruleset-format.md): both read as
empty tables, and nothing in the engine assumes a merchant exists. Birmingham without its
merchants.yaml (and without the rule texts that quote merchant bonuses) loads and plays to the end."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from interpreter.engine.game import Game
from interpreter.engine.invariants import check_invariants
from interpreter.engine.rng import Rng
from interpreter.ruleset.loader import load_ruleset

BIRMINGHAM = Path(__file__).resolve().parents[1] / "rulesets" / "birmingham"


def without_merchants(tmp_path: Path) -> Path:
    folder = tmp_path / "no-merchants"
    shutil.copytree(BIRMINGHAM, folder)
    (folder / "merchants.yaml").unlink()
    root = folder / "ruleset.yaml"
    root.write_text(root.read_text(encoding="utf-8").replace("name: birmingham", "name: no-merchants", 1))
    rules = folder / "rules.yaml"  # the texts of the merchant bonuses read them from merchants.yaml
    rules.write_text(re.sub(r"\{bonus\([^}]*\)\}", "2", rules.read_text(encoding="utf-8")))
    return folder


def test_a_ruleset_without_merchant_sections_loads_and_plays(tmp_path: Path) -> None:
    """No merchant space, no merchant tile: no Sell is ever legal (nothing buys), and a random
    two-player game ends, every card played, with every invariant holding."""
    rs = load_ruleset(without_merchants(tmp_path))
    assert rs.merchants == {}
    assert (rs.data["merchants"], rs.data["merchant_tiles"]) == ({}, {})
    game, rng = Game.new(rs, 2, seed=5), Rng(5)
    assert game.state.merchants == []
    while not game.is_over:
        legal = game.legal_actions()
        assert {"action": "sell"} not in legal
        game.apply(legal[rng.below(len(legal))])
        assert check_invariants(game.table) == []
    assert all(m.get("action") != "sell" for m in game.moves)
    # the game ran to its end as Birmingham's does: every card of the Rail Era played
    assert [len(game.table.player(seat).hand) for seat in (1, 2)] == [0, 0]
