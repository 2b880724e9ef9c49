"""Reference documentation generated from a registry and the grammar.

Rule authors need to know which types, names and functions an expression may use.
Writing that list by hand would drift from the code, so it is generated from the
registry the checker uses (with each entry's doc and example) and from the grammar
file the parser uses.
"""

from __future__ import annotations

from brass_dsl.parser import grammar_text
from brass_dsl.registry import ONE, Cost, FunctionEntry, NameEntry, Registry
from brass_dsl.types import RecordType

MAX_LISTED_IDS = 60  # a type with more literal values than this only says how many


def reference_markdown(registry: Registry) -> str:
    """Markdown reference of every type, name and function visible in `registry`."""
    sections = [
        "# Condition language reference",
        "Built-in types: `int` (all numbers are integers; `/` divides rounding down), `bool`, `str` and `list[T]`.",
        "## Types",
        *(_type_section(t) for t in registry.types()),
        "## Names",
        *(_name_section(e) for e in registry.names()),
        "## Functions",
        *(_function_section(f) for f in registry.functions()),
    ]
    return "\n\n".join(sections) + "\n"


def grammar_markdown() -> str:
    """Markdown page embedding the grammar file."""
    return f"# Condition language grammar\n\n```lark\n{grammar_text().rstrip()}\n```\n"


def _type_section(t: RecordType) -> str:
    parts = [f"### `{t.name}`"]
    if t.doc:
        parts.append(t.doc)
    if t.fields:
        rows = [
            f"| `{f.name}` | `{f.type}` | {_cell(f.doc)} |" for f in sorted(t.fields.values(), key=lambda f: f.name)
        ]
        parts.append("\n".join(["| field | type | description |", "| --- | --- | --- |", *rows]))
    if t.ids is not None:
        parts.append(_ids_line(sorted(t.ids())))
    return "\n\n".join(parts)


def _ids_line(ids: list[str]) -> str:
    if len(ids) > MAX_LISTED_IDS:
        return f"Written as a string literal: one of {len(ids)} names."
    return "Written as a string literal: " + ", ".join(f'`"{i}"`' for i in ids) + "."


def _name_section(entry: NameEntry) -> str:
    return _entry(f"### `{entry.name}`: `{entry.type}`", entry.doc, entry.example, entry.cost)


def _function_section(entry: FunctionEntry) -> str:
    return _entry(f"### `{entry.signature}`", entry.doc, entry.example, entry.cost)


def _entry(heading: str, doc: str, example: str, cost: Cost = ONE) -> str:
    parts = [heading]
    if doc:
        parts.append(doc)
    if example:
        parts.append(f"Example: `{example}`")
    if cost != ONE:  # what counts against the bound on the work of one evaluation (brass_dsl/cost.py)
        parts.append(f"Cost: {cost}{f': {cost.why}' if cost.why else ''}.")
    return "\n\n".join(parts)


def _cell(text: str) -> str:
    """Text made safe for one Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")
