"""A scenario step's cards written by face (`card: birmingham`) or as `any`, made the ids of cards
in the deciding player's hand (docs/scenarios.md, "when: the steps")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.state import Card, Player

__all__ = ["ANY_CARD", "with_card_ids"]

ANY_CARD = "any"  # a step's card that does not matter: any card of the hand


def _card_params(game: Game) -> set[str]:
    names: set[str] = set()
    for action in game.ruleset.actions.values():
        parts = [action.part] + ([action.repeat.part] if action.repeat else [])
        names.update(p.name for part in parts for p in part.params if p.type == "card")
    return names


def with_card_ids(game: Game, player: Player, move: dict[str, Any]) -> dict[str, Any]:
    """Cards may be written by face (`card: birmingham`): each becomes the id of a different card
    of that face in the player's hand (left as written when there is none: the engine refuses it).
    `card: any` is a card of the hand that the step does not otherwise use, the first in hand
    order: for steps whose card does not matter (many passes), so that the scenario does not
    depend on the shuffle."""
    names = _card_params(game)
    ids = {c.id for c in player.hand}
    used: set[str] = {v for k, v in move.items() if k in names and isinstance(v, str) and v in ids}

    def take(value: Any, fits: Callable[[Card], bool]) -> Any:
        for card in player.hand:
            if card.id not in used and fits(card):
                used.add(card.id)
                return card.id
        return value

    def by_face(value: Any) -> Any:
        if not isinstance(value, str) or value in ids or value == ANY_CARD:
            return value
        return take(value, lambda card: card.face == value)

    def by_any(value: Any) -> Any:
        return take(value, lambda card: True) if value == ANY_CARD else value

    faces_done = _map_cards(move, names, by_face)  # faces first, so that `any` takes a card no face claimed
    return _map_cards(faces_done, names, by_any)


def _map_cards(move: dict[str, Any], names: set[str], convert: Callable[[Any], Any]) -> dict[str, Any]:
    """The move with `convert` applied to each card choice, also inside repeated parts (lists of mappings)."""
    out = {}
    for key, value in move.items():
        if key in names:
            out[key] = convert(value)
        elif isinstance(value, list) and all(isinstance(v, dict) for v in value):
            out[key] = [{k: convert(v) if k in names else v for k, v in item.items()} for item in value]
        else:
            out[key] = value
    return out
