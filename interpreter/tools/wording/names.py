"""Names a player reads instead of ids, for `brass play`: tiles, slots, cards, links, merchants,
the decisions of an action and the answers to a question.

Every name comes from the ruleset's data (a location's, an industry's, a resource's `name`), so a
variant's new locations or industries read as well as the base game's. What a decision's value
is comes from the type of the action's parameter (`card`, `industry`, `slot` …), not its name.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.text import Text

from interpreter.engine.game import Game
from interpreter.engine.state import Card, MerchantSpace, PlacedTile
from interpreter.ruleset.model import ActionParam, Ruleset

# Backing out of a half-made action puts back the copy taken when it began: not once it has drawn a
# face-down tile, which every player has seen (a Distant Market sale), or the mover could draw again.
TOO_LATE_TO_BACK_OUT = ("this action has drawn a face-down tile that every player has seen: "
                        "it can no longer be backed out of")

# One colour per seat (purple, red, yellow, then cyan for white); a seat past the last takes them again.
SEAT_STYLES = ("bold magenta", "bold red", "bold yellow", "bold cyan")

_ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")


def seat_style(seat: int) -> str:
    return SEAT_STYLES[(seat - 1) % len(SEAT_STYLES)]


def seat_label(seat: int) -> Text:
    """`P2` in the seat's colour."""
    return Text.assemble((f"P{seat}", seat_style(seat)))  # a span: text appended stays plain


def roman(level: int) -> str:
    return _ROMAN[level] if 0 < level < len(_ROMAN) else str(level)


def industry_name(ruleset: Ruleset, industry: str) -> str:
    spec = ruleset.industries.get(industry)
    return spec.name if spec is not None else industry


def location_name(ruleset: Ruleset, location: str) -> str:
    spec = ruleset.locations.get(location)
    return spec.name if spec is not None else location


def slot_name(ruleset: Ruleset, slot_id: str) -> str:
    """`Nuneaton 1 (Cotton Mill/Coal Mine)`: the location, the slot's number there and its icons."""
    location, _, index = slot_id.rpartition("/")
    spec = ruleset.locations.get(location)
    slot = next((s for s in spec.slots if s.id == slot_id), None) if spec is not None else None
    if spec is None or slot is None:
        return slot_id
    icons = "/".join(industry_name(ruleset, i) for i in slot.industries)
    return f"{spec.name} {index} ({icons})"


def tile_name(ruleset: Ruleset, tile: PlacedTile, owner: bool = True) -> str:
    """`Coal Mine II of P2 at Wolverhampton, 3 coal`: what it is, whose, where, and its state."""
    text = f"{industry_name(ruleset, tile.spec.industry)} {roman(tile.spec.level)}"
    if owner:
        text += f" of P{tile.owner.seat}"
    text += f" at {location_name(ruleset, tile.slot.location)}"
    if tile.flipped:
        return text + ", flipped"
    produces = ruleset.industries[tile.spec.industry].produces
    if tile.cubes and produces:
        text += f", {tile.cubes} {ruleset.resources[produces].name.lower()}"
    return text


def card_name(card: Card) -> str:
    """A card as printed on it; wild cards say so."""
    return card.name if not card.kind.startswith("wild") else f"{card.name} (wild)"


def hand_names(cards: Sequence[Card]) -> str:
    """A hand grouped by face, in the order first held: `Birmingham x2, Brewery, Coventry`."""
    counts: dict[str, int] = {}
    for card in cards:
        counts[card_name(card)] = counts.get(card_name(card), 0) + 1
    return ", ".join(name if n == 1 else f"{name} x{n}" for name, n in counts.items()) or "no cards"


def link_name(ruleset: Ruleset, link: str) -> str:
    spec = ruleset.links.get(link)
    if spec is None:
        return link
    return " - ".join(location_name(ruleset, end) for end in spec.ends)


def merchant_name(ruleset: Ruleset, space: MerchantSpace) -> str:
    """`Oxford: buys Manufacturer, has beer`."""
    buys = ", ".join(industry_name(ruleset, i) for i in space.buys) or "nothing"
    barrel = ruleset.barrel_resource
    beer = f", has {ruleset.resources[barrel].name.lower()}" if space.has_beer and barrel else ""
    return f"{location_name(ruleset, space.location)}: buys {buys}{beer}"


# == the values of decisions ===================================================================

def param_type(game: Game, name: str) -> str:
    """The type of the pending action's parameter `name` (`card`, `slot` …); the name itself
    for decisions outside the parameters (`action`, `done`, `answer`)."""
    param = _pending_param(game, name)
    return param.type if param is not None else name


def _pending_param(game: Game, name: str) -> ActionParam | None:
    pending = game.pending
    if pending is None:
        return None
    parts = [pending.action.part] + ([pending.action.repeat.part] if pending.action.repeat else [])
    return next((p for part in parts for p in part.params if p.name == name), None)


def yes_no_name(game: Game, name: str, value: bool) -> str:
    """A yes/no choice in the ruleset's words: its param's `doc`, an imperative ("use the merchant's
    beer"), or "do not" and the doc; `NAME: yes/no` for a param without a doc."""
    param = _pending_param(game, name)
    doc = param.doc.strip() if param is not None else ""
    if not doc:
        return f"{name.replace('_', ' ')}: {'yes' if value else 'no'}"
    return doc if value else f"do not {doc}"


def value_name(game: Game, type_name: str, value: Any) -> str:
    """A decision's value by the type of what it chooses."""
    ruleset = game.ruleset
    if type_name == "action" and value in ruleset.actions:
        return ruleset.actions[value].name
    if type_name == "card" and value in game.table.cards:
        return card_name(game.table.cards[value])
    if type_name == "industry" and value in ruleset.industries:
        return industry_detail(game, value)
    if type_name == "location":
        return location_name(ruleset, value)
    if type_name in ("slot", "tile"):
        return slot_or_tile(game, value)
    if type_name == "link":
        return link_name(ruleset, value)
    if type_name == "merchant_tile":
        space = next((m for m in game.state.merchants if m.id == value), None)
        return merchant_name(ruleset, space) if space is not None else str(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str) and _place(ruleset, value):  # a place named by a key of no known type
        return _place(ruleset, value)
    return str(value)


def slot_or_tile(game: Game, slot_id: Any) -> str:
    """A slot: the tile in it (an overbuild, a sale, a source), or the free slot."""
    tile = game.state.tiles.get(slot_id) if isinstance(slot_id, str) else None
    if tile is None:
        return f"{slot_name(game.ruleset, str(slot_id))}, free"
    return tile_name(game.ruleset, tile)


def industry_detail(game: Game, industry: str) -> str:
    """The industry and the lowest tile of the player's mat: what building it would cost."""
    me = game.table.me
    name = industry_name(game.ruleset, industry)
    if game.table.tiles_left(me, industry) <= 0:
        return f"{name} (no tile left)"
    t = game.table.lowest_tile(me, industry)
    needs = ", ".join(f"{n} {rid}" for rid, n in t.needs.items() if n)  # in the ruleset's order of resources
    return f"{name} {roman(t.level)}: £{t.cost}{', ' + needs if needs else ''}; {t.vp} VP, income +{t.income}"


def decision_name(game: Game, decision: dict[str, Any]) -> str:
    """One listed decision in words: `Cotton Mill I: £12, 1 beer; 5 VP, income +5`."""
    if len(decision) != 1:
        return ", ".join(f"{k} {value_name(game, param_type(game, k), v)}" for k, v in decision.items())
    (name, value), = decision.items()
    if name == "done":
        return "done: end this action here"
    if name == "answer":
        return answer_name(game, value)
    if isinstance(value, bool):
        return yes_no_name(game, name, value)
    return value_name(game, param_type(game, name), value)


def prompt_text(game: Game) -> str:
    """What is being decided now: `Build: card`, `player 1: Remove a tile …` for a question."""
    if game.question is not None:
        return f"player {game.question['player']}: {game.question['prompt']}"
    pending = game.pending
    if pending is None:
        return f"{game.table.me.name}: choose an action"
    part = pending.action.repeat.part if pending.in_repeat and pending.action.repeat else pending.action.part
    name = part.params[pending.index].name if pending.index < len(part.params) else "next"
    return f"{pending.action.name}: {name.replace('_', ' ')}"


def answer_name(game: Game, value: Any) -> str:
    """An answer to a question: the options are tiles (by their slot) or industries; a tile
    shows what a shortfall question needs (what it is, where, its VP and what it raises)."""
    if isinstance(value, str) and value in game.state.tiles:
        tile = game.state.tiles[value]
        where = slot_name(game.ruleset, tile.slot.id).split(" (")[0]
        text = (f"{industry_name(game.ruleset, tile.spec.industry)} level {tile.spec.level} at {where}"
                f"{', flipped' if tile.flipped else ''}; {tile.spec.vp} VP")
        if _is_shortfall(game):
            raised = tile.spec.cost // game.ruleset.economy.shortfall_tile_value_divisor
            text += f", raises £{raised}"
        return text
    if isinstance(value, str) and value in game.ruleset.industries:
        return industry_detail(game, value)
    return value_name(game, "", value)


def _is_shortfall(game: Game) -> bool:
    """The open question asks for tiles to pay for unpaid income (the engine's `collect_income`
    effect asks it under keys `shortfall/SEAT/N`)."""
    return game.question is not None and str(game.question.get("key", "")).startswith("shortfall/")


def move_name(game: Game, move: dict[str, Any]) -> str:
    """A decision or a whole action as a player reads it: `Build: card Nuneaton, industry Coal
    Mine, location Nuneaton, slot Nuneaton 1` (each value named by the action's parameter)."""
    head = value_name(game, "action", move["action"]) if "action" in move else ""
    rest = [_move_part(game, key, value) for key, value in move.items() if key != "action"]
    if head and rest:
        return f"{head}: {', '.join(rest)}"
    return head or ", ".join(rest)


def _move_part(game: Game, key: str, value: Any) -> str:
    if key == "answer":
        return f"answer {answer_name(game, value)}"
    if key == "done":
        return "done"
    return f"{key.replace('_', ' ')} {_short_value(game, param_type(game, key), value)}"


def _short_value(game: Game, type_name: str, value: Any) -> str:
    if type_name == "industry" and value in game.ruleset.industries:
        return industry_name(game.ruleset, value)
    if type_name == "slot" and isinstance(value, str):
        return slot_name(game.ruleset, value).split(" (")[0]
    return value_name(game, type_name, value)


# == what happened, and why not =================================================================

_SEAT_KEYS = ("player", "owner")
_SKIPPED = ("game over",)  # its standings are printed as a table at the end


def entry_text(game: Game, entry: dict[str, Any]) -> Text | None:
    """One log entry in words: `P2 built: Coal Mine, level 1, Wolverhampton 1, 2 cubes`; the
    keys of the engine's log are shown by what their values are (seats, industries, slots …)."""
    event = str(entry.get("event", "?"))
    if event in _SKIPPED or event == "action":
        return None
    text = Text("  ")
    seat = next((entry[k] for k in _SEAT_KEYS if isinstance(entry.get(k), int)), None)
    if seat is not None:
        text.append_text(seat_label(seat)).append(" ")
    text.append(event)
    details = [_detail(game, key, value) for key, value in entry.items()
               if key != "event" and not (key in _SEAT_KEYS and value == seat)]
    if details:
        text.append(": " + ", ".join(details))
    return text


def _detail(game: Game, key: str, value: Any) -> str:
    ruleset = game.ruleset
    if key in ("slot", "tile") and isinstance(value, str):
        return slot_name(ruleset, value).split(" (")[0]
    if key == "industry" and isinstance(value, str):
        return industry_name(ruleset, value)
    if key == "link" and isinstance(value, str):
        return link_name(ruleset, value)
    if key == "resource" and isinstance(value, str) and value in ruleset.resources:
        return ruleset.resources[value].name
    if key == "era" and isinstance(value, str):
        return next((e.name for e in ruleset.eras if e.id == value), value)
    if key == "track" and isinstance(value, str) and value in ruleset.tracks:
        return ruleset.tracks[value].name  # `track: Distant Market demand, was 1, now 4`
    if key == "stack" and isinstance(value, str) and value in ruleset.stacks:
        return ruleset.stacks[value].name
    if key in _SEAT_KEYS and isinstance(value, int):
        return f"{key} P{value}"
    if key in ("order", "turn_order") and isinstance(value, list):
        return f"{key.replace('_', ' ')} " + " ".join(f"P{s}" for s in value)
    if isinstance(value, dict) and value and all(_place(ruleset, str(k)) for k in value):  # merchant spaces …
        return f"{key} " + ", ".join(f"{_place(ruleset, str(k))} {v}" for k, v in value.items())
    if isinstance(value, dict) and all(str(k).isdigit() for k in value):
        return f"{key} " + " ".join(f"P{k} {v}" for k, v in value.items())
    if isinstance(value, list) and value and all(isinstance(v, dict) and {"owner", "vp"} <= set(v) for v in value):
        return _by_owner(key, value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return f"{key} " + (", ".join(slot_name(ruleset, v).split(" (")[0] for v in value) or "none")
    if isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return f"{key} " + ("; ".join(", ".join(_detail(game, k, v) for k, v in item.items()) for item in value)
                            or "none")
    if isinstance(value, str) and "/" in value:  # a slot, such as the mine a resource came from
        return f"{key} {slot_name(ruleset, value).split(' (')[0]}"
    if isinstance(value, bool):
        return key if value else f"no {key}"
    return f"{key} {value}"


def _place(ruleset: Ruleset, place: str) -> str:
    """`Gloucester 1` for a place `LOCATION/N` (a slot, a merchant space); "" for anything else."""
    location, _, index = place.rpartition("/")
    return f"{location_name(ruleset, location)} {index}" if location in ruleset.locations and index.isdigit() else ""


def _by_owner(key: str, items: list[dict[str, Any]]) -> str:
    """Scored items (links, tiles) summed per owner: `links P1 12 VP (5), P2 3 VP (2)`."""
    totals: dict[int, list[int]] = {}
    for item in items:
        total = totals.setdefault(int(item["owner"]), [0, 0])
        total[0] += int(item.get("vp", 0))
        total[1] += 1
    return f"{key} " + ", ".join(f"P{seat} {vp} VP ({n})" for seat, (vp, n) in sorted(totals.items()))


def failure_lines(ruleset: Ruleset, failures: Sequence[Any]) -> list[str]:
    """Each failed precondition (rule, message, YAML place), followed by the text of its rule."""
    lines = []
    for failure in failures:
        rule = ruleset.rules.get(failure.rule) if failure.rule else None
        lines.append(f"- {failure}")
        if rule is not None:
            lines.append(f"    {failure.rule}: {rule.text.strip()}")
    return lines


def format_entry(entry: dict[str, Any]) -> str:
    """One log entry on one line: its event, then its details as key=value."""
    details = " ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in entry.items() if k != "event")
    return f"{entry.get('event', '?')}: {details}" if details else str(entry.get("event", "?"))


# == the same words as plain lines, for the web page ===============================================

def log_line(game: Game, entry: dict[str, Any]) -> str | None:
    """One log entry as the terminal game words it, as a plain line (None for what it leaves out);
    the end of an action, which the terminal shows as the mover's decisions, reads `P2: Build`."""
    if entry.get("event") == "action" and isinstance(entry.get("player"), int):
        return f"P{entry['player']}: {value_name(game, 'action', entry.get('action'))}"
    text = entry_text(game, entry)
    return text.plain.strip() if text is not None else None


def moves_words(game: Game, moves: Sequence[dict[str, Any]]) -> str:
    """The decisions of one action in a line: `Build, card Birmingham, industry Coal Mine, …`."""
    return ", ".join(move_name(game, move) for move in moves) or "(no decision)"
