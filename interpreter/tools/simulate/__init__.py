"""Many games between bots: `brass simulate`, its worker processes and Ray tasks, saved runs
(`--out`, `--resume`), a variant against its base, the statistics and the plots.

May import: `bots`, `files`, `cluster` (for --ray).
"""
