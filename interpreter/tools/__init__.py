"""Layer 3, the tools around the engine: the `brass` command, terminal play, bots and
simulations, scenarios and `brass verify`, real-game trace replay, `brass diff`, `brass rule`
and the generated parts of the docs.

Imports the layers below (`interpreter.engine`, `interpreter.ruleset`), `brass_dsl` and itself.
"""
