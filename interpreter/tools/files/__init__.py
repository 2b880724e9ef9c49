"""What people give the tools and what the tools write: bounded JSON and YAML, typed or posted
moves, output that survives a closed pipe, files written whole, saved games.

May import only the engine and the ruleset layers.
"""
