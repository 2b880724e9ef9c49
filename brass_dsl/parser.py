"""Text to syntax tree, with errors a rule author can act on.

The Lark LALR parser is built once per process from the packaged grammar. Lark's
own exceptions describe the grammar's terminals (`RPAR`, `__ANON_0`...); here they
become a `DslError` that says, in plain words, what was found and what could come
next ("unexpected ')'; expected an expression"), at the right line and column.

Parsing is bounded so that no input can exhaust the stack: texts longer than
`MAX_LENGTH` are refused before Lark sees them, the LALR parser and the tree
transformer do not recurse, and trees deeper than `MAX_DEPTH` are refused while
they are built (the checker and compiler, which do recurse, never see them).
Integer literals longer than `MAX_INT_DIGITS` are refused too (Python refuses to
convert more than 4,300 digits, and no game number comes near 18).
Successful parses are cached by text.

The parser tables are cached between processes by `parser_cache` in a format that
cannot run code (JSON), and only from a folder nobody else can write to.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

from lark import Lark, Token, Transformer_NonRecursive, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken, VisitError
from lark.lexer import PatternStr
from lark.tree import Meta

from brass_dsl import ast, parser_cache
from brass_dsl.errors import DslError
from brass_dsl.source import ExpressionOrigin

Children = list[Any]  # tokens, nodes and None placeholders, as Lark passes them

# 10,000 characters: five times the longest natural expression we met (a card count over the
# deck, the hands and the discard piles of three players), still parsed in a few milliseconds.
MAX_LENGTH = 10_000
MAX_DEPTH = 32
MAX_INT_DIGITS = 18

GRAMMAR_FILE = "grammar.lark"

# Terminals that can start an expression, and binary operators: when several of
# them are acceptable, an error message names the category instead.
_EXPRESSION_STARTS = frozenset("NAME INT STRING LPAR LSQB MINUS NOT IF TRUE FALSE COUNT SUM MIN MAX ANY ALL FIRST"
                               .split())
_OPERATORS = frozenset("DOT PLUS MINUS STAR SLASH PERCENT EQ NE LT LE GT GE IN NOT AND OR".split())
_TOKEN_WORDS = {"NAME": "a name", "INT": "a number", "STRING": "a string", "$END": "end of expression"}
_CHARACTER_HINTS = {
    "=": "; use '==' to compare",
    "!": "; use 'not' to negate",
    "&": "; use 'and'",
    "|": "; use 'or'",
    "#": "; expressions have no comments",
}


def grammar_text() -> str:
    """The grammar file shipped with the package."""
    return resources.files("brass_dsl").joinpath(GRAMMAR_FILE).read_text(encoding="utf-8")


@functools.cache
def _lark() -> Lark:
    # The basic lexer (not the contextual one) makes keywords reserved everywhere:
    # `x.count` or `1 + and` are syntax errors, never names.
    return parser_cache.cached_lark(grammar_text(), parser="lalr", lexer="basic", propagate_positions=True,
                                    maybe_placeholders=True)


def parse(text: str, origin: ExpressionOrigin | None = None) -> ast.Node:
    """Parse an expression; raise DslError (located through `origin`) if it is malformed."""
    try:
        return _parse_cached(text)
    except DslError as err:
        err.origin = origin
        raise


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str) -> ast.Node:
    if len(text) > MAX_LENGTH:
        raise DslError(_too_long(len(text)), text, 1, 1)
    if not text.strip():
        raise DslError("empty expression", text, 1, 1)
    try:
        node: ast.Node = _AstBuilder(text).transform(_lark().parse(text))
        return node
    except (UnexpectedCharacters, UnexpectedToken, UnexpectedEOF) as exc:
        raise _syntax_error(text, exc) from None
    except VisitError as exc:
        raise exc.orig_exc from None
    except RecursionError:
        raise DslError(_too_deep(), text, 1, 1) from None


def _too_deep() -> str:
    return f"expression is nested too deeply (more than {MAX_DEPTH} levels)"


def _too_long(length: int) -> str:
    return (f"expression is too long ({length} characters, at most {MAX_LENGTH}); split it: compute parts "
            "as derived values or check them as separate requirements (in a scenario, separate assertions)")


# ---------------------------------------------------------------- syntax errors


def _syntax_error(text: str, exc: UnexpectedCharacters | UnexpectedToken | UnexpectedEOF) -> DslError:
    if isinstance(exc, UnexpectedCharacters):
        return _bad_character(text, exc)
    if isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
        token = exc.token
        return DslError(_unexpected(_describe(token), _acceptable(exc)), text, token.line, token.column)
    line, column = _end_position(text)
    return DslError(_unexpected("end of expression", _acceptable(exc)), text, line, column)


def _bad_character(text: str, exc: UnexpectedCharacters) -> DslError:
    char = exc.char
    if char in "\"'":
        message = "unterminated string"
    else:
        message = f"unexpected character {char!r}{_CHARACTER_HINTS.get(char, '')}"
    return DslError(message, text, exc.line, exc.column)


def _acceptable(exc: UnexpectedToken | UnexpectedEOF) -> set[str]:
    """The terminals the parser would accept here (precise, unlike LALR's `expected`)."""
    accepts = exc.accepts if isinstance(exc, UnexpectedToken) else None
    return set(accepts or exc.expected)


def _end_position(text: str) -> tuple[int, int]:
    """The position just after the last non-blank character."""
    lines = text.rstrip().splitlines()
    return len(lines), len(lines[-1]) + 1


def _describe(token: Token) -> str:
    if token.type == "NAME":
        return f"name '{token.value}'"
    if token.type == "INT":
        return f"number {token.value}"
    if token.type == "STRING":
        return f"string {token.value}"
    return f"'{token.value}'"


def _unexpected(found: str, expected: set[str]) -> str:
    wanted = _expected_words(expected)
    return f"unexpected {found}; expected {wanted}" if wanted else f"unexpected {found}"


def _expected_words(expected: set[str]) -> str:
    names = set(expected)
    words: list[str] = []
    if {"NAME", "INT"} <= names:
        names -= _EXPRESSION_STARTS
        words.append("an expression")
    if len(names & _OPERATORS) > 1:
        names -= _OPERATORS
        words.append("an operator")
    words += sorted(_terminal_word(name) for name in names if name != "$END")
    if "$END" in names:
        words.append(_TOKEN_WORDS["$END"])
    return _join_or(words)


def _terminal_word(name: str) -> str:
    if name in _TOKEN_WORDS:
        return _TOKEN_WORDS[name]
    pattern = _lark().get_terminal(name).pattern
    return f"'{pattern.value}'" if isinstance(pattern, PatternStr) else name.lower()


def _join_or(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


# ---------------------------------------------------------------- tree building


def _span(meta: Meta) -> dict[str, int]:
    return {"line": meta.line, "column": meta.column, "end_line": meta.end_line, "end_column": meta.end_column}


@v_args(meta=True)
class _AstBuilder(Transformer_NonRecursive[Token, ast.Node]):
    """Turns Lark's parse tree into `ast` nodes, bottom-up and without recursion."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self._text = text

    def _node(self, cls: type[ast.Node], meta: Meta, *fields: object) -> ast.Node:
        depth = 1 + max((_depth(f) for f in fields), default=0)
        if depth > MAX_DEPTH:
            raise DslError(_too_deep(), self._text, meta.line, meta.column)
        return cls(*fields, **_span(meta), depth=depth)

    def start(self, meta: Meta, children: Children) -> ast.Node:
        return _only(children)

    def int_lit(self, meta: Meta, children: Children) -> ast.Node:
        digits = str(children[0])
        if len(digits) > MAX_INT_DIGITS:
            message = f"number is too long ({len(digits)} digits, at most {MAX_INT_DIGITS})"
            raise DslError(message, self._text, meta.line, meta.column)
        return self._node(ast.IntLit, meta, int(digits))

    def str_lit(self, meta: Meta, children: Children) -> ast.Node:
        return self._node(ast.StrLit, meta, children[0][1:-1])

    def true_lit(self, meta: Meta, children: Children) -> ast.Node:
        return self._node(ast.BoolLit, meta, True)

    def false_lit(self, meta: Meta, children: Children) -> ast.Node:
        return self._node(ast.BoolLit, meta, False)

    def list_lit(self, meta: Meta, children: Children) -> ast.Node:
        return self._node(ast.ListLit, meta, _present(children))

    def name(self, meta: Meta, children: Children) -> ast.Node:
        return self._node(ast.Name, meta, str(children[0]))

    def call(self, meta: Meta, children: Children) -> ast.Node:
        return self._node(ast.Call, meta, str(children[0]), _present(children[1:]))

    def attribute(self, meta: Meta, children: Children) -> ast.Node:
        obj, name = children
        return self._node(ast.Attribute, meta, obj, str(name), name.line, name.column)

    def unary(self, meta: Meta, children: Children) -> ast.Node:
        op, operand = children
        return self._node(ast.Unary, meta, str(op), operand)

    def binary(self, meta: Meta, children: Children) -> ast.Node:
        left, op, right = children
        return self._node(ast.Binary, meta, str(op), left, right, op.line, op.column)

    def comp_op(self, meta: Meta, children: Children) -> Token:
        return Token.new_borrow_pos(children[0].type, " ".join(children), children[0])

    def compare(self, meta: Meta, children: Children) -> ast.Node:
        if len(children) > 3:
            second = children[3]
            message = f"comparisons cannot be chained; write 'a {children[1]} b and b {second} c' instead"
            raise DslError(message, self._text, second.line, second.column)
        return self.binary(meta, children)

    def conditional(self, meta: Meta, children: Children) -> ast.Node:
        return self._node(ast.Conditional, meta, *children)

    def where(self, meta: Meta, children: Children) -> ast.Node:
        return _only(children)

    default = where

    def filter_of(self, meta: Meta, children: Children) -> ast.Node:
        kind, var, _in, source, where = children
        return self._aggregate(meta, kind, var, source, None, where, None)

    def sum_of(self, meta: Meta, children: Children) -> ast.Node:
        kind, element, var, _in, source, where = children
        return self._aggregate(meta, kind, var, source, element, where, None)

    def extremum_of(self, meta: Meta, children: Children) -> ast.Node:
        kind, element, var, _in, source, where, default = children
        return self._aggregate(meta, kind, var, source, element, where, default)

    def first_of(self, meta: Meta, children: Children) -> ast.Node:
        kind, var, _in, source, where, default = children
        return self._aggregate(meta, kind, var, source, None, where, default)

    def extremum(self, meta: Meta, children: Children) -> ast.Node:
        return self._node(ast.Extremum, meta, str(children[0]), tuple(children[1:]))

    def _aggregate(self, meta: Meta, kind: Token, var: Token, *parts: ast.Node | None) -> ast.Node:
        return self._node(ast.Aggregate, meta, str(kind), str(var), var.line, var.column, *parts)


def _only(children: Children) -> ast.Node:
    node: ast.Node = children[0]
    return node


def _present(items: Children) -> tuple[ast.Node, ...]:
    """Drop the placeholders Lark puts for an empty optional part."""
    return tuple(item for item in items if item is not None)


def _depth(value: object) -> int:
    if isinstance(value, ast.Node):
        return value.depth
    if isinstance(value, tuple):
        return max((_depth(item) for item in value), default=0)
    return 0
