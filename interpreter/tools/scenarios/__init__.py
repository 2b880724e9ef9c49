"""Scenario files (a position, steps, assertions), their assertion vocabulary, `brass verify`
and the rule-coverage tables.

May import: `files`, `cluster` (for --mutate --ray).
"""
