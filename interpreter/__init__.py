"""The generic rules interpreter: load a ruleset, then play it.

    from interpreter import load_ruleset, Game
    game = Game.new(load_ruleset("birmingham"), players=4, seed=1)
"""

from interpreter.engine.game import Game, GameFileError, IllegalAction, SetupError
from interpreter.ruleset.errors import BrassError, RulesetError
from interpreter.ruleset.loader import load_ruleset

__all__ = ["BrassError", "Game", "GameFileError", "IllegalAction", "RulesetError", "SetupError", "load_ruleset"]
