"""The picture of a position as SVG: the map, the panel of players and markets, colours and
labels, the automatic layout of a map without positions.

May import only the engine and the ruleset layers.
"""
