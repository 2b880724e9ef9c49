"""Layer 1, the ruleset: YAML with positions, a folder of files, `extends`, the schema,
cross-references, the typed model, the compiled actions and flow, the vocabularies a
ruleset is written in (the condition language's names and functions, the effect steps), and
what checking a ruleset concluded, cached between processes (`ruleset_cache`).

Imports only `brass_dsl` and itself. Nothing here knows a game in progress: what the
condition language reads of one is the `GameQueries` protocol of `primitives.py`.
"""
