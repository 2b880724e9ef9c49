"""Real-game traces: name the sources of a whole action per part, so that it takes the recorded cubes.

A trace gives one step's resources in total (the tiles that lost cubes or barrels), not per part: a
double rail's two coal, a Develop's two iron, the beer of several sales. Where the trace names a
source itself (`beerSource`, `ironSources`, a sale's `beerSources`) or where our engine, its
questions answered from the effects (`try_action`), took other cubes than the recorded ones, the
action names every unit's source per part (`coal_from`, `iron_from`, `beer_from`: docs/engine.md,
"Naming the sources"). The recorded units are assigned to the parts in each possible way (a handful
at most); each assignment is tried on a copy, and the first the engine accepts whose cubes match
the trace is taken. When the engine refuses every one, the refusal (with its rules) is the difference.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from interpreter.engine.errors import IllegalAction
from interpreter.engine.game import Game
from interpreter.engine.named_sources import MARKET
from interpreter.tools.trace.actions import (
    Part,
    Trial,
    named_by_the_trace,
    recorded_producers,
    units_taken,
)
from interpreter.tools.trace.mapping import TraceMapping

MAX_ASSIGNMENTS = 24  # assignments tried per action
Assignment = dict[Part, list[str]]  # per part, the source of each unit it takes


@dataclass
class SourcesChoice:
    """The whole action to apply, or the refusal of every way to take the recorded sources."""

    action: dict[str, Any]
    named: bool = False  # the action names its sources per part
    refused: IllegalAction | None = None  # every assignment was refused: the first refusal
    recorded: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # what we named, by resource and part
    resources: list[str] = field(default_factory=list)  # the resources whose sources were named from the trace


def part_label(action: dict[str, Any], part: Part) -> str:
    """A part as people read it: `action` for the action's own part, else the repetition's first choice."""
    if part is None:
        return "action"
    name, index = part
    repetitions = action.get(name, [])
    if index < len(repetitions) and repetitions[index]:
        return str(next(iter(repetitions[index].values())))
    return f"{name}[{index}]"


def _mismatched(trial: Trial, recorded: dict[str, Counter[str]]) -> list[str]:
    return sorted(r for r in set(recorded) | {r for part in trial.taken.values() for r in part}
                  if +trial.producers(r) != +recorded.get(r, Counter()))


def choose_sources(game: Game, step: dict[str, Any], mapping: TraceMapping, action: dict[str, Any],
                   trial: Trial) -> SourcesChoice:
    """The whole action (with `answers`) that takes the recorded sources: the trial's own when its
    cubes match and the trace names no source, else one naming the sources per part."""
    recorded = recorded_producers(step, mapping)
    explicit = named_by_the_trace(step, mapping)
    needed = sorted(set(_mismatched(trial, recorded)) | set(explicit))
    plain = {**action, "answers": trial.answers}
    if not needed:
        return SourcesChoice(plain)
    per_resource: list[tuple[str, list[Assignment]]] = []
    for resource in needed:
        ways = _assignments(trial, resource, recorded.get(resource, Counter()), explicit.get(resource, {}))
        if not ways:  # the recorded units do not fit our parts: leave it to the comparisons
            return SourcesChoice(plain)
        per_resource.append((resource, ways))
    # the other resources keep the units our engine took (named too: a named part asks no question)
    kept = {r: {part: units[r] for part, units in trial.taken.items() if units.get(r)}
            for r in {r for units in trial.taken.values() for r in units} - set(needed)}
    answers = [a for a, key in zip(trial.answers, trial.questions, strict=True)
               if key.split("/", 1)[0] not in game.ruleset.resources]
    first: SourcesChoice | None = None
    for assignment in _combined(per_resource):
        named = _with_sources(action, {**kept, **assignment})
        named["answers"] = answers
        try:
            attempt = game.copy()
            start = len(attempt.state.log)
            attempt.apply(named)
        except IllegalAction as refused:
            if first is None:
                first = SourcesChoice(named, True, refused, _labelled(action, assignment), needed)
            continue
        taken = units_taken(attempt.state.log[start:])
        if all(+Counter(u for u in taken.get(r, []) if u != MARKET) == +recorded.get(r, Counter()) for r in needed):
            return SourcesChoice(named, True, None, _labelled(action, assignment), needed)
    return first if first is not None else SourcesChoice(plain)


def _labelled(action: dict[str, Any], assignment: dict[str, Assignment]) -> dict[str, dict[str, list[str]]]:
    """The assignment by resource and part label (`{"coal": {"L22": ["coalbrookdale/2"]}}`); parts
    alike (two Develops of cotton) are told apart by their place (`tiles[1] cotton`)."""
    labelled = {}
    for resource, parts in assignment.items():
        labels = {part: part_label(action, part) for part in parts}
        if len(set(labels.values())) < len(labels):
            labels = {part: label if part is None else f"{part[0]}[{part[1]}] {label}"
                      for part, label in labels.items()}
        labelled[resource] = {labels[part]: units for part, units in parts.items()}
    return labelled


def _with_sources(action: dict[str, Any], sources: dict[str, Assignment]) -> dict[str, Any]:
    named = copy.deepcopy(action)
    for resource, parts in sources.items():
        for part, units in parts.items():
            target = named if part is None else named[part[0]][part[1]]
            target[f"{resource}_from"] = list(units)
    return named


def _combined(per_resource: list[tuple[str, list[Assignment]]]) -> Iterator[dict[str, Assignment]]:
    """Every combination of one assignment per resource, at most MAX_ASSIGNMENTS."""
    combos: list[dict[str, Assignment]] = [{}]
    for resource, ways in per_resource:
        combos = [{**c, resource: w} for c in combos for w in ways][:MAX_ASSIGNMENTS]
    yield from combos


def _assignments(trial: Trial, resource: str, recorded: Counter[str],
                 explicit: dict[Part | str, list[str]]) -> list[Assignment]:
    """The ways to give the recorded units of `resource` to the parts that take it (as many units per
    part as our engine took: that number is the rules', not a choice), keeping what the trace names."""
    parts = [(part, len(units[resource])) for part, units in trial.taken.items() if units.get(resource)]
    total = sum(count for _, count in parts)
    producers = sorted(recorded.elements())
    if len(producers) > total:
        return []
    pool = Counter(producers + [MARKET] * (total - len(producers)))
    fixed: dict[Part, list[str]] = {}
    for part, count in parts:
        units = explicit.get(part)
        if units:
            fixed[part] = list(units)[:count]
    for units in fixed.values():
        pool -= Counter(units)
    free = [(part, count - len(fixed.get(part, []))) for part, count in parts]
    if sum(n for _, n in free) != sum(pool.values()):
        return []
    ways = []
    for order in _orders(pool):
        assignment, at = {}, 0
        for part, n in free:
            assignment[part] = fixed.get(part, []) + list(order[at:at + n])
            at += n
        ways.append(assignment)
        if len(ways) >= MAX_ASSIGNMENTS:
            break
    return ways


def _orders(pool: Counter[str]) -> Iterator[tuple[str, ...]]:
    """Every distinct order of the units in `pool` (a multiset), lazily."""
    items = sorted(pool)

    def walk(left: Counter[str], prefix: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        if not +left:
            yield prefix
            return
        for item in items:
            if left[item] > 0:
                left[item] -= 1
                yield from walk(left, prefix + (item,))
                left[item] += 1

    yield from walk(Counter(pool), ())
