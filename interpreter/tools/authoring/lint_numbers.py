"""W110: a number in a text (a rule's text, a precondition's `message`, a `doc`) that the data
contradicts: "Scout discards 3" while the Scout's effects discard two cards, "remove 1 or 2 tiles"
while the Develop repeats 1 to 3 times, "take £10" in a doc while the loan gives £15.

Conservative by design: a number is read only where the words around it name what it counts, and
only compared with the data of the actions the text is about: the action whose `doc` or `message` it
is, the actions that cite the rule whose text it is, or the action a text names before "discards".
Each claim below counts one thing of an action; a claim is reported only when the number is none
of the values those actions have (so "Each action discards 1 card" stays true while one action
discards 1). A {…} part follows the data by itself and is never read. £ amounts in rule texts and
in messages with a `rule:` are W106's.

    discard(s) [any] N [cards]       the `discard` steps of the action's effects
    <Action> [(…)] discards N        the same, of the action named
    needs N [different] cards        the action's choices of a card
    N or M [word [word]] <repeated>  the repeat's min and max (its `name`, singular or plural)
    N <resource>                     a literal `consume` amount of that resource (none computed)
    £N (in a doc)                    the action's money: its own amounts, those of the records
                                     citing its rules, and its number choices worked out from
                                     the ruleset
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from brass_dsl import Env
from interpreter.ruleset.crossref import rule_citations
from interpreter.ruleset.model import Action, Ruleset
from interpreter.tools.authoring.lint_findings import Finding
from interpreter.tools.authoring.lint_texts import _amounts_by_rule, _literal, _money, _pos, _records

__all__ = ["number_findings"]

WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
         "ten": 10}
_N = r"(\d+|" + "|".join(WORDS) + r")"
_DISCARDS = re.compile(rf"\bdiscards?\s+(?:any\s+)?{_N}\b(?!\s*(?:more|%))", re.IGNORECASE)
_NEEDS = re.compile(rf"\bneeds\s+{_N}\s+(?:different\s+)?cards?\b", re.IGNORECASE)
_RANGE = re.compile(rf"\b{_N}\s+(?:or|to)\s+{_N}((?:\s+[a-z]+){{1,3}})", re.IGNORECASE)  # and 1-3 words
_POUNDS = re.compile(r"£(\d+)")


@dataclass(frozen=True)
class Counts:
    """The numbers of one action that a text may state."""

    name: str
    discards: int
    cards: int
    repeat: tuple[str, int, int] | None  # the repeated part's name, min and max (None: no max)
    consumes: Mapping[str, set[int] | None]  # resource -> literal amounts (None: one is computed)
    money: set[int]


def number_findings(ruleset: Ruleset) -> Iterator[Finding]:
    amounts = _amounts_by_rule(ruleset.data)
    counts = {aid: _counts(ruleset, aid, action, amounts) for aid, action in ruleset.actions.items()}
    by_rule = _actions_by_rule(ruleset)
    resources = {r.name.lower(): rid for rid, r in ruleset.resources.items()}
    for path, text, about in _texts(ruleset, by_rule):
        literal = _literal(text)
        actions = [counts[aid] for aid in about]
        yield from _named_discards(ruleset, path, text, literal, counts)
        if actions:
            yield from _claims(ruleset, path, text, literal, actions, resources)


def _texts(ruleset: Ruleset, by_rule: Mapping[str, list[str]]) -> Iterator[tuple[tuple[Any, ...], str, list[str]]]:
    """(path, text, the actions it is about) of every rule text, message and doc."""
    for rid, rule in ruleset.data["rules"].items():
        yield ("rules", rid, "text"), rule["text"], by_rule.get(rid, [])
    for path, record in _records(ruleset.data, ()):
        about = [path[1]] if len(path) > 1 and path[0] == "actions" and path[1] in ruleset.actions else []
        for key in ("message", "doc"):
            if isinstance(record.get(key), str) and (key == "doc" or "check" in record):
                yield path + (key,), record[key], about


def _actions_by_rule(ruleset: Ruleset) -> dict[str, list[str]]:
    """Each rule ID -> the actions whose records cite it."""
    found: dict[str, list[str]] = {}
    for path, rid in rule_citations(ruleset.data):
        if path[0] == "actions" and len(path) > 1 and path[1] not in found.get(rid, []):
            found.setdefault(rid, []).append(path[1])
    return found


# == what the data says ===========================================================================

def _counts(ruleset: Ruleset, aid: str, action: Action, amounts: Mapping[str, set[int]]) -> Counts:
    data = ruleset.data["actions"][aid]
    repeat = data.get("repeat") or {}
    steps = [*_steps(data.get("effects")), *_steps(repeat.get("effects"))]
    consumes: dict[str, set[int] | None] = {}
    for name, args in steps:
        if name == "consume" and isinstance(args, dict):
            resource, amount = str(args.get("resource")), args.get("amount")
            known = consumes.get(resource, set())
            literal = isinstance(amount, int) and not isinstance(amount, bool)
            consumes[resource] = known | {amount} if isinstance(amount, int) and literal and known is not None \
                else None
    params = [*action.part.params, *(action.repeat.part.params if action.repeat else ())]
    span = (action.repeat.name, action.repeat.min, action.repeat.max) \
        if action.repeat and action.repeat.max is not None else None
    return Counts(action.name, sum(1 for name, _ in steps if name == "discard"),
                  sum(1 for p in params if p.type == "card"), span, consumes, _action_money(data, action, amounts))


def _steps(steps: Any) -> Iterator[tuple[str, Any]]:
    for step in steps if isinstance(steps, list) else []:
        if isinstance(step, str):
            yield step, None
        elif isinstance(step, dict) and len(step) == 1:
            yield next(iter(step.items()))


def _action_money(data: Mapping[str, Any], action: Action, amounts: Mapping[str, set[int]]) -> set[int]:
    """The action's own amounts, those of the records citing its rules, and the values of its
    number choices that read only the ruleset (a loan of 1, 2 or 3 times the loan amount)."""
    money = set(_money(data))
    for rid in action.rules:
        money |= amounts.get(rid, set())
    for param in [*action.part.params, *(action.repeat.part.params if action.repeat else ())]:
        if param.type == "int":
            money |= _worked_out(param.domain)
    return money


def _worked_out(domain: Any) -> set[int]:
    try:
        values = domain(Env())
    except Exception:  # it reads the game: there is nothing to work out here
        return set()
    if not isinstance(values, (list, tuple)):
        return set()
    return {v for v in values if isinstance(v, int) and not isinstance(v, bool)}


# == what the texts say ===========================================================================

def _number(word: str) -> int:
    return int(word) if word.isdigit() else WORDS[word.lower()]


def _named_discards(ruleset: Ruleset, path: tuple[Any, ...], text: str, literal: str,
                    counts: Mapping[str, Counts]) -> Iterator[Finding]:
    """"<Action> discards N", in any text: the number of discards of the action named (the longest
    name that fits: "Double Action Build discards 2" is not about Build)."""
    found: list[tuple[re.Match[str], Counts]] = []
    for action in sorted(counts.values(), key=lambda a: -len(a.name)):
        pattern = re.compile(rf"\b{re.escape(action.name)}(?:\s*\([^)]*\))?\s+discards\s+{_N}\b")
        found += [(m, action) for m in pattern.finditer(literal)
                  if not any(m.start() >= other.start() and m.end() <= other.end() for other, _ in found)]
    for match, action in found:
        if _number(match.group(1)) != action.discards:
            yield _finding(ruleset, path, text, match.start(1), f"'{match.group(0)}'",
                           f"{_effects_of([action])} discard {_counted([action.discards], 'card')}")


def _claims(ruleset: Ruleset, path: tuple[Any, ...], text: str, literal: str, actions: list[Counts],
            resources: Mapping[str, str]) -> Iterator[Finding]:
    names = ", ".join(a.name for a in actions)
    named = {a.name for a in actions}
    for match in _DISCARDS.finditer(literal):
        before = literal[:match.start()].rstrip()
        if before.endswith((*named, ")")):
            continue  # "<Action> discards N": the action named is judged alone
        said, have = _number(match.group(1)), sorted({a.discards for a in actions})
        if said not in have:
            yield _finding(ruleset, path, text, match.start(1), f"'{match.group(0)}'",
                           f"{_effects_of(actions)} discard {_counted(have, 'card')}")
    for match in _NEEDS.finditer(literal):
        said, have = _number(match.group(1)), sorted({a.cards for a in actions})
        if said not in have:
            yield _finding(ruleset, path, text, match.start(1), f"'{match.group(0)}'",
                           f"{names} {'chooses' if len(actions) == 1 else 'choose'} {_counted(have, 'card')}")
    yield from _ranges(ruleset, path, text, literal, actions)
    yield from _consumed(ruleset, path, text, literal, actions, resources)
    if path[-1] == "doc":
        yield from _pounds(ruleset, path, text, literal, actions)


def _ranges(ruleset: Ruleset, path: tuple[Any, ...], text: str, literal: str,
            actions: list[Counts]) -> Iterator[Finding]:
    for match in _RANGE.finditer(literal):
        words = match.group(3).split()
        named, spans = _repeat_named(words, actions)
        said = (_number(match.group(1)), _number(match.group(2)))
        if spans and all(said != (low, high) for _, low, high in spans):
            have = " or ".join(f"{low} to {high}" for _, low, high in spans)
            claim = literal[match.start():match.start(3)] + " " + " ".join(words[:named + 1])
            yield _finding(ruleset, path, text, match.start(1), f"'{claim}'",
                           f"the repeat '{spans[0][0]}' takes {have}")


def _repeat_named(words: list[str], actions: list[Counts]) -> tuple[int, list[tuple[str, int, int]]]:
    """The first of the words that names the repeated part of one of the actions, and their repeats."""
    for n, word in enumerate(words):
        spans = [a.repeat for a in actions if a.repeat and word.lower() in (a.repeat[0], a.repeat[0].rstrip("s"))]
        if spans:
            return n, spans
    return 0, []


def _consumed(ruleset: Ruleset, path: tuple[Any, ...], text: str, literal: str, actions: list[Counts],
              resources: Mapping[str, str]) -> Iterator[Finding]:
    if not resources:
        return
    pattern = re.compile(rf"\b{_N}\s+({'|'.join(re.escape(r) for r in resources)})\b", re.IGNORECASE)
    for match in pattern.finditer(literal):
        rid = resources[match.group(2).lower()]
        amounts = [a.consumes.get(rid) for a in actions if rid in a.consumes]
        if not amounts or any(known is None for known in amounts):
            continue  # no action consumes it, or one computes the amount: nothing to compare with
        have = sorted(set().union(*(known or set() for known in amounts)))
        if _number(match.group(1)) not in have:
            yield _finding(ruleset, path, text, match.start(1), f"'{match.group(0)}'",
                           f"{_effects_of([a for a in actions if rid in a.consumes])} consume {_either(have)} "
                           f"{match.group(2)}")


def _pounds(ruleset: Ruleset, path: tuple[Any, ...], text: str, literal: str,
            actions: list[Counts]) -> Iterator[Finding]:
    known = set().union(*(a.money for a in actions))
    if not known:
        return
    for match in _POUNDS.finditer(literal):
        if int(match.group(1)) not in known:
            yield _finding(ruleset, path, text, match.start(), match.group(0),
                           f"the data of {', '.join(a.name for a in actions)} says "
                           f"{', '.join(f'£{n}' for n in sorted(known))}")


def _finding(ruleset: Ruleset, path: tuple[Any, ...], text: str, offset: int, said: str, data: str) -> Finding:
    return Finding(_pos(ruleset, path, text, offset), "W110",
                   f"{_whose(ruleset, path)} says {said}, but {data}; write the number as a {{…}} part that reads the "
                   f"data (docs/ruleset-format.md, texts that follow the data), or correct it")


def _whose(ruleset: Ruleset, path: tuple[Any, ...]) -> str:
    if path[0] == "rules":
        return f"the text of {path[1]}"
    action = ruleset.actions.get(path[1]) if path[0] == "actions" else None
    return f"the {path[-1]} of {action.name}" if action is not None else f"the {path[-1]}"


def _either(values: list[int]) -> str:
    return " or ".join(str(v) for v in values)


def _counted(values: list[int], noun: str) -> str:
    return f"{_either(values)} {noun}" if values == [1] else f"{_either(values)} {noun}s"


def _effects_of(actions: list[Counts]) -> str:
    if len(actions) == 1:
        return f"{actions[0].name}'s effects"
    return f"the effects of {', '.join(a.name for a in actions)}"
