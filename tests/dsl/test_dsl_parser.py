"""Syntax: the tree built, syntax errors in plain words, and the parser's limits."""

from __future__ import annotations

import re

import pytest

from brass_dsl import DslError, ast, parse
from brass_dsl.parser import MAX_DEPTH, MAX_INT_DIGITS, MAX_LENGTH, grammar_text
from brass_dsl.types import RESERVED_WORDS


def test_tree_positions() -> None:
    tree = parse("me.money >= 5 and\n  count(t in tiles where t.owner == me) > 2")
    assert isinstance(tree, ast.Binary) and tree.op == "and"
    assert (tree.line, tree.column, tree.end_line, tree.end_column) == (1, 1, 2, 44)
    assert (tree.op_line, tree.op_column) == (1, 15)
    count = tree.right.left
    assert isinstance(count, ast.Aggregate)
    assert (count.kind, count.var, count.var_line, count.var_column) == ("count", "t", 2, 9)
    assert (count.line, count.column) == (2, 3)
    assert count.element is None and count.default is None


def test_aggregate_forms() -> None:
    extremum = parse("min(x.a for x in xs where x.b default 0)")
    assert isinstance(extremum, ast.Aggregate) and extremum.kind == "min"
    assert isinstance(extremum.element, ast.Attribute) and isinstance(extremum.default, ast.IntLit)
    plain = parse("max(a, b, c)")
    assert isinstance(plain, ast.Extremum) and [a.name for a in plain.args] == ["a", "b", "c"]
    assert parse("any(x in xs where p)").kind == "any"
    assert parse("sum(1 for x in xs)").where is None


def test_not_in_and_strings() -> None:
    tree = parse("'a' not in [\"b\", 'c']")
    assert tree.op == "not in"
    assert tree.left == ast.StrLit("a", line=1, column=1, end_line=1, end_column=4)
    assert [item.value for item in tree.right.items] == ["b", "c"]


def test_parenthesised_tree_has_no_extra_depth() -> None:
    assert parse("(((1)))").depth == 1
    assert parse("(" * 900 + "x" + ")" * 900).name == "x"


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        ("a +", "unexpected end of expression; expected an expression", 1, 4),
        ("(1 + 2", "unexpected end of expression; expected ')'", 1, 7),
        ("a )", "unexpected ')'; expected end of expression", 1, 3),
        ("f(a b)", "unexpected name 'b'; expected an operator, '(', ')' or ','", 1, 5),
        ("a b", "unexpected name 'b'; expected an operator, '(' or end of expression", 1, 3),
        ("x.", "unexpected end of expression; expected a name", 1, 3),
        ("x.1", "unexpected number 1; expected a name", 1, 3),
        ("if a then b", "unexpected end of expression; expected 'else'", 1, 12),
        ("min(a)", "unexpected ')'; expected ',' or 'for'", 1, 6),
        ("any(x in y)", "unexpected ')'; expected 'where'", 1, 11),
        ("count(1 in y)", "unexpected number 1; expected a name", 1, 7),
        ("a not b", "unexpected name 'b'; expected 'in'", 1, 7),
        ("1 + and", "unexpected 'and'; expected an expression", 1, 5),
        ("me.count", "unexpected 'count'; expected a name", 1, 4),
        ("f(default)", "unexpected 'default'; expected an expression or ')'", 1, 3),
        ("[1, 2", "unexpected end of expression; expected ',' or ']'", 1, 6),
        ('"abc', "unterminated string", 1, 1),
        ("'abc\ndef'", "unterminated string", 1, 1),
        ("x = 1", "unexpected character '='; use '==' to compare", 1, 3),
        ("a && b", "unexpected character '&'; use 'and'", 1, 3),
        ("!a", "unexpected character '!'; use 'not' to negate", 1, 1),
        ("a # comment", "unexpected character '#'; expressions have no comments", 1, 3),
        ("a < b < c", "comparisons cannot be chained; write 'a < b and b < c' instead", 1, 7),
        ("1 == 2 != 3", "comparisons cannot be chained; write 'a == b and b != c' instead", 1, 8),
        ("", "empty expression", 1, 1),
        ("  \n ", "empty expression", 1, 1),
        ("me.money >= 5 and\n  count(p in players where p.vp >)", "unexpected ')'; expected an expression", 2, 34),
        ("a +\n\n", "unexpected end of expression; expected an expression", 1, 4),
    ],
)
def test_syntax_errors(text: str, message: str, line: int, column: int) -> None:
    with pytest.raises(DslError) as info:
        parse(text)
    assert (info.value.message, info.value.line, info.value.column) == (message, line, column)


def test_too_long() -> None:
    text = "x" * (MAX_LENGTH + 1)
    with pytest.raises(DslError) as info:
        parse(text)
    assert info.value.message.startswith(f"expression is too long ({MAX_LENGTH + 1} characters, at most {MAX_LENGTH})"
                                         "; split it")
    assert (info.value.line, info.value.column) == (1, 1)


def test_an_expression_just_under_the_length_limit_parses() -> None:
    items = ", ".join(str(n) for n in range(1850))
    text = f"x in [{items}]"
    assert 9000 < len(text) <= MAX_LENGTH
    assert len(parse(text).right.items) == 1850


@pytest.mark.parametrize("digits", [MAX_INT_DIGITS + 1, 4301, 9000])
def test_a_number_literal_has_at_most_18_digits(digits: int) -> None:
    with pytest.raises(DslError) as info:
        parse("x + " + "7" * digits)
    assert info.value.message == f"number is too long ({digits} digits, at most {MAX_INT_DIGITS})"
    assert (info.value.line, info.value.column) == (1, 5)
    assert parse("9" * MAX_INT_DIGITS).value == int("9" * MAX_INT_DIGITS)


@pytest.mark.parametrize("prefix", ["-", "not ", "f(", "[", "a.b + ("])
def test_nesting_limit(prefix: str) -> None:
    closing = {"f(": ")", "[": "]", "a.b + (": ")"}.get(prefix, "")
    deep = prefix * (MAX_DEPTH + 5) + "x" + closing * (MAX_DEPTH + 5)
    with pytest.raises(DslError) as info:
        parse(deep)
    assert info.value.message == "expression is nested too deeply (more than 32 levels)"


def test_nesting_at_the_limit_is_fine() -> None:
    assert parse("-" * (MAX_DEPTH - 1) + "x").depth == MAX_DEPTH


def test_long_flat_chains_count_as_nesting() -> None:
    with pytest.raises(DslError, match="nested too deeply"):
        parse(" + ".join(["1"] * 40))


def test_pathological_parentheses_never_raise_recursion_error() -> None:
    for text in ["(" * 1999, "(" * 999 + ")" * 1000, "[" * 1500, "-(" * 600]:
        with pytest.raises(DslError):
            parse(text)


def test_reserved_words_are_the_grammar_keywords() -> None:
    quoted = set(re.findall(r'"([a-z]+)"', grammar_text()))
    assert quoted == RESERVED_WORDS


def test_grammar_has_no_conflicts() -> None:
    pytest.importorskip("interegular")  # Lark's strict mode needs it
    from lark import Lark

    Lark(grammar_text(), parser="lalr", strict=True)


def test_parse_error_carries_origin() -> None:
    from brass_dsl.source import ExpressionOrigin, SourcePos

    origin = ExpressionOrigin(SourcePos("rules.yaml", 3, 12), "")
    with pytest.raises(DslError) as info:
        parse("a + )", origin)
    assert str(info.value.pos) == "rules.yaml:3:16"
