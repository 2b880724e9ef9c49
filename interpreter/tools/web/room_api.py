"""The rooms of `brass serve` over HTTP (docs/web.md, "Host a playtest"): the host creates a room
and gets its links; each browser then sends its link's token with every request.

    POST   /api/rooms                   {ruleset, players, seats, seed?, hotseat?} → 201, the links
    GET    /api/rooms/{room}?since=V    the room as the link sees it ({"unchanged": true} if still V)
    POST   /api/rooms/{room}/decide     {decision}: the seat to decide, by its own link only
    POST   /api/rooms/{room}/back-out   the half-made action undone (the deciding seat's link)
    POST   /api/rooms/{room}/advance    {actions?}: the bots go on (any link of the room)
    POST   /api/rooms/{room}/explain    {action}: why an action is (il)legal (the deciding seat's link)
    GET    /api/rooms/{room}/save       the save, once the game is over (any time by the host's link)
    DELETE /api/rooms/{room}            the room deleted (the host's link)

The token goes in `Authorization: Bearer TOKEN`; on a hotseat link, `X-Brass-Seat: N` says which of
its seats sits at the screen. Moves of several browsers are applied one at a time, in the order
their requests take the room's lock; each is written to the database before it is answered.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from interpreter.engine.view import public_entry
from interpreter.tools.bots.ladder import HUMAN
from interpreter.tools.web.guard import read_json
from interpreter.tools.web.rooms import (
    HOST,
    SEAT,
    SPECTATOR,
    Room,
    RoomKeeper,
    link_of,
    moving_seat,
    new_room,
    viewing_seat,
)
from interpreter.tools.web.sessions import BotRun, PlaySession, WebError
from interpreter.tools.web.sources import Folders, int_field
from interpreter.tools.web.store import TokenRow
from interpreter.tools.web.table import unseen_cards
from interpreter.tools.web.view import failures_json, hand_json, log_json, mat_json, play_json
from interpreter.tools.web.work import Worker

SEAT_HEADER = "x-brass-seat"
DEFAULT_MAX_ROOMS_PER_CLIENT = 20
T = TypeVar("T")


class RoomApi:
    """The handlers of the rooms; `max_per_client` bounds the rooms not yet over of one address."""

    def __init__(self, keeper: RoomKeeper, folders: Folders, worker: Worker, bot_seconds: float,
                 max_per_client: int = DEFAULT_MAX_ROOMS_PER_CLIENT) -> None:
        self.keeper = keeper
        self.folders = folders
        self.worker = worker
        self.bot_seconds = bot_seconds
        self.max_per_client = max_per_client

    async def create(self, request: Request) -> Response:
        body = await read_json(request)
        client = request.client.host if request.client else "unknown"
        base = _base(request)

        def work() -> dict[str, Any]:
            room = new_room(body, self.folders, client)
            self.keeper.add(room, self.max_per_client)
            return {"room": room.id, "ruleset": room.game.ruleset.name, "title": room.game.ruleset.title,
                    "players": len(room.session.seats), "seats": room.session.seats, "hotseat": room.hotseat,
                    **links_json(room, base)}
        return JSONResponse(await self.worker.run(work), status_code=201)

    async def _in_room(self, request: Request, work: Callable[[Room, TokenRow], T]) -> T:
        """`work(room, link)` in a thread, holding the room's lock (taken before the room is looked up)."""
        room_id = request.path_params["room"]
        authorization = request.headers.get("authorization")
        async with self.keeper.lock(room_id):
            def run() -> T:
                room = self.keeper.room(room_id)
                return work(room, link_of(room, authorization))
            return await self.worker.run(run)

    def _bots(self, session: PlaySession, max_actions: int | None = None) -> BotRun:
        return session.run_bots(max_actions, deadline=time.monotonic() + self.bot_seconds)

    def _after(self, room: Room, change: Callable[[], BotRun]) -> BotRun:
        """Make a change, then write the room (also if the bots failed after a person's move was
        taken). Every change of a game is a move taken or, backing out, moves taken back."""
        moves = len(room.game.moves)
        try:
            return change()
        finally:
            if len(room.game.moves) != moves:
                self.keeper.changed(room)

    # -- reading ------------------------------------------------------------------------------------

    async def view(self, request: Request) -> Response:
        """The room as the link sees it; `since=V`: only `{"unchanged": true}` if it is still at version V
        (the pages ask every second or so: answered without the lock when the room is in memory)."""
        since, asked, base = request.query_params.get("since"), request.headers.get(SEAT_HEADER), _base(request)
        room = self.keeper.cached(request.path_params["room"])
        if room is not None and since == str(room.version):
            link = link_of(room, request.headers.get("authorization"))
            viewing_seat(room, link, asked)
            return JSONResponse({"unchanged": True, "version": room.version})

        def work(room: Room, link: TokenRow) -> dict[str, Any]:
            seat = viewing_seat(room, link, asked)
            if since == str(room.version):
                return {"unchanged": True, "version": room.version}
            return room_json(room, link, seat, base=base)
        return JSONResponse(await self._in_room(request, work))

    async def save(self, request: Request) -> Response:
        def work(room: Room, link: TokenRow) -> tuple[str, str]:
            game = room.game
            if not game.is_over and link.role != HOST:
                raise WebError(403, "a save holds every hand and the seed: it can be downloaded once the game is "
                                    "over, or at any time with the host's link")
            return f"brass-{game.ruleset.name}-room-{room.id}-move{len(game.moves)}.json", game.to_json()
        name, text = await self._in_room(request, work)
        return Response(text + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    # -- changing -------------------------------------------------------------------------------------

    async def decide(self, request: Request) -> Response:
        decision = (await read_json(request)).get("decision")
        if not isinstance(decision, dict):
            raise WebError(400, "'decision' must be one of the legal decisions, a mapping of one name to its "
                                "value such as {\"action\": ACTION}")
        asked = request.headers.get(SEAT_HEADER)

        def work(room: Room, link: TokenRow) -> dict[str, Any]:
            seat = moving_seat(room, link, viewing_seat(room, link, asked))

            def move() -> BotRun:
                room.session.decide(decision)  # refused: 422 with every reason, the game unchanged
                return self._bots(room.session)
            return room_json(room, link, seat, self._after(room, move))
        return JSONResponse(await self._in_room(request, work))

    async def back_out(self, request: Request) -> Response:
        asked = request.headers.get(SEAT_HEADER)

        def work(room: Room, link: TokenRow) -> dict[str, Any]:
            seat = moving_seat(room, link, viewing_seat(room, link, asked))

            def back() -> BotRun:
                room.session.back_out()
                return BotRun()
            self._after(room, back)
            return room_json(room, link, seat)
        return JSONResponse(await self._in_room(request, work))

    async def take_back(self, request: Request) -> Response:
        """The deciding seat's last action taken back (`PlaySession.take_back`): the room's moves
        shrink by that action's, and the database keeps the shorter game."""
        asked = request.headers.get(SEAT_HEADER)

        def work(room: Room, link: TokenRow) -> dict[str, Any]:
            seat = moving_seat(room, link, viewing_seat(room, link, asked))

            def back() -> BotRun:
                room.session.take_back()
                return BotRun()
            self._after(room, back)
            return room_json(room, link, seat)
        return JSONResponse(await self._in_room(request, work))

    async def advance(self, request: Request) -> Response:
        """The bots' turn, for up to `actions` actions or what `--bot-seconds` allow: any link may ask
        (the pages ask while a bot is to decide), since the bots' choices do not depend on who asks."""
        actions = int_field(await read_json(request), "actions", 1000, 1, 1000)
        asked, base = request.headers.get(SEAT_HEADER), _base(request)

        def work(room: Room, link: TokenRow) -> dict[str, Any]:
            seat = viewing_seat(room, link, asked)
            run = self._after(room, lambda: self._bots(room.session, actions))
            return room_json(room, link, seat, run, base)
        return JSONResponse(await self._in_room(request, work))

    async def explain(self, request: Request) -> Response:
        """`Game.explain` for the seat to decide only: its answer depends on that seat's hand."""
        action = (await read_json(request)).get("action")
        if not isinstance(action, dict):
            raise WebError(400, "'action' must be a whole action, e.g. {\"action\": ACTION, \"card\": CARD}")
        asked = request.headers.get(SEAT_HEADER)

        def work(room: Room, link: TokenRow) -> dict[str, Any]:
            moving_seat(room, link, viewing_seat(room, link, asked))
            game = room.game
            if game.pending is not None or game.question is not None:
                raise WebError(409, "an action is half made: finish it or back out before asking about another")
            result = game.explain(action)
            return {"legal": result["legal"], "failures": failures_json(game.ruleset, result["failures"])}
        return JSONResponse(await self._in_room(request, work))

    async def delete(self, request: Request) -> Response:
        def work(room: Room, link: TokenRow) -> dict[str, Any]:
            if link.role != HOST:
                raise WebError(403, f"only the host's link can delete room {room.id}")
            self.keeper.delete(room)
            return {"deleted": room.id}
        return JSONResponse(await self._in_room(request, work))


def _base(request: Request) -> str:
    """The address the links are made of: the one the request was sent to (its Host passed the guard)."""
    return f"{request.url.scheme}://{request.headers.get('host', 'localhost')}/"


def links_json(room: Room, base: str) -> dict[str, Any]:
    """The room's links: one per seat's link (its seats), the spectators' and the host's."""
    def link(token: TokenRow) -> dict[str, Any]:
        return {"seats": list(token.seats), "token": token.token, "url": f"{base}#room={room.id}&token={token.token}"}
    links = room.links()
    return {"links": [link(t) for t in links if t.role == SEAT],
            "spectator": next(link(t) for t in links if t.role == SPECTATOR),
            "host": next(link(t) for t in links if t.role == HOST)}


def room_json(room: Room, link: TokenRow, seat: int | None, run: BotRun | None = None,
              base: str = "") -> dict[str, Any]:
    """The room as one link sees it: the game's public view (`view.play_json`) with the private parts
    (hand, mat, decisions, reasons refused) of `seat` only, and only while that seat may see them (on a
    hotseat screen: while it is the seat to decide). The log leaves out the seed (`engine/view.py`)."""
    session, game = room.session, room.game
    view = play_json(room.id, session)
    deciding = None if game.is_over else session.deciding_seat
    shared = len(link.seats) > 1  # one screen for several seats: a hand shows only to the seat to decide
    shown = seat if seat is not None and (not shared or seat == deciding) else None
    confirm = deciding if (shared and deciding in link.seats and shown != deciding and session.human_to_decide) \
        else None
    view.update(room=room.id, api=f"/api/rooms/{room.id}", version=room.version, role=link.role,
                you=list(link.seats), hotseat=shared, confirm=confirm, viewer=shown,
                hand=hand_json(game, shown) if shown is not None else [],
                mat=mat_json(game, shown) if shown is not None else [],
                log=log_json(game, [public_entry(entry) for entry in game.log], session.notes),
                unseen=unseen_cards(game, shown),  # the cards this link has not seen: never another's hand
                bots=(run or BotRun()).to_dict())
    if not (shown is not None and shown == deciding and session.human_to_decide):
        view.update(prompt=_waiting(room, link, confirm), decisions=[], blocked=[], board_keys=[],
                    can_back_out=False, can_take_back=False)
    if link.role == HOST and base:
        view.update(links_json(room, base))
    return view


def _waiting(room: Room, link: TokenRow, confirm: int | None) -> str:
    session = room.session
    if room.game.is_over:
        return "the game is over"
    if confirm is not None:
        return f"player {confirm} is to decide: pass the screen to player {confirm}"
    kind = session.seats[session.deciding_seat - 1]
    return f"player {session.deciding_seat} ({'a person' if kind == HUMAN else kind}) is deciding"
