"""The generic rules interpreter: load a ruleset, then play it.

    from interpreter import load_ruleset, Game
    game = Game.new(load_ruleset("birmingham"), players=4, seed=1)

The names below are imported on first use, not when the package is: every `brass` command starts
by importing this package, and a Ctrl-C during a heavy import here would escape the command's own
guard (`interpreter/tools/cli/entry.py`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.engine.game import Game, GameFileError, IllegalAction, SetupError
    from interpreter.ruleset.errors import BrassError, RulesetError
    from interpreter.ruleset.loader import load_ruleset

_WHERE = {
    "Game": "interpreter.engine.game", "GameFileError": "interpreter.engine.game",
    "IllegalAction": "interpreter.engine.game", "SetupError": "interpreter.engine.game",
    "BrassError": "interpreter.ruleset.errors", "RulesetError": "interpreter.ruleset.errors",
    "load_ruleset": "interpreter.ruleset.loader",
}

__all__ = ["BrassError", "Game", "GameFileError", "IllegalAction", "RulesetError", "SetupError", "load_ruleset"]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next use is a plain lookup
    return value
