"""`brass rule ID…`: one rule of the index, and everything that traces to it.

    brass rule R-BUILD-02                 # its text and source, where the ruleset cites it, its scenarios
    brass rule R-LINK --ruleset what-if   # every rule whose ID starts with R-LINK, in a variant

For checking the rules against the rulebook: the rule's statement (rules.yaml), every place of
the ruleset that cites it with `rule:` or `rules:` (a precondition with the message a player
sees, an action, a tile…), each with FILE:LINE:COL, and the scenario files whose `rules:` list it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from brass_dsl.registry import did_you_mean
from interpreter.ruleset.crossref import rule_citations
from interpreter.ruleset.errors import BrassError, RulesetError
from interpreter.ruleset.loader import DEFAULT_RULESET, load_ruleset, resolve_ruleset_path
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.yaml_source import load_yaml_file
from interpreter.tools.scenarios.verify import scenario_files

__all__ = ["Citation", "citations", "matching_rules", "rule_report", "scenarios_citing"]


@dataclass(frozen=True)
class Citation:
    """A place of the ruleset that cites a rule."""

    path: str  # e.g. actions.build.requires[1]
    where: str  # FILE:LINE:COL
    message: str  # the message a failed precondition shows ('' for other records)


def matching_rules(ruleset: Ruleset, wanted: str) -> list[str]:
    """The rule IDs named: an exact ID, or every ID that starts with a prefix (R-LINK)."""
    if wanted in ruleset.rules:
        return [wanted]
    found = [rid for rid in ruleset.rules if rid.startswith(wanted)]
    if not found:
        raise BrassError(f"no rule {wanted!r} in the index of {ruleset.name}{did_you_mean(wanted, ruleset.rules)}")
    return found


def citations(ruleset: Ruleset, rule_id: str) -> list[Citation]:
    """Every `rule:`/`rules:` citation of the rule outside the rule index, in document order."""
    found = []
    for path, cited in rule_citations(ruleset.data):
        if cited != rule_id or path[0] == "rules":
            continue
        record_path = path[:-1] if path[-1] == "rule" else path[:-2]
        record = _at(ruleset.data, record_path)
        message = record.get("message", "") if isinstance(record, dict) else ""
        pos = ruleset.source.pos(path) if ruleset.source is not None else None
        found.append(Citation(_path_text(ruleset.data, record_path), str(pos) if pos else "?",
                              " ".join(str(message).split())))
    return found


def scenarios_citing(paths: Sequence[Path], ruleset: Ruleset, rule_id: str) -> list[str]:
    """Scenario files (below folders, recursively) whose `rules:` list the rule as this ruleset states
    it: played with this ruleset, or with another that states the same rule (a variant inheriting
    it); a variant's rewritten rule is another statement. Unreadable files are skipped."""
    found = []
    for path in scenario_files(paths):
        try:
            data = load_yaml_file(path, str(path)).data
        except RulesetError:
            continue
        if not (isinstance(data, dict) and isinstance(data.get("rules"), list) and rule_id in data["rules"]):
            continue
        played = _ruleset_of(data.get("ruleset"), path)
        if played is not None and played.rule_folders.get(rule_id) == ruleset.rule_folders.get(rule_id):
            found.append(str(path) if played is ruleset else f"{path} ({played.name})")
    return found


def _ruleset_of(name: Any, scenario: Path) -> Ruleset | None:
    folder = resolve_ruleset_path(name if isinstance(name, str) else DEFAULT_RULESET, relative_to=scenario.parent)
    try:
        return load_ruleset(folder) if folder is not None else None
    except RulesetError:
        return None


def rule_report(ruleset: Ruleset, wanted: str, scenario_paths: Sequence[Path]) -> list[str]:
    """The text `brass rule` prints for one ID or prefix."""
    lines: list[str] = []
    for rid in matching_rules(ruleset, wanted):
        rule = ruleset.rules[rid]
        stated = ruleset.source.pos(("rules", rid)) if ruleset.source is not None else None
        lines += [f"{rid}: {' '.join(rule.text.split())}", f"  source: {rule.source}",
                  f"  stated at: {stated if stated else '?'}"]
        cited = citations(ruleset, rid)
        lines.append("  cited by the ruleset:" if cited else "  cited by the ruleset: nothing")
        for c in cited:
            lines.append(f"    {c.where}: {c.path}" + (f": {c.message}" if c.message else ""))
        scenarios = scenarios_citing(scenario_paths, ruleset, rid)
        lines.append("  scenarios:" if scenarios else "  scenarios: none")
        lines += [f"    {s}" for s in scenarios]
        lines.append("")
    return lines[:-1]


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def _path_text(data: Any, path: tuple[Any, ...]) -> str:
    """`actions.build.requires[1].rule`, list entries with an id named by it (`eras[canal]`)."""
    text, node = "", data
    for key in path:
        if isinstance(key, int):
            item = node[key]
            text += f"[{item['id']}]" if isinstance(item, dict) and "id" in item else f"[{key}]"
        else:
            text += ("." if text else "") + str(key)
        node = node[key]
    return text
