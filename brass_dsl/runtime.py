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
