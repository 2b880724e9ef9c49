"""Where the rooms of `brass serve` live: an SQLite file beside the server (`--db`, the standard
library's `sqlite3`, WAL mode), so that a restarted server resumes every room where it was.

A room's row holds what rebuilds its game exactly: the ruleset (a built-in name or the folder's
absolute path) and the game's save (`Game.to_json`: players, seed, the position it started from
and every move, with the state they lead to), plus the save at the start of a person's half-made
action (so that backing out still works after a restart). Its tokens (one per link) are rows of
their own. A row is written after every request that changed its game, before the answer goes
out: what a player was told happened is on the disk.

Nothing here knows HTTP or the engine: the rows are plain data. One connection is shared by the
worker threads (web/work.py), one statement at a time (its `threading.Lock`); SQLite's own errors
become `StoreError`, which the server answers with a 503 or, at start, a one-line error.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from interpreter.ruleset.errors import BrassError

SCHEMA_VERSION = 2  # PRAGMA user_version of a file this server wrote (1: before the table's notes)
SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    client TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    seats TEXT NOT NULL,
    hotseat INTEGER NOT NULL,
    save TEXT NOT NULL,
    action_start TEXT,
    version INTEGER NOT NULL,
    over INTEGER NOT NULL,
    updated REAL NOT NULL,
    notes TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS tokens (
    token TEXT PRIMARY KEY,
    room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    seats TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tokens_by_room ON tokens(room);
CREATE INDEX IF NOT EXISTS rooms_by_client ON rooms(client, over);
"""
IN_MEMORY = ":memory:"  # a database that lives as long as the server (the tests', a server given no file)
BUSY_SECONDS = 10  # how long a statement waits for another process holding the file (a second server)


class StoreError(BrassError):
    """The database cannot be used: not an SQLite file, another program's, locked, the disk full."""


@dataclass
class RoomRow:
    """A room as stored: `seats` the kind of each seat (`human` or a bot), `save` the game's save."""

    id: str
    client: str
    ruleset: str
    seats: list[str]
    hotseat: bool
    save: str
    action_start: str | None = None
    version: int = 0
    over: bool = False
    notes: str = "[]"  # JSON: what was said to the table (actions taken back, web/table.py TableNote)


@dataclass(frozen=True)
class TokenRow:
    """One link of a room: `role` is `seat`, `spectator` or `host`; `seats` the seats it plays."""

    token: str
    room: str
    role: str
    seats: tuple[int, ...]


class RoomStore:
    """The rooms file. `path` ":memory:" keeps them in memory (a test, or a server started with no file)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=BUSY_SECONDS,
                                       isolation_level=None)
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the rooms database {self.path}: {error}") from None
        try:
            with self._statements("opened"):
                self._check_and_create()
        except StoreError:
            self._db.close()
            raise

    def _check_and_create(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version not in (0, 1, SCHEMA_VERSION) or (version == 0 and tables):
            raise StoreError(f"{self.path} is not a rooms database of brass serve (schema {version}, tables "
                             f"{', '.join(sorted(tables)) or 'none'}): give another file with --db")
        self._db.execute("PRAGMA journal_mode = WAL")  # readers never wait for the writer; a crash loses no commit
        self._db.execute("PRAGMA foreign_keys = ON")
        if version == 1:  # a file of the server before the table's notes: they start empty
            self._db.execute("ALTER TABLE rooms ADD COLUMN notes TEXT NOT NULL DEFAULT '[]'")
        self._db.executescript(SCHEMA)
        self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextmanager
    def _statements(self, doing: str) -> Iterator[sqlite3.Connection]:
        """The connection, to one thread at a time; an SQLite error becomes a StoreError saying what failed."""
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as error:
                raise StoreError(f"the rooms database {self.path} could not be {doing}: {error}") from None

    @contextmanager
    def _transaction(self, doing: str) -> Iterator[sqlite3.Connection]:
        with self._statements(doing) as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    # == writing ==================================================================================

    def add(self, room: RoomRow, tokens: list[TokenRow], max_open: int | None = None) -> int | None:
        """Store a new room and its links, unless its client already has `max_open` rooms whose game
        is not over: then nothing is stored and that number is returned (None when stored). Counted
        and written in one transaction, so two requests at once cannot both pass the bound."""
        now = time.time()
        with self._transaction("written") as db:
            if max_open is not None:
                (open_rooms,) = db.execute("SELECT COUNT(*) FROM rooms WHERE client = ? AND over = 0",
                                           (room.client,)).fetchone()
                if open_rooms >= max_open:
                    return int(open_rooms)
            db.execute("INSERT INTO rooms VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (room.id, now, room.client, room.ruleset, json.dumps(room.seats), int(room.hotseat),
                        room.save, room.action_start, room.version, int(room.over), now, room.notes))
            db.executemany("INSERT INTO tokens VALUES (?, ?, ?, ?)",
                           [(t.token, t.room, t.role, json.dumps(list(t.seats))) for t in tokens])
        return None

    def update(self, room_id: str, save: str, action_start: str | None, version: int, over: bool,
               notes: str = "[]") -> None:
        with self._transaction("written") as db:
            db.execute("UPDATE rooms SET save = ?, action_start = ?, version = ?, over = ?, updated = ?, notes = ? "
                       "WHERE id = ?", (save, action_start, version, int(over), time.time(), notes, room_id))

    def delete(self, room_id: str) -> None:
        with self._transaction("written") as db:
            db.execute("DELETE FROM tokens WHERE room = ?", (room_id,))
            db.execute("DELETE FROM rooms WHERE id = ?", (room_id,))

    # == reading ==================================================================================

    def room(self, room_id: str) -> RoomRow | None:
        with self._statements("read") as db:
            row = db.execute("SELECT id, client, ruleset, seats, hotseat, save, action_start, version, over, notes "
                             "FROM rooms WHERE id = ?", (room_id,)).fetchone()
        if row is None:
            return None
        try:
            seats = json.loads(row[3])
        except ValueError:
            raise StoreError(f"room {room_id} of {self.path} is damaged: its seats are not JSON") from None
        if not isinstance(seats, list) or not all(isinstance(kind, str) for kind in seats):
            raise StoreError(f"room {room_id} of {self.path} is damaged: its seats are not a list of kinds")
        return RoomRow(row[0], row[1], row[2], seats, bool(row[4]), row[5], row[6], int(row[7]), bool(row[8]),
                       str(row[9]))

    def tokens(self, room_id: str) -> list[TokenRow]:
        with self._statements("read") as db:
            rows = db.execute("SELECT token, room, role, seats FROM tokens WHERE room = ? ORDER BY rowid",
                              (room_id,)).fetchall()
        found = []
        for token, room, role, seats in rows:
            try:
                numbers = tuple(int(seat) for seat in json.loads(seats))
            except (ValueError, TypeError):
                raise StoreError(f"room {room_id} of {self.path} is damaged: a link's seats are not a list of "
                                 "numbers") from None
            found.append(TokenRow(token, room, role, numbers))
        return found

    def open_rooms(self, client: str) -> int:
        """How many rooms of `client` have a game that is not over."""
        with self._statements("read") as db:
            (count,) = db.execute("SELECT COUNT(*) FROM rooms WHERE client = ? AND over = 0", (client,)).fetchone()
        return int(count)

    def close(self) -> None:
        with self._lock:
            self._db.close()
