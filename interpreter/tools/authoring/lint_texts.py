"""The warnings about rule IDs and texts: W105 (a rule cited nowhere), W106 (a text's amount that is
not the data's) and W107 (a text naming a place or an industry the ruleset lacks).

Texts are the rules' texts and the requirements' messages, as written: a `{…}` part follows the
data by itself (templates.py), so only the words around such parts are read. An amount is a number
after £; the data a text speaks of is the data of the records that cite its rule (the Loan terms
cite R-LOAN-01, so R-LOAN-01's "£30" must be the loan amount). The places and industries a text may
name are those of the built-in game's board and of every ruleset this one extends.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import rulesets
from interpreter.ruleset.crossref import rule_citations
from interpreter.ruleset.effects import EFFECTS
from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import DEFAULT_RULESET, load_ruleset, resolve_ruleset_path
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.ruleset_files import display_name
from interpreter.ruleset.templates import PLACEHOLDER, shifted
from interpreter.ruleset.yaml_source import load_yaml_file
from interpreter.tools.authoring.lint_findings import Finding, at
from interpreter.tools.scenarios.verify import scenario_files

__all__ = ["default_scenario_folders", "text_findings"]

MONEY_KEYS = ("money", "amount", "cost", "prices", "empty_price")  # keys whose numbers are £
MONEY_EFFECTS = ("pay", "gain_money")
STEP_LISTS = ("effects", "end", "scoring", "beer_bonus", "round_end")
_AMOUNT = re.compile(r"£(\d+)")


def text_findings(ruleset: Ruleset, scenario_folders: Sequence[Path] | None = None) -> Iterator[Finding]:
    yield from _uncited(ruleset, default_scenario_folders(ruleset) if scenario_folders is None else scenario_folders)
    texts = list(_texts(ruleset))
    yield from _amounts(ruleset, texts)
    yield from _names(ruleset, texts)


def _texts(ruleset: Ruleset) -> Iterator[tuple[tuple[Any, ...], str, str | None]]:
    """(path, text, the rule it is about) of every rule text and every requirement message."""
    for rid, rule in ruleset.data["rules"].items():
        yield ("rules", rid, "text"), rule["text"], rid
    for path, record in _records(ruleset.data, ()):
        if isinstance(record.get("message"), str) and "check" in record:
            yield path + ("message",), record["message"], record.get("rule")


def _records(node: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _records(value, path + (key,))
    elif isinstance(node, list):
        for n, value in enumerate(node):
            yield from _records(value, path + (n,))


def _literal(text: str) -> str:
    """The text with every {…} part blanked out (kept as long, so offsets stay true)."""
    return PLACEHOLDER.sub(lambda m: " " * len(m.group(0)), text)


def _pos(ruleset: Ruleset, path: tuple[Any, ...], text: str, offset: int) -> Any:
    if ruleset.source is None:
        return None
    return shifted(ruleset.source.origin(path), text, offset).locate(1, 1)


# -- W105: a rule cited nowhere ----------------------------------------------------------------------

def _uncited(ruleset: Ruleset, folders: Sequence[Path]) -> Iterator[Finding]:
    """Rules this ruleset's own files state that no record cites, no effect it uses cites, and no
    scenario verifies. Without a scenario folder nothing is said: the scenarios may live elsewhere."""
    existing = [folder for folder in folders if folder.is_dir()]
    if not existing:
        return
    own = [rid for rid in ruleset.rules if ruleset.rule_folders.get(rid) == ruleset.folders[-1]]
    cited = {rid for path, rid in rule_citations(ruleset.data) if path[0] != "rules"} | _effect_rules(ruleset.data)
    verified = _verified(ruleset, existing)
    for rid in own:
        if rid not in cited and rid not in verified:
            yield Finding(at(ruleset, ("rules", rid), key=True), "W105",
                          f"rule {rid} is cited nowhere: no record cites it (rule: or rules:) and no scenario in "
                          f"{', '.join(display_name(f) for f in existing)} verifies it")


def _effect_rules(data: Mapping[str, Any]) -> set[str]:
    """The rules of the effects the ruleset uses (`pay` applies R-TURN-07)."""
    found: set[str] = set()
    for path, record in _records(data, ()):
        del path
        for key in STEP_LISTS:
            for step in record.get(key) or []:
                name = step if isinstance(step, str) else next(iter(step), None) if isinstance(step, dict) else None
                if name in EFFECTS:
                    found.update(EFFECTS[name].rules)
    return found


def default_scenario_folders(ruleset: Ruleset) -> list[Path]:
    """The `scenarios` folder beside the folder holding the ruleset (`rulesets/x` → `scenarios`)."""
    return [Path(ruleset.folders[-1]).parent.parent / "scenarios"]


def _verified(ruleset: Ruleset, folders: Sequence[Path]) -> set[str]:
    """Rule IDs a scenario cites (`rules:`, a step's `reasons:`) as this ruleset states them: played
    with it, or with a ruleset that inherits the same statement."""
    found: set[str] = set()
    for path in scenario_files([folder for folder in folders if folder.is_dir()]):
        data = _scenario_data(path)
        cited = _cited_by_scenario(data)
        played = _played(data, path)
        if played is None or not cited:
            continue
        found.update(rid for rid in cited if played.rule_folders.get(rid, "") == ruleset.rule_folders.get(rid))
    return found


def _scenario_data(path: Path) -> dict[str, Any]:
    try:
        data = load_yaml_file(path, str(path)).data
    except RulesetError:
        return {}
    return data if isinstance(data, dict) else {}


def _cited_by_scenario(data: dict[str, Any]) -> set[str]:
    found = set(_strings(data.get("rules")))
    steps = data.get("when")
    for step in steps if isinstance(steps, list) else []:
        if isinstance(step, dict):
            found.update(_strings(step.get("reasons")))
    return found


def _strings(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _played(data: dict[str, Any], path: Path) -> Ruleset | None:
    name = data.get("ruleset", DEFAULT_RULESET)
    folder = resolve_ruleset_path(name if isinstance(name, str) else DEFAULT_RULESET, relative_to=path.parent)
    try:
        return load_ruleset(folder) if folder is not None else None
    except RulesetError:
        return None


# -- W106: an amount a text names that is not the data's -------------------------------------------

def _amounts(ruleset: Ruleset, texts: list[tuple[tuple[Any, ...], str, str | None]]) -> Iterator[Finding]:
    amounts = _amounts_by_rule(ruleset.data)
    for path, text, rid in texts:
        known = amounts.get(rid or "")
        if not known:
            continue  # no record citing the rule holds an amount: nothing to compare with
        for match in _AMOUNT.finditer(_literal(text)):
            if int(match.group(1)) not in known:
                said = ", ".join(f"£{n}" for n in sorted(known))
                yield Finding(_pos(ruleset, path, text, match.start()), "W106",
                              f"the text says {match.group(0)}, but the data citing {rid} says {said}; write the "
                              "amount as a {…} part that reads the data (docs/ruleset-format.md, texts that "
                              "follow the data), or correct it")


def _amounts_by_rule(data: Mapping[str, Any]) -> dict[str, set[int]]:
    """Each rule ID -> the amounts of money in the records citing it."""
    found: dict[str, set[int]] = {}
    for path, rid in rule_citations(data):
        if path[0] == "rules":
            continue
        record = _at(data, path[:-1] if path[-1] == "rule" else path[:-2])
        found.setdefault(rid, set()).update(_money(record))
    return found


def _money(node: Any) -> Iterator[int]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in MONEY_KEYS or key in MONEY_EFFECTS:
                yield from (v for v in (value if isinstance(value, list) else [value])
                            if isinstance(v, int) and not isinstance(v, bool))
            yield from _money(value)
    elif isinstance(node, list):
        for value in node:
            yield from _money(value)


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


# -- W107: a place or an industry a text names that the ruleset lacks ------------------------------

def _names(ruleset: Ruleset, texts: list[tuple[tuple[Any, ...], str, str | None]]) -> Iterator[Finding]:
    have = {loc.name for loc in ruleset.locations.values()} | {i.name for i in ruleset.industries.values()}
    missing = {name: kind for name, kind in _known_names(ruleset).items() if name not in have}
    if not missing:
        return
    pattern = re.compile("|".join(f"(?<![A-Za-z])(?P<n{n}>{_form(name)})(?![A-Za-z])"
                                  for n, name in enumerate(missing)))
    names = list(missing)
    for path, text, rid in texts:
        seen: set[str] = set()
        for match in pattern.finditer(_literal(text)):
            name = names[int(next(key for key, value in match.groupdict().items() if value)[1:])]
            if name not in seen:
                seen.add(name)
                pos = _pos(ruleset, path, text, match.start())
                yield Finding(pos, "W107", f"{_whose_text(ruleset, path, rid, pos)} names {missing[name]} '{name}', "
                                           f"which {ruleset.name} does not have; {_fix(ruleset, path, rid, pos)}")


def _inherited(ruleset: Ruleset, pos: Any) -> str | None:
    """The name of the base ruleset whose files hold the text at `pos`, or None if it is this one's."""
    if pos is None or len(ruleset.folders) < 2:
        return None
    own = display_name(Path(ruleset.folders[-1])) + "/"
    if pos.file.startswith(own):
        return None
    return next((Path(folder).name for folder in reversed(ruleset.folders[:-1])
                 if pos.file.startswith(display_name(Path(folder)) + "/")), Path(ruleset.folders[-2]).name)


def _whose_text(ruleset: Ruleset, path: tuple[Any, ...], rid: str | None, pos: Any) -> str:
    what = f"the text of {rid}" if path[0] == "rules" else f"the message of the check citing {rid}" if rid \
        else "the message"
    base = _inherited(ruleset, pos)
    return f"{what}, inherited from {base}," if base else what


def _fix(ruleset: Ruleset, path: tuple[Any, ...], rid: str | None, pos: Any) -> str:
    if _inherited(ruleset, pos) is None:
        return "say it in this ruleset's own words, or as a {…} part that reads the data"
    if path[0] == "rules":
        return f"state {rid}'s text anew in this ruleset's own 'rules:'"
    return "write the message anew in this ruleset's own files"


def _form(name: str) -> str:
    """A printed name and its plural (Pottery, Potteries; Coal Mine, Coal Mines)."""
    escaped = re.escape(name)
    if name.endswith("y"):
        return escaped[:-1] + "(?:y|ies)"
    return escaped if name.endswith("s") else escaped + "s?"


def _known_names(ruleset: Ruleset) -> dict[str, str]:
    """The printed names of the places and industries of the built-in game and of every ruleset this
    one extends: the names a text of this family may mention (-> "the place" or "the industry")."""
    found: dict[str, str] = {}
    folders = [str(rulesets.builtin_path(DEFAULT_RULESET) or ""), *ruleset.folders[:-1]]
    for folder in dict.fromkeys(f for f in folders if f):
        try:
            other = load_ruleset(Path(folder))
        except RulesetError:
            continue
        found.update((loc.name, "the place") for loc in other.locations.values())
        found.update((i.name, "the industry") for i in other.industries.values())
    return found
