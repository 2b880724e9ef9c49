"""Layer 2, the engine: a game in progress. State and setup, the random number generator,
connections, sourcing, decisions checked by the ruleset's own preconditions, what each effect
does, the automatic flow (turn, round, era, game end), positions given as data, the
invariants, and `Game`, the public API.

Imports only `interpreter.ruleset`, `brass_dsl` and itself.
"""
