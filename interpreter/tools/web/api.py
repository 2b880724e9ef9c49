"""The HTTP side of `brass serve`: a Starlette app whose JSON API the page (`static/`) drives.

    app = create_app(Folders.of(traces=["../shared/real-games"], scenarios=["scenarios"]))

Every request that cannot be served gets a JSON body `{"error": …}` (and for an illegal move
`"failures"`, each with its rule ID and the rule's text) with a 4xx status: bad JSON, a body
over MAX_BODY_BYTES, an unknown game or replay id, an illegal move, a file outside the folders
the server opens. The handlers are `async` and do their (short) work on the event loop: one
request at a time touches the games, so no lock is needed in this local, one-person server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import rulesets
from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.loader import DEFAULT_RULESET, load_ruleset
from interpreter.tools.bots.ladder import HUMAN
from interpreter.tools.files.guards import parse_json
from interpreter.tools.web.sessions import PlaySession, ReplaySession, SessionStore, WebError
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
from interpreter.tools.web.view import failures_json, play_json, replay_json

STATIC = Path(__file__).with_name("static")
MAX_BODY_BYTES = 4_000_000  # a save of a whole 4-player game is under 100 kB
MAX_GAMES, MAX_REPLAYS = 50, 10  # a replay of a 4-player trace keeps ≈ 12 MB of positions


class WebApp:
    """The server's state: the games and replays by id, and the folders it may open files from."""

    def __init__(self, folders: Folders) -> None:
        self.folders = folders
        self.games: SessionStore[PlaySession] = SessionStore(MAX_GAMES)
        self.replays: SessionStore[ReplaySession] = SessionStore(MAX_REPLAYS)

    # -- what the page can start --------------------------------------------------------------------

    async def options(self, request: Request) -> Response:
        names = rulesets.builtin_names()
        return JSONResponse({"rulesets": [_ruleset_json(name) for name in names], "seat_kinds": list(SEAT_KINDS),
                             "default": DEFAULT_RULESET, "files": self.folders.listing()})

    async def new_game(self, request: Request) -> Response:
        return self._started(new_game(await read_json(request)))

    async def load_game(self, request: Request) -> Response:
        return self._started(loaded_game(await read_json(request)))

    async def scenario_game(self, request: Request) -> Response:
        return self._started(scenario_game(await read_json(request), self.folders))

    def _started(self, session: PlaySession) -> Response:
        if HUMAN in session.seats:
            session.run_bots()  # the bots before the first person move at once
        return JSONResponse(play_json(self.games.add(session), session), status_code=201)

    # -- a game being played --------------------------------------------------------------------------

    async def game(self, request: Request) -> Response:
        key = request.path_params["key"]
        return JSONResponse(play_json(key, self.games.get(key, "game")))

    async def decide(self, request: Request) -> Response:
        key = request.path_params["key"]
        session = self.games.get(key, "game")
        body = await read_json(request)
        if not isinstance(body.get("decision"), dict):
            raise WebError(400, "'decision' must be one of the legal decisions, a mapping of one name to its "
                                "value such as {\"action\": ACTION}")
        session.decide(body["decision"])
        session.run_bots()
        return JSONResponse(play_json(key, session))

    async def back_out(self, request: Request) -> Response:
        key = request.path_params["key"]
        session = self.games.get(key, "game")
        session.back_out()
        return JSONResponse(play_json(key, session))

    async def advance(self, request: Request) -> Response:
        """Bots only: let them take up to `actions` actions (the page calls it again and again to watch)."""
        key = request.path_params["key"]
        session = self.games.get(key, "game")
        actions = int_field(await read_json(request), "actions", 1, 1, 1000)
        session.run_bots(actions)
        return JSONResponse(play_json(key, session))

    async def explain(self, request: Request) -> Response:
        """`Game.explain` of a whole action: legal or not, with every failed precondition."""
        key = request.path_params["key"]
        session = self.games.get(key, "game")
        action = (await read_json(request)).get("action")
        if not isinstance(action, dict):
            raise WebError(400, "'action' must be a whole action, e.g. {\"action\": ACTION, \"card\": CARD}")
        if session.game.pending is not None or session.game.question is not None:
            raise WebError(409, "an action is half made: finish it or back out before asking about another")
        result = session.game.explain(action)
        return JSONResponse({"legal": result["legal"],
                             "failures": failures_json(session.game.ruleset, result["failures"])})

    async def save(self, request: Request) -> Response:
        key = request.path_params["key"]
        game = self.games.get(key, "game").game
        name = f"brass-{game.ruleset.name}-seed{game.seed}-move{len(game.moves)}.json"
        return Response(game.to_json() + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    # -- replays ----------------------------------------------------------------------------------------

    async def replay_save(self, request: Request) -> Response:
        return self._replay(saved_replay(await read_json(request)))

    async def replay_trace(self, request: Request) -> Response:
        return self._replay(trace_replay(await read_json(request), self.folders))

    def _replay(self, replay: ReplaySession) -> Response:
        return JSONResponse(replay_json(self.replays.add(replay), replay, 0), status_code=201)

    async def replay_step(self, request: Request) -> Response:
        key, index = request.path_params["key"], request.path_params["step"]
        replay = self.replays.get(key, "replay")
        if not 0 <= index < len(replay.steps):
            raise WebError(404, f"replay {key} has steps 0 to {len(replay.steps) - 1}, not {index}")
        return JSONResponse(replay_json(key, replay, index))


def _ruleset_json(name: str) -> dict[str, Any]:
    ruleset = load_ruleset(name)
    return {"name": name, "title": ruleset.title, "players": list(ruleset.players)}


async def read_json(request: Request) -> dict[str, Any]:
    """The request's body as a JSON object: 413 past MAX_BODY_BYTES (read no further), 400 otherwise."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise WebError(413, f"the request body is {declared} bytes; at most {MAX_BODY_BYTES} are read")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise WebError(413, f"the request body is over {MAX_BODY_BYTES} bytes")
    try:
        data = parse_json(body.decode("utf-8"), "the request body", BrassError)
    except UnicodeDecodeError:
        raise WebError(400, "the request body is not UTF-8 text") from None
    except BrassError as error:
        raise WebError(400, str(error)) from None
    if not isinstance(data, dict):
        raise WebError(400, f"the request body must be a JSON object, not {type(data).__name__}")
    return data


# == errors as JSON ===================================================================================

async def web_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, WebError)
    body: dict[str, Any] = {"error": error.message}
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


def create_app(folders: Folders) -> Starlette:
    app = WebApp(folders)
    routes = [
        Route("/", index),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/options", app.options),
        Route("/api/games", app.new_game, methods=["POST"]),
        Route("/api/games/load", app.load_game, methods=["POST"]),
        Route("/api/games/scenario", app.scenario_game, methods=["POST"]),
        Route("/api/games/{key}", app.game),
        Route("/api/games/{key}/decide", app.decide, methods=["POST"]),
        Route("/api/games/{key}/back-out", app.back_out, methods=["POST"]),
        Route("/api/games/{key}/advance", app.advance, methods=["POST"]),
        Route("/api/games/{key}/explain", app.explain, methods=["POST"]),
        Route("/api/games/{key}/save", app.save),
        Route("/api/replays/save", app.replay_save, methods=["POST"]),
        Route("/api/replays/trace", app.replay_trace, methods=["POST"]),
        Route("/api/replays/{key}/steps/{step:int}", app.replay_step),
    ]
    handlers = {WebError: web_error, HTTPException: http_error, BrassError: brass_error}
    server = Starlette(routes=routes, exception_handlers=handlers)
    server.state.brass = app
    return server
