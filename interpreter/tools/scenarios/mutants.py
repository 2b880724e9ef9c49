"""The mutants of a ruleset: small changes of its resolved document that a scenario should notice.

    mutants = generate(ruleset.source)        # in document order: the same list on every run
    data = apply(ruleset.source.data, mutants[7])

A mutant is made from the merged document (every value with the place it was written), never
from the text of the files: so a variant's mutants are those of the game it plays, and each is
located at the FILE:LINE:COL that states the value. The kinds (docs/scenarios.md, "Mutation
testing"):

- `number`: every integer of a record (and of an expression) one more and one less; every
  true/false flipped;
- `operator`: every comparison and boolean operator of an expression swapped for its twin
  (`>=`/`>`, `<=`/`<`, `==`/`!=`, `in`/`not in`, `and`/`or`), every `not` dropped;
- `precondition`, `effect`: every precondition (`requires:`) and every effect step removed;
- `choice`: every list of ids or numbers (a merchant's `buys`, an era list, a slot's
  industries) with one item removed.

What cannot change a game is never mutated: `PRESENTATION_KEYS` and `PRESENTATION_PLACES` (which
include the bots' parameters).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from brass_dsl import DslError, ast, parse
from brass_dsl.source import SourcePos
from interpreter.ruleset.yaml_source import Document

__all__ = ["PRESENTATION_KEYS", "PRESENTATION_PLACES", "Mutant", "apply", "generate", "is_presentation"]

# Presentation-only fields, in one place: the schema (cerberus rules) has no per-field metadata,
# so the mutation tool keeps the list. A value under one of these keys only names, describes,
# draws or cites: the engine never reads it to decide a move, a payment or a score.
# (`rule`/`rules` cite the rule index; `name`/`short`/`colour` label things on screen; `doc`,
# `description`, `message`, `text`, `source` are words for people.)
PRESENTATION_KEYS = frozenset((
    "name", "title", "short", "label", "colour", "color", "doc", "docs", "description", "message",
    "text", "source", "rule", "rules", "version", "rulebook",
))
# Presentation-only places by path pattern ("*": any key or index): where a key that matters
# elsewhere only draws. `at:` of a location is its place on `brass board`'s picture, while `at:`
# of a `consume` effect step says where the resource is taken (and is mutated).
# The bots' parameters (`bots:`) are no rule at all: nothing of the engine reads them, so a scenario
# can never notice a change of one (each would survive as an equivalent).
PRESENTATION_PLACES = (("locations", "*", "at"), ("links", "*", "at"), ("links", "*", "via"), ("bots",))

# The twin of each operator (the mutant swaps an operator for its twin).
OPERATOR_TWINS = {">=": ">", ">": ">=", "<=": "<", "<": "<=", "==": "!=", "!=": "==",
                  "in": "not in", "not in": "in", "and": "or", "or": "and"}
PRECONDITION_LISTS = frozenset(("requires",))
EFFECT_LISTS = frozenset(("effects", "end", "round_end", "scoring", "beer_bonus", "start", "setup_steps"))

Path = tuple[Any, ...]


@dataclass(frozen=True)
class Mutant:
    """One change of the document: `path` gets `value`, or (`remove`) the list item at `path` goes."""

    number: int  # its place in the generated order, from 0
    kind: str  # number, operator, precondition, effect, choice
    path: Path
    value: Any
    remove: bool
    old: str
    new: str
    pos: SourcePos
    rules: tuple[str, ...]  # rule IDs cited by the record that holds the change (or its nearest ancestor)
    offset: int = -1  # in an expression: where the changed part starts in its text (else -1)

    @property
    def id(self) -> str:
        """A name that stays the same while the document keeps its shape: the path and the change."""
        where = ".".join(str(p) for p in self.path) + (f"@{self.offset}" if self.offset >= 0 else "")
        return f"{where}:{self.kind}:removed" if self.remove else f"{where}:{self.kind}:{self.old}->{self.new}"

    @property
    def change(self) -> str:
        """What changed, old → new (in an expression, also the expression as the mutant has it)."""
        text = f"{self.old} → {self.new}"
        return f"{text} in: {_one_line(self.value)}" if self.offset >= 0 else text


def is_presentation(path: Path) -> bool:
    """Whether a value at `path` only presents (never mutated)."""
    if any(isinstance(p, str) and p in PRESENTATION_KEYS for p in path):
        return True
    return any(len(path) >= len(place) and all(want in ("*", got) for want, got in zip(place, path[:len(place)],
                                                                                          strict=True))
               for place in PRESENTATION_PLACES)


def generate(doc: Document) -> list[Mutant]:
    """Every mutant of the document, in document order (dict order, then list order)."""
    found: list[Mutant] = []
    for path, value, parent in _walk(doc.data, ()):
        for kind, new_value, remove, old, new, pos, offset in _changes(doc, path, value, parent):
            found.append(Mutant(len(found), kind, path, new_value, remove, old, new, pos, _cited(doc.data, path),
                                offset))
    return found


def _walk(value: Any, path: Path, parent: Any = None) -> Iterator[tuple[Path, Any, Any]]:
    if is_presentation(path):
        return
    yield path, value, parent
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, path + (key,), value)
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from _walk(item, path + (n,), value)


# (kind, new value, removed, old text, new text, where, offset in an expression or -1)
Change = tuple[str, Any, bool, str, str, SourcePos, int]


def _changes(doc: Document, path: Path, value: Any, parent: Any) -> Iterator[Change]:
    pos = doc.pos(path) or SourcePos("<ruleset>", 1, 1)
    if isinstance(parent, list) and path:
        yield from _removal(doc, path, value, parent, pos)
    if isinstance(value, bool):
        yield "number", not value, False, _yaml(value), _yaml(not value), pos, -1
    elif isinstance(value, int):
        for new in (value + 1, value - 1):
            yield "number", new, False, str(value), str(new), pos, -1
    elif isinstance(value, str):
        yield from _expression_changes(doc, path, value)


def _removal(doc: Document, path: Path, value: Any, parent: list[Any], pos: SourcePos) -> Iterator[Change]:
    """The list item at `path` removed: a precondition, an effect step, or one of a list of choices."""
    holder = path[-2] if len(path) >= 2 else None
    shown = _short(value)
    if holder in PRECONDITION_LISTS:
        check = value.get("check", shown) if isinstance(value, dict) else shown
        yield "precondition", None, True, f"requires {_short(check)}", "(removed)", pos, -1
    elif holder in EFFECT_LISTS:
        yield "effect", None, True, shown, "(removed)", pos, -1
    elif not isinstance(value, (dict, list)) and all(not isinstance(v, (dict, list)) for v in parent):
        rest = [v for n, v in enumerate(parent) if n != path[-1]]
        yield "choice", None, True, _yaml(parent), _yaml(rest), pos, -1


def _expression_changes(doc: Document, path: Path, text: str) -> Iterator[Change]:
    """The mutants of a text that is an expression: operators swapped, `not` dropped, numbers ±1.
    A text that does not parse (an id, a word) has none."""
    try:
        tree = parse(text)
    except DslError:
        return
    origin = doc.origin(path)
    offsets = _line_starts(text)
    for node in _nodes(tree):
        edits: list[tuple[int, int, str, SourcePos]] = []  # (start, end, replacement, where)
        if isinstance(node, ast.Binary) and node.op in OPERATOR_TWINS:
            start = offsets[node.op_line - 1] + node.op_column - 1
            end = _op_end(text, start, node.op)
            if end is not None:
                edits.append((start, end, OPERATOR_TWINS[node.op], origin.locate(node.op_line, node.op_column)))
        elif isinstance(node, ast.Unary) and node.op == "not":
            start = offsets[node.line - 1] + node.column - 1
            operand = offsets[node.operand.line - 1] + node.operand.column - 1
            if text[start:start + 3] == "not" and operand > start + 3 and not text[start + 3:operand].strip():
                edits.append((start, operand, "", origin.locate(node.line, node.column)))
        elif isinstance(node, ast.IntLit) and not isinstance(node.value, bool):
            start = offsets[node.line - 1] + node.column - 1
            end = offsets[node.end_line - 1] + node.end_column - 1
            for new in (node.value + 1, node.value - 1):
                edits.append((start, end, str(new), origin.locate(node.line, node.column)))
        for start, end, replacement, where in edits:
            mutated = text[:start] + replacement + text[end:]
            kind = "number" if isinstance(node, ast.IntLit) else "operator"
            yield kind, mutated, False, _one_line(text[start:end]), replacement or "(dropped)", where, start


def _op_end(text: str, start: int, op: str) -> int | None:
    """Where the operator written at `start` ends (`not in` may hold several spaces)."""
    if op == "not in":
        if not text.startswith("not", start):
            return None
        rest = start + 3
        while rest < len(text) and text[rest].isspace():
            rest += 1
        return rest + 2 if text.startswith("in", rest) else None
    return start + len(op) if text.startswith(op, start) else None


def _nodes(tree: ast.Node) -> Iterator[ast.Node]:
    """Every node of the tree, in the order of the text (a parent before its children)."""
    found: list[ast.Node] = []

    def visit(value: Any) -> None:
        if isinstance(value, ast.Node):
            found.append(value)
            for name in getattr(value, "__dataclass_fields__", {}):
                visit(getattr(value, name))
        elif isinstance(value, (list, tuple)):
            for item in value:
                visit(item)

    visit(tree)
    return iter(sorted(found, key=lambda n: (n.line, n.column, -n.end_line, -n.end_column)))


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    return starts


def _cited(data: Any, path: Path) -> tuple[str, ...]:
    """The rule IDs of the nearest `rule:`/`rules:` on the way from the changed value to the root:
    those of its own record first, else those of the record that holds it."""
    chain: list[Any] = [data]
    for step in path:
        try:
            chain.append(chain[-1][step])
        except (KeyError, IndexError, TypeError):
            break
    for record in reversed(chain):
        if isinstance(record, dict):
            cited = [record["rule"]] if isinstance(record.get("rule"), str) else []
            cited += [r for r in record.get("rules", []) if isinstance(r, str)] \
                if isinstance(record.get("rules"), list) else []
            if cited:
                return tuple(dict.fromkeys(cited))
    return ()


def apply(data: Any, mutant: Mutant) -> Any:
    """A copy of `data` with the mutant's change: only the containers on its path are copied, the
    rest is shared (the loader never changes a document it compiles)."""
    return _replaced(data, mutant.path, mutant)


def _replaced(node: Any, path: Path, mutant: Mutant) -> Any:
    head, rest = path[0], path[1:]
    copy: Any = dict(node) if isinstance(node, dict) else list(node)
    if rest:
        copy[head] = _replaced(node[head], rest, mutant)
    elif mutant.remove:
        del copy[head]
    else:
        copy[head] = mutant.value
    return copy


def _yaml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_yaml(v) for v in value) + "]"
    return str(value)


def _short(value: Any, limit: int = 70) -> str:
    if isinstance(value, dict):
        text = "{" + ", ".join(f"{k}: {_short(v, limit)}" for k, v in value.items()) + "}"
    else:
        text = _yaml(value)
    text = _one_line(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _one_line(text: str) -> str:
    return " ".join(text.split())
