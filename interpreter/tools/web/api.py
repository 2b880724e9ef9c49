"""The HTTP side of `brass serve`: a Starlette app whose JSON API the page (`static/`) drives.

    app = create_app(Folders.of(traces=["../shared/real-games"], scenarios=["scenarios"]))

Every request that cannot be served gets a JSON body `{"error": …}` (and for an illegal move
`"failures"`, each with its rule ID and the rule's text) with a 4xx status: bad JSON, a body
over MAX_BODY_BYTES, an unknown game or replay id, an illegal move, a file outside the folders
the server opens. Every request first passes `web/guard.py` (Host, Origin, Content-Type).

The handlers are `async`; each hands its engine work (bots, loading, drawing the board) to a
thread (`web/work.py`) and awaits it, holding its game's lock: the event loop stays free for the
other games and for Ctrl-C, and a game is read or changed by one request at a time. The bots of
one request stop after `bot_seconds` of wall clock (between two decisions); the page asks again.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import rulesets
from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.loader import DEFAULT_RULESET, load_ruleset
from interpreter.tools.bots.ladder import HUMAN
from interpreter.tools.web.guard import MAX_BODY_BYTES as MAX_BODY_BYTES  # the bound, where the tests look
from interpreter.tools.web.guard import Guard, read_json
from interpreter.tools.web.reports import report_files, report_html
from interpreter.tools.web.room_api import DEFAULT_MAX_ROOMS_PER_CLIENT, RoomApi
from interpreter.tools.web.rooms import RoomKeeper
from interpreter.tools.web.sessions import BotRun, PlaySession, ReplaySession, SessionStore, WebError
from interpreter.tools.web.sources import (
    SEAT_KINDS,
    Folders,
    int_field,
    loaded_game,
    new_game,
    saved_replay,
    scenario_game,
    trace_replay,
)
from interpreter.tools.web.store import IN_MEMORY, RoomStore
from interpreter.tools.web.view import failures_json, play_json, replay_json
from interpreter.tools.web.work import Worker

STATIC = Path(__file__).with_name("static")
MAX_GAMES, MAX_REPLAYS = 50, 10  # a replay of a 4-player trace keeps ≈ 12 MB of positions
# Wall clock the bots of one request may use: the page calls `advance` again until a person is to
# decide, so a long run of bots is many short requests, and none holds its game (or a thread) long.
BOT_SECONDS = 2.0
T = TypeVar("T")


class WebApp:
    """The server's state: the games and replays by id, and the folders it may open files from."""

    def __init__(self, folders: Folders, bot_seconds: float = BOT_SECONDS) -> None:
        self.folders = folders
        self.bot_seconds = bot_seconds
        self.games: SessionStore[PlaySession] = SessionStore(MAX_GAMES)
        self.replays: SessionStore[ReplaySession] = SessionStore(MAX_REPLAYS)
        self.worker = Worker()

    async def _locked(self, session: PlaySession, work: Callable[[], T]) -> T:
        """`work()` in a thread, while no other request reads or changes the game."""
        async with session.lock:
            return await self.worker.run(work)

    def _bots(self, session: PlaySession, max_actions: int | None = None) -> BotRun:
        """The bots' turn, for at most `bot_seconds` from now (in the worker thread, with the game's lock)."""
        return session.run_bots(max_actions, deadline=time.monotonic() + self.bot_seconds)

    # -- what the page can start --------------------------------------------------------------------

    async def options(self, request: Request) -> Response:
        def work() -> dict[str, Any]:  # the first request loads every built-in ruleset; listing walks folders
            names = rulesets.builtin_names()
            return {"rulesets": [_ruleset_json(name) for name in names], "seat_kinds": list(SEAT_KINDS),
                    "default": DEFAULT_RULESET, "files": self.folders.listing()}
        return JSONResponse(await self.worker.run(work))

    async def reports(self, request: Request) -> Response:
        """The comparison files below the --reports folders, with what each compares."""
        return JSONResponse({"reports": await self.worker.run(lambda: report_files(self.folders))})

    async def report(self, request: Request) -> Response:
        """The balance report of one comparison file (`?path=`), as `brass report --from` writes it."""
        path = request.query_params.get("path")
        return HTMLResponse(await self.worker.run(lambda: report_html(self.folders, path)))

    async def new_game(self, request: Request) -> Response:
        body = await read_json(request)
        return await self._started(lambda: new_game(body))

    async def load_game(self, request: Request) -> Response:
        body = await read_json(request)
        return await self._started(lambda: loaded_game(body))

    async def scenario_game(self, request: Request) -> Response:
        body = await read_json(request)
        return await self._started(lambda: scenario_game(body, self.folders))

    async def _started(self, make: Callable[[], PlaySession]) -> Response:
        session = await self.worker.run(make)
        key = self.games.add(session)

        def work() -> dict[str, Any]:
            run = self._bots(session) if HUMAN in session.seats else BotRun()  # the bots before the first person
            return _play(key, session, run)
        return JSONResponse(await self._locked(session, work), status_code=201)

    # -- a game being played --------------------------------------------------------------------------

    async def game(self, request: Request) -> Response:
        key = request.path_params["key"]
        session = self.games.get(key, "game")
        return JSONResponse(await self._locked(session, lambda: _play(key, session)))

    async def decide(self, request: Request) -> Response:
        key = request.path_params["key"]
        session = self.games.get(key, "game")
        decision = (await read_json(request)).get("decision")
        if not isinstance(decision, dict):
            raise WebError(400, "'decision' must be one of the legal decisions, a mapping of one name to its "
                                "value such as {\"action\": ACTION}")

        def work() -> dict[str, Any]:
            session.decide(decision)
            return _play(key, session, self._bots(session))
        return JSONResponse(await self._locked(session, work))

    async def back_out(self, request: Request) -> Response:
        key = request.path_params["key"]
        session = self.games.get(key, "game")

        def work() -> dict[str, Any]:
            session.back_out()
            return _play(key, session)
        return JSONResponse(await self._locked(session, work))

    async def take_back(self, request: Request) -> Response:
        key = request.path_params["key"]
        session = self.games.get(key, "game")

        def work() -> dict[str, Any]:
            session.take_back()
            return _play(key, session)
        return JSONResponse(await self._locked(session, work))

    async def advance(self, request: Request) -> Response:
        """Let the bots take up to `actions` actions, or what `bot_seconds` allows: the page calls it
        again and again (to watch a game of bots, or until a person is to decide)."""
        key = request.path_params["key"]
        session = self.games.get(key, "game")
        actions = int_field(await read_json(request), "actions", 1, 1, 1000)
        return JSONResponse(await self._locked(session, lambda: _play(key, session, self._bots(session, actions))))

    async def explain(self, request: Request) -> Response:
        """`Game.explain` of a whole action: legal or not, with every failed precondition."""
        key = request.path_params["key"]
        session = self.games.get(key, "game")
        action = (await read_json(request)).get("action")
        if not isinstance(action, dict):
            raise WebError(400, "'action' must be a whole action, e.g. {\"action\": ACTION, \"card\": CARD}")

        def work() -> dict[str, Any]:
            if session.game.pending is not None or session.game.question is not None:
                raise WebError(409, "an action is half made: finish it or back out before asking about another")
            result = session.game.explain(action)
            return {"legal": result["legal"], "failures": failures_json(session.game.ruleset, result["failures"])}
        return JSONResponse(await self._locked(session, work))

    async def save(self, request: Request) -> Response:
        key = request.path_params["key"]
        session = self.games.get(key, "game")

        def work() -> tuple[str, str]:
            game = session.game
            return f"brass-{game.ruleset.name}-seed{game.seed}-move{len(game.moves)}.json", game.to_json()
        name, text = await self._locked(session, work)
        return Response(text + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    # -- replays ----------------------------------------------------------------------------------------

    async def replay_save(self, request: Request) -> Response:
        body = await read_json(request)
        return await self._replay(lambda: saved_replay(body))

    async def replay_trace(self, request: Request) -> Response:
        body = await read_json(request)
        return await self._replay(lambda: trace_replay(body, self.folders))

    async def _replay(self, make: Callable[[], ReplaySession]) -> Response:
        """A replay is made once and only read after: its steps need no lock, only a thread to be drawn in."""
        replay = await self.worker.run(make)
        key = self.replays.add(replay)
        return JSONResponse(await self.worker.run(lambda: replay_json(key, replay, 0)), status_code=201)

    async def replay_step(self, request: Request) -> Response:
        key, index = request.path_params["key"], request.path_params["step"]
        replay = self.replays.get(key, "replay")
        if not 0 <= index < len(replay.steps):
            raise WebError(404, f"replay {key} has steps 0 to {len(replay.steps) - 1}, not {index}")
        return JSONResponse(await self.worker.run(lambda: replay_json(key, replay, index)))


def _play(key: str, session: PlaySession, run: BotRun | None = None) -> dict[str, Any]:
    """The game as the page shows it, and what the bots did in this request (`bots`)."""
    return {**play_json(key, session), "bots": (run or BotRun()).to_dict()}


def _ruleset_json(name: str) -> dict[str, Any]:
    ruleset = load_ruleset(name)
    return {"name": name, "title": ruleset.title, "players": list(ruleset.players)}


# == errors as JSON ===================================================================================

async def web_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, WebError)
    body: dict[str, Any] = {"error": error.message}
    if error.move:
        body["move"] = error.move
    if error.failures:
        body["failures"] = (failures_json(error.ruleset, error.failures) if error.ruleset else
                            [f.to_dict() for f in error.failures])
    return JSONResponse(body, status_code=error.status)


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    message = {404: f"no such page or API: {request.url.path}",
               405: f"{request.method} is not allowed on {request.url.path}"}.get(error.status_code, error.detail)
    return JSONResponse({"error": message}, status_code=error.status_code)


async def brass_error(request: Request, error: Exception) -> Response:
    """A project error no source turned into a WebError (a ruleset that does not load …): refused, not a crash."""
    return JSONResponse({"error": str(error)}, status_code=422)


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


def create_app(folders: Folders, allowed_hosts: Sequence[str] = (), bot_seconds: float = BOT_SECONDS,
               db: str | Path = IN_MEMORY, max_rooms_per_client: int = DEFAULT_MAX_ROOMS_PER_CLIENT) -> Starlette:
    """The app; `allowed_hosts`: the names besides localhost and IP addresses it answers to (guard.py);
    `db`: the rooms' SQLite file (web/store.py; by default in memory, gone with the server)."""
    app = WebApp(folders, bot_seconds)
    rooms = RoomApi(RoomKeeper(RoomStore(db)), folders, app.worker, bot_seconds, max_rooms_per_client)
    routes = [
        Route("/", index),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/options", app.options),
        Route("/api/reports", app.reports),
        Route("/reports", app.report),
        Route("/api/games", app.new_game, methods=["POST"]),
        Route("/api/games/load", app.load_game, methods=["POST"]),
        Route("/api/games/scenario", app.scenario_game, methods=["POST"]),
        Route("/api/games/{key}", app.game),
        Route("/api/games/{key}/decide", app.decide, methods=["POST"]),
        Route("/api/games/{key}/back-out", app.back_out, methods=["POST"]),
        Route("/api/games/{key}/take-back", app.take_back, methods=["POST"]),
        Route("/api/games/{key}/advance", app.advance, methods=["POST"]),
        Route("/api/games/{key}/explain", app.explain, methods=["POST"]),
        Route("/api/games/{key}/save", app.save),
        Route("/api/replays/save", app.replay_save, methods=["POST"]),
        Route("/api/replays/trace", app.replay_trace, methods=["POST"]),
        Route("/api/replays/{key}/steps/{step:int}", app.replay_step),
        Route("/api/rooms", rooms.create, methods=["POST"]),
        Route("/api/rooms/{room}", rooms.view, methods=["GET"]),
        Route("/api/rooms/{room}", rooms.delete, methods=["DELETE"]),
        Route("/api/rooms/{room}/decide", rooms.decide, methods=["POST"]),
        Route("/api/rooms/{room}/back-out", rooms.back_out, methods=["POST"]),
        Route("/api/rooms/{room}/take-back", rooms.take_back, methods=["POST"]),
        Route("/api/rooms/{room}/advance", rooms.advance, methods=["POST"]),
        Route("/api/rooms/{room}/explain", rooms.explain, methods=["POST"]),
        Route("/api/rooms/{room}/save", rooms.save),
    ]
    handlers = {WebError: web_error, HTTPException: http_error, BrassError: brass_error}

    @asynccontextmanager
    async def lifespan(server: Starlette) -> AsyncIterator[None]:
        yield
        rooms.keeper.store.close()  # every change is already written: each request wrote its own

    server = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan,
                       middleware=[Middleware(Guard, allowed_hosts=allowed_hosts)])
    server.state.brass = app
    server.state.rooms = rooms
    return server
