"""What the heuristic bot knows of the game: the worth of a position and of an action, with the
reasons (the front door is `worth`).

May import only the engine and the ruleset layers.
"""
