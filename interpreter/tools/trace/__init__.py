"""Real recorded games: the `brass-birmingham-trace/v1` importer, its step-by-step replay and
comparison, many traces at once (`brass replay --trace`).

May import: `files`.
"""
