"""The keys of `brass play`: one fixed letter per action of the ruleset, and the commands.

An action's key is the first letter of its name (then of the rest of its name, then of its id)
that no command and no earlier action has taken, so Build is `b` in every turn and a variant's
new action gets a key of its own without any change here. Numbers also pick actions, in the
order the ruleset lists them, so `1` is always the same action too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from interpreter.engine.game import Game
from interpreter.ruleset.model import Ruleset
from interpreter.tools.wording.names import failure_lines

SAVE, QUIT, HELP, BOARD, BACK, EXPLAIN = "s", "q", "h", "m", "x", "?"
COMMANDS = (SAVE, QUIT, HELP, BOARD, BACK, EXPLAIN)

HELP_TEXT = """\
Keys (type one, then Enter):
  a letter   an action of the menu, its key in [brackets]; 1, 2 ... pick the
             actions too, in the menu's order
  ?LETTER    why that action is not possible now (e.g. ?{why}), with rule IDs
  1, 2 ...   inside an action: one of the numbered choices
  x          back out of the action you are making (the game is as before)
  ?          every reason for the last refusal, with the rules' text
  m          the full board: {board}
  s          save (to the --save or --load file)
  q          quit
  {{...}}      a decision or a whole action as JSON, e.g.
             {example}
A choice with only one possibility is taken for you and said in one line."""


def help_text(ruleset: Ruleset) -> str:
    """The keys, with examples and the board's parts taken from the ruleset (a ruleset without
    merchants is not promised any)."""
    keys = action_keys(ruleset)
    why = next((k.key for k in keys[1:] if k.key), keys[0].key if keys else "") or "1"
    parts = ["every tile", "link", "market"] + [part for part, has in (
        ("merchant", ruleset.merchants), ("track", ruleset.tracks), ("stack", ruleset.stacks)) if has]
    board = ", ".join(parts[:-1]) + " and " + parts[-1]
    return HELP_TEXT.format(why=why, board=board, example=_example(ruleset))


def _example(ruleset: Ruleset) -> str:
    """A whole action as JSON: the first action whose only choice is a card, with a card of the deck."""
    card = f"{next(iter(ruleset.cards), 'card')}#1"
    for action_id, action in ruleset.actions.items():
        params = action.part.params
        if action.repeat is None and len(params) == 1 and params[0].type == "card":
            return json.dumps({"action": action_id, params[0].name: card})
    return json.dumps({"action": next(iter(ruleset.actions), "")})


@dataclass(frozen=True)
class ActionKey:
    key: str  # "" when no letter is free: the action's number still picks it
    action: str
    name: str

    def label(self) -> Text:
        """`s[e]ll`: the name with its key in brackets (the name alone when it has no letter key)."""
        name = self.name.lower()
        at = name.find(self.key) if self.key else -1
        if at < 0:
            return Text(f"{name}[{self.key}]" if self.key else name)
        return Text(f"{name[:at]}[{self.key}]{name[at + 1:]}")


def action_keys(ruleset: Ruleset) -> list[ActionKey]:
    """One key per action of the ruleset, in the ruleset's order."""
    taken = set(COMMANDS)
    keys = []
    for action_id, action in ruleset.actions.items():
        key = next((c for c in _letters(action.name + action_id) if c not in taken), "")
        taken.add(key)
        keys.append(ActionKey(key, action_id, action.name))
    return keys


def _letters(text: str) -> Iterable[str]:
    return (c for c in text.lower() if "a" <= c <= "z")


def key_for(keys: list[ActionKey], text: str) -> ActionKey | None:
    """The action a typed key names: its letter, its number in the menu, its id or its name."""
    lowered = text.strip().lower()
    if lowered.isascii() and lowered.isdigit() and len(lowered) <= 3 and 1 <= int(lowered) <= len(keys):
        return keys[int(lowered) - 1]
    return next((k for k in keys if lowered and lowered in (k.key, k.action.lower(), k.name.lower())), None)


def menu(keys: list[ActionKey], legal: list[dict[str, Any]]) -> Text:
    """`Actions: [b]uild [n]etwork [d]evelop sell?e …`: the impossible ones dimmed, without their
    key, followed by the key that tells why."""
    possible = {d.get("action") for d in legal if len(d) == 1}
    text = Text.assemble(("Actions:", "bold"))
    for number, key in enumerate(keys, start=1):
        text.append(" ")
        if key.action in possible:
            text.append_text(key.label())
        else:
            text.append(f"{key.name.lower()}?{key.key or number}", style="dim strike")
    return text.append("  (h: help)", style="dim")


def why_not(game: Game, key: ActionKey) -> list[str]:
    """Why the action cannot be taken now: a first line with the first reason, then every failed
    precondition with its rule ID and the rule's text."""
    if {"action": key.action} in game.legal_actions():
        return [f"{key.name} is possible now: type {key.key or 'its number'}"]
    failures = game.explain({"action": key.action})["failures"]
    if not failures:
        return [f"{key.name} is not possible now: no way to complete it in this position"]
    first = failures[0]
    reason = f"[{first.rule}] {first.message}" if first.rule else first.message
    return [f"{key.name} is not possible now: {reason}", *failure_lines(game.ruleset, failures)]
