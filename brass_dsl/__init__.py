"""The condition language of Brass rulesets: parse, check against a registry, compile.

The language is generic: the interpreter registers its types, names and functions
in a `Registry`, and `compile_expression` turns a formula written in a ruleset into
a checked `CompiledExpression` that it calls with an `Env`. See `brass_dsl.docgen`
for the generated reference and `grammar.lark` for the syntax.
"""

from brass_dsl.compiler import CompiledExpression, compile_expression
from brass_dsl.errors import DslError, DslErrors, DslEvaluationError
from brass_dsl.parser import parse
from brass_dsl.registry import FunctionEntry, NameEntry, Param, Registry
from brass_dsl.runtime import Env
from brass_dsl.types import BOOL, INT, STR, DslType, Field, ListType, RecordType

__all__ = [
    "BOOL",
    "INT",
    "STR",
    "CompiledExpression",
    "DslError",
    "DslErrors",
    "DslEvaluationError",
    "DslType",
    "Env",
    "Field",
    "FunctionEntry",
    "ListType",
    "NameEntry",
    "Param",
    "RecordType",
    "Registry",
    "compile_expression",
    "parse",
]
