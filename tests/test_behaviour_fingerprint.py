"""The engine's behaviour, fingerprinted: legal lists, decisions, states and refusals of bot games
in every shipped ruleset are byte-identical to the recorded ones (`bench/legal_lists.py`).

A change meant to keep behaviour (a restructuring, a speed-up) must keep this passing. A change
that is meant to alter what the engine does re-records the file, and says why in its commit:
    python bench/legal_lists.py --games 2 --save tests/data/behaviour_fingerprint.json
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RECORDED = json.loads((ROOT / "tests" / "data" / "behaviour_fingerprint.json").read_text(encoding="utf-8"))


def _script():
    spec = importlib.util.spec_from_file_location("legal_lists", ROOT / "bench" / "legal_lists.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("recorded", [r for r in RECORDED if r["seed"] == 1],
                         ids=lambda r: f"{r['ruleset']}-{r['players']}p-{r['bot']}")
def test_bot_game_is_byte_identical(recorded: dict) -> None:
    found = _script().fingerprint(recorded["ruleset"], recorded["players"], recorded["bot"], recorded["seed"])
    assert found == recorded
