"""Rooms of `brass serve` (issue 25, items 1 and 2; docs/web.md "Host a playtest") through a real
HTTP server on the loopback (uvicorn in a thread) and a real SQLite file:

- a 2-player Birmingham room with two people's links played to the end through the API, each move
  sent with the token of the seat to decide, with the server stopped and started again on the same
  file in the middle (once between actions, once in the middle of one): the download is the very
  save of the same seed and moves played in the engine;
- a move with another seat's token, no token, a wrong one or the spectator's is refused (403) and
  changes nothing; each link sees its own hand only, the spectator's none, and no one the seed;
- a hotseat link shows a hand only to the seat to decide, once it said who it is;
- bots between the people, playing the same after a restart; a damaged file or row; the bound
  on rooms per client (429) and on a request's body (413).
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

uvicorn = pytest.importorskip("uvicorn", reason="the [web] extra is not installed (pip install '.[web]')")

from interpreter import Game, load_ruleset  # noqa: E402
from interpreter.tools.web.api import MAX_BODY_BYTES, create_app  # noqa: E402
from interpreter.tools.web.sources import Folders  # noqa: E402
from interpreter.tools.web.store import RoomStore, StoreError  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PEOPLE = {"players": 2, "seed": 5, "seats": ["human", "human"]}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """`create_app` served by uvicorn in a thread of this process on a free loopback port, its rooms
    in `db`; `restart()` stops it and serves a new app on the same file (a new port, or `port` again
    when one is given: a browser's links name it)."""

    def __init__(self, db: Path, scenarios: Path = ROOT / "scenarios", port: int | None = None,
                 **options: Any) -> None:
        self.db, self.scenarios, self.fixed_port, self.options = db, scenarios, port, options
        self.start()

    def start(self) -> None:
        self.port = self.fixed_port or free_port()
        app = create_app(Folders.of([], [str(self.scenarios)]), db=self.db, **self.options)
        self.served = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.served.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.served.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                pytest.fail("the server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.served.should_exit = True
        self.thread.join(10)
        assert not self.thread.is_alive()

    def restart(self) -> None:
        self.stop()
        self.start()

    def call(self, method: str, path: str, body: Any = None, token: str | None = None,
             seat: int | None = None) -> tuple[int, Any]:
        """One request; the answer's status and JSON (text for a file that is not JSON)."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if seat is not None:
            headers["X-Brass-Seat"] = str(seat)
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, None if body is None else json.dumps(body).encode(), headers)
            response = connection.getresponse()
            text = response.read().decode()
        finally:
            connection.close()
        assert response.status < 500 or response.status == 503, text  # a server error is a failure
        is_file = path.endswith("/save") and response.status == 200  # a save is JSON, but a file to keep as text
        return response.status, text if is_file else json.loads(text)

    def ok(self, method: str, path: str, body: Any = None, token: str | None = None,
           seat: int | None = None, status: int = 200) -> Any:
        got, answer = self.call(method, path, body, token, seat)
        assert got == status, answer
        return answer


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "rooms.sqlite3")
    yield running
    running.stop()


def create(server: Server, **body: Any) -> dict[str, Any]:
    return dict(server.ok("POST", "/api/rooms", {**PEOPLE, **body}, status=201))


def tokens_by_seat(room: dict[str, Any]) -> dict[int, str]:
    return {link["seats"][0]: link["token"] for link in room["links"]}


def view(server: Server, room: dict[str, Any], token: str, seat: int | None = None) -> dict[str, Any]:
    return dict(server.ok("GET", f"/api/rooms/{room['room']}", token=token, seat=seat))


def play_first_legal(server: Server, room: dict[str, Any], moves: int | None = None) -> int:
    """Each person in turn takes the first legal decision of their own view, with their own token,
    until the game ends (or `moves` were made); the number of moves made."""
    tokens = tokens_by_seat(room)
    seen = view(server, room, room["host"]["token"])
    made = 0
    while not seen["over"] and (moves is None or made < moves):
        token = tokens[seen["deciding"]]
        if seen["viewer"] != seen["deciding"]:  # the answer to the last move was another seat's view
            seen = view(server, room, token)
        assert seen["decisions"]
        seen = server.ok("POST", f"/api/rooms/{room['room']}/decide", {"decision": seen["decisions"][0]["decision"]},
                         token=token)
        made += 1
    return made


def engine_first_legal(seed: int, moves: int | None = None) -> Game:
    """The same game played in the engine itself: the first legal decision each time."""
    game = Game.new(load_ruleset("birmingham"), 2, seed)
    while not game.is_over and (moves is None or len(game.moves) < moves):
        game.apply(game.legal_actions()[0])
    return game


# == a whole game, and a restart in the middle ========================================================

def test_two_people_play_a_room_to_the_end_and_a_restart_resumes_it(server: Server, run: Any,
                                                                     tmp_path: Path) -> None:
    room = create(server)
    assert room["players"] == 2 and [link["seats"] for link in room["links"]] == [[1], [2]]
    assert "seed" not in room  # the seed would tell every hand
    for link in [*room["links"], room["spectator"], room["host"]]:
        assert link["url"] == f"http://127.0.0.1:{server.port}/#room={room['room']}&token={link['token']}"
        assert len(link["token"]) == 32
    play_first_legal(server, room, moves=40)
    server.restart()  # between two actions: the room comes back from the file
    play_first_legal(server, room, moves=3)  # a person's action half made (an action, a card, an industry)
    host = room["host"]["token"]
    half = view(server, room, host)
    before_restart = server.ok("GET", f"/api/rooms/{room['room']}/save", token=host)
    server.restart()
    again = view(server, room, host)
    assert server.ok("GET", f"/api/rooms/{room['room']}/save", token=host) == before_restart
    assert (again["moves"], again["deciding"], again["version"]) == (half["moves"], half["deciding"], half["version"])
    play_first_legal(server, room)
    final = view(server, room, room["spectator"]["token"])
    assert final["over"] and final["prompt"] == "the game is over"
    played = engine_first_legal(5)
    assert [(s["seat"], s["vp"]) for s in final["standings"]] == [(s["seat"], s["vp"]) for s in played.standings()]
    save = server.ok("GET", f"/api/rooms/{room['room']}/save", token=tokens_by_seat(room)[1])  # over: any link
    assert save == played.to_json() + "\n"  # byte for byte: the same seed and moves, the same game
    (tmp_path / "room.json").write_text(save, encoding="utf-8")
    status, out, err = run("replay", str(tmp_path / "room.json"))  # a save `brass replay` reads
    assert (status, err) == (0, "") and "Final standings" in out


def test_backing_out_after_a_restart_gives_the_action_start_again(server: Server) -> None:
    room = create(server)
    host, first = room["host"]["token"], tokens_by_seat(room)[1]
    start = server.ok("GET", f"/api/rooms/{room['room']}/save", token=host)
    play_first_legal(server, room, moves=2)
    server.restart()
    backed = server.ok("POST", f"/api/rooms/{room['room']}/back-out", token=first)
    assert backed["moves"] == 0 and backed["prompt"] == "player 1: choose an action"
    assert server.ok("GET", f"/api/rooms/{room['room']}/save", token=host) == start


# == who may move, who sees what ======================================================================

def test_a_move_with_another_seats_token_or_none_is_refused_and_changes_nothing(server: Server) -> None:
    room = create(server)
    tokens, path = tokens_by_seat(room), f"/api/rooms/{room['room']}"
    host = room["host"]["token"]
    first = view(server, room, tokens[1])
    decision = {"decision": first["decisions"][0]["decision"]}
    before = server.ok("GET", f"{path}/save", token=host)
    refusals = {
        tokens[2]: "it is player 1's decision; this link plays seat(s) 2",
        room["spectator"]["token"]: "the spectator's link of room",
        host: "the host's link of room",
        "x" * 32: f"this token is not one of room {room['room']}'s links",
        None: "carries its link's token (Authorization: Bearer TOKEN)",
    }
    for token, words in refusals.items():
        status, answer = server.call("POST", f"{path}/decide", decision, token=token)
        assert status == 403 and words in answer["error"], answer
        assert set(answer) == {"error"}
        for action in ("back-out", "explain"):
            assert server.call("POST", f"{path}/{action}", {"action": {"action": "x"}}, token=token)[0] == 403
    assert server.call("GET", path)[0] == 403 and server.call("GET", path, token="nope")[0] == 403
    status, answer = server.call("GET", f"{path}/save", token=tokens[1])
    assert status == 403 and "once the game is over" in answer["error"]
    assert server.ok("GET", f"{path}/save", token=host) == before
    assert view(server, room, host)["version"] == first["version"] == 0
    assert server.call("GET", "/api/rooms/nosuchroom", token=tokens[1])[0] == 404
    server.ok("POST", f"{path}/decide", decision, token=tokens[1])  # the right token is served


def test_a_token_opens_its_own_room_only_and_another_sites_page_can_make_none(server: Server) -> None:
    first, second = create(server), create(server)
    status, answer = server.call("GET", f"/api/rooms/{second['room']}", token=first["host"]["token"])
    assert status == 403 and f"not one of room {second['room']}'s links" in answer["error"]
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    for headers in ({"Content-Type": "application/json", "Origin": "http://evil.example"},
                    {"Content-Type": "text/plain"}):  # a cross-site fetch; a cross-site form post
        connection.request("POST", "/api/rooms", json.dumps(PEOPLE).encode(), headers)
        response = connection.getresponse()
        assert response.status in (403, 415) and "error" in json.loads(response.read())
    connection.close()
    with sqlite3.connect(server.db) as db:
        assert db.execute("SELECT COUNT(*) FROM rooms").fetchone()[0] == 2


def hands(server: Server, room: dict[str, Any]) -> dict[int, list[str]]:
    """Every seat's hand as the host's save has it (the host may download it at any time)."""
    save = json.loads(server.ok("GET", f"/api/rooms/{room['room']}/save", token=room["host"]["token"]))
    return {p["seat"]: [card["id"] if isinstance(card, dict) else card for card in p["hand"]]
            for p in save["state"]["players"]}


def test_each_link_sees_its_own_hand_only_and_nobody_the_seed(server: Server) -> None:
    room = create(server, seed=987654321)
    tokens = tokens_by_seat(room)
    for moves in (0, 7):  # at the start, and in the middle of a turn
        play_first_legal(server, room, moves=moves)
        held = hands(server, room)
        assert all(held.values())
        links = {1: tokens[1], 2: tokens[2], "spectator": room["spectator"]["token"], "host": room["host"]["token"]}
        for who, token in links.items():
            text = json.dumps(view(server, room, token))
            assert "987654321" not in text  # the setup's seed is left out of the log
            for seat, cards in held.items():
                shown = [card for card in cards if re.search(f'"{re.escape(card)}"', text)]
                assert shown == (cards if who == seat else []), (who, seat, shown)
        mine = view(server, room, tokens[1])
        assert [c["id"] for c in mine["hand"]] == held[1] and mine["mat"]
        spectator = view(server, room, room["spectator"]["token"])
        assert spectator["hand"] == [] and spectator["decisions"] == [] and spectator["viewer"] is None


def test_a_hotseat_link_shows_a_hand_only_to_the_seat_to_decide_once_it_says_so(server: Server) -> None:
    room = create(server, hotseat=True)
    assert [link["seats"] for link in room["links"]] == [[1, 2]]
    token, path = room["links"][0]["token"], f"/api/rooms/{room['room']}"
    screen = view(server, room, token)
    assert (screen["confirm"], screen["hand"], screen["decisions"], screen["hotseat"]) == (1, [], [], True)
    assert screen["prompt"] == "player 1 is to decide: pass the screen to player 1"
    assert view(server, room, token, seat=2)["hand"] == []  # seat 2 does not see a hand while 1 decides
    status, answer = server.call("POST", f"{path}/decide", {"decision": {"action": "x"}}, token=token)
    assert status == 403 and "say 'I am seat 1' first" in answer["error"]
    assert server.call("GET", path, token=token, seat=3)[0] == 403
    one = view(server, room, token, seat=1)
    assert one["viewer"] == 1 and one["hand"] and one["confirm"] is None
    seen = one
    while seen["deciding"] == 1:  # player 1's turn, then the screen passes
        seen = server.ok("POST", f"{path}/decide", {"decision": seen["decisions"][0]["decision"]}, token=token, seat=1)
    assert (seen["deciding"], seen["confirm"], seen["hand"], seen["viewer"]) == (2, 2, [], None)
    assert view(server, room, token, seat=2)["viewer"] == 2


# == bots between the people ===========================================================================

def test_bots_play_between_the_people_and_the_same_after_a_restart(server: Server) -> None:
    """Two rooms of the same seed, a person and two greedy bots: one is restarted twice on the way
    (and its room dropped from memory), the other not; after the person's first 40 decisions (and
    the bots' moves up to the person's next one) both are the very same game."""
    games = []
    for restarts in ([], [5, 11]):
        room = create(server, players=3, seed=11, seats=["greedy", "human", "greedy"])
        path, token = f"/api/rooms/{room['room']}", room["links"][0]["token"]
        seen = server.ok("POST", f"{path}/advance", {"actions": 1000}, token=token)
        assert seen["deciding"] == 2
        turns = 0
        while not seen["over"] and (turns < 40 or not seen["human_to_decide"]):
            if restarts and turns == restarts[0]:
                server.restart()
                restarts.pop(0)
            if seen["human_to_decide"]:
                seen = server.ok("POST", f"{path}/decide", {"decision": seen["decisions"][0]["decision"]}, token=token)
                turns += 1
            else:  # the bots ran out of time (--bot-seconds): the page asks them to go on
                seen = server.ok("POST", f"{path}/advance", {"actions": 1000}, token=token)
        games.append(json.loads(server.ok("GET", f"{path}/save", token=room["host"]["token"])))
        assert len(games[-1]["moves"]) > 2 * turns  # the bots made most of them
    assert games[0]["moves"] == games[1]["moves"] and games[0]["state"] == games[1]["state"]


# == bounds and damage ================================================================================

def test_rooms_per_client_are_bounded_and_a_deleted_or_finished_one_frees_its_place(tmp_path: Path) -> None:
    server = Server(tmp_path / "rooms.sqlite3", max_rooms_per_client=2)
    try:
        first, _ = create(server), create(server)
        status, answer = server.call("POST", "/api/rooms", PEOPLE)
        assert status == 429 and answer["error"].startswith("this address already has 2 rooms whose game is not "
                                                            "over (at most 2: brass serve --max-rooms-per-client)")
        status, answer = server.call("DELETE", f"/api/rooms/{first['room']}", token=first["links"][0]["token"])
        assert status == 403 and "only the host's link can delete" in answer["error"]
        assert server.ok("DELETE", f"/api/rooms/{first['room']}", token=first["host"]["token"]) == \
            {"deleted": first["room"]}
        assert server.call("GET", f"/api/rooms/{first['room']}", token=first["host"]["token"])[0] == 404
        create(server)
        status, answer = server.call("POST", "/api/rooms", {**PEOPLE, "padding": "x" * MAX_BODY_BYTES})
        assert status == 413 and "at most 4000000 are read" in answer["error"]
    finally:
        server.stop()


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"ruleset": str(ROOT / "scenarios" / "no-such")}, 404, "no ruleset folder"),
    ({"ruleset": "no-such"}, 403, "the ruleset 'no-such' is refused"),
    ({"ruleset": "/etc"}, 403, "the ruleset '/etc' is refused: a room plays a built-in ruleset"),
    ({"players": 5}, 400, "Brass: Birmingham is played by 2, 3, 4 players, not 5"),
    ({"seats": ["human", "nobody"]}, 400, "'seats' must list one of human, random"),
    ({"hotseat": "yes"}, 400, "'hotseat' must be true"),
    ({"seed": -1}, 400, "'seed' must be a whole number from 0 to"),
])
def test_a_room_that_cannot_be_made_is_refused_saying_why(server: Server, body: dict[str, Any], status: int,
                                                           words: str) -> None:
    got, answer = server.call("POST", "/api/rooms", {**PEOPLE, **body})
    assert got == status and words in answer["error"], answer


def test_a_ruleset_folder_below_the_scenario_folders_is_played_in_a_room(tmp_path: Path) -> None:
    variant = tmp_path / "allowed" / "cheap-loans"
    variant.mkdir(parents=True)
    (variant / "ruleset.yaml").write_text("name: cheap-loans\ntitle: Cheap loans\nversion: '1'\nextends: birmingham\n"
                                          "economy:\n  loan: {amount: 40}\n", encoding="utf-8")
    server = Server(tmp_path / "rooms.sqlite3", scenarios=tmp_path / "allowed")
    try:
        room = create(server, ruleset=str(variant))
        assert room["ruleset"] == "cheap-loans"
        server.restart()  # the folder is stored with the room
        assert view(server, room, room["host"]["token"])["title"] == "Cheap loans"
    finally:
        server.stop()


def test_a_damaged_room_or_database_is_an_error_not_a_traceback(server: Server, tmp_path: Path) -> None:
    room = create(server)
    with sqlite3.connect(server.db) as db:
        db.execute("UPDATE rooms SET save = 'not a save' WHERE id = ?", (room["room"],))
    server.restart()
    status, answer = server.call("GET", f"/api/rooms/{room['room']}", token=room["host"]["token"])
    assert status == 503 and answer["error"].startswith(f"room {room['room']} cannot be opened now: ")
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is no database" * 100)
    with pytest.raises(StoreError, match="could not be opened: file is not a database"):
        RoomStore(garbage)
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(StoreError, match="is not a rooms database of brass serve"):
        RoomStore(other)


def test_serve_with_a_damaged_database_stops_with_one_line(run: Any, tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is no database" * 100)
    status, _, err = run("serve", "--db", str(garbage), "--port", str(free_port()), "--traces", "--scenarios")
    assert status == 1 and err.startswith(f"error: the rooms database {garbage} could not be opened: file is "
                                          "not a database")
    assert run("serve", "--max-rooms-per-client", "0")[2] == ("error: --max-rooms-per-client must be from 1 to "
                                                              "100000, not 0\n")


def test_the_database_is_in_wal_mode(server: Server) -> None:
    create(server)
    with sqlite3.connect(server.db) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT COUNT(*) FROM tokens").fetchone()[0] == 4  # two seats, spectator, host


# == load: 100 rooms with bots at once ================================================================

LOAD_SECONDS = 15


@pytest.mark.slow
def test_a_hundred_rooms_of_bots_under_load_give_no_server_error(tmp_path: Path) -> None:
    """100 rooms of two bots (more than the 64 kept in memory, so rooms are dropped from memory and
    read back while in use), 8 clients asking them to go on and looking at them for 15 s: no 5xx,
    no move a client was told of is lost, and every stored game replays from its seed to its state."""
    import random
    import resource

    server = Server(tmp_path / "rooms.sqlite3", max_rooms_per_client=100, bot_seconds=0.2)
    try:
        rooms = [create(server, players=2, seed=n, seats=["greedy", "random"]) for n in range(100)]
        seen: dict[str, int] = {room["room"]: 0 for room in rooms}
        statuses: dict[int, int] = {}
        lock = threading.Lock()
        end = time.monotonic() + LOAD_SECONDS

        def client(number: int) -> None:
            pick = random.Random(number)
            while time.monotonic() < end:
                room = pick.choice(rooms)
                path, token = f"/api/rooms/{room['room']}", room["spectator"]["token"]
                if pick.random() < 0.7:
                    status, answer = server.call("POST", f"{path}/advance", {"actions": 3}, token=token)
                else:
                    status, answer = server.call("GET", path, token=token)
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
                    if status == 200:
                        seen[room["room"]] = max(seen[room["room"]], answer["moves"])

        clients = [threading.Thread(target=client, args=(n,)) for n in range(8)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join(LOAD_SECONDS + 120)
        memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        print(f"\n{sum(statuses.values())} requests in {LOAD_SECONDS} s: {statuses}; {sum(seen.values())} moves; "
              f"peak memory of the test process (server and clients) {memory} MB")
        assert set(statuses) == {200} and sum(statuses.values()) > 100
        ruleset = load_ruleset("birmingham")
        for room in rooms:
            save = server.ok("GET", f"/api/rooms/{room['room']}/save", token=room["host"]["token"])
            data = json.loads(save)
            assert len(data["moves"]) >= seen[room["room"]]  # nothing a client was told of is lost
            del data["check"]  # without its check a save is replayed move by move and its state compared
            assert Game.from_json(ruleset, json.dumps(data)).to_json() == save.rstrip("\n")
    finally:
        server.stop()
