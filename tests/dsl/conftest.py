"""Fixtures for the condition language tests, over the toy world of dsl_world.py."""

from __future__ import annotations

from typing import Any

import pytest

from brass_dsl import DslError, Registry, compile_expression

from dsl_world import build_registry, make_env


@pytest.fixture(scope="session")
def registry() -> Registry:
    return build_registry()


@pytest.fixture
def run(registry: Registry):
    """Compile and evaluate an expression in the standard world."""

    def evaluate(text: str, **vars: Any) -> Any:
        return compile_expression(text, registry)(make_env(**vars))

    return evaluate


@pytest.fixture
def fail(registry: Registry):
    """The DslError that compiling an expression raises."""

    def compile_error(text: str, **options: Any) -> DslError:
        with pytest.raises(DslError) as info:
            compile_expression(text, registry, **options)
        return info.value

    return compile_error
