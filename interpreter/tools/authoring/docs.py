"""Regenerate the generated parts of the designer documentation.

    python -m interpreter.tools.authoring.docs            # rewrite the generated blocks of docs/*.md
    python -m interpreter.tools.authoring.docs --check    # exit 1 if a doc is out of date

The hand-written documentation holds blocks that are generated from the code, so
that they cannot drift from it:

    <!-- BEGIN GENERATED: name -->
    …generated text…
    <!-- END GENERATED: name -->

* `docs/ruleset-format.md`, block `effects`: the table of effect steps, from
  `interpreter/ruleset/effects.py`;
* `docs/condition-language.md`, block `grammar`: the grammar file
  (`brass_dsl.docgen.grammar_markdown`), and block `reference`: every type, name
  and function of the built-in ruleset's vocabulary
  (`brass_dsl.docgen.reference_markdown`);
* `docs/ruleset-format.md`, block `bots`, and `docs/bots.md`, block `parameters`: the
  bots' parameters, their types, ranges, defaults and meanings, from
  `interpreter/ruleset/bot_params.py`.

The JSON Schemas of ruleset files for editors (`brass schema`, `brass schema --variant`) are
generated whole into docs/editor/.

Only the text between the markers is rewritten. `--check` also reports keys of the
ruleset schema (`interpreter/ruleset/schema.py`) that `docs/ruleset-format.md` does not
mention in the part about their section, since that part is written by hand.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rulesets
from brass_dsl.docgen import grammar_markdown, reference_markdown
from interpreter.ruleset import schema
from interpreter.ruleset.bot_params import TUNED_KEYS, Param, catalogue
from interpreter.ruleset.effects import ACTION, BONUS, EFFECTS, ERA, GAME, ROUND, EffectParam, EffectSpec

DOCS_DIR = Path(__file__).resolve().parents[3] / "docs"
RULESET_FORMAT = "ruleset-format.md"
CONDITION_LANGUAGE = "condition-language.md"
BOTS = "bots.md"
REFERENCE_RULESET = rulesets.DEFAULT  # the ruleset whose vocabulary the docs list

CONTEXT_ORDER = (ACTION, BONUS, ROUND, ERA, GAME)
_BLOCK = re.compile(
    r"<!-- BEGIN GENERATED: (?P<name>[a-z_-]+) -->\n(?P<body>.*?)<!-- END GENERATED: (?P<end>[a-z_-]+) -->",
    re.DOTALL,
)
_MARKER = re.compile(r"<!-- (BEGIN|END) GENERATED: ([a-z_-]+) -->")


class DocsError(Exception):
    """A doc whose generated blocks cannot be located (missing or broken markers)."""


# --------------------------------------------------------------------------
# The generated blocks


def effect_table(effects: Mapping[str, EffectSpec] = EFFECTS) -> str:
    """Markdown table of every effect step: name, where it may be used, parameters, meaning, rules."""
    rows = ["| effect | where | parameters | what it does | rules |", "| --- | --- | --- | --- | --- |"]
    for spec in effects.values():
        where = ", ".join(c for c in CONTEXT_ORDER if c in spec.contexts)
        rules = ", ".join(spec.rules)
        rows.append(f"| `{spec.name}` | {where} | {_parameters_cell(spec)} | {_cell(spec.doc)} | {rules} |")
    return "\n".join(rows) + "\n"


def _parameters_cell(spec: EffectSpec) -> str:
    lines = [_parameter_line(p) for p in spec.params]
    lines.append(f"Write: {_forms(spec)}")
    return "<br>".join(lines)


def _parameter_line(p: EffectParam) -> str:
    if p.literal:
        plain = "a plain word" if p.type == "str" else f"a {p.type} id, written plainly"
        kind = f"{plain} (not an expression)"
    else:
        kind = p.type
    notes = [kind]
    if not p.required:
        notes.append("optional")
    if p.binds:
        notes.append("sees " + ", ".join(f"`{n}` ({t})" for n, t in p.binds))
    return f"`{p.name}`: {', '.join(notes)}. {_cell(p.doc)}"


def _forms(spec: EffectSpec) -> str:
    """How a step of this effect is written in YAML."""
    required = [p for p in spec.params if p.required]
    if not spec.params:
        return f"`- {spec.name}`"
    named = "`- " + spec.name + ": {" + ", ".join(f"{p.name}: …" for p in spec.params) + "}`"
    if not required:
        return f"`- {spec.name}` or {named}"
    if len(required) == 1 and len(spec.params) == 1:
        return f"`- {spec.name}: …` or {named}"
    if len(required) == 1:
        return f"`- {spec.name}: …` (the {required[0].name}) or {named}"
    return named


def bot_parameter_keys() -> str:
    """The `bots:` section's key table for docs/ruleset-format.md (`brass schema` reads its meanings)."""
    rows = ["| key | type | required | meaning |", "| --- | --- | --- | --- |"]
    groups = list(dict.fromkeys(param.group for param in catalogue()))
    rows += [f"| `{group}` | mapping | no | the parameters of the {group} group, by name |" for group in groups]
    rows += [f"| `{p.group}.{p.name}` | {_kind(p)} {_range(p)} | no ({_number(p.default)}) | {_cell(p.doc)} |"
             for p in catalogue()]
    rows.append("| `tuned` | mapping | no | the record `brass tune --write` leaves: how this ruleset's parameters "
                "were tuned |")
    kinds = {"result": "string", "verdict": "mapping (`wins`, `games`)"}
    rows += [f"| `tuned.{key}` | {kinds.get(key, 'integer')} | yes | {_cell(doc)} |"
             for key, doc in TUNED_KEYS.items()]
    return "\n".join(rows) + "\n"


def bot_parameter_table() -> str:
    """Every bot parameter by group, for docs/bots.md: name, default, type and range, meaning."""
    out: list[str] = []
    for group in dict.fromkeys(param.group for param in catalogue()):
        out += ["", f"`bots.{group}`:", "", "| parameter | default | type, range | meaning |",
                "| --- | --- | --- | --- |"]
        out += [f"| `{p.name}` | {_number(p.default)} | {_kind(p)} {_range(p)} | {_cell(p.doc)} |"
                for p in catalogue() if p.group == group]
    return "\n".join(out[1:]) + "\n"


def _kind(param: Param) -> str:
    return "integer" if param.kind is int else "number"


def _range(param: Param) -> str:
    return f"{_number(param.low)}–{_number(param.high)}"


def _number(value: float) -> str:
    """A number as the docs write it: thousands separated, a minus sign, no needless `.0`."""
    text = f"{int(value):,}" if float(value).is_integer() else repr(value)
    return text.replace("-", "−")


def _cell(text: str) -> str:
    """Text made safe for one Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def demote_headings(markdown: str, levels: int = 1) -> str:
    """Every Markdown heading `levels` deeper (outside code blocks), to nest a generated page in a doc."""
    out, fenced = [], False
    for line in markdown.splitlines(keepends=True):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            line = "#" * levels + line
        out.append(line)
    return "".join(out)


def condition_reference(registry: Any) -> str:
    return demote_headings(reference_markdown(registry))


def grammar_reference() -> str:
    return demote_headings(grammar_markdown())


@dataclass(frozen=True)
class GeneratedDoc:
    """One doc file and the producers of its generated blocks."""

    file: str
    blocks: Mapping[str, Callable[[], str]]


def generated_docs(ruleset: Any = None) -> list[GeneratedDoc]:
    """Every doc with generated blocks; `ruleset` (default: the built-in one) gives the vocabulary."""

    def registry() -> Any:
        nonlocal ruleset
        if ruleset is None:
            from interpreter.ruleset.loader import load_ruleset

            ruleset = load_ruleset(REFERENCE_RULESET)
        return ruleset.registry

    return [
        GeneratedDoc(RULESET_FORMAT, {"effects": effect_table, "bots": bot_parameter_keys}),
        GeneratedDoc(BOTS, {"parameters": bot_parameter_table}),
        GeneratedDoc(CONDITION_LANGUAGE,
                     {"grammar": grammar_reference, "reference": lambda: condition_reference(registry())}),
    ]


# --------------------------------------------------------------------------
# Rewriting blocks between markers


def render(text: str, blocks: Mapping[str, Callable[[], str] | str], file: str = "<doc>") -> str:
    """`text` with the body of every generated block replaced; DocsError if the markers are wrong."""
    _check_markers(text, set(blocks), file)

    def replace(match: re.Match[str]) -> str:
        name = match["name"]
        produce = blocks[name]
        body = produce() if callable(produce) else produce
        if not body.endswith("\n"):
            body += "\n"
        return f"<!-- BEGIN GENERATED: {name} -->\n{body}<!-- END GENERATED: {name} -->"

    return _BLOCK.sub(replace, text)


def _check_markers(text: str, expected: set[str], file: str) -> None:
    problems = []
    open_name: str | None = None
    seen: list[str] = []
    for match in _MARKER.finditer(text):
        kind, name = match.groups()
        line = text.count("\n", 0, match.start()) + 1
        if kind == "BEGIN":
            if open_name is not None:
                problems.append(f"{file}:{line}: block '{name}' begins inside block '{open_name}'")
            open_name = name
            seen.append(name)
        elif open_name != name:
            problems.append(f"{file}:{line}: END of block '{name}' without its BEGIN")
        else:
            open_name = None
    if open_name is not None:
        problems.append(f"{file}: block '{open_name}' has no END marker")
    for name in sorted(expected - set(seen)):
        problems.append(f"{file}: the generated block '{name}' is missing; add "
                        f"<!-- BEGIN GENERATED: {name} --> and <!-- END GENERATED: {name} --> where it belongs")
    for name in sorted(set(seen) - expected):
        problems.append(f"{file}: unknown generated block '{name}' (known: {', '.join(sorted(expected))})")
    for name in sorted({n for n in seen if seen.count(n) > 1}):
        problems.append(f"{file}: the generated block '{name}' appears more than once")
    if problems:
        raise DocsError("\n".join(problems))


def expected_text(doc: GeneratedDoc, docs_dir: Path = DOCS_DIR) -> tuple[str, str]:
    """The doc's current text and the text it should have."""
    current = (docs_dir / doc.file).read_text(encoding="utf-8")
    return current, render(current, doc.blocks, doc.file)


SCHEMA_FILES = {"editor/brass-ruleset.schema.json": False, "editor/brass-variant.schema.json": True}


def generated_files() -> dict[str, Callable[[], str]]:
    """Docs generated whole: the JSON Schemas of ruleset files (file -> what produces it)."""
    from interpreter.tools.authoring.command import schema_text

    return {file: functools.partial(schema_text, variant) for file, variant in SCHEMA_FILES.items()}


def _current(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def outdated(docs_dir: Path = DOCS_DIR, ruleset: Any = None) -> list[str]:
    """The docs whose generated blocks (or whole generated files) differ from what the code produces."""
    stale = []
    for doc in generated_docs(ruleset):
        current, wanted = expected_text(doc, docs_dir)
        if current != wanted:
            stale.append(doc.file)
    stale += [file for file, produce in generated_files().items() if _current(docs_dir / file) != produce()]
    return stale


def update(docs_dir: Path = DOCS_DIR, ruleset: Any = None) -> list[str]:
    """Rewrite the generated blocks and files; return the docs that changed."""
    changed = []
    for doc in generated_docs(ruleset):
        current, wanted = expected_text(doc, docs_dir)
        if current != wanted:
            (docs_dir / doc.file).write_text(wanted, encoding="utf-8", newline="\n")
            changed.append(doc.file)
    for file, produce in generated_files().items():
        wanted = produce()
        if _current(docs_dir / file) != wanted:
            (docs_dir / file).parent.mkdir(parents=True, exist_ok=True)
            (docs_dir / file).write_text(wanted, encoding="utf-8", newline="\n")
            changed.append(file)
    return changed


# --------------------------------------------------------------------------
# Schema keys the hand-written ruleset format must mention


def section_keys(section_schema: Mapping[str, Any]) -> set[str]:
    """Every key a section may contain, at any depth (rule citations are documented once, globally)."""
    keys: set[str] = set()
    _collect_keys(section_schema, keys)
    return keys


def _collect_keys(node: Any, keys: set[str]) -> None:
    if not isinstance(node, Mapping):
        return
    sub = node.get("schema")
    if node.get("type") == "dict" and isinstance(sub, Mapping):
        for key, value in sub.items():
            if schema.CITATIONS.get(key) is value:
                continue
            keys.add(key)
            _collect_keys(value, keys)
    elif isinstance(sub, Mapping):  # the item schema of a list
        _collect_keys(sub, keys)
    _collect_keys(node.get("valuesrules"), keys)


def section_text(markdown: str, section: str) -> str | None:
    """The part of the doc under the first heading naming `section` in backticks (until the next heading
    of the same or a higher level)."""
    lines = markdown.splitlines()
    for i, line in enumerate(lines):
        heading = re.match(r"(#{1,6}) ", line)
        if heading and f"`{section}`" in line:
            level = len(heading.group(1))
            end = next((j for j in range(i + 1, len(lines))
                        if (h := re.match(r"(#{1,6}) ", lines[j])) and len(h.group(1)) <= level), len(lines))
            return "\n".join(lines[i:end])
    return None


def undocumented_keys(markdown: str, sections: Mapping[str, Any] = schema.SECTIONS) -> list[str]:
    """Sections without a heading, and keys not mentioned (as `key` or `parent.key`) under their section's heading."""
    missing = []
    for section, section_schema in sections.items():
        text = section_text(markdown, section)
        if text is None:
            missing.append(section)
            continue
        missing += [f"{section}: {key}" for key in sorted(section_keys(section_schema))
                    if not re.search(rf"`(?:[a-z_]+\.)*{key}`", text)]
    return missing


# --------------------------------------------------------------------------
# Command line


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m interpreter.tools.authoring.docs",
                                     description="Regenerate the generated parts of docs/*.md.")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a doc is out of date")
    parser.add_argument("--docs", type=Path, default=DOCS_DIR, help=f"the docs folder (default: {DOCS_DIR})")
    args = parser.parse_args(argv)
    try:
        stale = outdated(args.docs) if args.check else update(args.docs)
    except (DocsError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    missing = undocumented_keys((args.docs / RULESET_FORMAT).read_text(encoding="utf-8"))
    for item in missing:
        print(f"{RULESET_FORMAT}: schema key not documented under its section: {item}", file=sys.stderr)
    if args.check:
        for file in stale:
            print(f"{file} is out of date; run: python -m interpreter.tools.authoring.docs", file=sys.stderr)
        return 1 if stale or missing else 0
    for file in stale:
        print(f"updated {args.docs / file}")
    if not stale:
        print("docs are up to date")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
