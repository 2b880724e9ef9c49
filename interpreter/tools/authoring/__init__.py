"""A designer's tools around a ruleset: `brass lint` and `check --strict`, `brass schema`,
`brass diff`, `brass rule`, and the generated parts of docs/.

May import: `scenarios` (the scenarios that verify a rule) and `files`.
"""
