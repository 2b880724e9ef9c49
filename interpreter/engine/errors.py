"""What the engine reports to a player or an API user: a refusal with its reasons, an unreadable save."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.ruleset.errors import BrassError


@dataclass
class Failure:
    """A precondition that does not hold, with what the player needs to know."""

    rule: str | None
    message: str
    where: str

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "message": self.message, "where": self.where}

    def __str__(self) -> str:
        rule = f"[{self.rule}] " if self.rule else ""
        return f"{rule}{self.message} ({self.where})" if self.where else f"{rule}{self.message}"


class IllegalAction(BrassError):
    """An action or decision the rules do not allow; `failures` lists every reason."""

    def __init__(self, message: str, failures: list[Failure] | None = None) -> None:
        self.failures = failures or []
        lines = [message] + [f"  - {f}" for f in self.failures]
        super().__init__("\n".join(lines))


class GameFileError(BrassError):
    """A saved game that cannot be read."""


class SetupError(BrassError):
    """A game that cannot be set up: a player count the ruleset is not played with, a seed that is
    not an integer."""


class StuckGame(BrassError):
    """A game the ruleset's flow cannot take any further: a round begins in which no player holds a
    card although the draw deck is not empty, so nobody can ever take a turn (a flow that never
    deals the hands). Said at once, rather than playing empty rounds for ever."""
