"""W109: a condition that branches on named eras, in a ruleset with an era no condition names.

The base game's era checks name each era (`era != "canal" or era in tile.eras`, then the same for
"rail"): a variant adding a third era passes every such check there, so canal-only tiles can be
built in it without any error. When some era of the ruleset is named by no comparison of any
condition while others are, each condition that compares the era with named eras is reported:
each must be looked at for the new era.
"""

from __future__ import annotations

from collections.abc import Iterator

from brass_dsl import typed
from brass_dsl.compiler import CompiledExpression
from brass_dsl.types import RecordType
from interpreter.ruleset.model import Ruleset
from interpreter.tools.authoring.lint_findings import Finding
from interpreter.tools.authoring.lint_words import compiled_expressions, tree_nodes

__all__ = ["era_findings"]

_BRANCHES = ("==", "!=", "in", "not in")


def era_findings(ruleset: Ruleset) -> Iterator[Finding]:
    named = [(expression, _era_literals(expression)) for expression in compiled_expressions(ruleset)]
    named = [(expression, literals) for expression, literals in named if literals]
    mentioned = {str(literal.value) for _, literals in named for literal in literals}
    unnamed = [era.id for era in ruleset.eras if era.id not in mentioned]
    if not unnamed:
        return
    missing = ", ".join(f"'{e}'" for e in unnamed)
    for expression, literals in named:
        first = literals[0]
        pos = expression.origin.locate(first.node.line, first.node.column) if expression.origin else None
        these = ", ".join(dict.fromkeys(f"'{literal.value}'" for literal in literals))
        yield Finding(pos, "W109", f"this condition branches on the era ({these}), but no condition names the "
                                   f"era{'s' if len(unnamed) > 1 else ''} {missing} of this ruleset: there "
                                   "every `era != …` holds and every `era == …` fails, whatever was meant for it; "
                                   "say what holds there (e.g. `era in [...]` naming it)")


def _era_literals(expression: CompiledExpression) -> list[typed.Const]:
    """The era ids an expression compares the era with (`era != "canal"`, `era in ["canal", "rail"]`)."""
    if expression.tree is None:
        return []
    found: list[typed.Const] = []
    for node in tree_nodes(expression.tree):
        if isinstance(node, typed.Binary) and node.op in _BRANCHES:
            for side in (node.left, node.right):
                items = side.items if isinstance(side, typed.ListOf) else (side,)
                found += [item for item in items if isinstance(item, typed.Const) and _is_era_id(item)]
    return found


def _is_era_id(node: typed.Const) -> bool:
    """A literal the checker read as an era (its id): the era's record type, by name (types are objects
    of the vocabulary, one per ruleset)."""
    return isinstance(node.type, RecordType) and node.type.name == "era"
