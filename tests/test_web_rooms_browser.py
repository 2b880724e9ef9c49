"""Rooms of `brass serve` in real browsers (issue 25, item 5): two Chromium instances (two
profiles, as two people's machines) each open their own link of one 2-player room and play their
turns by clicks; each shows its own hand and never the other's; a reload gives the seat back; the
server, stopped and started again on the same SQLite file, resumes the room under the pages' eyes.
A hotseat link hides the hand until the person at the screen says who they are.

A whole game through the page is in test_web_browser.py (against a bot) and a whole room through
the API in test_web_rooms.py; here a few turns per browser. Skipped, saying why, without Chromium,
chromedriver or the `[web]` extra.
"""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

uvicorn = pytest.importorskip("uvicorn", reason="the [web] extra is not installed (pip install '.[web]')")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")

from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from test_web_browser import CHROMEDRIVER, CHROMIUM, MISSING, free_port, page_error, settled  # noqa: E402
from test_web_rooms import Server as RoomServer  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None, reason=MISSING)]


class Server(RoomServer):
    """The rooms' test server on one loopback port for good: `restart()` serves a new app on the same
    port and file, as a restarted `brass serve` would, so the browsers' links still reach it."""

    def __init__(self, db: Path) -> None:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        super().__init__(db, port=port)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        request = urllib.request.Request(self.url + path, method=method,
                                         data=None if body is None else json.dumps(body).encode())
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read().decode())


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "rooms.sqlite3")
    yield running
    running.stop()


def chromium() -> Any:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)  # a profile of its own


@pytest.fixture
def two_browsers() -> Iterator[tuple[Any, Any]]:
    first, second = chromium(), chromium()
    yield first, second
    first.quit()
    second.quit()


def open_link(driver: Any, url: str) -> None:
    driver.get(url)
    WebDriverWait(driver, 30).until(lambda d: d.execute_script("return !!(current && current.room)"))
    settled(driver)
    assert page_error(driver) == ""


def hand_shown(driver: Any) -> list[str]:
    return [li.get_attribute("data-card") for li in driver.find_elements(By.CSS_SELECTOR, "#hand li")]


def hands(server: Server, room: dict[str, Any]) -> dict[int, list[str]]:
    save = json.loads(urllib.request.urlopen(urllib.request.Request(
        f"{server.url}/api/rooms/{room['room']}/save",
        headers={"Authorization": f"Bearer {room['host']['token']}"}), timeout=60).read().decode())
    return {p["seat"]: [card if isinstance(card, str) else card["id"] for card in p["hand"]]
            for p in save["state"]["players"]}


def sees_only_its_own_hand(driver: Any, seat: int, held: dict[int, list[str]]) -> None:
    assert sorted(hand_shown(driver)) == sorted(held[seat])
    page = driver.page_source
    for other, cards in held.items():
        if other != seat:
            assert not [card for card in cards if f'"{card}"' in page or f">{card}<" in page]


def play_my_turn(driver: Any) -> int:
    """Click the first listed decision until this page has nothing to decide; the clicks made."""
    clicks = 0
    while driver.find_elements(By.CSS_SELECTOR, "#decisions button.decision"):
        driver.find_elements(By.CSS_SELECTOR, "#decisions button.decision")[0].click()
        settled(driver)
        assert page_error(driver) == ""
        clicks += 1
    return clicks


def wait_for_my_turn(driver: Any) -> None:
    """The page asks the room every second: the buttons come when the other person's turn is over."""
    WebDriverWait(driver, 30, poll_frequency=0.1).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#decisions button.decision"))
    settled(driver)


def test_two_browsers_play_one_room_each_by_its_own_link(server: Server, two_browsers: tuple[Any, Any]) -> None:
    first, second = two_browsers
    room = server.call("POST", "/api/rooms", {"players": 2, "seed": 5, "seats": ["human", "human"]})
    links = {link["seats"][0]: link["url"] for link in room["links"]}
    open_link(first, links[1])
    open_link(second, links[2])
    assert first.find_element(By.ID, "room-who").text.startswith(f"Room {room['room']}: you are player 1")
    assert second.find_element(By.ID, "room-who").text.startswith(f"Room {room['room']}: you are player 2")
    held = hands(server, room)
    sees_only_its_own_hand(first, 1, held)
    sees_only_its_own_hand(second, 2, held)
    assert not second.find_elements(By.CSS_SELECTOR, "#decisions button.decision")  # not its turn
    assert second.find_element(By.ID, "prompt").text == "player 1 (a person) is deciding"

    assert play_my_turn(first) > 0  # player 1's first turn: one action
    wait_for_my_turn(second)  # seen by the other browser without a click
    sees_only_its_own_hand(second, 2, hands(server, room))
    second.refresh()  # a reconnect: the link's token gives the seat back, the state comes from the server
    WebDriverWait(second, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#decisions button.decision"))
    settled(second)
    sees_only_its_own_hand(second, 2, hands(server, room))
    play_my_turn(second)

    moves = first.execute_script("return current.moves")
    server.restart()  # the same file, the same port: the pages go on asking
    wait_for_my_turn(first)
    assert first.execute_script("return current.moves") >= moves
    held = hands(server, room)
    sees_only_its_own_hand(first, 1, held)
    play_my_turn(first)
    wait_for_my_turn(second)
    after = server.call("GET", f"/api/rooms/{room['room']}", token=room["host"]["token"])
    assert after["moves"] == second.execute_script("return current.moves") > moves
    sees_only_its_own_hand(second, 2, hands(server, room))


# Inside a page: click the first listed decision whenever this page has one and no request is in
# flight, until the final scores show (or an error, or 400 clicks); the other browser's turns come
# by the page's asking every second. The number of clicks is passed back.
CLICK_MY_DECISIONS_UNTIL_THE_END = """
const done = arguments[arguments.length - 1];
let clicks = 0;
function next() {
  if (!document.getElementById("error").hidden || clicks >= 400) return done(clicks);
  if (document.body.dataset.busy !== "0") return setTimeout(next, 10);
  if (current && current.over) return done(clicks);
  const button = document.querySelector("#decisions button.decision");
  if (button) { button.click(); clicks += 1; }
  setTimeout(next, button ? 0 : 50);
}
next();
"""


def test_two_browsers_play_a_room_to_the_final_scores(server: Server, two_browsers: tuple[Any, Any]) -> None:
    """Each browser clicks the first decision of its own turns only (the clicks dispatched inside the
    page, one round trip for the whole game); both show the final scores of the same game played in
    the engine, the first legal decision each time."""
    from test_web_rooms import engine_first_legal

    room = server.call("POST", "/api/rooms", {"players": 2, "seed": 5, "seats": ["human", "human"]})
    clicks: dict[int, int] = {}

    def play(seat: int, driver: Any) -> None:
        open_link(driver, next(link["url"] for link in room["links"] if link["seats"] == [seat]))
        driver.set_script_timeout(600)
        clicks[seat] = driver.execute_async_script(CLICK_MY_DECISIONS_UNTIL_THE_END)

    players = [threading.Thread(target=play, args=(seat, driver)) for seat, driver in enumerate(two_browsers, 1)]
    for player in players:
        player.start()
    for player in players:
        player.join(700)
    played = engine_first_legal(5)
    assert sum(clicks.values()) == len(played.moves) and min(clicks.values()) > 50
    for driver in two_browsers:
        settled(driver)
        assert page_error(driver) == ""
        assert driver.find_element(By.ID, "over").is_displayed()
        rows = driver.find_elements(By.CSS_SELECTOR, "#standings tr[data-seat]")
        shown = {int(r.get_attribute("data-seat")): int(r.find_element(By.CSS_SELECTOR, ".vp").text) for r in rows}
        assert shown == {s["seat"]: s["vp"] for s in played.standings()}


def test_a_hotseat_screen_hides_the_hand_until_the_seat_says_who_it_is(server: Server,
                                                                       two_browsers: tuple[Any, Any]) -> None:
    screen = two_browsers[0]
    room = server.call("POST", "/api/rooms", {"players": 2, "seed": 3, "seats": ["human", "human"], "hotseat": True})
    open_link(screen, room["links"][0]["url"])
    first = screen.execute_script("return current.deciding")
    confirm = screen.find_element(By.ID, "room-confirm")
    assert confirm.is_displayed() and confirm.text == f"I am seat {first}"
    assert hand_shown(screen) == [] and not screen.find_element(By.ID, "person").is_displayed()
    confirm.click()
    settled(screen)
    assert sorted(hand_shown(screen)) == sorted(hands(server, room)[first])
    play_my_turn(screen)  # the first player's turn: then the screen is passed on, the hand hidden again
    assert screen.find_element(By.ID, "room-confirm").text == f"I am seat {3 - first}"
    assert hand_shown(screen) == [] and not screen.find_element(By.ID, "person").is_displayed()
    screen.find_element(By.ID, "room-confirm").click()
    settled(screen)
    assert sorted(hand_shown(screen)) == sorted(hands(server, room)[3 - first])


def test_the_room_tab_creates_a_room_and_lists_a_link_per_seat(server: Server, two_browsers: tuple[Any, Any]) -> None:
    page = two_browsers[0]
    page.get(server.url + "/")
    WebDriverWait(page, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#ruleset option"))
    page.find_element(By.ID, "tab-room").click()
    WebDriverWait(page, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#room-ruleset option"))
    page.execute_script("document.getElementById('room-seat-2').value = 'greedy'")
    page.find_element(By.ID, "create-room").click()
    settled(page)
    assert page_error(page) == ""
    rows = page.find_elements(By.CSS_SELECTOR, "#room-links li")
    assert [row.get_attribute("data-seats") for row in rows] == ["1", "", ""]  # seat 1, spectators, host
    rows[0].find_element(By.TAG_NAME, "a").click()  # "open here": the page becomes seat 1's
    WebDriverWait(page, 30).until(lambda d: d.execute_script("return !!(current && current.room)"))
    settled(page)
    assert page.find_element(By.ID, "room-who").text.startswith("Room ")
    assert page.find_elements(By.CSS_SELECTOR, "#decisions button.decision") or \
        page.execute_script("return current.deciding") == 2
