"""`brass diff A B`: what ruleset B changes against ruleset A, in a designer's terms.

Both rulesets are compared fully resolved (after `extends`), so the result is what
a player of B would notice, whatever way B was written (an override, a `$patch`, a
copied file). Each change is one of

* value changed       a number, word, text or list of plain values differs;
* condition changed   a `check`, `when` or `where` expression differs (its text);
* expression changed  any other expression differs (a `from`, a derived value, an
                      effect argument, a ranking key);
* added / removed     an entry (a key of a mapping, an entry of a list) exists only
                      in B / only in A;

with the position where B writes the new value (A's position for a removal, and
A's old position too in `--json`). The order is stable: B's document order, the
entries only A has after the others of the same mapping or list.

Paths name values the way a designer finds them: `economy.loan.amount`; a list
entry by its `id` when it has one (`eras[canal].network[0].money`), by its index
otherwise (`actions.build.requires[11].check`). A change inside a record that
cites a rule shows that rule (`[R-BUILD-12]`).

Lists are compared entry by entry when they hold mappings or lists. Entries with an `id` are
matched by id; the others by content, as a text diff matches lines: entries equal in A and B
are matched first, so removing one step of a list shows as that step removed, not as every
later step changed; an entry that changed is matched with the entry of A in its place, or with
the entry of A of the same name (`name`, a step's name, the `rule` it cites) when several
changed there or it moved. A list of plain values (`players`, a resource's `sources`) is one
value. An effect step written as a bare name
(`- score_links`) is the step with no arguments, so giving it an argument reads as
that argument being added.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from brass_dsl.source import SourcePos
from interpreter.ruleset.effects import EFFECTS
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.yaml_source import Document

__all__ = ["Change", "changes_to_json", "diff_documents", "diff_rulesets", "format_changes"]

VALUE, CONDITION, EXPRESSION, ADDED, REMOVED = (
    "value changed", "condition changed", "expression changed", "added", "removed")
CONDITION_KEYS = ("check", "when", "where")
EFFECT_LISTS = ("effects", "end", "scoring", "beer_bonus", "round_end")
_MISSING: Any = object()


@dataclass(frozen=True)
class Change:
    kind: str                      # VALUE, CONDITION, EXPRESSION, ADDED or REMOVED
    path: str                      # designer path: eras[canal].network[0].money
    old: Any                       # _MISSING when added
    new: Any                       # _MISSING when removed
    where: SourcePos | None        # B's value (A's for a removal)
    where_old: SourcePos | None    # A's value (None when added)
    rule: str | None = None        # the rule cited by the nearest enclosing record, if any
    expression: bool = False       # the value (old or new) is the text of an expression

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {"kind": self.kind, "path": self.path}
        if self.old is not _MISSING:
            result["old"] = self.old
        if self.new is not _MISSING:
            result["new"] = self.new
        result["at"] = _pos_text(self.where)
        if self.where_old is not None and self.kind != REMOVED:
            result["was_at"] = _pos_text(self.where_old)
        if self.rule:
            result["rule"] = self.rule
        return result


def diff_rulesets(a: Ruleset, b: Ruleset) -> list[Change]:
    """What B changes against A; both must have been loaded by `load_ruleset` (which keeps `source`)."""
    return diff_documents(_document(a), _document(b))


def diff_documents(a: Document, b: Document) -> list[Change]:
    """What document B changes against document A, in a stable order."""
    return list(_Differ(a, b).walk((), a.data, (), b.data, ()))


def _document(ruleset: Ruleset) -> Document:
    doc = getattr(ruleset, "source", None)
    return doc if isinstance(doc, Document) else Document(ruleset.data)


class _Differ:
    def __init__(self, a: Document, b: Document) -> None:
        self.a, self.b = a, b

    def walk(self, apath: tuple, a: Any, bpath: tuple, b: Any, shown: tuple) -> Iterator[Change]:
        """Changes from value `a` (at apath in A) to value `b` (at bpath in B); `shown` is the designer path."""
        a, b = _as_step(a, b), _as_step(b, a)
        if isinstance(a, dict) and isinstance(b, dict):
            yield from self.mappings(apath, a, bpath, b, shown)
        elif isinstance(a, list) and isinstance(b, list) and (_structured_list(a) or _structured_list(b)):
            yield from self.lists(apath, a, bpath, b, shown)
        elif not _same(a, b):
            yield self.change(_kind(bpath, b), apath, a, bpath, b, shown)

    def mappings(self, apath: tuple, a: dict, bpath: tuple, b: dict, shown: tuple) -> Iterator[Change]:
        for key, value in b.items():
            if key in a:
                yield from self.walk(apath + (key,), a[key], bpath + (key,), value, shown + (key,))
            else:
                yield self.change(ADDED, apath + (key,), _MISSING, bpath + (key,), value, shown + (key,))
        for key, value in a.items():
            if key not in b:
                yield self.change(REMOVED, apath + (key,), value, bpath + (key,), _MISSING, shown + (key,))

    def lists(self, apath: tuple, a: list, bpath: tuple, b: list, shown: tuple) -> Iterator[Change]:
        a_ids, b_ids = _ids(a), _ids(b)
        if a_ids is not None and b_ids is not None:
            for j, ident in enumerate(b_ids):
                label = shown + (_Id(ident),)
                if ident in a_ids:
                    i = a_ids.index(ident)
                    yield from self.walk(apath + (i,), a[i], bpath + (j,), b[j], label)
                else:
                    yield self.change(ADDED, apath + (len(a),), _MISSING, bpath + (j,), b[j], label)
            for i, ident in enumerate(a_ids):
                if ident not in b_ids:
                    yield self.change(REMOVED, apath + (i,), a[i], bpath + (len(b),), _MISSING, shown + (_Id(ident),))
            return
        matched, removed = _aligned(a, b)
        for j, entry in enumerate(b):
            was = matched.get(j)
            if was is not None:
                yield from self.walk(apath + (was,), a[was], bpath + (j,), entry, shown + (j,))
            else:
                yield self.change(ADDED, apath + (len(a),), _MISSING, bpath + (j,), entry, shown + (j,))
        for gone in removed:
            yield self.change(REMOVED, apath + (gone,), a[gone], bpath + (len(b),), _MISSING, shown + (gone,))

    def change(self, kind: str, apath: tuple, old: Any, bpath: tuple, new: Any, shown: tuple) -> Change:
        where_old = self.a.pos(apath) if old is not _MISSING else None
        where = where_old if kind == REMOVED else self.b.pos(bpath)
        rule = _citation(self.b.data, bpath) if new is not _MISSING else _citation(self.a.data, apath)
        expression = _is_expression(bpath if new is not _MISSING else apath)
        return Change(kind, _path_text(shown), _plain(old), _plain(new), where, where_old, rule, expression)


class _Id(str):
    """A list entry named by its id in a designer path."""


# --------------------------------------------------------------------------
# What a value is


def _kind(path: tuple, value: Any) -> str:
    """VALUE, CONDITION or EXPRESSION for a changed plain value at `path` in B."""
    if not isinstance(value, str) or not _is_expression(path):
        return VALUE
    return CONDITION if path[-1] in CONDITION_KEYS else EXPRESSION


def _is_expression(path: tuple) -> bool:
    """The string at `path` is a condition-language expression (docs/ruleset-format.md, Expressions)."""
    if len(path) >= 4 and path[0] == "game_end" and path[1] == "ranking" and path[-1] == "key":
        return True
    if path and path[0] == "actions":
        rest = path[2:]
        if rest[:1] == ("repeat",):
            rest = rest[1:]
        if len(rest) == 3 and rest[0] == "params" and rest[2] == "from":
            return True
        if len(rest) == 2 and rest[0] == "derived":
            return True
        if len(rest) == 3 and rest[0] == "requires" and rest[2] == "check":
            return True
    return _is_effect_argument(path)


def _is_effect_argument(path: tuple) -> bool:
    """path = (…, <effect list>, index, effect name[, parameter]) and the parameter takes an expression."""
    for n in range(len(path) - 1):
        if path[n] in EFFECT_LISTS and isinstance(path[n + 1], int):
            rest = path[n + 2:]
            if not rest or rest[0] not in EFFECTS:
                return False
            spec = EFFECTS[rest[0]]
            if len(rest) == 1:  # the short form: the one required argument
                required = [p for p in spec.params if p.required]
                return len(required) == 1 and not required[0].literal
            if len(rest) == 2:
                if rest[1] == "when":
                    return True
                param = spec.param(rest[1])
                return param is not None and not param.literal
            return False
    return False


def _as_step(value: Any, other: Any) -> Any:
    """A bare effect step name (`- score_links`) as the step with no arguments, when the other side
    writes that step with arguments (`- score_links: {value: …}`)."""
    if isinstance(value, str) and isinstance(other, dict) and list(other) == [value] and value in EFFECTS:
        return {value: {}}
    return value


def _aligned(a: list, b: list) -> tuple[dict[int, int], list[int]]:
    """Which entry of A each entry of B is (B index -> A index), and the entries of A that B has
    not: equal entries first (difflib, as a text diff matches lines), then the changed ones."""
    from difflib import SequenceMatcher  # only for `brass diff`: not imported with the module

    texts_a, texts_b = [_canonical(x) for x in a], [_canonical(x) for x in b]
    matched: dict[int, int] = {}
    gone: list[int] = []
    new: list[int] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, texts_a, texts_b, autojunk=False).get_opcodes():
        if tag == "equal":
            matched.update((j1 + k, i1 + k) for k in range(i2 - i1))
        else:
            pairs = _paired(a, list(range(i1, i2)), b, list(range(j1, j2)), by_place=True)
            matched.update(pairs)
            gone += [i for i in range(i1, i2) if i not in pairs.values()]
            new += [j for j in range(j1, j2) if j not in pairs]
    matched.update(_paired(a, gone, b, new, by_place=False))  # an entry that moved, found by its name
    return matched, [i for i in gone if i not in matched.values()]


def _paired(a: list, gone: list[int], b: list, new: list[int], *, by_place: bool) -> dict[int, int]:
    """Changed entries of B matched with entries of A: by a name both have once, then (`by_place`,
    within one changed block) in order."""
    names_a, names_b = [_name(a[i]) for i in gone], [_name(b[j]) for j in new]
    pairs: dict[int, int] = {}
    for j, name in zip(new, names_b, strict=True):
        if name is not None and names_a.count(name) == 1 and names_b.count(name) == 1:
            pairs[j] = gone[names_a.index(name)]
    if by_place:
        left_a = [i for i in gone if i not in pairs.values()]
        left_b = [j for j in new if j not in pairs]
        pairs.update(zip(left_b, left_a, strict=False))
    return pairs


def _name(entry: Any) -> Any:
    """What names a list entry: its `name` or the `rule` it cites; a step, its effect."""
    if isinstance(entry, str):
        return ("step", entry)
    if isinstance(entry, dict):
        for key in ("name", "rule"):
            if isinstance(entry.get(key), str):
                return (key, entry[key])
        if len(entry) == 1:
            return ("step", next(iter(entry)))
    return None


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _structured_list(value: Any) -> bool:
    return isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value)


def _ids(entries: list) -> list | None:
    """The `id` of every entry, if every entry is a mapping with a distinct `id`."""
    ids = [e.get("id", _MISSING) if isinstance(e, dict) else _MISSING for e in entries]
    if any(i is _MISSING or not isinstance(i, (str, int)) or isinstance(i, bool) for i in ids):
        return None
    return ids if len(set(ids)) == len(ids) else None


def _same(a: Any, b: Any) -> bool:
    """Equal, with booleans never equal to numbers."""
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _citation(data: Any, path: tuple) -> str | None:
    """The rule cited by the innermost record on the path that cites exactly one (`rule`, or `rules`
    with one entry); a record citing several rules does not say which one the change is about."""
    found, value = None, data
    if not path or path[0] == "rules" or path[-1] in ("rule", "rules"):
        return None  # a change of the rule index, or of a citation itself
    for key in path:
        if isinstance(value, dict):
            rule = value.get("rule")
            rules = value.get("rules")
            if isinstance(rule, str):
                found = rule
            elif isinstance(rules, list) and len(rules) == 1 and isinstance(rules[0], str):
                found = rules[0]
        try:
            value = value[key]
        except (KeyError, IndexError, TypeError):
            break
    return found


def _plain(value: Any) -> Any:
    if value is _MISSING:
        return _MISSING
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


# --------------------------------------------------------------------------
# Showing changes

_PLAIN_WORD = re.compile(r"[A-Za-z0-9_.\-]+")


def _path_text(shown: tuple) -> str:
    text = ""
    for part in shown:
        if isinstance(part, (_Id, int)):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + str(part)
    return text


def _pos_text(pos: SourcePos | None) -> str:
    return str(pos) if pos is not None else "?"


def show_value(value: Any, expression: bool = False) -> str:
    """A value on one line, as it would be written in YAML flow style (expressions as their text)."""
    if isinstance(value, str):
        text = " ".join(value.split())
        if expression or _PLAIN_WORD.fullmatch(text):
            return text
        return json.dumps(text, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    return str(value)


def format_change(change: Change) -> str:
    expression = change.expression
    rule = f" [{change.rule}]" if change.rule else ""
    if change.kind == ADDED:
        body = show_value(change.new, expression)
    elif change.kind == REMOVED:
        body = show_value(change.old, expression)
    else:
        body = f"{show_value(change.old, expression)} → {show_value(change.new, expression)}"
    return f"{_pos_text(change.where)}: {change.kind}: {change.path}{rule}: {body}"


def format_changes(changes: list[Change], a_name: str, b_name: str) -> str:
    count = len(changes)
    head = f"{b_name} against {a_name}: {count} change{'s' if count != 1 else ''}"
    return "\n".join([head, *(format_change(c) for c in changes)])


def changes_to_json(changes: list[Change], a_name: str, b_name: str) -> str:
    return json.dumps({"base": a_name, "ruleset": b_name, "changes": [c.to_dict() for c in changes]},
                      indent=2, ensure_ascii=False)
