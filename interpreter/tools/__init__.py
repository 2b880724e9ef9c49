"""Layer 3, the tools around the engine, one sub-package per job.

    cli/        the `brass` command: argument parsing and dispatch, the console script
    authoring/  a designer's tools: `brass lint`, `schema`, `diff`, `rule`, the generated docs
    scenarios/  scenario files, their assertion vocabulary, `brass verify` and rule coverage
    trace/      real recorded games: the trace importer, its replay, many traces at once
    bots/       the bot ladder (random, greedy, heuristic, search), MCTS, the bots' knowledge
    simulate/   many games: runs, worker processes, Ray, saved runs, comparisons, statistics, plots
    board/      the picture of a position as SVG
    play/       the terminal game (`brass play`, `brass replay`)
    web/        the local web app (`brass serve`)
    files/      guards on what people give the tools; saved games read and written whole
    wording/    the game in words for people: names of tiles, cards, decisions, refusals, log entries

Every sub-package imports the layers below (`interpreter.engine`, `interpreter.ruleset`,
`brass_dsl`) and only the sub-packages its own docstring names; nothing outside `cli/` imports
`cli/` (tests/test_architecture.py keeps these rules).
"""
