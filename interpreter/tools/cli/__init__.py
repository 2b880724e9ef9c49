"""The `brass` command: argument parsing, dispatch to the job packages, the console script.

The only sub-package that may import every other one; nothing imports it.
"""
