"""`brass tune`: the heuristic bot's parameters improved for one ruleset by self-play
(docs/bots.md, "Tuning"): an evolution strategy over the parameters that matter most, each
candidate judged in seat-rotated games against the best so far, saved candidate by candidate to a
file that an interrupted run resumes, and a verdict from fresh games.

May import `simulate` (its games, batches, worker processes and progress bar), `files` and
`cluster` (Ray): the bots are played through simulate's games.
"""
