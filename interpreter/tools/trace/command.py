"""`brass replay --trace …`: one real-game trace in detail, or many as a table (docs/real-games.md)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

from interpreter.ruleset.model import Ruleset
from interpreter.tools.trace.bulk import print_summary, replay_traces, trace_files
from interpreter.tools.trace.importer import load_trace, replay_trace


def replay_one_trace(ruleset: Ruleset, path: str) -> int:
    """Every round and era end, then `0 differences` and the standings, or the first difference in
    detail; 0 when the game replays to the end, else 1."""
    trace = load_trace(path)
    name = os.path.basename(path).removesuffix(".json").removesuffix(".trace")
    print(f"{name}: {trace['playerCount']} players, {len(trace['steps'])} actions, ruleset {ruleset.name}")
    result = replay_trace(ruleset, trace, name, progress=print, source=path)
    for note in result.notes:
        print(f"  mapping: {note}")
    if result.differences:
        for difference in result.differences:
            print(difference.describe())
        print(f"{len(result.differences)} difference(s) after {result.steps} of {result.total} steps matched")
        return 1
    print(f"0 differences ({result.steps} steps)")
    for row in result.final:
        print(f"  {row['place']}. player {row['seat']} (trace player {row['seat'] - 1}): {row['vp']} VP, "
              f"income level {row['income_level']} (space {row['income_position']}), £{row['money']}")
    return 0


def replay_many_traces(ruleset: Ruleset, paths: list[str], as_json: bool,
                       progress_bar: Callable[[int], tuple[Any, Any]] | None = None) -> int:
    """The table (or with `as_json` the JSON summary) of every trace `paths` names; 0 when every game
    replays to the end with 0 differences, else 1. `progress_bar(total)` gives a (context, advance)."""
    from rich.console import Console

    files = trace_files(paths)  # a missing path is an error before any game is replayed
    if progress_bar is None:
        summary = replay_traces(ruleset, files)
    else:
        bar, advance = progress_bar(len(files))
        with bar:
            summary = replay_traces(ruleset, files, lambda done, _total: advance(done))
    if as_json:
        print(json.dumps(summary.to_dict(), indent=2, ensure_ascii=False))
    else:
        print_summary(summary, Console() if sys.stdout.isatty() else Console(width=160))
    return 0 if summary.ok else 1
