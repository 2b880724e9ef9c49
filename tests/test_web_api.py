"""`brass serve`'s JSON API through Starlette's TestClient: games, backing out, saves, replays,
scenarios, and every malformed request refused with a 4xx and a JSON error, never a 500 (the
client raises on any server error, so each test also checks that nothing crashed)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the [web] extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx2", reason="httpx2 (starlette's TestClient) is not installed (pip install '.[test]')")

from starlette.testclient import TestClient

from interpreter import Game, load_ruleset
from interpreter.tools.bots.ladder import bot_seed, decide, make_bot
from interpreter.tools.web import view as web_view
from interpreter.tools.web.api import MAX_BODY_BYTES, create_app
from interpreter.tools.web.sessions import SessionStore, WebError
from interpreter.tools.web.sources import Folders

ROOT = Path(__file__).resolve().parents[1]
TRACES = (ROOT.parent / "shared" / "real-games").resolve()  # the server lists files by their real path
TRACE = TRACES / "traces" / "wq9gs6-2p-full.trace.json"
SCENARIO = ROOT / "scenarios" / "birmingham" / "loan_refused_at_minus_10.yaml"
LOCAL = "http://127.0.0.1:8765"  # the Host the server answers to (testserver, the client's own, is refused)
JSON = {"Content-Type": "application/json"}  # what the page sends; any other body is refused (415)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    (tmp_path / "traces").mkdir()
    folders = Folders.of([str(TRACES), str(tmp_path / "traces")], [str(ROOT / "scenarios")])
    with TestClient(create_app(folders), base_url=LOCAL) as test_client:  # raises on any 500
        yield test_client


SEED = 3  # two players: the greedy bot of seat 2 acts first (turn order [2, 1]) and builds


def new(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"players": 2, "seed": SEED, "seats": ["human", "greedy"], **body})
    assert response.status_code == 201, response.text
    return dict(response.json())


def decide_first(client: TestClient, view: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/api/games/{view['id']}/decide", json={"decision": view["decisions"][0]["decision"]})
    assert response.status_code == 200, response.text
    return dict(response.json())


def saved(client: TestClient, key: str) -> str:
    response = client.get(f"/api/games/{key}/save")
    assert response.status_code == 200
    assert response.headers["content-disposition"].startswith('attachment; filename="brass-birmingham-seed')
    return response.text


def refused(response: Any, status: int, words: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert words in body["error"], body["error"]
    return dict(body)


# == playing =======================================================================================

def test_a_new_game_lists_the_engines_decisions_after_the_bots_first_moves(client: TestClient) -> None:
    view = new(client)
    # the same game played directly: the greedy bot of seat 2 acts first (turn order [2, 1])
    game = Game.new(load_ruleset("birmingham"), 2, SEED)
    bot = make_bot("greedy", bot_seed(SEED, 2))
    while game.deciding_seat == 2:
        game.apply(decide(bot, game))
    assert view["moves"] == len(game.moves) == 5  # a Build: action, card, industry, location, slot
    assert [row["decision"] for row in view["decisions"]] == game.legal_actions()
    assert view["prompt"] == "player 1: choose an action"
    assert view["human_to_decide"] is True and view["viewer"] == 1 and view["deciding"] == 1
    assert [card["id"] for card in view["hand"]] == [c.id for c in game.table.player(1).hand]
    assert view["players"][0] == {"seat": 1, "colour": "#d55e00", "who": "human", "money": 17, "income_position": 10,
                                  "income_level": 0, "vp": 0, "links_left": 14, "hand": 8, "spent": 0, "tiles": 0,
                                  "to_act": True}
    coal = next(row for row in view["mat"] if row["industry"] == "coal")
    assert (coal["left"], coal["level"], coal["cost"], coal["vp"], coal["income"]) == (7, 1, 5, 1, 4)
    assert view["board"].startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert 'id="slot-dudley-0" class="slot" data-slot="dudley/0"' in view["board"]


def test_an_illegal_decision_is_refused_with_its_rule_and_changes_nothing(client: TestClient) -> None:
    view = decide_first(client, new(client))  # Build: now a card is chosen
    before = saved(client, view["id"])
    body = refused(client.post(f"/api/games/{view['id']}/decide", json={"decision": {"card": "nope"}}), 422,
                   "'nope' is not a possible card here")
    assert [f["rule"] for f in body["failures"]] == ["R-TURN-04"]
    assert body["failures"][0]["rule_text"].startswith("Each action discards 1 card face up")
    assert body["failures"][0]["where"] == "rulesets/birmingham/actions.yaml:11:3"
    assert saved(client, view["id"]) == before


def test_backing_out_restores_the_game_exactly_as_before_the_action(client: TestClient) -> None:
    view = new(client)
    before, board = saved(client, view["id"]), view["board"]
    refused(client.post(f"/api/games/{view['id']}/back-out"), 409, "nothing to back out of")
    for _ in range(3):  # Build, a card, an industry
        view = decide_first(client, view)
        assert view["can_back_out"] is True
        assert view["board"] == board  # nothing on the board changes before the action is taken
    assert view["prompt"] == "Build: location"
    response = client.post(f"/api/games/{view['id']}/back-out")
    assert response.status_code == 200
    assert response.json()["can_back_out"] is False
    assert response.json()["prompt"] == "player 1: choose an action"
    assert saved(client, view["id"]) == before
    view = response.json()
    for _ in range(5):  # Build, card, industry, location, slot: then the bot plays, and the board shows it
        view = decide_first(client, view)
    assert view["board"] != board and view["board"].count('class="tile"') == 2


def test_actions_that_cannot_be_taken_show_every_reason(client: TestClient) -> None:
    response = client.post("/api/games/scenario", json={"path": str(SCENARIO)})
    assert response.status_code == 201, response.text
    view = response.json()
    blocked = {row["action"]: [(f["rule"], f["message"]) for f in row["failures"]] for row in view["blocked"]}
    assert blocked["loan"] == [("R-LOAN-02", "A loan may not take your income below level -10.")]
    assert blocked["sell"] == [("R-SELL-01", "Sell needs at least 1 of sales, and none is possible now")]
    assert {"action": "loan"} not in [row["decision"] for row in view["decisions"]]
    assert (view["players"][0]["money"], view["players"][0]["income_level"]) == (17, -10)
    assert [card["name"] for card in view["hand"]] == ["Birmingham", "Dudley"]
    card = view["hand"][0]["id"]  # Birmingham
    explained = client.post(f"/api/games/{view['id']}/explain",
                            json={"action": {"action": "loan", "card": card}}).json()
    assert explained["legal"] is False
    assert [f["rule"] for f in explained["failures"]] == ["R-LOAN-02"]


def test_a_bots_only_game_advances_as_asked_and_ends_as_played_directly(client: TestClient) -> None:
    view = new(client, seats=["random", "greedy"], seed=7)
    assert view["moves"] == 0 and view["human_to_decide"] is False
    refused(client.post(f"/api/games/{view['id']}/decide", json={"decision": {"action": "loan"}}), 409,
            "is a bot")
    while not view["over"]:
        view = client.post(f"/api/games/{view['id']}/advance", json={"actions": 25}).json()
    game = Game.new(load_ruleset("birmingham"), 2, 7)
    bots = {1: make_bot("random", bot_seed(7, 1)), 2: make_bot("greedy", bot_seed(7, 2))}
    while not game.is_over:
        game.apply(decide(bots[game.deciding_seat], game))
    assert view["standings"] == game.standings()
    assert view["moves"] == len(game.moves)
    assert view["prompt"] == "the game is over"


def test_a_saved_game_loads_and_replays(client: TestClient) -> None:
    view = new(client)
    for _ in range(12):
        view = decide_first(client, view)
    while not view["prompt"].endswith("choose an action"):  # saved between actions: its last step is the game
        view = decide_first(client, view)
    text = saved(client, view["id"])
    loaded = client.post("/api/games/load", json={"save": text})
    assert loaded.status_code == 201
    assert loaded.json()["decisions"] == view["decisions"] and loaded.json()["moves"] == view["moves"]
    replay = client.post("/api/replays/save", json={"save": text}).json()
    game = Game.from_json(load_ruleset("birmingham"), text)
    last = client.get(f"/api/replays/{replay['id']}/steps/{replay['steps'] - 1}").json()
    assert last["players"] == [{**p, "who": ""} for p in view["players"]]
    assert last["label"].startswith("P")
    assert replay["label"] == "the start" and replay["step"] == 0
    actions = sum(1 for entry in game.log if entry.get("event") == "action")
    assert replay["steps"] == 1 + actions + (1 if game.pending is not None else 0) or replay["note"]


# == replaying a real game ==========================================================================

@pytest.mark.skipif(not TRACE.is_file(), reason=f"the real games are not beside the repository ({TRACE})")
def test_a_trace_replays_step_by_step_to_its_recorded_scores(client: TestClient) -> None:
    first = client.post("/api/replays/trace", json={"path": str(TRACE)})
    assert first.status_code == 201
    replay = first.json()
    assert (replay["steps"], replay["name"], replay["expected_vp"]) == (79, "wq9gs6-2p-full", None)
    step1 = client.get(f"/api/replays/{replay['id']}/steps/1").json()
    # in the terminal game's words (wording/names.py), never the engine's ids
    assert step1["label"] == "seq 0, P2: Develop, card Cannock, industry Coal Mine, industry Iron Works"
    iron = "consumed: Iron, amount 1, sources from iron market, amount 1, cost 2"
    assert step1["log"] == [iron, "P2 developed: Coal Mine", iron, "P2 developed: Iron Works", "P2: Develop",
                            "P2 end of turn: drew 1"]
    last = client.get(f"/api/replays/{replay['id']}/steps/78").json()
    assert [s["vp"] for s in sorted(last["standings"], key=lambda s: s["seat"])] == [215, 180]
    assert last["expected_vp"] == [215, 180] and last["note"] == "" and last["over"] is True
    refused(client.get(f"/api/replays/{replay['id']}/steps/79"), 404, "has steps 0 to 78, not 79")


# == malformed requests: 4xx with a JSON error, never a crash ===========================================

@pytest.mark.parametrize(("body", "words"), [
    (b"{", "the request body is not JSON"),
    (b"[1, 2]", "must be a JSON object, not list"),
    (b'{"players": NaN}', "not a number JSON allows"),
    (b"[" * 100 + b"]" * 100, "nests lists or mappings more than 64 levels deep"),
    (b"\xff\xfe", "not UTF-8"),
    (b'{"players": 7}', "is played by 2, 3, 4 players, not 7"),
    (b'{"players": true}', "'players' must be a whole number"),
    (b'{"seed": -1}', "'seed' must be a whole number from 0"),
    (b'{"ruleset": "/etc"}', "unknown ruleset '/etc'"),
    (b'{"seats": ["human", "wizard"]}', "'seats' must list one of human, random, greedy"),
    (b'{"seats": ["human"]}', "for each of the 2 players"),
])
def test_a_malformed_new_game_is_refused(client: TestClient, body: bytes, words: str) -> None:
    refused(client.post("/api/games", content=body, headers=JSON), 400, words)


def test_oversized_bodies_are_refused_declared_or_streamed(client: TestClient) -> None:
    refused(client.post("/api/games", content=b" " * (MAX_BODY_BYTES + 1), headers=JSON), 413,
            "at most 4000000 are read")

    def chunks() -> Iterator[bytes]:  # no Content-Length: the server counts as it reads
        for _ in range(5):
            yield b" " * 1_000_000

    refused(client.post("/api/games", content=chunks(), headers=JSON), 413, "over 4000000 bytes")


def test_unknown_ids_routes_and_methods(client: TestClient) -> None:
    refused(client.get("/api/games/abc"), 404, "no game with id 'abc'")
    refused(client.post("/api/games/abc/decide", json={"decision": {"action": "loan"}}), 404, "no game")
    refused(client.get("/api/replays/abc/steps/0"), 404, "no replay with id 'abc'")
    refused(client.get("/api/replays/abc/steps/x"), 404, "no such page or API")
    refused(client.get("/api/nothing"), 404, "no such page or API: /api/nothing")
    refused(client.delete("/api/games"), 405, "DELETE is not allowed on /api/games")


def test_malformed_decisions(client: TestClient) -> None:
    key = new(client)["id"]
    refused(client.post(f"/api/games/{key}/decide", json={"decision": "loan"}), 400, "'decision' must be")
    refused(client.post(f"/api/games/{key}/decide", json={"decision": {"action": "fly"}}), 422,
            "choose an action first")
    deep: Any = {"action": "loan"}
    for _ in range(10):
        deep = {"x": deep}
    refused(client.post(f"/api/games/{key}/decide", json={"decision": deep}), 400, "more than 8 levels deep")
    refused(client.post(f"/api/games/{key}/advance", json={"actions": 0}), 400, "'actions' must be")
    refused(client.post(f"/api/games/{key}/explain", json={"action": 3}), 400, "'action' must be a whole action")


def test_files_outside_the_allowed_folders_are_refused(client: TestClient, tmp_path: Path) -> None:
    refused(client.post("/api/replays/trace", json={"path": "/etc/hostname"}), 403, "not below a folder")
    escape = str(tmp_path / "traces" / ".." / ".." / "x.trace.json")
    refused(client.post("/api/replays/trace", json={"path": escape}), 403, "not below a folder")
    (tmp_path / "traces" / "out.trace.json").symlink_to("/etc/hostname")
    refused(client.post("/api/replays/trace", json={"path": str(tmp_path / "traces" / "out.trace.json")}), 403,
            "not below a folder")
    refused(client.post("/api/replays/trace", json={"path": str(tmp_path / "traces" / "no.trace.json")}), 404,
            "no trace file")
    (tmp_path / "traces" / "bad.trace.json").write_text('{"format": "other"}', encoding="utf-8")
    refused(client.post("/api/replays/trace", json={"path": str(tmp_path / "traces" / "bad.trace.json")}), 422,
            "is not a trace")
    refused(client.post("/api/replays/trace", json={"path": 5}), 400, "'trace' must be the path")
    refused(client.post("/api/games/scenario", json={"path": "/etc/hostname"}), 403, "not below a folder")


def test_bad_uploads_are_refused_with_what_is_wrong(client: TestClient) -> None:
    refused(client.post("/api/games/load", json={"save": "not json"}), 422, "not JSON")
    refused(client.post("/api/games/load", json={"save": '{"format": "x"}'}), 422, "is not a saved game")
    refused(client.post("/api/replays/save", json={"save": '{"format": "brass-game/1", "ruleset": "nope"}'}), 400,
            "unknown ruleset 'nope'")
    body = refused(client.post("/api/games/scenario", json={"text": "players: [\n", "name": "x.yaml"}), 422, "x.yaml")
    assert ":1:" in body["error"] or ":2:" in body["error"]
    for name, shown in (("..", "uploaded.yaml"), ("", "uploaded.yaml"), ("a\0b/../c d.yaml", "c_d.yaml")):
        refused(client.post("/api/games/scenario", json={"text": "players: 7\n", "name": name}), 422, shown)


def test_the_oldest_sessions_are_forgotten_beyond_the_limit() -> None:
    store: SessionStore[str] = SessionStore(2)
    first, second, third = store.add("a"), store.add("b"), store.add("c")
    assert len(store) == 2 and store.get(third, "game") == "c" and store.get(second, "game") == "b"
    with pytest.raises(WebError) as error:
        store.get(first, "game")
    assert error.value.status == 404


# == the command ======================================================================================

def test_serve_without_the_web_extra_names_it(run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if uvicorn were not installed
    status, out, err = run("serve", "--port", "8999")
    assert (status, out) == (1, "")
    assert "brass serve needs the web extra" in err and "pip install 'brass-rules[web]'" in err


def test_serve_refuses_a_port_out_of_range(run: Any) -> None:
    assert run("serve", "--port", "70000") == (1, "", "error: --port must be from 1 to 65535, not 70000\n")


def test_options_list_rulesets_seats_and_files(client: TestClient) -> None:
    options = client.get("/api/options").json()
    birmingham = next(r for r in options["rulesets"] if r["name"] == "birmingham")
    assert birmingham == {"name": "birmingham", "title": "Brass: Birmingham", "players": [2, 3, 4]}
    assert options["seat_kinds"] == ["human", "random", "greedy", "heuristic", "search"]
    assert str(SCENARIO) in options["files"]["scenarios"]
    if TRACE.is_file():
        assert str(TRACE) in options["files"]["traces"]
    assert json.loads(json.dumps(options)) == options


def test_serve_on_a_port_in_use_says_so(run: Any, tmp_path: Path) -> None:
    import socket

    db = tmp_path / "rooms.sqlite3"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, out, err = run("serve", "--port", str(port), "--traces", "--scenarios", "--db", str(db))
    assert status == 1
    assert out == (f"brass serve: http://127.0.0.1:{port}/ (Ctrl-C stops); traces from nowhere; scenarios from "
                   f"nowhere; rooms kept in {db.resolve()}\n")
    assert err.endswith(f"error: the server could not start on 127.0.0.1:{port} (is the port in use?)\n")


def test_a_shortfall_question_at_the_rounds_end_lists_its_tiles_on_the_board(client: TestClient) -> None:
    view = new(client, seed=9, seats=["human", "human"])  # two people: the first decision each time
    while "unpaid income" not in view["prompt"]:
        view = decide_first(client, view)
    assert view["moves"] == 42
    assert view["prompt"] == "player 1: Remove a tile to raise £2 of unpaid income"
    answers = [row for row in view["decisions"] if "answer" in row["decision"]]
    assert answers and all(row["board"]["attribute"] == "slot" for row in answers)
    assert answers[0]["board"]["value"] == answers[0]["decision"]["answer"]
    assert view["board"].startswith("<svg")


def test_a_lancashire_game_saved_and_replayed_through_the_api(client: TestClient) -> None:
    """Greedy bots play 36 actions on the server (to the Canal Era's last round: seed 2 has sold to
    the Distant Market by then); the save replays step by step, and the last step's tracks and
    stack are those of the saved game, the pile's 8 tiles split between face down and drawn."""
    started = client.post("/api/games", json={"ruleset": "lancashire", "players": 2, "seed": 2,
                                              "seats": ["greedy", "greedy"]})
    assert started.status_code == 201, started.text
    key = started.json()["id"]
    assert client.post(f"/api/games/{key}/advance", json={"actions": 36}).status_code == 200
    text = client.get(f"/api/games/{key}/save").text
    replay = client.post("/api/replays/save", json={"save": text}).json()
    game = Game.from_json(load_ruleset("lancashire"), text)
    last = client.get(f"/api/replays/{replay['id']}/steps/{replay['steps'] - 1}").json()
    assert replay["steps"] == 37 and (replay["tracks"], replay["stacks"][0]["drawn"]) == (
        [{"id": "distant_market", "name": "Distant Market demand", "value": 1, "min": 1, "max": 9},
         {"id": "dm_tile", "name": "Last Distant Market tile drawn", "value": 0, "min": 0, "max": 4},
         {"id": "sell_failed", "name": "This Sell failed", "value": 0, "min": 0, "max": 1}], [])
    counters = web_view.counters_json(game)
    assert (last["tracks"], last["stacks"]) == (counters["tracks"], counters["stacks"])
    (stack,) = last["stacks"]
    assert stack["drawn"] and stack["face_down"] + len(stack["drawn"]) == 8
    assert last["tracks"][0]["value"] == 1 + sum(stack["drawn"])  # the marker moved down by each tile drawn
