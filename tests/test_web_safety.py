"""`brass serve` is safe by default (issue 25, docs/web.md "Safe by default"): it answers only to
localhost, IP addresses and the names it is given (no DNS rebinding); a request that may change
something from another site's page is refused (Origin, Sec-Fetch-Site), and so is a body that is
not application/json (the cross-site `text/plain` form post); a scenario's `ruleset:` is confined
like every other path; bots play in threads under a time limit, so other games answer while a
long `advance` runs, and Ctrl-C or SIGTERM stop the server within seconds.

The checks of each request are tested through Starlette's TestClient; the time limit, the other
requests answering meanwhile and the signals with a real server (`brass serve` in a subprocess).
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the [web] extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx2", reason="httpx2 (starlette's TestClient) is not installed (pip install '.[test]')")

from starlette.testclient import TestClient

from interpreter import Game, load_ruleset
from interpreter.tools.bots.ladder import bot_seed, decide, make_bot
from interpreter.tools.web.api import create_app
from interpreter.tools.web.guard import same_origin, split_host
from interpreter.tools.web.serve import allowed_hosts, loopback
from interpreter.tools.web.sources import Folders

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"
LOCAL = "http://127.0.0.1:8765"
JSON = {"Content-Type": "application/json"}
TWO = {"players": 2, "seed": 3, "seats": ["human", "greedy"]}  # the greedy seat 2 acts first, and builds
VARIANT = "name: {name}\ntitle: {title}\nversion: '1'\nextends: birmingham\n"


def app(tmp_path: Path, **options: Any) -> Any:
    return create_app(Folders.of([], [str(SCENARIOS), str(tmp_path / "allowed")]), **options)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    (tmp_path / "allowed").mkdir()
    with TestClient(app(tmp_path, allowed_hosts=["playtest.lan"]), base_url=LOCAL) as test_client:
        yield test_client


def games(client: TestClient) -> int:
    return len(client.app.state.brass.games)  # type: ignore[attr-defined]


def refused(response: Any, status: int, words: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert words in body["error"], body["error"]
    return dict(body)


# == Host: localhost, an IP address or a name given; never another site's name =========================

@pytest.mark.parametrize("host", ["localhost", "localhost:8765", "LocalHost:1", "127.0.0.1", "127.0.0.1:8765",
                                  "192.168.1.20:8765", "[::1]:8765", "[::1]", "playtest.lan:9000", "PLAYTEST.LAN"])
def test_the_server_answers_to_localhost_ip_addresses_and_the_names_given(client: TestClient, host: str) -> None:
    assert client.get("/api/options", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "localhost.evil.example", "127.0.0.1.nip.io",
                                  "::1", "[::1", "[evil]:80", "localhost:", "localhost:99999", "localhost:8x",
                                  "localhost:8765:1", "playtest.lan.evil.example", "testserver", ""])
def test_any_other_host_is_refused_with_what_to_do(client: TestClient, host: str) -> None:
    body = refused(client.get("/api/options", headers={"Host": host}), 403, "this server answers to localhost, "
                   "an IP address or a name given with `brass serve --allowed-host NAME`")
    assert f"not to the host {host!r}" in body["error"]


def test_a_dns_rebinding_page_can_neither_read_nor_drive_a_game(client: TestClient) -> None:
    """The page of evil.example, its name pointed at 127.0.0.1 after it loaded, is "same origin"
    for the browser: it knows the game's id (say, from a link) and asks for it by its own name."""
    key = client.post("/api/games", json=TWO).json()["id"]
    rebound = {"Host": "evil.example:8765"}
    body = refused(client.get(f"/api/games/{key}", headers=rebound), 403, "not to the host 'evil.example:8765'")
    assert set(body) == {"error"}  # nothing of the game
    refused(client.get(f"/api/games/{key}/save", headers=rebound), 403, "not to the host")
    moves = client.get(f"/api/games/{key}").json()["moves"]
    refused(client.post(f"/api/games/{key}/decide", json={"decision": {"action": "loan"}},
                        headers={**rebound, "Origin": "http://evil.example:8765"}), 403, "not to the host")
    refused(client.post("/api/games", json=TWO, headers=rebound), 403, "not to the host")
    assert client.get(f"/api/games/{key}").json()["moves"] == moves and games(client) == 1


def test_host_headers_are_read_as_a_name_and_a_port() -> None:
    assert split_host("LocalHost:8765") == ("localhost", 8765)
    assert split_host("[::1]:80") == ("::1", 80) and split_host("[::1]") == ("::1", None)
    assert [split_host(h) for h in ("::1", "[::1]x", "a:b", "a:", ":80", "[]:1", "a:123456")] == [None] * 7


# == Origin and Sec-Fetch-Site on every request that may change something ============================

@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:9999", "https://127.0.0.1:8765",
                                    "http://localhost:8765", "null", "http://127.0.0.1:x"])
def test_a_post_from_another_origin_is_refused_and_creates_nothing(client: TestClient, origin: str) -> None:
    body = refused(client.post("/api/games", json=TWO, headers={"Origin": origin}), 403,
                   f"POST from the page of {origin!r} is refused: only this server's own page (http://127.0.0.1:8765)")
    assert set(body) == {"error"} and games(client) == 0


def test_a_post_from_the_servers_own_page_or_a_program_is_served(client: TestClient) -> None:
    own = {"Origin": "http://127.0.0.1:8765", "Sec-Fetch-Site": "same-origin"}
    assert client.post("/api/games", json=TWO, headers=own).status_code == 201
    assert client.post("/api/games", json=TWO).status_code == 201  # no Origin: curl, a script
    default_port = client.post("/api/games", json=TWO, headers={"Host": "localhost", "Origin": "http://localhost"})
    assert default_port.status_code == 201 and games(client) == 3
    assert same_origin("http://[::1]:8765", "http", "[::1]:8765") and not same_origin("http://[::2]:8765", "http",
                                                                                        "[::1]:8765")


def test_the_browser_saying_cross_site_is_refused_even_without_origin(client: TestClient) -> None:
    refused(client.post("/api/games", json=TWO, headers={"Sec-Fetch-Site": "cross-site"}), 403,
            "POST from a page of another site is refused")
    key = client.post("/api/games", json=TWO).json()["id"]
    refused(client.post(f"/api/games/{key}/back-out", headers={"Sec-Fetch-Site": "cross-site"}), 403,
            "another site")
    assert games(client) == 1


def test_reading_is_not_refused_for_an_origin_and_grants_no_cross_site_read(client: TestClient) -> None:
    """A GET changes nothing; the browser keeps its answer from another site's page (no CORS header)."""
    response = client.get("/api/options", headers={"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 200 and "access-control-allow-origin" not in response.headers


# == bodies: application/json only ===================================================================

@pytest.mark.parametrize("content_type", ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/jsonp", None])
def test_a_body_that_is_not_application_json_is_refused_and_creates_nothing(client: TestClient,
                                                                            content_type: str | None) -> None:
    """The cross-site form post of issue 25: `text/plain` with a JSON text in it created a game."""
    headers = {"Content-Type": content_type} if content_type else {}
    body = refused(client.post("/api/games", content=json.dumps(TWO).encode(), headers=headers), 415,
                   "a POST body must be JSON sent with Content-Type: application/json, not ")
    assert (content_type or "a body of no type") in body["error"] and games(client) == 0


def test_json_bodies_and_requests_without_a_body_are_served(client: TestClient) -> None:
    created = client.post("/api/games", content=json.dumps(TWO).encode(),
                          headers={"Content-Type": "Application/JSON; charset=utf-8"})
    assert created.status_code == 201
    key = created.json()["id"]
    refused(client.post(f"/api/games/{key}/back-out"), 409, "nothing to back out of")  # no body, no type: a program
    refused(client.post(f"/api/games/{key}/back-out", headers={"Content-Type": "text/plain"}), 415,
            "not text/plain")  # an empty form post still names its type


# == a scenario's ruleset: built in, or a folder below the scenario folders ===========================

def upload(client: TestClient, ruleset: str) -> Any:
    return client.post("/api/games/scenario", json={"text": f"ruleset: {ruleset}\nplayers: 2\n", "name": "x.yaml"})


def test_an_uploaded_scenario_may_not_name_a_ruleset_folder_outside(client: TestClient, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "ruleset.yaml").write_text(VARIANT.format(name="secret", title="Secret Variant Title"))
    for named in (str(outside), str(outside / "ruleset.yaml"), str(tmp_path / "allowed" / ".." / "outside"),
                  "../" * 12 + str(outside).lstrip("/"), str(tmp_path / "no-such-folder"), "/etc"):
        body = refused(upload(client, named), 403, f"the scenario's ruleset {named!r} is refused: this server opens "
                       "a built-in ruleset (birmingham, birmingham-intro, lancashire")
        assert f"a ruleset folder below a folder it opens scenario files from: {SCENARIOS}, {tmp_path / 'allowed'}" \
            in body["error"]
        assert "Secret" not in body["error"] and "ruleset.yaml" not in body["error"].replace(named, "")
    assert games(client) == 0


def test_a_scenario_in_an_allowed_folder_may_not_name_one_outside_either(client: TestClient, tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "ruleset.yaml").write_text(VARIANT.format(name="secret", title="Secret"))
    (tmp_path / "allowed" / "link").symlink_to(tmp_path / "outside")  # a link out is refused like `..`
    for named in ("../outside", "link"):
        (tmp_path / "allowed" / "s.yaml").write_text(f"ruleset: {named}\nplayers: 2\n")
        refused(client.post("/api/games/scenario", json={"path": str(tmp_path / "allowed" / "s.yaml")}), 403,
                f"the scenario's ruleset {named!r} is refused")


def test_a_ruleset_below_the_scenario_folders_or_built_in_is_opened(client: TestClient, tmp_path: Path) -> None:
    variant = tmp_path / "allowed" / "variant"
    variant.mkdir()
    (variant / "ruleset.yaml").write_text(VARIANT.format(name="mine", title="My Variant"))
    (tmp_path / "allowed" / "s.yaml").write_text("ruleset: variant\nplayers: 2\n")
    opened = client.post("/api/games/scenario", json={"path": str(tmp_path / "allowed" / "s.yaml")})
    assert opened.status_code == 201 and opened.json()["title"] == "My Variant"
    assert upload(client, str(variant)).json()["title"] == "My Variant"
    assert upload(client, "lancashire").json()["title"] == "Brass: Lancashire"
    # the repository's scenarios name a shipped ruleset by its folder (../../rulesets/lancashire-warfrog)
    by_folder = [path for path in sorted(SCENARIOS.rglob("*.yaml"))
                 if "ruleset: ../../rulesets/" in path.read_text(encoding="utf-8")]
    assert by_folder
    assert client.post("/api/games/scenario", json={"path": str(by_folder[0])}).status_code == 201


# == bots under a time limit ========================================================================

def test_the_bots_of_one_request_stop_at_the_time_limit_and_the_game_is_the_same(tmp_path: Path) -> None:
    """With no time at all each request takes one bot decision (every request moves the game on);
    a game advanced so, and then in one go, ends as the same bots play it directly."""
    with TestClient(app(tmp_path, bot_seconds=0), base_url=LOCAL) as client:
        view = client.post("/api/games", json={"players": 2, "seed": 7, "seats": ["random", "greedy"]}).json()
        for _ in range(20):
            view = client.post(f"/api/games/{view['id']}/advance", json={"actions": 1000}).json()
            assert view["bots"] == {"decisions": 1, "actions": view["bots"]["actions"], "out_of_time": True}
        assert view["moves"] == 20
        client.app.state.brass.bot_seconds = 600  # type: ignore[attr-defined]
        view = client.post(f"/api/games/{view['id']}/advance", json={"actions": 1000}).json()
        assert view["over"] and view["bots"]["out_of_time"] is False
    game = Game.new(load_ruleset("birmingham"), 2, 7)
    bots = {1: make_bot("random", bot_seed(7, 1)), 2: make_bot("greedy", bot_seed(7, 2))}
    while not game.is_over:
        game.apply(decide(bots[game.deciding_seat], game))
    assert view["standings"] == game.standings() and view["moves"] == len(game.moves)


def test_a_persons_decision_answers_when_the_bots_run_out_of_time(tmp_path: Path) -> None:
    with TestClient(app(tmp_path, bot_seconds=0), base_url=LOCAL) as client:
        view = client.post("/api/games", json={**TWO, "seats": ["human", "greedy"]}).json()
        assert view["human_to_decide"] is False and view["prompt"] == "player 2 (greedy) is deciding"
        assert view["bots"] == {"decisions": 1, "actions": 0, "out_of_time": True}
        while not view["human_to_decide"]:  # what the page does: advance until a person is to decide
            view = client.post(f"/api/games/{view['id']}/advance", json={"actions": 1000}).json()
        assert view["moves"] == 5 and view["prompt"] == "player 1: choose an action"


# == the command ======================================================================================

def test_allowed_host_names_and_the_bound_name() -> None:
    assert allowed_hosts("127.0.0.1", ["Playtest.lan", "box"]) == ["playtest.lan", "box"]
    assert allowed_hosts("my-laptop.local", []) == ["my-laptop.local"]  # --host NAME: that name answers
    assert allowed_hosts("0.0.0.0", []) == [] and allowed_hosts("::", []) == []
    assert [loopback(h) for h in ("127.0.0.1", "::1", "localhost", "0.0.0.0", "::", "192.168.1.2", "box")] == \
        [True, True, True, False, False, False, False]


@pytest.mark.parametrize("name", ["*.lan", "box:8765", "http://box", "a b", ""])
def test_an_allowed_host_that_is_no_name_is_refused(run: Any, name: str) -> None:
    status, out, err = run("serve", "--allowed-host", name)
    assert (status, out) == (1, "")
    assert f"error: --allowed-host {name!r} is not a host name" in err


def test_listening_beyond_this_machine_warns_that_anyone_can_play(run: Any, tmp_path: Path) -> None:
    with socket.socket() as taken:  # the port is taken: the command warns, then stops without serving
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, out, err = run("serve", "--host", "0.0.0.0", "--port", str(port), "--traces", "--scenarios",
                               "--db", str(tmp_path / "rooms.sqlite3"))
    assert status == 1 and out.startswith(f"brass serve: http://0.0.0.0:{port}/")
    assert err.startswith("brass serve: warning: listening on 0.0.0.0, not only on this machine: anyone on the "
                          "network who can reach it can play and read every game on this server")


def test_bot_seconds_out_of_range_is_refused(run: Any) -> None:
    assert run("serve", "--bot-seconds", "0") == (1, "", "error: --bot-seconds must be more than 0 and at most "
                                                         "3600, not 0.0\n")


# == a real server: other games answer during a long advance; signals stop it ==========================

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """`brass serve` in a subprocess on a free loopback port, and plain HTTP requests to it."""

    def __init__(self, *options: str) -> None:
        self.port = free_port()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "interpreter.tools.cli.main", "serve", "--port", str(self.port), "--traces",
             "--scenarios", str(SCENARIOS), "--db", ":memory:", *options], env=env, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while True:
            try:
                self.request("GET", "/")
                return
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    pytest.fail(f"brass serve did not start: {self.process.communicate()}")
                time.sleep(0.1)

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
                timeout: float = 120) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = None if body is None else json.dumps(body).encode()
            connection.request(method, path, data, {**(JSON if body is not None else {}), **(headers or {})})
            response = connection.getresponse()
            text = response.read().decode()
            return response.status, json.loads(text) if text.startswith(("{", "[")) else text
        finally:
            connection.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate()


class Advance(threading.Thread):
    """One client's `advance {"actions": 1000}`, in the background: its answer and how long it took."""

    def __init__(self, server: Server, key: str) -> None:
        super().__init__(daemon=True)
        self.server, self.key = server, key
        self.answer: tuple[int, Any] | None = None
        self.seconds = 0.0

    def run(self) -> None:
        start = time.monotonic()
        try:
            self.answer = self.server.request("POST", f"/api/games/{self.key}/advance", {"actions": 1000})
        except OSError as error:
            self.answer = (0, str(error))
        self.seconds = time.monotonic() - start


def four_search_bots(server: Server) -> Advance:
    """The request that froze the whole server for over 240 s (issue 25), started."""
    status, view = server.request("POST", "/api/games", {"players": 4, "seed": 1, "seats": ["search"] * 4})
    assert status == 201, view
    advance = Advance(server, view["id"])
    advance.start()
    time.sleep(0.5)  # its first search decision is under way (it takes seconds)
    return advance


@pytest.mark.slow
def test_other_games_answer_promptly_while_four_search_bots_advance() -> None:
    server = Server("--bot-seconds", "6")
    try:
        assert server.request("GET", "/api/options")[0] == 200  # the first one loads every built-in ruleset
        advance = four_search_bots(server)
        slowest = 0.0
        for seed in range(3):
            start = time.monotonic()
            assert server.request("GET", "/api/options")[0] == 200
            status, view = server.request("POST", "/api/games", {**TWO, "seed": seed})
            assert status == 201
            assert server.request("POST", f"/api/games/{view['id']}/decide",
                                  {"decision": view["decisions"][0]["decision"]})[0] == 200
            assert server.request("GET", f"/api/games/{view['id']}")[0] == 200
            slowest = max(slowest, time.monotonic() - start)
        assert advance.is_alive(), "the other requests were answered after the advance, not beside it"
        assert slowest < 3, f"four requests of another game took {slowest:.2f} s"
        rebound = server.request("GET", f"/api/games/{advance.key}", headers={"Host": f"evil.example:{server.port}"})
        assert rebound[0] == 403 and set(rebound[1]) == {"error"}
        advance.join(120)
        assert advance.answer is not None and advance.answer[0] == 200, advance.answer
        bots = advance.answer[1]["bots"]
        assert bots["out_of_time"] is True and bots["decisions"] >= 1 and bots["actions"] < 1000
        assert advance.seconds >= 6
    finally:
        server.stop()


@pytest.mark.slow
@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_the_server_within_seconds_during_a_long_advance(signal_number: int) -> None:
    server = Server("--bot-seconds", "600")  # the advance alone would run for minutes
    try:
        advance = four_search_bots(server)
        assert advance.is_alive()
        start = time.monotonic()
        server.process.send_signal(signal_number)
        server.process.wait(30)
        stopped = time.monotonic() - start
        assert stopped < 10, f"the server took {stopped:.1f} s to stop"
        advance.join(10)
        assert advance.answer is not None and advance.answer[0] in (503, 0), advance.answer  # cut short
        assert server.process.returncode in (0, 130, -signal_number, 128 + signal_number)
    finally:
        server.stop()
