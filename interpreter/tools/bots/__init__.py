"""The bot ladder (`random`, `greedy`, `heuristic`, `search`), the generic MCTS, and in
`knowledge/` what the bots believe about playing well.

A bot sees only `Game.view(seat)`. May import only the engine and the ruleset layers: bots are
used by `play`, `web` and `simulate`, and must stay free of every front end.
"""
