"""Issue 25 item 3, "A table people read", through the API (Starlette's TestClient, no browser):
the log and refusals in the terminal game's words, the last action, taking back an action of one's
own turn until something hidden is shown (in a game and in a room, whose stored moves shrink), the
eras' score breakdowns adding up to the VP, the cards played this era and the cards not seen, and
the bot seat that is thinking. The page's side is tests/test_web_table_browser.py."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the [web] extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx2", reason="httpx2 (starlette's TestClient) is not installed (pip install '.[test]')")

from starlette.testclient import TestClient

from interpreter import Game, load_ruleset
from interpreter.tools.web.api import create_app
from interpreter.tools.web.sources import Folders
from interpreter.tools.web.store import SCHEMA, RoomStore

TRACES = (Path(__file__).resolve().parents[2] / "shared" / "real-games").resolve()
TRACE = TRACES / "traces" / "wq9gs6-2p-full.trace.json"
LOCAL = "http://127.0.0.1:8765"
PEOPLE = {"players": 2, "seed": 9, "seats": ["human", "human"]}  # player 2 plays first: a Brewery at Walsall
RAW = ("link=", "slot=", "industry=", "player=", '":', "#")  # how the engine's log read before: ids as key=value


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    folders = Folders.of([str(TRACES)], [])
    with TestClient(create_app(folders, db=tmp_path / "rooms.sqlite3"), base_url=LOCAL) as test_client:
        yield test_client


def play(client: TestClient, path: str, decision: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    response = client.post(f"{path}/decide", json={"decision": decision}, headers=headers or {})
    assert response.status_code == 200, response.text
    return response.json()


def first_action_of_a_second(client: TestClient, path: str, view: dict[str, Any],
                             headers: dict[str, str] | None = None) -> tuple[dict[str, Any], str, int]:
    """Play the first listed decisions until a seat has taken one action of a turn of two and is
    to take the second: that view, the save just before that first action, and the seat."""
    save_before, seat = "", 0
    for _ in range(200):
        if view["can_take_back"]:
            return view, save_before, seat
        if view["prompt"].endswith("choose an action"):
            save_before, seat = saved(client, path, headers), view["deciding"]
        view = play(client, path, view["decisions"][0]["decision"], headers)
    raise AssertionError("no second action of a turn in 200 decisions")


def saved(client: TestClient, path: str, headers: dict[str, str] | None = None) -> str:
    response = client.get(f"{path}/save", headers=headers or {})
    assert response.status_code == 200, response.text
    return response.text


# == words ========================================================================================

def test_the_log_reads_as_the_terminal_game_words_it(client: TestClient) -> None:
    view = client.post("/api/games", json=PEOPLE).json()  # seed 9: player 2 plays first
    path = f"/api/games/{view['id']}"
    labels = []
    for _ in range(5):  # Build: action, card, industry, location, slot
        labels.append(view["decisions"][0]["label"])
        view = play(client, path, view["decisions"][0]["decision"])
    assert labels == ["Build", "Walsall", "Brewery I: £5, 1 iron; 4 VP, income +4", "Walsall",
                      "Walsall 1 (Manufacturer/Brewery), free"]
    lines = view["log"]
    assert not [line for line in lines if any(raw in line for raw in RAW)]
    assert lines[0] == ("setup: players 2, seed 9, turn order P2 P1, merchants Shrewsbury 0 wild, Gloucester 0 "
                        "cotton, Gloucester 1 blank, Oxford 0 manufacturer, Oxford 1 blank")
    assert lines[1:] == ["consumed: Iron, amount 1, sources from iron market, amount 1, cost 2",
                         "P2 built: Brewery, level 1, Walsall 1, cubes 1", "P2: Build", "P2 end of turn: drew 1"]


def test_a_refused_move_is_named_in_words(client: TestClient) -> None:
    view = client.post("/api/games", json=PEOPLE).json()
    path = f"/api/games/{view['id']}"
    view = play(client, path, {"action": "build"})
    held = {card["id"] for card in view["hand"]}
    other = next(card for card in Game.new(load_ruleset("birmingham"), 2, 9).table.player(1).hand
                 if card.id not in held)  # a card of the other hand
    response = client.post(f"{path}/decide", json={"decision": {"card": other.id}})
    assert response.status_code == 422
    assert response.json()["move"] == other.name  # the card's face, as `brass play` names it
    assert "#" not in response.json()["move"]


@pytest.mark.skipif(not TRACE.is_file(), reason=f"the real games are not beside the repository ({TRACE})")
def test_a_real_games_replay_labels_and_logs_in_words_and_its_score_breakdown(client: TestClient) -> None:
    replay = client.post("/api/replays/trace", json={"path": str(TRACE)}).json()
    steps = [client.get(f"/api/replays/{replay['id']}/steps/{n}").json() for n in range(replay["steps"])]
    for step in steps:
        assert not [text for text in [step["label"], *step["log"]] if "=" in text], step["step"]
    last = steps[-1]
    scores = last["scores"]
    canal, rail = scores["eras"]
    # the trace's recorded 215 / 180, explained: each era's links and tiles, and 4 VP of a merchant's
    # beer bonus (Shrewsbury's, taken by player 1) that no era scored
    assert canal == {"era": "Canal Era", "seats": [
        {"seat": 1, "links": 8, "tiles": {"Manufacturer": 5, "Coal Mine": 2, "Cotton Mill": 9, "Iron Works": 12,
                                          "Brewery": 5}, "total": 41},
        {"seat": 2, "links": 21, "tiles": {"Brewery": 5, "Iron Works": 12, "Manufacturer": 8, "Coal Mine": 2},
         "total": 48}]}
    assert [(row["links"], row["total"]) for row in rail["seats"]] == [(48, 170), (51, 132)]
    assert scores["players"] == [{"seat": 1, "vp": 215, "money": 1, "other": 4},
                                 {"seat": 2, "vp": 180, "money": 7, "other": 0}]
    for player in scores["players"]:
        eras = sum(next(r["total"] for r in era["seats"] if r["seat"] == player["seat"]) for era in scores["eras"])
        assert eras + player["other"] == player["vp"] == next(p["vp"] for p in last["players"]
                                                              if p["seat"] == player["seat"])
    for era in scores["eras"]:
        for row in era["seats"]:
            assert row["links"] + sum(row["tiles"].values()) == row["total"]


# == the last action, cards ==========================================================================

def test_the_last_action_names_what_it_placed(client: TestClient) -> None:
    view = client.post("/api/games", json=PEOPLE).json()
    path = f"/api/games/{view['id']}"
    assert view["last_action"] is None
    for _ in range(5):  # Build: action, card, industry, location, slot
        view = play(client, path, view["decisions"][0]["decision"])
    assert view["last_action"] == {"seat": 2, "text": "P2: Build", "slots": ["walsall/1"], "links": []}
    assert 'id="tile-walsall-1"' in view["board"]


def test_cards_played_this_era_and_the_cards_not_seen(client: TestClient) -> None:
    view = client.post("/api/games", json=PEOPLE).json()
    path = f"/api/games/{view['id']}"
    for _ in range(5):
        view = play(client, path, view["decisions"][0]["decision"])
    game = Game.from_json(load_ruleset("birmingham"), saved(client, path))
    # each seat's card of the setup (face up), and player 2's Build
    assert view["played"] == [{"seat": 1, "cards": ["Kidderminster"]},
                              {"seat": 2, "cards": ["Coal Mine", "Walsall"]}]
    # the viewer (player 1 decides now) has not seen the deck, the cards set aside and player 2's hand
    assert view["viewer"] == 1
    unseen = Counter(c.name for c in [*game.state.deck, *game.state.aside, *game.table.player(2).hand])
    assert {row["name"]: row["count"] for row in view["unseen"]} == dict(unseen)
    assert sum(row["count"] for row in view["unseen"]) == len(game.state.deck) + len(game.state.aside) + 8


# == taking back ===================================================================================

def test_an_action_of_ones_own_turn_is_taken_back_and_the_table_told(client: TestClient) -> None:
    view = client.post("/api/games", json=PEOPLE).json()
    path = f"/api/games/{view['id']}"
    view, before, seat = first_action_of_a_second(client, path, view)
    moves = view["moves"]
    response = client.post(f"{path}/take-back")
    assert response.status_code == 200, response.text
    back = response.json()
    assert saved(client, path) == before  # the very game of before the action, byte for byte
    assert back["moves"] < moves and back["deciding"] == seat and back["can_take_back"] is False
    assert back["log"][-1] == f"P{seat} took back their Build"
    assert back["last_action"]["seat"] != seat or back["last_action"]["text"] != view["last_action"]["text"]


def test_taking_back_is_refused_once_a_card_was_drawn(client: TestClient) -> None:
    view = client.post("/api/games", json=PEOPLE).json()
    path = f"/api/games/{view['id']}"
    refused = client.post(f"{path}/take-back")
    assert (refused.status_code, refused.json()["error"]) == (
        409, "no action has been taken yet: there is nothing to take back")
    for _ in range(5):  # player 2's one action of round 1 ends its turn: it draws a card
        view = play(client, path, view["decisions"][0]["decision"])
    assert view["deciding"] == 1 and view["can_take_back"] is False
    before = saved(client, path)
    refused = client.post(f"{path}/take-back")
    assert refused.status_code == 409
    assert refused.json()["error"] == ("that action showed something no one knew (a card drawn from the deck, "
                                       "a face-down tile drawn, a shuffle): it can no longer be taken back")
    assert saved(client, path) == before
    view = play(client, path, {"action": "build"})  # half made: back out instead
    refused = client.post(f"{path}/take-back")
    assert refused.json()["error"] == "an action is half made: back out of it first, or finish it"


def test_a_room_takes_back_and_its_stored_moves_shrink(client: TestClient, tmp_path: Path) -> None:
    room = client.post("/api/rooms", json=PEOPLE)
    assert room.status_code == 201, room.text
    made = room.json()
    tokens = {link["seats"][0]: {"Authorization": f"Bearer {link['token']}"} for link in made["links"]}
    host = {"Authorization": f"Bearer {made['host']['token']}"}
    path = f"/api/rooms/{made['room']}"
    view = client.get(path, headers=tokens[1]).json()
    for _ in range(200):
        headers = tokens[view["deciding"]]
        view = client.get(path, headers=headers).json()
        if view["can_take_back"]:
            break
        if view["prompt"].endswith("choose an action"):
            before = saved(client, path, host)
        view = play(client, path, view["decisions"][0]["decision"], headers)
    seat = view["deciding"]
    other = tokens[3 - seat]
    refused = client.post(f"{path}/take-back", headers=other)  # not the other seat's turn
    assert refused.status_code == 403
    moves = len(json.loads(stored_save(tmp_path, made["room"]))["moves"])
    response = client.post(f"{path}/take-back", headers=tokens[seat])
    assert response.status_code == 200, response.text
    stored = stored_save(tmp_path, made["room"])  # written before the answer: a restart resumes the shorter game
    assert len(json.loads(stored)["moves"]) < moves
    assert stored + "\n" == saved(client, path, host) == before
    seen = client.get(path, headers=other).json()  # the other person's screen reads it too
    assert seen["log"][-1] == f"P{seat} took back their Build"
    # a restarted server (a new app on the same file) still tells it
    with TestClient(create_app(Folders.of([], []), db=tmp_path / "rooms.sqlite3"), base_url=LOCAL) as restarted:
        again = restarted.get(path, headers=other).json()
    assert again["log"][-1] == f"P{seat} took back their Build" and again["moves"] == seen["moves"]


def test_a_rooms_file_of_before_the_notes_is_opened_and_given_them(tmp_path: Path) -> None:
    """A file written by the server of schema 1 (no `notes` column) opens, its rooms with no notes."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA.replace(",\n    notes TEXT NOT NULL DEFAULT '[]'", ""))
        db.execute("INSERT INTO rooms VALUES ('r', 0, 'c', 'birmingham', '[\"human\"]', 0, '{}', NULL, 3, 0, 0)")
        db.execute("PRAGMA user_version = 1")
    store = RoomStore(path)
    row = store.room("r")
    assert row is not None and (row.version, row.notes) == (3, "[]")
    store.update("r", "{}", None, 4, False, '[{"at": 1, "text": "P1 took back their Build"}]')
    row = store.room("r")
    assert row is not None and row.notes == '[{"at": 1, "text": "P1 took back their Build"}]'
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (2,)


def stored_save(folder: Path, room: str) -> str:
    """The room's save as its database holds it (read by a store of its own, as a restarted server would)."""
    row = RoomStore(folder / "rooms.sqlite3").room(room)
    assert row is not None
    return row.save


def test_the_bot_to_decide_is_thinking(client: TestClient) -> None:
    view = client.post("/api/games", json={"players": 2, "seed": 1, "seats": ["greedy", "greedy"]}).json()
    assert view["thinking"] == view["deciding"] and view["thinking"] in (1, 2)
    view = client.post("/api/games", json=PEOPLE).json()
    assert view["thinking"] is None
