"""What a compiled expression runs against.

An `Env` is deliberately tiny: the interpreter creates one per evaluation context
and the compiled closures read only two things from it, the opaque `context` that
registered getters and functions receive (game state, ruleset...) and `vars`, the
bound variables (action parameters and aggregate loop variables).
"""

from __future__ import annotations

from typing import Any


class Env:
    """The evaluation environment: an opaque `context` and the bound `vars`."""

    __slots__ = ("context", "vars")

    def __init__(self, context: Any = None, vars: dict[str, Any] | None = None) -> None:
        self.context = context
        self.vars: dict[str, Any] = {} if vars is None else vars

    def __repr__(self) -> str:
        return f"Env(context={self.context!r}, vars={self.vars!r})"


class _Absent:
    """The value of an optional action parameter that was not asked (its `when:` did not hold).

    The checker lets an expression read such a parameter only where `present(name)` is known
    to hold, so no rule ever looks inside it; `present(name)` is the test."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()
