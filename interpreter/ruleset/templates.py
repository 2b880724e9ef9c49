"""Texts that follow the data: `{expression}` templates in messages and rule texts.

A requirement's `message` and a rule's `text` may show values with `{expression}`, written in the
condition language. A part that reads only the ruleset (`{loan.amount}`, `{sold_industries | or}`)
is worked out once, when the ruleset loads, so that the text always says what the data says: a
variant that changes the loan amount or adds a sold industry changes its texts with it. A part of a
message that reads the game (`{me.money}`, `{industry.name}`) stays an expression, shown when the
message is.

A rule text may use only parts that read the ruleset (it is shown outside any game: `brass rule`,
explanations, refusals); a message may use both.

A list is shown as its items joined by commas and "and"; `| or` after the expression joins the
last two with "or" instead (`{sold_industries | or}`: "Cotton Mill, Manufacturer or Pottery").
Ids are shown by their printed names, booleans as yes/no.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from brass_dsl import DslError, Env
from brass_dsl.source import ExpressionOrigin, SourcePos
from brass_dsl.types import DslType, ListType, RecordType
from interpreter.ruleset.errors import DiagnosticSink

__all__ = ["PLACEHOLDER", "TextContext", "render_value", "shifted", "template_parts"]

PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
_JOINER = re.compile(r"\|\s*(and|or)\s*$")
_NAMED_TABLES = {"location": "locations", "industry": "industries", "resource": "resources"}

Compile = Callable[[str, ExpressionOrigin], Any]  # expression text, origin -> CompiledExpression or None
Parts = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class TextContext:
    """What working out a text needs: the resolved data (printed names), the names and functions
    that read only the ruleset, and where to report a problem."""

    data: Mapping[str, Any]
    ruleset_names: Collection[str]
    game_functions: Collection[str]
    sink: DiagnosticSink
    quiet: bool = False  # data left out after other errors: a part that cannot be worked out is not reported


def template_parts(text: str, origin: ExpressionOrigin, compile: Compile, context: TextContext, *,
                   dynamic: bool = True) -> Parts:
    """`text` split into plain parts ("text", None) and expression parts ("", compiled). A part
    that reads only the ruleset is worked out now and becomes plain text; with `dynamic` false
    (a rule text) every part must be of that kind."""
    parts: list[tuple[str, Any]] = []
    last = 0
    for match in PLACEHOLDER.finditer(text):
        parts.append((text[last:match.start()], None))
        parts.append(_part(text, match, origin, compile, context, dynamic))
        last = match.end()
    parts.append((text[last:], None))
    return _joined([p for p in parts if p[0] or p[1] is not None])


def _part(text: str, match: re.Match[str], origin: ExpressionOrigin, compile: Compile, context: TextContext,
          dynamic: bool) -> tuple[str, Any]:
    inner = match.group(1)
    joiner = _JOINER.search(inner)
    expression = inner[:joiner.start()] if joiner else inner
    where = shifted(origin, text, match.start(1))
    compiled = compile(expression, where)
    if compiled is None:
        return "", None
    if _reads_only_the_ruleset(compiled, context):
        return _worked_out(compiled, joiner.group(1) if joiner else "and", context), None
    pos = where.locate(1, 1)
    if not dynamic:  # the registry of a rule text hides the game; this is only a safeguard
        context.sink.error(pos, "a rule text can show only what the ruleset says, not a game in progress")
    elif joiner:
        context.sink.error(pos, f"'| {joiner.group(1)}' joins a list known when the ruleset loads; this part "
                                "reads the game in progress")
    return "", compiled


def _reads_only_the_ruleset(compiled: Any, context: TextContext) -> bool:
    """The expression names nothing bound by an action and nothing of a game in progress."""
    return compiled.names_used <= set(context.ruleset_names) and not (
        compiled.functions_used & set(context.game_functions))


def _worked_out(compiled: Any, joiner: str, context: TextContext) -> str:
    try:
        return render_value(context.data, compiled(Env()), compiled.type, joiner)
    except DslError as error:
        if not context.quiet:
            context.sink.error(error.pos, error.message, error.context())
    except (ValueError, KeyError, LookupError, TypeError, AttributeError) as error:
        if not context.quiet:
            start = compiled.origin.start if compiled.origin else None
            context.sink.error(start, f"{{{compiled.text}}} cannot be worked out from the ruleset: {error}")
    return "?"


def render_value(data: Mapping[str, Any], value: Any, type_: DslType, joiner: str = "and") -> str:
    """A value as a player reads it: ids by their printed names, lists joined, booleans yes/no."""
    if isinstance(type_, ListType):
        items = [render_value(data, item, type_.element) for item in value]
        if len(items) < 2:
            return "".join(items)
        return f"{', '.join(items[:-1])} {joiner} {items[-1]}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(type_, RecordType) and isinstance(value, str):
        return _printed_name(data, type_.name, value)
    return str(value)


def _printed_name(data: Mapping[str, Any], type_name: str, value: str) -> str:
    table = data.get(_NAMED_TABLES.get(type_name, ""), {})
    if isinstance(table, Mapping) and isinstance(table.get(value), Mapping) and "name" in table[value]:
        return str(table[value]["name"])
    if type_name == "era":
        return next((str(e.get("name", value)) for e in data.get("eras", ()) if e.get("id") == value), value)
    return value


def shifted(origin: ExpressionOrigin, text: str, offset: int) -> ExpressionOrigin:
    """The origin of a {placeholder} starting at `offset` in a message: exact when the
    message is on one line."""
    if "\n" in text[:offset] or origin.style not in ("", "'", '"'):
        return origin
    start = origin.start
    return ExpressionOrigin(SourcePos(start.file, start.line, start.col + offset), origin.style)


def _joined(parts: list[tuple[str, Any]]) -> Parts:
    """Neighbouring plain parts as one (a part worked out at load joins the text around it)."""
    out: list[tuple[str, Any]] = []
    for text, compiled in parts:
        if compiled is None and out and out[-1][1] is None:
            out[-1] = (out[-1][0] + text, None)
        else:
            out.append((text, compiled))
    return tuple(out)
