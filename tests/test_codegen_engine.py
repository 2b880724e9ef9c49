"""Generated code in the engine gives what the closures give.

The engine with the condition language's closures only (`BRASS_NO_CODEGEN=1`, no expression
written out as one function: brass_dsl/codegen.py) plays a fingerprinted game byte-identically, as
the default path does in tests/test_behaviour_fingerprint.py: both paths stay tested. And the
preconditions of a choice judged by one generated function (`checks.fused`) agree with
`checks.all_hold` at every node of a search, what they remember included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.checks import all_hold, fused
from interpreter.ruleset.primitives import ACTION_VAR
from interpreter.tools.bots.ladder import decide, make_bot

ROOT = Path(__file__).resolve().parents[1]
RECORDED = json.loads((ROOT / "tests" / "data" / "behaviour_fingerprint.json").read_text(encoding="utf-8"))
SCRIPT = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("legal_lists", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(json.dumps(module.fingerprint("birmingham", 2, "greedy", 1)))
"""


def test_closures_only_give_the_same_game() -> None:
    game = ("birmingham", 2, "greedy", 1)
    recorded = next(r for r in RECORDED if (r["ruleset"], r["players"], r["bot"], r["seed"]) == game)
    env = {**os.environ, "BRASS_NO_CODEGEN": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT / "bench" / "legal_lists.py")], env=env,
                          capture_output=True, text=True, check=True, timeout=300)
    assert json.loads(done.stdout) == recorded


def _compare_levels(decisions: Any, part: Any, i: int, env: Any) -> int:
    """At every node of the part's search below param `i`: the generated judgement of the
    preconditions (`checks.fused`) agrees with `checks.all_hold`, memo included. Nodes compared."""
    if i == len(part.params):
        return 0
    plan, name, compared = decisions.plan(part), part.params[i].name, 0
    for value in decisions.domain(part, i, env)[:12]:
        env.vars[name] = value
        decisions.bind_derived(plan.derived_at[i], env)
        memo: dict = {}
        expected = all_hold(plan.requires_at[i], env, memo)
        generated_memo: dict = {}
        assert fused(plan.requires_at[i])(env, generated_memo) == expected and generated_memo == memo
        compared += 1 + (_compare_levels(decisions, part, i + 1, env) if expected else 0)
        env.vars.pop(name)
        for derived, _ in plan.derived_at[i]:
            env.vars.pop(derived, None)
    return compared


@pytest.mark.parametrize("ruleset", ["birmingham", "lancashire"])
def test_fused_preconditions_agree_with_all_hold(ruleset: str) -> None:
    game = Game.new(load_ruleset(ruleset), 3, seed=5)
    bot = make_bot("random", 5)
    compared = 0
    for _ in range(60):
        if game.pending is None and game.question is None:
            decisions = game._decisions
            for action in game.ruleset.actions.values():
                for part in (action.part, action.repeat.part if action.repeat else None):
                    if part is not None:
                        env = decisions.env({ACTION_VAR: action.id, "nth": 1})
                        compared += _compare_levels(decisions, decisions.search_part(part), 0, env)
        game.apply(decide(bot, game))
    assert compared > 1000
