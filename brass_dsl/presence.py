"""Which optional bindings an expression proves present: the facts behind `present(name)`.

An optional action param (one with `when:`) may be absent; an expression may read it only where
`present(name)` is known to hold, which the checker learns from the expression's own shape:

- the right side of `A and B` knows what `A` proves true; the right side of `A or B` knows what
  `A` proves false; the branches of `if C then T else E` know what `C` proves true (T) or false (E);
- `present(x)` proves `x` present when true; `A and B` proves both sides' facts when true; `not A`
  proves what `A` proves false; `A or B` proves both sides' facts when false.

A caller may also give facts from outside the expression (an effect step's `when:` for its
arguments, a failed check for its message), with `proven(tree, holds)`.
"""

from __future__ import annotations

from brass_dsl import ast

PRESENT = "present"  # the test: `present(name)` is true when the optional param `name` was asked


def proven(node: ast.Node, holds: bool) -> frozenset[str]:
    """The optional names that are present whenever `node` evaluates to `holds`."""
    if isinstance(node, ast.Unary) and node.op == "not":
        return proven(node.operand, not holds)
    if isinstance(node, ast.Binary) and node.op == ("and" if holds else "or"):
        return proven(node.left, holds) | proven(node.right, holds)
    if holds and isinstance(node, ast.Call) and node.function == PRESENT and len(node.args) == 1 \
            and isinstance(node.args[0], ast.Name):
        return frozenset((node.args[0].name,))
    return frozenset()


def guarded_children(node: ast.Node) -> dict[int, frozenset[str]]:
    """The children of `node` that are evaluated only when some of its parts hold: the id of each
    child, with the names those parts prove present."""
    if isinstance(node, ast.Binary) and node.op in ("and", "or"):
        return {id(node.right): proven(node.left, node.op == "and")}
    if isinstance(node, ast.Conditional):
        return {id(node.then_value): proven(node.condition, True),
                id(node.else_value): proven(node.condition, False)}
    return {}
