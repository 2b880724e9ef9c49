"""Running work on a Ray cluster (an optional extra): starting or reaching Ray, and the errors that
say what went wrong in the user's words. Shared by `brass simulate --ray` and `brass verify
--mutate --ray`; what runs there is theirs.

May import only the engine and the ruleset layers.
"""
