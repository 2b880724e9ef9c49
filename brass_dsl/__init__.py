"""The condition language of Brass rulesets: parse, check against a registry, compile.

The language is generic: the interpreter registers its types, names and functions
in a `Registry`, and `compile_expression` turns a formula written in a ruleset into
a checked `CompiledExpression` that it calls with an `Env`. See `brass_dsl.docgen`
for the generated reference and `grammar.lark` for the syntax.

The names below are imported on first use, not when the package is: a game only needs
`Env` and the error types, and the parser (Lark) is imported only when a text is parsed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from brass_dsl.codegen import accelerate
    from brass_dsl.compiler import CompiledExpression, compile_expression
    from brass_dsl.errors import DslError, DslErrors, DslEvaluationError
    from brass_dsl.parser import parse
    from brass_dsl.registry import FunctionEntry, NameEntry, Param, Registry
    from brass_dsl.runtime import Env
    from brass_dsl.types import BOOL, INT, STR, DslType, Field, ListType, RecordType

_WHERE = {
    "CompiledExpression": "compiler", "compile_expression": "compiler", "accelerate": "codegen",
    "DslError": "errors", "DslErrors": "errors", "DslEvaluationError": "errors",
    "parse": "parser",
    "FunctionEntry": "registry", "NameEntry": "registry", "Param": "registry", "Registry": "registry",
    "Env": "runtime",
    "BOOL": "types", "INT": "types", "STR": "types", "DslType": "types", "Field": "types", "ListType": "types",
    "RecordType": "types",
}

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
    "accelerate",
    "compile_expression",
    "parse",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'brass_dsl' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"brass_dsl.{module}"), name)
    globals()[name] = value  # the next use is a plain lookup
    return value
