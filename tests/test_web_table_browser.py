"""Issue 25 item 3, "A table people read", in Chromium at 1366x768 (the fixtures of
test_web_browser.py: Debian's Chromium and chromedriver, a uvicorn server in a thread):
- the page fits the window without scrolling; the map zooms and pans inside its frame, and at the
  default zoom every text of the map is at least 11 px (measured: the font size of each SVG text
  times the picture's scale on the screen);
- the log shows words, not the engine's ids; the last action is outlined on the map;
- *Take back* undoes an action of one's own turn and is refused once a card was drawn;
- a real game's score breakdown adds up to its recorded VP (215 / 180);
- the seats' colours differ and every tile and link carries its seat's number; a bot is "thinking…".
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the [web] extra is not installed (pip install '.[web]')")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")

from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from test_web_browser import (  # noqa: E402
    CHROMEDRIVER,
    CHROMIUM,
    MISSING,
    TRACE,
    TRACES,
    new_game,
    open_page,
    page_error,
    running,
    settled,
)

from interpreter.tools.web.api import create_app  # noqa: E402
from interpreter.tools.web.sources import Folders  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None, reason=MISSING)]
WIDTH, HEIGHT = 1366, 768
RAW = re.compile(r"\b(link|slot|industry|player|card)=")  # the engine's ids, as the log read before


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from running(create_app(Folders.of([str(TRACES)], [])))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={WIDTH},{HEIGHT}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    # the page's own size, whatever the window's frame takes: a 1366x768 screen's viewport
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
    yield driver
    driver.quit()


def script(driver: Any, code: str) -> Any:
    return driver.execute_script(code)


def click_first(driver: Any, times: int) -> None:
    """Click the first listed decision `times` times, waiting for each answer."""
    for _ in range(times):
        script(driver, "document.querySelector('button.decision').click()")
        time.sleep(0.05)
        settled(driver)
        assert page_error(driver) == ""


def people_game(driver: Any, server: str) -> None:
    open_page(driver, server)
    driver.execute_script("document.getElementById('seat-2').value = 'human'")
    new_game(driver, 9, "human")  # seed 9: player 2 plays first, a Brewery at Walsall


LABEL_SIZES = """
const svg = document.querySelector('#board svg');
const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
return [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
"""


def test_the_page_fits_the_window_and_the_maps_labels_are_11_px(browser: Any, server: str) -> None:
    people_game(browser, server)
    click_first(browser, 5)  # a tile on the map
    assert script(browser, "return [innerWidth, innerHeight]") == [WIDTH, HEIGHT]
    page = script(browser, "return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert page == [WIDTH, HEIGHT]  # nothing to scroll: the map and the panel scroll inside
    frame = script(browser, "const r = document.getElementById('board-wrap').getBoundingClientRect();"
                            "return [r.left, r.top, r.right, r.bottom]")
    assert frame[0] >= 0 and frame[1] >= 0 and frame[2] <= WIDTH and frame[3] <= HEIGHT
    sizes = script(browser, LABEL_SIZES)
    assert len(sizes) > 150 and min(sizes) >= 11 - 0.01  # 8-unit texts at the zoom 11/8 (to the layout's rounding)
    assert script(browser, "return document.getElementById('zoom-level').textContent") == "138%"
    # the whole map fits the frame; zoom in and out; drag to pan
    browser.find_element(By.ID, "zoom-fit").click()
    fit = script(browser, "const s = document.querySelector('#board svg').getBoundingClientRect();"
                          "const w = document.getElementById('board-wrap'); return [s.width, s.height, "
                          "w.clientWidth, w.clientHeight]")
    assert fit[0] <= fit[2] + 1 and fit[1] <= fit[3] + 1
    assert max(fit[0] / fit[2], fit[1] / fit[3]) > 0.95  # fitted with the scrollbars, which then go
    browser.find_element(By.ID, "zoom-read").click()
    assert min(script(browser, LABEL_SIZES)) >= 11 - 0.01
    wrap = browser.find_element(By.ID, "board-wrap")
    scrolled = "const w = document.getElementById('board-wrap'); return [w.scrollLeft, w.scrollTop]"
    left, top = script(browser, scrolled)
    ActionChains(browser).move_to_element(wrap).click_and_hold().move_by_offset(-200, -150).release().perform()
    assert script(browser, scrolled) == [left + 200, top + 150]
    assert page_error(browser) == "" and not browser.find_element(By.ID, "refusal").is_displayed()  # no choice


def test_the_log_is_worded_and_the_last_action_outlined(browser: Any, server: str) -> None:
    people_game(browser, server)
    click_first(browser, 5)  # player 2's Build: Brewery I at Walsall 1
    lines = script(browser, "return [...document.querySelectorAll('#log li')].map((li) => li.textContent)")
    assert not [line for line in lines if RAW.search(line)]
    assert lines[-3:] == ["P2 built: Brewery, level 1, Walsall 1, cubes 1", "P2: Build", "P2 end of turn: drew 1"]
    assert browser.find_element(By.ID, "last-action").text == "Last action: P2: Build"
    assert script(browser, "return [...document.querySelectorAll('#board .last')].map((n) => n.id)") == \
        ["slot-walsall-1"]
    outlined = script(browser, "return getComputedStyle(document.querySelector('#board .last')).filter")
    assert "drop-shadow" in outlined
    # a refused move's headline names it in words too
    script(browser, "decide({card: 'no-such-card'})")
    settled(browser)
    assert browser.find_element(By.CSS_SELECTOR, "#refusal strong").text.startswith("Refused: no-such-card:")


def test_take_back_undoes_an_action_of_ones_turn_and_is_refused_after_a_draw(browser: Any, server: str) -> None:
    people_game(browser, server)
    assert not browser.find_element(By.ID, "take-back").is_displayed()
    click_first(browser, 5)  # player 2's one action of round 1: its turn ends, it draws a card
    script(browser, "attempt(takeBack)")  # the button is not offered; asked anyway, the server says why
    settled(browser)
    assert browser.find_element(By.ID, "error").text == (
        "that action showed something no one knew (a card drawn from the deck, a face-down tile drawn, a "
        "shuffle): it can no longer be taken back")
    for _ in range(60):  # on to a seat's first action of a turn of two
        if browser.find_element(By.ID, "take-back").is_displayed():
            break
        click_first(browser, 1)
    seat = int(script(browser, "return current.deciding"))
    moves = int(script(browser, "return current.moves"))
    browser.find_element(By.ID, "take-back").click()
    settled(browser)
    assert page_error(browser) == ""
    assert int(script(browser, "return current.moves")) < moves
    assert int(script(browser, "return current.deciding")) == seat
    assert script(browser, "return [...document.querySelectorAll('#log li')].pop().textContent") == \
        f"P{seat} took back their Build"
    assert not browser.find_element(By.ID, "take-back").is_displayed()


@pytest.mark.skipif(not TRACE.is_file(), reason=f"the real games are not beside the repository ({TRACE})")
def test_a_real_games_score_breakdown_adds_up_to_its_vp(browser: Any, server: str) -> None:
    open_page(browser, server)
    browser.find_element(By.ID, "tab-replay").click()
    script(browser, f"document.getElementById('trace-select').value = {str(TRACE)!r}")
    browser.find_element(By.ID, "replay-trace").click()
    settled(browser)
    script(browser, "showStep(current.steps - 1)")
    settled(browser)
    WebDriverWait(browser, 30).until(lambda d: d.find_element(By.ID, "scores").is_displayed())
    cells = script(browser, """
        const rows = {};
        for (const tr of document.querySelectorAll('#scores table.vp-sum tr[data-seat]')) {
          rows[tr.dataset.seat] = [...tr.querySelectorAll('td[data-key]')]
            .map((td) => [td.dataset.key, td.textContent]);
        }
        return rows;""")
    assert cells == {"1": [["era", "41"], ["era", "170"], ["other", "4"], ["vp", "215"]],
                     "2": [["era", "48"], ["era", "132"], ["other", "0"], ["vp", "180"]]}
    canal = script(browser, """
        const tr = document.querySelector('table.era-score[data-era="Canal Era"] tr[data-seat="1"]');
        return [...tr.querySelectorAll('td[data-key]')].map((td) => [td.dataset.industry || td.dataset.key,
                                                                        Number(td.textContent)]);""")
    parts = dict(canal)
    assert parts == {"links": 8, "Brewery": 5, "Coal Mine": 2, "Cotton Mill": 9, "Iron Works": 12, "Manufacturer": 5,
                     "total": 41}
    assert sum(v for k, v in parts.items() if k != "total") == parts["total"]
    assert browser.find_element(By.ID, "expected").text.endswith("(the same)")


def test_seat_colours_differ_and_every_tile_and_link_shows_its_seat(browser: Any, server: str) -> None:
    open_page(browser, server)
    new_game(browser, 3, "heuristic")
    click_first(browser, 40)
    found = script(browser, """
        const rows = [];
        for (const node of document.querySelectorAll('#board .tile, #board .link[data-owner]')) {
          const badge = node.querySelector('.seat-number text');
          const body = node.classList.contains('tile') ? node.querySelector('rect')
            : node.querySelectorAll('line')[1];
          rows.push([node.dataset.owner, badge ? badge.textContent : null,
                     getComputedStyle(body)[node.classList.contains('tile') ? 'fill' : 'stroke']]);
        }
        return rows;""")
    owners = {owner for owner, _, _ in found}
    assert owners == {"1", "2"} and len(found) >= 6
    assert all(badge == owner for owner, badge, _ in found)  # the seat's number on each
    colours = {owner: {colour for o, _, colour in found if o == owner} for owner in owners}
    assert colours == {"1": {"rgb(213, 94, 0)"}, "2": {"rgb(86, 180, 233)"}}  # vermillion, sky blue


def test_a_bot_to_decide_shows_thinking(browser: Any, server: str) -> None:
    open_page(browser, server)
    script(browser, "document.getElementById('seat-1').value = 'greedy'")
    new_game(browser, 1, "greedy")  # bots only: the page waits for *Let the bots play*
    deciding = script(browser, "return current.deciding")
    cell = browser.find_element(By.CSS_SELECTOR, f"#players-table tr[data-seat='{deciding}'] td.thinking")
    assert cell.text == "greedy thinking…"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#players-table td.thinking")) == 1
