"""What a table of people reads beside the board: the worded log, the last action, the score
breakdowns of the eras, the cards played this era and the cards no one has seen yet.

All of it is read from the game's log and public state (and the viewer's own hand), in the words of
the terminal game (`wording/names.py`): the page and `brass play` say the same things the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from interpreter.engine.game import Game
from interpreter.tools.wording.names import card_name, industry_name, log_line

# The log keys whose value is a thing placed or turned on the board by an action: the picture's
# slots and links that the page outlines as the last action.
_PLACED_KEYS = {"slot": "slots", "tile": "slots", "link": "links"}


@dataclass(frozen=True)
class TableNote:
    """Something said to the table that is no move of the game (an action taken back): shown in the
    log after the first `at` entries of the game's log."""

    at: int
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"at": self.at, "text": self.text}

    @classmethod
    def of(cls, data: Any) -> TableNote | None:
        if isinstance(data, dict) and isinstance(data.get("at"), int) and isinstance(data.get("text"), str):
            return cls(data["at"], data["text"])
        return None


def log_lines(game: Game, entries: list[dict[str, Any]], notes: Sequence[TableNote] = (),
              start: int = 0, last: int | None = None) -> list[str]:
    """The log in words, the table's notes among it; `entries` are the game's log from index `start`
    (a room's leaves out the seed); the last `last` lines."""
    lines: list[str] = []
    pending = sorted(notes, key=lambda n: n.at)
    for index, entry in enumerate(entries, start=start):
        while pending and pending[0].at <= index:
            lines.append(pending.pop(0).text)
        line = log_line(game, entry)
        if line is not None:
            lines.append(line)
    lines.extend(note.text for note in pending)
    return lines[-last:] if last else lines


def last_action(game: Game) -> dict[str, Any] | None:
    """The last whole action: who took it, its name, and the slots and links it placed or turned
    (the entries written before its `action` entry and after the one before)."""
    log = game.log
    ends = [n for n, entry in enumerate(log) if entry.get("event") == "action"]
    if not ends:
        return None
    end = ends[-1]
    begin = ends[-2] + 1 if len(ends) > 1 else 0
    placed: dict[str, list[str]] = {"slots": [], "links": []}
    for entry in log[begin:end]:
        for key, kind in _PLACED_KEYS.items():
            value = entry.get(key)
            if isinstance(value, str) and value not in placed[kind]:
                placed[kind].append(value)
    entry = log[end]
    return {"seat": entry.get("player"), "text": log_line(game, entry), **placed}


def score_breakdown(game: Game) -> dict[str, Any]:
    """The VP of each scored era per seat: from links, from tiles by industry; and each seat's VP
    now, money, and `other` (merchants' bonuses, VP lost …: what the scorings do not explain), so
    that links + tiles + other is the seat's VP exactly."""
    industry_at: dict[str, str] = {}  # slot -> the industry last built there
    eras: list[dict[str, Any]] = []
    scored: dict[str, Any] = {}
    for entry in game.log:
        event = entry.get("event")
        if event in ("built", "overbuilt") and isinstance(entry.get("industry"), str):
            industry_at[str(entry.get("slot") or entry.get("tile"))] = entry["industry"]
        elif event == "link scoring":
            scored["links"] = _per_seat(entry.get("links", []))
        elif event == "tile scoring":
            scored["tiles"] = _tiles_per_seat(game, entry.get("tiles", []), industry_at)
        elif event == "end of era":
            eras.append(_era_row(game, entry, scored))
            scored = {}
    players = []
    for player in game.table.players:
        explained = sum(era["links"].get(player.seat, 0) + sum(era["tiles"].get(player.seat, {}).values())
                        for era in eras)
        players.append({"seat": player.seat, "vp": player.vp, "money": player.money, "other": player.vp - explained})
    seats = [p.seat for p in game.table.players]
    return {"eras": [_era_json(era, seats) for era in eras], "players": players}


def _per_seat(items: list[dict[str, Any]]) -> dict[int, int]:
    totals: dict[int, int] = {}
    for item in items:
        seat = int(item["owner"])
        totals[seat] = totals.get(seat, 0) + int(item.get("vp", 0))
    return totals


def _tiles_per_seat(game: Game, items: list[dict[str, Any]], industry_at: dict[str, str]) -> dict[int, dict[str, int]]:
    totals: dict[int, dict[str, int]] = {}
    for item in items:
        industry = industry_name(game.ruleset, industry_at.get(str(item.get("tile")), "?"))
        row = totals.setdefault(int(item["owner"]), {})
        row[industry] = row.get(industry, 0) + int(item.get("vp", 0))
    return totals


def _era_row(game: Game, entry: dict[str, Any], scored: dict[str, Any]) -> dict[str, Any]:
    era = next((e.name for e in game.ruleset.eras if e.id == entry.get("era")), str(entry.get("era")))
    return {"era": era, "links": scored.get("links", {}), "tiles": scored.get("tiles", {})}


def _era_json(era: dict[str, Any], seats: list[int]) -> dict[str, Any]:
    return {"era": era["era"], "seats": [
        {"seat": seat, "links": era["links"].get(seat, 0), "tiles": era["tiles"].get(seat, {}),
         "total": era["links"].get(seat, 0) + sum(era["tiles"].get(seat, {}).values())} for seat in seats]}


def cards_this_era(game: Game) -> list[dict[str, Any]]:
    """Each seat's discard pile: the cards it played since the draw deck was last made (face up)."""
    return [{"seat": p.seat, "cards": [card_name(c) for c in p.discard]} for p in game.table.players]


def unseen_cards(game: Game, viewer: int | None) -> list[dict[str, Any]]:
    """How many cards of each face the viewer has not seen: the draw deck, the cards set aside and
    the other seats' hands (the ruleset's deck less the viewer's hand and every discard pile)."""
    state = game.state
    hidden = list(state.deck) + list(state.aside)
    hidden += [c for p in state.players if p.seat != viewer for c in p.hand]
    counts = Counter(card_name(card) for card in hidden)
    return [{"name": name, "count": count} for name, count in sorted(counts.items())]
