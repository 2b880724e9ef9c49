"""Variants that patch one of several list entries with `$at` (docs/extends.md, rule 5; issue 27,
item 4b), and the scenarios of the test variants under tests/data/variant-scenarios/."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.model import EffectStep
from interpreter.tools.scenarios.scenario import load_scenario, run_scenario

DATA = Path(__file__).resolve().parent / "data"
SCENARIOS = sorted((DATA / "variant-scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_variant_scenario(path: Path) -> None:
    result = run_scenario(load_scenario(path), check=True)
    assert result.passed, "\n".join(str(f) for f in result.failures)


def test_scout_two_cards_drops_only_the_third_discard_step() -> None:
    """R-SCOUT-01 in the variant: the base's five effect steps less the third `discard`."""
    base = load_ruleset("birmingham").actions["scout"].part
    variant = load_ruleset(DATA / "scout-two-cards").actions["scout"].part
    assert [p.name for p in variant.params] == ["card", "second_card"]
    steps = [_written(s) for s in variant.effects]
    assert [_written(s) for s in base.effects][:3] == [
        ("discard", {"card": "card"}), ("discard", {"card": "second_card"}), ("discard", {"card": "third_card"})]
    assert steps == [("discard", {"card": "card"}), ("discard", {"card": "second_card"}),
                     ("gain_wild_card", {"kind": "wild_location"}), ("gain_wild_card", {"kind": "wild_industry"})]
    assert str(variant.effects[2].pos).startswith(str(base.effects[3].pos))  # inherited: the base's line


def _written(step: EffectStep) -> tuple[str, dict[str, str]]:
    """A step as written: its name and each argument's text."""
    return step.name, {k: getattr(v, "text", v) for k, v in step.args.items()}
