"""Many games between bots: `brass simulate`, its worker processes and Ray tasks, saved runs
(`--out`, `--resume`), a variant against its base, the statistics and the plots, what each game
was made of (`profile`) and the balance report drawn from it (`brass report`: `report`,
`report_html`, `report_svg`).

May import: `bots`, `files`, `cluster` (for --ray).
"""
