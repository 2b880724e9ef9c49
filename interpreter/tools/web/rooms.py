"""Rooms: one game that several people play from their own browsers, each through a link of their own.

A room is a game (`PlaySession`) with links: one per person's seat (or one for all of them, to
play `hotseat` on one screen), one for spectators and one for the host. Each link carries a token
(`secrets.token_urlsafe`, 192 bits) that the page sends with every request: it says which seats
the request may see and move for. A seat's link sees its own hand and what every seat sees (the
engine's information rules, `engine/view.py`); the spectators' and the host's see no hand. Rooms
live in the database (`web/store.py`); the last ones used are kept in memory as well, and any
other is read back from the file when a request needs it, so no limit ever drops a room.

Every request on a room takes the room's asyncio lock *before* it looks the room up, and writes
the room back before it lets the lock go: the room in memory is never changed by two requests at
once, and a copy dropped from memory meanwhile is read back as the last request left it.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import rulesets
from interpreter.engine.game import Game, GameFileError
from interpreter.ruleset.errors import BrassError, RulesetError
from interpreter.ruleset.loader import DEFAULT_RULESET, load_ruleset, resolve_ruleset_path, ruleset_confined
from interpreter.ruleset.model import Ruleset
from interpreter.tools.bots.ladder import HUMAN
from interpreter.tools.files.guards import ENGINE_SLIPS, slip_text
from interpreter.tools.files.saves import parse_saved
from interpreter.tools.web.sessions import PlaySession, WebError
from interpreter.tools.web.sources import SEAT_KINDS, Folders, int_field, text_field
from interpreter.tools.web.store import RoomRow, RoomStore, StoreError, TokenRow
from interpreter.tools.web.table import TableNote

ROOMS_IN_MEMORY = 64  # rooms kept loaded (a 4-player game is a few hundred kB); the others wait in the file
SEAT, SPECTATOR, HOST = "seat", "spectator", "host"  # the roles of a link
TOKEN_BYTES = 24  # 192 bits: no one guesses a link
MAX_SEED = 2**63 - 1
T = TypeVar("T")


@dataclass
class Room:
    """A room in memory: its game, its links by token, and `version`, raised by every change (the
    pages ask for the room again only when it moved on)."""

    id: str
    client: str
    ruleset: str  # a built-in name, or the absolute path of an allowed folder
    hotseat: bool
    session: PlaySession
    tokens: dict[str, TokenRow]
    version: int = 0

    @property
    def game(self) -> Game:
        return self.session.game

    def row(self) -> RoomRow:
        start = self.session.action_start
        return RoomRow(self.id, self.client, self.ruleset, list(self.session.seats), self.hotseat,
                       self.game.to_json(), start.to_json() if start is not None else None, self.version,
                       self.game.is_over, json.dumps([note.to_dict() for note in self.session.notes]))

    def links(self) -> list[TokenRow]:
        return list(self.tokens.values())


def room_unavailable(room_id: str, problem: str) -> WebError:
    return WebError(503, f"room {room_id} cannot be opened now: {problem}")


# == a new room ====================================================================================

def new_room(body: dict[str, Any], folders: Folders, client: str) -> Room:
    """A room from the host's request: `ruleset` (a built-in name, or a ruleset folder below the
    `--scenarios` folders), `players`, `seats` (`human` or a bot kind, one per seat; all `human`
    by default), `seed` (random by default, and never shown before the game's end: with it and the
    moves every hand could be worked out), `hotseat` (one link for all the people's seats)."""
    source, ruleset = room_ruleset(body.get("ruleset", DEFAULT_RULESET), folders)
    players = int_field(body, "players", 2, 1, 99)
    if players not in ruleset.players:
        raise WebError(400, f"{ruleset.title} is played by {', '.join(map(str, ruleset.players))} players, "
                            f"not {players}")
    seed = int_field(body, "seed", secrets.randbelow(MAX_SEED), 0, MAX_SEED)
    seats = body.get("seats", [HUMAN] * players)
    if not isinstance(seats, list) or len(seats) != players or any(s not in SEAT_KINDS for s in seats):
        raise WebError(400, f"'seats' must list one of {', '.join(SEAT_KINDS)} for each of the {players} players")
    hotseat = body.get("hotseat", False)
    if not isinstance(hotseat, bool):
        raise WebError(400, "'hotseat' must be true (one link, one screen, for all the people's seats) or false")
    room_id = secrets.token_urlsafe(9)
    session = PlaySession.create(Game.new(ruleset, players, seed), list(seats))
    session.fresh_bots = True
    people = tuple(n for n, kind in enumerate(seats, start=1) if kind == HUMAN)
    groups = [people] if hotseat and people else [(n,) for n in people]
    links = [TokenRow(_token(), room_id, SEAT, group) for group in groups]
    links += [TokenRow(_token(), room_id, SPECTATOR, ()), TokenRow(_token(), room_id, HOST, ())]
    return Room(room_id, client, source, hotseat, session, {t.token: t for t in links})


def _token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def room_ruleset(value: Any, folders: Folders) -> tuple[str, Ruleset]:
    """A built-in ruleset by name, or a ruleset folder by path, confined like a scenario's `ruleset:`
    (below a `--scenarios` folder once links and `..` are resolved, else 403 before anything there is
    read); the text the room is stored with, and the ruleset."""
    text = text_field({"ruleset": value}, "ruleset", limit=1000)
    if text in rulesets.builtin_names():
        return text, load_ruleset(text)
    here = Path.cwd()
    if not ruleset_confined(text, here, folders.scenarios):
        below = ", ".join(map(str, folders.scenarios)) or "none (start brass serve with --scenarios)"
        raise WebError(403, f"the ruleset {text!r} is refused: a room plays a built-in ruleset "
                            f"({', '.join(rulesets.builtin_names())}) or a ruleset folder below a folder this "
                            f"server opens scenario files from: {below}")
    folder = resolve_ruleset_path(text, relative_to=here)
    if folder is None:
        raise WebError(404, f"no ruleset folder {text!r} (a folder holding a ruleset.yaml)")
    try:
        return str(folder), load_ruleset(folder)
    except RulesetError as error:
        problems = "\n".join(str(d) for d in error.diagnostics) or str(error)
        raise WebError(422, f"the ruleset {text!r} does not load:\n{problems}") from None


# == a room read back from the database =================================================================

def restored(row: RoomRow, tokens: list[TokenRow]) -> Room:
    """The room of a stored row: its game from its save (from the state when the save's check
    holds, else replayed from its moves), the start of a half-made action, its links."""
    ruleset = _stored_ruleset(row)
    game = _stored_game(ruleset, row.save, row.id)
    if len(row.seats) != len(game.table.players) or any(kind not in SEAT_KINDS for kind in row.seats):
        raise room_unavailable(row.id, f"its seats {row.seats} do not fit its game of {len(game.table.players)}")
    session = PlaySession.create(game, list(row.seats))
    session.fresh_bots = True
    if row.action_start is not None and game.pending is not None:
        session.action_start = _stored_game(ruleset, row.action_start, row.id)
    session.notes = _stored_notes(row)
    return Room(row.id, row.client, row.ruleset, row.hotseat, session, {t.token: t for t in tokens}, row.version)


def _stored_notes(row: RoomRow) -> list[TableNote]:
    """What was said to the room's table; a damaged list is none (the game itself is whole)."""
    try:
        data = json.loads(row.notes)
    except ValueError:
        return []
    notes = [TableNote.of(item) for item in data] if isinstance(data, list) else []
    return [note for note in notes if note is not None]


def _stored_ruleset(row: RoomRow) -> Ruleset:
    source: str | Path = row.ruleset if row.ruleset in rulesets.builtin_names() else Path(row.ruleset)
    try:
        return load_ruleset(source)
    except BrassError as error:
        raise room_unavailable(row.id, f"its ruleset {row.ruleset} does not load ({str(error).splitlines()[0]})") \
            from None


def _stored_game(ruleset: Ruleset, text: str, room_id: str) -> Game:
    """A stored save; if its state no longer loads (the ruleset's files changed …), its moves are
    replayed from the seed: the moves are what was played."""
    try:
        return parse_saved(ruleset, text, f"the game of room {room_id}")
    except GameFileError as error:
        first = str(error)
    try:
        data = json.loads(text)
        game = Game.start(ruleset, int(data["players"]), int(data["seed"]), data.get("given"))
        for move in data["moves"]:
            game.apply(move)
        return game
    except (BrassError, ValueError, KeyError, TypeError) as error:
        raise room_unavailable(room_id, f"{first}; its moves cannot be replayed either ({error})") from None
    except ENGINE_SLIPS as error:
        raise room_unavailable(room_id, f"{first}; its moves cannot be replayed either ({slip_text(error)})") \
            from None


# == who may do what ==================================================================================

def link_of(room: Room, authorization: str | None) -> TokenRow:
    """The link whose token the request carries (`Authorization: Bearer TOKEN`), else 403."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise WebError(403, f"a request on room {room.id} carries its link's token (Authorization: Bearer TOKEN): "
                            "open the room by the link you were given")
    link = room.tokens.get(token.strip())
    if link is None:
        raise WebError(403, f"this token is not one of room {room.id}'s links: open the room by the link you were "
                            "given")
    return link


def viewing_seat(room: Room, link: TokenRow, asked: str | None) -> int | None:
    """The seat whose hand the request may see: a seat link's own seat; on a hotseat link the seat
    the person at the screen says they are (`X-Brass-Seat`), one of the link's; none for others."""
    if link.role != SEAT:
        return None
    if asked is None or asked == "":
        return link.seats[0] if len(link.seats) == 1 else None
    if not asked.isdigit() or int(asked) not in link.seats:
        raise WebError(403, f"this link plays seat(s) {', '.join(map(str, link.seats))}, not {asked!r}")
    return int(asked)


def moving_seat(room: Room, link: TokenRow, seat: int | None) -> int:
    """The seat a move is made for, which must be the one to decide: else 403, the game unchanged."""
    game = room.game
    if link.role != SEAT:
        raise WebError(403, f"the {link.role}'s link of room {room.id} cannot move: only a seat's link can")
    if game.is_over:
        raise WebError(409, "the game is over")
    deciding = room.session.deciding_seat
    if deciding not in link.seats:
        whose = f"player {deciding}'s" if room.session.human_to_decide else f"player {deciding}'s (a bot's)"
        raise WebError(403, f"it is {whose} decision; this link plays seat(s) {', '.join(map(str, link.seats))}")
    if len(link.seats) > 1 and seat != deciding:  # a hotseat screen: the seat to decide says it is there
        raise WebError(403, f"player {deciding} is to decide: say 'I am seat {deciding}' first (X-Brass-Seat: "
                            f"{deciding}), so that no one else's hand shows on the screen")
    return deciding


# == rooms in memory and in the file ====================================================================

@dataclass
class RoomKeeper:
    """The rooms: the database, the last ones used in memory, and one asyncio lock per room in use."""

    store: RoomStore
    limit: int = ROOMS_IN_MEMORY
    _cache: OrderedDict[str, Room] = field(default_factory=OrderedDict)
    _cache_lock: threading.Lock = field(default_factory=threading.Lock)  # the cache is used from threads
    # a lock lives while a request holds or awaits it: a room nobody uses costs nothing
    _locks: weakref.WeakValueDictionary[str, asyncio.Lock] = field(default_factory=weakref.WeakValueDictionary)

    def lock(self, room_id: str) -> asyncio.Lock:
        """The room's lock (on the event loop's thread): taken before the room is looked up."""
        found = self._locks.get(room_id)
        if found is None:
            found = self._locks[room_id] = asyncio.Lock()
        return found

    def cached(self, room_id: str) -> Room | None:
        """The room if it is in memory (a quick look, without its lock: read only a number of it)."""
        with self._cache_lock:
            return self._cache.get(room_id)

    def room(self, room_id: str) -> Room:
        """The room, from memory or from the file (in a worker thread, holding the room's lock)."""
        with self._cache_lock:
            found = self._cache.get(room_id)
            if found is not None:
                self._cache.move_to_end(room_id)
                return found
        row = _stored(lambda: self.store.room(room_id))
        if row is None:
            raise WebError(404, f"no room {room_id} on this server")
        room = restored(row, _stored(lambda: self.store.tokens(room_id)))
        self._keep(room)
        return room

    def add(self, room: Room, max_open: int | None) -> None:
        """Store a new room; 429 when its client already has `max_open` rooms that are not over."""
        found = _stored(lambda: self.store.add(room.row(), room.links(), max_open))
        if found is not None:
            raise WebError(429, f"this address already has {found} rooms whose game is not over (at most "
                                f"{max_open}: brass serve --max-rooms-per-client): finish one, or delete one with "
                                "its host link")
        self._keep(room)

    def changed(self, room: Room) -> None:
        """Write the room after a change, before its answer goes out. If it cannot be written, its
        copy in memory (ahead of the file) is dropped, and the request is answered with 503."""
        room.version += 1
        row = room.row()
        try:
            self.store.update(room.id, row.save, row.action_start, row.version, row.over, row.notes)
        except StoreError as error:
            self.forget(room.id)
            raise WebError(503, f"{error} (the last change of room {room.id} is not kept: ask again)") from None

    def delete(self, room: Room) -> None:
        _stored(lambda: self.store.delete(room.id))
        self.forget(room.id)

    def forget(self, room_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(room_id, None)

    def _keep(self, room: Room) -> None:
        with self._cache_lock:
            self._cache[room.id] = room
            while len(self._cache) > self.limit:
                self._cache.popitem(last=False)  # still in the file: read back when asked for


def _stored(read: Callable[[], T]) -> T:
    """`read()` of the database, its failure a 503 that says what failed."""
    try:
        return read()
    except StoreError as error:
        raise WebError(503, str(error)) from None
