"""Runtime values as a decision carries them and as a player reads them.

At run time locations, industries and links are their ids, while cards, slots, placed tiles,
merchant spaces and players are objects. A decision names every one of them by its id
(`encode`); a message names them as the board does (`describe`).
"""

from __future__ import annotations

from typing import Any

from interpreter.engine.state import Card, MerchantSpace, PlacedTile, Player
from interpreter.ruleset.model import Ruleset, Slot


def encode(value: Any) -> Any:
    """A runtime value as it appears in a decision (ids for objects)."""
    if isinstance(value, (Card, Slot, MerchantSpace)):
        return value.id
    if isinstance(value, PlacedTile):
        return value.slot.id
    if isinstance(value, Player):
        return value.seat
    return value


def describe(ruleset: Ruleset, value: Any, type_name: str = "") -> str:
    """A value as a player reads it: names instead of ids, for messages."""
    if isinstance(value, str):
        tables: dict[str, Any] = {"location": ruleset.locations, "industry": ruleset.industries,
                                  "resource": ruleset.resources}
        if type_name in tables and value in tables[type_name]:
            return str(tables[type_name][value].name)
        if type_name == "era":
            return ruleset.era(value).name
        return value
    if isinstance(value, Player):
        return value.name
    if isinstance(value, Card):
        return value.name
    if isinstance(value, (Slot, MerchantSpace)):
        return value.id
    if isinstance(value, PlacedTile):
        return f"{ruleset.industries[value.spec.industry].name} {value.spec.level} at {value.slot.id}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


# Bounds of a move handed to the API: far above any real move (a Sell of every tile on the board
# with all its sources named is a few hundred values), far below what could exhaust the stack or
# the memory of a program that copies, compares and saves it.
MAX_MOVE_DEPTH = 8
MAX_MOVE_VALUES = 10_000
MAX_MOVE_TEXT = 1_000
MAX_MOVE_INT = 2**63


def plain_move(move: Any) -> dict[str, Any]:
    """A copy of a move as plain JSON data (mappings with text keys; lists; text, integers, booleans,
    null), so that the caller changing its own dict later changes nothing here. ValueError says
    what is wrong with a move that is not such data, or is deeper or bigger than any move can be."""
    if not isinstance(move, dict):
        raise ValueError(f"a move is a mapping like {{'action': …, 'card': …}}, not {shown(move)}")
    if len(move) == 1:  # one decision, the common case: checked without a call per value
        [(key, value)] = move.items()
        if isinstance(key, str) and (type(value) is bool or (type(value) is int and abs(value) <= MAX_MOVE_INT)
                                     or (type(value) is str and len(value) <= MAX_MOVE_TEXT)):
            return {key: value}
    count = [0]
    copied = _plain(move, 0, count)
    assert isinstance(copied, dict)
    return copied


def _plain(value: Any, depth: int, count: list[int]) -> Any:
    count[0] += 1
    if count[0] > MAX_MOVE_VALUES:
        raise ValueError(f"a move holds at most {MAX_MOVE_VALUES} values")
    if depth > MAX_MOVE_DEPTH:
        raise ValueError(f"a move is nested at most {MAX_MOVE_DEPTH} levels deep")
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise ValueError(f"the keys of a move are text, not {shown([k for k in value if not isinstance(k, str)])}")
        return {k: _plain(v, depth + 1, count) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1, count) for v in value]
    if isinstance(value, str):
        if len(value) > MAX_MOVE_TEXT:
            raise ValueError(f"a text in a move is at most {MAX_MOVE_TEXT} characters long")
        return value
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) > MAX_MOVE_INT:
            raise ValueError(f"a number in a move is at most {MAX_MOVE_INT} in size")
        return value
    raise ValueError(f"a move holds text, numbers, true/false, lists and mappings, not {type(value).__name__}")


def bounds_problem(value: Any, where: str) -> str | None:
    """What makes a position handed to the API (a `given`) bigger or deeper than any can be: a
    number beyond MAX_MOVE_INT, a text beyond MAX_MOVE_TEXT, nesting beyond MAX_MOVE_DEPTH, more
    than MAX_MOVE_VALUES values; with the place it is found (`where`, then its keys). None if
    nothing: the rest is judged by what reads it, which can then name and save every value."""
    count = 0
    todo = [(value, where, 0)]
    while todo:
        item, at, depth = todo.pop()
        count += 1
        if count > MAX_MOVE_VALUES:
            return f"{where}: at most {MAX_MOVE_VALUES} values"
        if depth > MAX_MOVE_DEPTH:
            return f"{at}: nested deeper than {MAX_MOVE_DEPTH} levels"
        if isinstance(item, (dict, list, tuple)):
            if isinstance(item, dict):
                for key, inner in item.items():
                    if problem := bounds_problem(key, f"{at} (a key)"):
                        return problem
                    todo.append((inner, f"{at}.{key if isinstance(key, str) else shown(key)}", depth + 1))
            else:
                todo.extend((inner, f"{at}[{n}]", depth + 1) for n, inner in enumerate(item))
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > MAX_MOVE_INT:
            return f"{at}: {shown(item)} is beyond the largest number a game holds, {MAX_MOVE_INT}"
        elif isinstance(item, str) and len(item) > MAX_MOVE_TEXT:
            return f"{at}: a text of {len(item)} characters, more than any name ({MAX_MOVE_TEXT})"
    return None


def shown(value: Any) -> str:
    """A value handed to the API, for a message: short, and never failing (a whole number too long
    for Python to print is shown by its size)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return f"a whole number of {value.bit_length()} bits"
    return _short(value)


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, (dict, list, tuple)) else type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."
