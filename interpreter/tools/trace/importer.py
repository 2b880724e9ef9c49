"""Real recorded games: import the `brass-birmingham-trace/v1` format and replay it.

A trace (see `../shared/real-games/README.md`) holds a game played on another engine
(Quasrain-Coder/BrassBirmingham) with every chance outcome made explicit: the opening deal,
the draw pile, the merchant tiles, the Rail-era deal, and the effects of every action.

    game = game_from_trace_setup(ruleset, trace)     # our Game, dealt as the trace was
    result = replay_trace(ruleset, trace)            # apply every action, compare every step
    result.differences                               # empty when everything matched

The work is split by job:
- `trace/importer.py` (this module): reading a trace file and the public entry points (every name below);
- `trace/shape.py`: the shape of every value the replay reads, checked when a trace is loaded;
- `trace/mapping.py`: the trace's ids of cards, locations, links, slots, merchant tiles, players -> ours;
- `trace/setup.py`: dealing our game exactly as the trace (opening deal, merchants, Rail-era deal);
- `trace/actions.py`: a recorded action as one of ours, our engine's questions answered from its effects
  (inside the action, `ChoiceResolver`; at the round's end, `RoundEndAnswers`);
- `trace/sources.py`: the sources named per part where the trace gives them only in total (a double rail);
- `trace/replay.py`: replaying every step and comparing it with the record;
- `trace/bulk.py`: many traces, the table of where each stops (`replay_traces`);
- `trace/command.py`: `brass replay --trace`.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.files.guards import parse_json, read_text
from interpreter.tools.trace.actions import (
    PRODUCED,
    ChoiceResolver,
    RoundEndAnswers,
    Trial,
    answers_for,
    try_action,
    whole_action,
)
from interpreter.tools.trace.mapping import (
    CARD_ID,
    INDUSTRY_CARD_FACES,
    MERCHANT_TILES,
    TraceError,
    TraceMapping,
    location_id,
)
from interpreter.tools.trace.replay import Difference, ReplayResult, replay_trace
from interpreter.tools.trace.setup import deal_rail_from_trace, game_from_trace_setup
from interpreter.tools.trace.shape import check_trace_shape
from interpreter.tools.trace.sources import SourcesChoice, choose_sources

__all__ = ["CARD_ID", "FORMAT", "INDUSTRY_CARD_FACES", "MERCHANT_TILES", "PRODUCED", "ChoiceResolver", "Difference",
           "ReplayResult", "RoundEndAnswers", "SourcesChoice", "TraceError", "TraceMapping", "Trial", "answers_for",
           "check_trace_shape", "choose_sources", "deal_rail_from_trace", "game_from_trace_setup", "load_trace",
           "location_id", "replay_trace", "replay_trace_file", "ruleset_with_links", "try_action", "whole_action"]

FORMAT = "brass-birmingham-trace/v1"


def load_trace(path: str | Path) -> dict[str, Any]:
    """A trace file's data, its shape checked (`check_trace_shape`): TraceError for anything else."""
    name = f"the trace {path}"
    trace = parse_json(read_text(path, name, TraceError), name, TraceError)
    if not isinstance(trace, dict) or not str(trace.get("format", "")).startswith(FORMAT):
        found = trace.get("format") if isinstance(trace, dict) else type(trace).__name__
        raise TraceError(f"{path} is not a trace (format {found!r}, expected {FORMAT})")
    check_trace_shape(trace, str(path))
    return trace


def ruleset_with_links(base: str, links_per_player: int) -> Ruleset:
    """`base` with another number of link tiles per player: a variant made on the fly (`extends`).

    The upstream engine that recorded the real games has no limit on link tiles; the rulebook gives
    14 per player (R-SETUP-08), and two of the five games place a 15th rail link.
    """
    base_ref = str(Path(base).resolve()) if Path(base).is_dir() else base
    with tempfile.TemporaryDirectory(prefix="brass-links-") as folder:
        Path(folder, "ruleset.yaml").write_text(
            f"name: {Path(base_ref).name}-links-{links_per_player}\n"
            f"title: {Path(base_ref).name} with {links_per_player} link tiles per player\n"
            f"version: \"1\"\n"
            f"extends: {json.dumps(base_ref)}\n"
            f"setup:\n  links_per_player: {links_per_player}\n", encoding="utf-8")
        return load_ruleset(folder)


def replay_trace_file(ruleset: Ruleset, path: str | Path,
                      progress: Callable[[str], None] | None = None) -> ReplayResult:
    name = Path(path).name.removesuffix(".trace.json")
    return replay_trace(ruleset, load_trace(path), name, progress, source=str(path))
