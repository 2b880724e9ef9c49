"""`brass serve` in a real headless browser: Debian's Chromium driven by Selenium through the
system chromedriver (nothing downloads a browser). A real uvicorn server runs in a thread on a
free port of 127.0.0.1.

- a whole 2-player game played by clicks against a bot, to the final scores;
- a real game's trace replayed step by step with the slider, and each of the five real games to
  its last step, whose scores are the trace's;
- a click on the board refused with its rule, and backing out of a half-made action;
- with a server whose bots stop after each decision (the time limit of one request), the page
  asks them to go on until the person is to decide.

Skipped, saying why, when Chromium, chromedriver or the `[web]` extra is missing.
"""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

uvicorn = pytest.importorskip("uvicorn", reason="the [web] extra is not installed (pip install '.[web]')")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")

from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from interpreter.tools.web.api import create_app  # noqa: E402
from interpreter.tools.web.sources import Folders  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TRACES = (ROOT.parent / "shared" / "real-games").resolve()  # the server lists files by their real path
TRACE = TRACES / "traces" / "wq9gs6-2p-full.trace.json"
SCENARIO = ROOT / "scenarios" / "birmingham" / "loan_refused_at_minus_10.yaml"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")

MISSING = "Chromium or chromedriver is missing (apt-get install chromium chromium-driver)"
pytestmark = [pytest.mark.slow, pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None, reason=MISSING)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from running(create_app(Folders.of([str(TRACES)], [str(ROOT / "scenarios")])))


@pytest.fixture(scope="module")
def hurried_server() -> Iterator[str]:
    """No time for the bots at all: each request lets them take one decision (api.BOT_SECONDS)."""
    yield from running(create_app(Folders.of([], []), bot_seconds=0))


def running(app: Any) -> Iterator[str]:
    """The app served by uvicorn in a thread on a free port of 127.0.0.1, until the module's tests end."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    served = uvicorn.Server(config)
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not served.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    served.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def settled(driver: Any) -> None:
    """Wait until the page has no request in flight (app.js keeps body[data-busy] up to date)."""
    WebDriverWait(driver, 30, poll_frequency=0.02).until(
        lambda d: d.execute_script("return document.body.dataset.busy") == "0")


def page_error(driver: Any) -> str:
    return str(driver.execute_script("return document.getElementById('error').hidden ? '' : "
                                     "document.getElementById('error').textContent"))


def open_page(driver: Any, server: str) -> None:
    driver.get(server + "/")
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#ruleset option"))
    settled(driver)


def new_game(driver: Any, seed: int, opponent: str) -> None:
    driver.find_element(By.ID, "seed").clear()
    driver.find_element(By.ID, "seed").send_keys(str(seed))
    driver.execute_script(f"document.getElementById('seat-2').value = '{opponent}'")
    driver.find_element(By.ID, "new-game").click()
    settled(driver)
    assert page_error(driver) == ""


def test_a_whole_game_is_played_by_clicks_against_a_bot(browser: Any, server: str) -> None:
    """The person always clicks the first legal decision; the bot moves by itself; the game ends
    with the final scores on the page, the same as the server's game. The first clicks are
    Selenium's; the rest are clicks on the same buttons dispatched inside the page (one round trip
    for the whole game instead of several per click, which would take most of the CI budget)."""
    open_page(browser, server)
    new_game(browser, seed=5, opponent="random")
    for _ in range(5):
        browser.find_elements(By.CSS_SELECTOR, "#decisions button.decision")[0].click()
        settled(browser)
        assert page_error(browser) == ""
    browser.set_script_timeout(120)
    clicks = browser.execute_async_script(CLICK_THE_FIRST_DECISION_UNTIL_THE_END)
    assert page_error(browser) == ""
    assert browser.find_element(By.ID, "over").is_displayed(), f"the game did not end after {clicks} clicks"
    rows = browser.find_elements(By.CSS_SELECTOR, "#standings tr[data-seat]")
    shown = {int(r.get_attribute("data-seat")): int(r.find_element(By.CSS_SELECTOR, ".vp").text) for r in rows}
    game_id = browser.execute_script("return current.id")
    saved = json.loads(browser.execute_script(
        "const r = new XMLHttpRequest(); r.open('GET', arguments[0], false); r.send(); return r.responseText;",
        f"/api/games/{game_id}/save"))
    final = {p["seat"]: p["vp"] for p in saved["state"]["players"]}
    assert shown == final
    assert len(shown) == 2 and clicks > 50
    assert "the game is over" in browser.find_element(By.ID, "header").text


# Inside the page: click the first listed decision whenever no request is in flight, until the
# final scores show (or an error, or 400 clicks); the number of clicks is passed back.
CLICK_THE_FIRST_DECISION_UNTIL_THE_END = """
const done = arguments[arguments.length - 1];
let clicks = 0;
function next() {
  if (document.body.dataset.busy !== "0") return setTimeout(next, 5);
  const over = !document.getElementById("over").hidden, error = !document.getElementById("error").hidden;
  const button = document.querySelector("#decisions button.decision");
  if (over || error || !button || clicks >= 400) return done(clicks);
  button.click();
  clicks += 1;
  setTimeout(next, 0);
}
next();
"""


def replay_trace(driver: Any, server: str, trace: Path, links: int | None = None) -> tuple[Any, int]:
    """Open `trace` in the replay tab (with `links` per player if given); the slider and its last step."""
    open_page(driver, server)
    driver.find_element(By.ID, "tab-replay").click()
    driver.execute_script("document.getElementById('trace-select').value = arguments[0]", str(trace))
    field = driver.find_element(By.ID, "links")
    field.clear()
    if links is not None:
        field.send_keys(str(links))
    driver.find_element(By.ID, "replay-trace").click()
    settled(driver)
    assert page_error(driver) == ""
    slider = driver.find_element(By.ID, "slider")
    return slider, int(slider.get_attribute("max"))


def slide_to(driver: Any, slider: Any, step: int) -> None:
    """Move the slider as a person drags it."""
    driver.execute_script("const s = arguments[0]; s.value = arguments[1]; s.dispatchEvent(new Event('input'))",
                          slider, step)
    settled(driver)


def vp_by_seat(driver: Any) -> list[int]:
    rows = driver.find_elements(By.CSS_SELECTOR, "#players-table tr[data-seat]")
    by_seat = sorted(rows, key=lambda row: int(row.get_attribute("data-seat")))
    return [int(row.find_elements(By.TAG_NAME, "td")[5].text) for row in by_seat]


def test_a_real_game_is_replayed_to_its_final_scores_with_the_slider(browser: Any, server: str) -> None:
    if not TRACE.is_file():
        pytest.skip(f"the real games are not beside the repository ({TRACE})")
    expected = json.loads(TRACE.read_text(encoding="utf-8"))["scores"]["finalVP"]
    slider, last = replay_trace(browser, server, TRACE)
    assert last == 78  # the trace's 78 actions after the start
    # move the slider step by step through the first steps, then to the end, as a person drags it
    for step in (1, 2, 3, 40, last):
        slide_to(browser, slider, step)
        assert browser.find_element(By.ID, "step-count").text == f"step {step} of {last}"
        assert browser.find_elements(By.CSS_SELECTOR, "#log li"), "each step shows its log"
    assert vp_by_seat(browser) == expected == [215, 180]
    assert browser.find_element(By.ID, "expected").get_attribute("data-same") == "1"
    assert browser.find_element(By.ID, "over").is_displayed()
    browser.find_element(By.ID, "prev").click()
    settled(browser)
    assert browser.find_element(By.ID, "step-count").text == f"step {last - 1} of {last}"


# Each real game of ../shared/real-games, with the link tiles it needs: two of them place a 15th
# rail link, which the rulebook's 14 tiles refuse (docs/real-games.md, Findings); the page's
# "links per player" field replays them as `brass replay --trace --links-per-player 99` does.
REAL_GAMES = {"wq9gs6-2p-full": None, "anon-4p2-human-vs-jsb-v20260903": 99,
              "anon-4p2-human-vs-jsb-v20260910-0908": None, "brass-GM7VZA-anon": 99, "brass-YATANA-anon": None}


@pytest.mark.parametrize("name", list(REAL_GAMES))
def test_every_real_game_is_replayed_to_its_recorded_scores(browser: Any, server: str, name: str) -> None:
    trace = TRACES / "traces" / f"{name}.trace.json"
    if not trace.is_file():
        pytest.skip(f"the real games are not beside the repository ({trace})")
    expected = json.loads(trace.read_text(encoding="utf-8"))["scores"]["finalVP"]
    slider, last = replay_trace(browser, server, trace, REAL_GAMES[name])
    slide_to(browser, slider, last)
    assert vp_by_seat(browser) == expected
    assert browser.find_element(By.ID, "over").is_displayed()


def test_a_refused_click_shows_its_rule_and_backing_out_restores_the_game(browser: Any, server: str) -> None:
    open_page(browser, server)
    new_game(browser, seed=1, opponent="greedy")
    moves = browser.execute_script("return current.moves")
    browser.find_element(By.CSS_SELECTOR, "#decisions button.decision").click()  # Build
    settled(browser)
    assert browser.find_element(By.ID, "back-out").is_displayed()
    cards = browser.find_elements(By.CSS_SELECTOR, "#hand li.choosable")  # a card is chosen in the hand
    assert len(cards) == len(browser.find_elements(By.CSS_SELECTOR, "#decisions button.decision")) > 0
    cards[0].click()
    settled(browser)
    prompt = browser.find_element(By.ID, "prompt").text
    assert prompt == "Build: industry"
    browser.execute_script("decide({industry: 'no-such-industry'})")
    settled(browser)
    refusal = browser.find_element(By.ID, "refusal")
    assert refusal.is_displayed() and "R-" in refusal.text
    browser.find_element(By.CSS_SELECTOR, "#decisions button.decision").click()  # its first industry
    settled(browser)
    assert browser.find_element(By.ID, "prompt").text == "Build: location"
    # the location is chosen on the board itself: the legal ones are outlined there
    legal = [b.get_attribute("data-decision")
             for b in browser.find_elements(By.CSS_SELECTOR, "#decisions button.decision")]
    marked = browser.find_elements(By.CSS_SELECTOR, "#board .choosable[data-location]")
    assert sorted(json.dumps({"location": m.get_attribute("data-location")}) for m in marked) == \
        sorted(json.dumps(json.loads(title)) for title in legal)
    marked[0].click()
    settled(browser)
    assert page_error(browser) == ""
    assert browser.find_element(By.ID, "prompt").text == "Build: slot"
    assert browser.find_elements(By.CSS_SELECTOR, "#board .choosable[data-slot]")
    browser.find_element(By.ID, "back-out").click()
    settled(browser)
    assert browser.find_element(By.ID, "prompt").text == "player 1: choose an action"
    assert browser.execute_script("return current.moves") == moves
    assert not browser.find_element(By.ID, "back-out").is_displayed()


def test_a_scenario_opens_at_its_position_and_its_save_replays(browser: Any, server: str, tmp_path: Path) -> None:
    open_page(browser, server)
    browser.find_element(By.ID, "tab-scenario").click()
    browser.execute_script("document.getElementById('scenario-select').value = arguments[0]", str(SCENARIO))
    browser.find_element(By.ID, "open-scenario").click()
    settled(browser)
    assert page_error(browser) == ""
    assert browser.find_element(By.ID, "blocked-count").text == "3"
    loan = browser.find_element(By.CSS_SELECTOR, "#blocked [data-action='loan']")
    assert "R-LOAN-02" in loan.get_attribute("textContent")
    assert "A loan may not take your income below level -10." in loan.get_attribute("textContent")
    for _ in range(4):  # a few decisions, then the game is saved and replayed from the file
        browser.find_element(By.CSS_SELECTOR, "#decisions button.decision").click()
        settled(browser)
    text = browser.execute_script(
        "const r = new XMLHttpRequest(); r.open('GET', arguments[0], false); r.send(); return r.responseText;",
        f"/api/games/{browser.execute_script('return current.id')}/save")
    save = tmp_path / "game.json"
    save.write_text(text, encoding="utf-8")
    browser.find_element(By.ID, "tab-replay").click()
    browser.find_element(By.ID, "replay-file").send_keys(str(save))
    WebDriverWait(browser, 30, poll_frequency=0.05).until(
        lambda d: d.find_element(By.ID, "replay-panel").is_displayed() or page_error(d))
    settled(browser)
    assert page_error(browser) == ""
    assert browser.find_element(By.ID, "step-count").text.startswith("step 0 of ")
    assert browser.find_element(By.ID, "step-label").text == "the start"


def test_a_lancashire_game_shows_its_distant_market_and_is_played_to_the_end(browser: Any, server: str) -> None:
    """Brass: Lancashire (issue 16): the page lists the Distant Market's tracks and the size of its
    face-down pile, the mat has a column per resource of the game (coal and iron: no beer), and a
    game clicked through to its end keeps them in step with the server's game."""
    open_page(browser, server)
    browser.execute_script("const s = document.getElementById('ruleset'); s.value = 'lancashire';"
                           "s.dispatchEvent(new Event('change'))")
    browser.execute_script("document.getElementById('players').value = '2';"
                           "document.getElementById('players').dispatchEvent(new Event('change'))")
    new_game(browser, seed=2, opponent="random")
    counters = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#counters li")]
    assert counters == ["Distant Market demand: 1 (1..9)", "Last Distant Market tile drawn: 0 (0..4)",
                        "This Sell failed: 0 (0..1)", "Distant Market tiles: 8 face down, none drawn"]
    heads = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#mat th")]
    assert heads == ["industry", "left", "level", "cost", "coal", "iron", "VP", "income"]
    assert browser.find_elements(By.CSS_SELECTOR, "#board [data-location='the_midlands']")
    browser.set_script_timeout(180)
    clicks = browser.execute_async_script(CLICK_THE_FIRST_DECISION_UNTIL_THE_END)
    assert page_error(browser) == ""
    assert browser.find_element(By.ID, "over").is_displayed(), f"the game did not end after {clicks} clicks"
    game_id = browser.execute_script("return current.id")
    saved = json.loads(browser.execute_script(
        "const r = new XMLHttpRequest(); r.open('GET', arguments[0], false); r.send(); return r.responseText;",
        f"/api/games/{game_id}/save"))
    state = saved["state"]
    shown = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#counters li")]
    drawn = state["drawn"]["dm_tiles"]
    assert shown[0] == f"Distant Market demand: {state['tracks']['distant_market']} (1..9)"
    assert shown[3] == f"Distant Market tiles: {len(state['stacks']['dm_tiles'])} face down, " + \
        (f"drawn {' '.join(map(str, drawn))}" if drawn else "none drawn")


def test_the_page_asks_the_bots_to_go_on_until_the_person_is_to_decide(browser: Any, hurried_server: str) -> None:
    """The bots of one request stop at the server's time limit (here after one decision): the
    page asks again at once, with the person's buttons hidden meanwhile, until it is their turn."""
    open_page(browser, hurried_server)
    new_game(browser, seed=4, opponent="greedy")  # the greedy bot plays first: a Build of 5 decisions
    assert browser.find_element(By.ID, "prompt").text == "player 1: choose an action"
    assert browser.execute_script("return current.moves") == 5
    for _ in range(5):  # the person's Build, then the bot's turn, one decision a request
        browser.find_elements(By.CSS_SELECTOR, "#decisions button.decision")[0].click()
        settled(browser)
        assert page_error(browser) == ""
    assert browser.find_element(By.ID, "prompt").text == "player 1: choose an action"
    assert browser.execute_script("return current.moves") == 18  # then the bot's turn: 2 actions, 8 decisions
    advances = browser.execute_script(
        "return performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/advance')).length")
    assert advances == 4 + 7  # each bot decision but the one the new game's (or decision's) own request took
