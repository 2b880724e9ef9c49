"""The equivalents file of `brass verify --mutate --equivalents FILE`: surviving mutants a designer
has judged unable to change any game, each with the reason.

    - at: rulesets/birmingham/industries.yaml:62:62      # FILE:LINE:COL, as the report prints it
      change: 1 → 0                                        # optional: which mutant of that place
      reason: no Cotton Mill IV is ever sold without beer in a game that reaches it
    - at: tiles.cotton.3.beer:number:1->0                  # or the mutant's id
      reason: …
    - at: game_end.scoring.2.score_tiles.where@11:number:2->1
      ruleset: lancashire-intro                            # optional: a variant played in the same folder
      reason: …

A listed mutant that survives is reported apart with its reason, never dropped; one that is killed
is simply killed (the entry is then out of date, and the report says so). An entry that names no
mutant of the ruleset, or a malformed file, is an error located at its line. An entry with
`ruleset: NAME` lists a mutant of that ruleset (a variant whose scenarios share the folder); one
without lists a mutant of the folder's own ruleset; entries of another ruleset than the one mutated
are skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from interpreter.ruleset.errors import Diagnostic, RulesetError
from interpreter.ruleset.yaml_source import kind_name, load_yaml_file
from interpreter.tools.scenarios.mutants import Mutant
from interpreter.tools.scenarios.scenario import ScenarioError, display_path

__all__ = ["load_equivalents"]

KEYS = ("at", "change", "reason", "ruleset")


def load_equivalents(path: Path, mutants: Sequence[Mutant], mutated: str | None = None,
                     folder_ruleset: str | None = None) -> dict[int, str]:
    """Mutant number -> the reason it is listed; ScenarioError listing every problem of the file.
    With `mutated` (the ruleset's name), only the entries for it: those naming it as `ruleset:`,
    and those naming none when it is the `folder_ruleset`."""
    display = display_path(path)
    try:
        doc = load_yaml_file(path, display)
    except RulesetError as unreadable:  # not found, not YAML: located by the reader
        raise ScenarioError(unreadable.diagnostics) from None
    problems: list[Diagnostic] = []

    def error(at: tuple[Any, ...], message: str, key: bool = False) -> None:
        pos = doc.pos(at, key=key)
        assert pos is not None  # a document read from a file locates its root at least
        problems.append(Diagnostic(pos, message))

    listed: dict[int, str] = {}
    entries = doc.data if doc.data is not None else []
    if not isinstance(entries, list):
        error((), f"an equivalents file is a list of {{at, change, reason}}, not {kind_name(entries)}")
        entries = []
    for n, entry in enumerate(entries):
        if mutated is not None and isinstance(entry, dict) and entry.get("ruleset", folder_ruleset) != mutated:
            continue  # another ruleset's mutant
        for number in _entry(entry, (n,), mutants, error):
            listed[number] = str(entry["reason"]).strip()
    if problems:
        raise ScenarioError(problems)
    return listed


def _entry(entry: Any, at: tuple[Any, ...], mutants: Sequence[Mutant], error: Any) -> list[int]:
    """The numbers of the mutants one entry lists ([] after reporting its problems)."""
    if not isinstance(entry, dict):
        error(at, f"an entry is a mapping {{at, change, reason}}, not {kind_name(entry)}")
        return []
    bad = [key for key in entry if key not in KEYS]
    for key in bad:
        error(at + (key,), f"unknown key {key!r}; an entry has: {', '.join(KEYS)}", key=True)
    where, change, reason = entry.get("at"), entry.get("change"), entry.get("reason")
    if not isinstance(where, str) or not where.strip():
        error(at + ("at",), "'at' is needed: FILE:LINE:COL of the mutant (as the report prints it) or its id")
    if not isinstance(reason, str) or not reason.strip():
        error(at + ("reason",), "'reason' is needed: why this change cannot alter any game")
    if change is not None and not isinstance(change, str):
        error(at + ("change",), f"'change' is text (old → new), not {kind_name(change)}")
    if "ruleset" in entry and not isinstance(entry["ruleset"], str):
        error(at + ("ruleset",), f"'ruleset' is the name of the ruleset mutated, not {kind_name(entry['ruleset'])}")
    if bad or not isinstance(where, str) or not isinstance(reason, str) or not reason.strip() \
            or (change is not None and not isinstance(change, str)) or not isinstance(entry.get("ruleset", ""), str):
        return []
    there = [m for m in mutants if where.strip() in (m.id, str(m.pos))]
    if not there:
        error(at + ("at",), f"no mutant at {where.strip()!r} (out of date? the report prints each survivor's "
                            "place and id)")
        return []
    if change is None:
        return [m.number for m in there]
    wanted = _arrows(change)
    found = [m.number for m in there if wanted in (_arrows(m.change), _arrows(f"{m.old} → {m.new}"))]
    if not found:
        error(at + ("change",), f"no mutant changes {change.strip()!r} there; its mutants: "
                                + "; ".join(f"{m.old} → {m.new}" for m in there))
    return found


def _arrows(text: str) -> str:
    """A change as compared: `->` and `→` alike, spaces as one."""
    return " ".join(text.replace("->", "→").split())
