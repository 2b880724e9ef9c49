"""`brass report VARIANT --against BASE`: the balance report, one self-contained HTML page.

- each game's profile (VP by source, money and income by round, tiles built and flipped) against
  the game's own log and standings, for Birmingham, a variant and Lancashire: the sources add up
  to each seat's VP, each scored tile's VP is the ruleset's for the industry and level the log
  built there, the VP no event reports is exactly the merchant bonuses (R-MERCH-03), the awards
  Lancashire's 1 VP per full £10 (L-END-01);
- the report's statistics are `brass simulate --against --json`'s for the same games, and its
  sums are the logs' counts; games played by the command give the page of the same games read
  from a file;
- the page has every section, and nothing that fetches anything; a file of an older brass
  (no profiles) gives a page that says what it cannot draw and why;
- bad options and files give one located line;
- (slow) the page in headless Chromium: every section draws an SVG, no error in the console.

The games: 4 greedy 2-player games of what-if against birmingham (seeds 0..3; seed 0 holds a
Shrewsbury bonus, seeds 1..3 VP lost to a shortfall).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import re
import shutil
from collections import Counter
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from interpreter.engine.game import Game
from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.bots.ladder import bot_seed, decide, deciding_seat, make_bot
from interpreter.tools.cli.main import main
from interpreter.tools.simulate.games import GameRecord, play_game, seating
from interpreter.tools.simulate.profile import SOURCES
from interpreter.tools.simulate.report import Origin, report_from_file
from interpreter.tools.simulate.report_html import SECTIONS
from interpreter.tools.simulate.report_svg import nice_ticks
from interpreter.tools.simulate.store import fingerprint

GAMES = ["--bot", "greedy", "--games", "4"]  # 2 players, seeds 0..3 (the defaults)
PROFILE_SECTIONS = ("vp-sources", "money-income", "tiles")
MERCHANT_VP = {"shrewsbury": 4, "nottingham": 3}  # R-MERCH-03: the beer bonuses worth VP


def brass(*args: str) -> tuple[int, str, str]:
    """The `brass` command in this process (module fixtures cannot use the `run` fixture)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("report")


@pytest.fixture(scope="module")
def saved(folder: Path) -> Path:
    """The --out file of the 4 paired games."""
    path = folder / "runs.jsonl"
    status, _, err = brass("simulate", "what-if", "--against", "birmingham", *GAMES, "--out", str(path))
    assert status == 0, err
    return path


@pytest.fixture(scope="module")
def simulated() -> dict[str, Any]:
    """`brass simulate --against --json` of the same games."""
    status, out, err = brass("simulate", "what-if", "--against", "birmingham", *GAMES, "--json")
    assert status == 0, err
    return dict(json.loads(out))


@pytest.fixture(scope="module")
def page(folder: Path, saved: Path) -> Path:
    path = folder / "report.html"
    status, out, err = brass("report", "what-if", "--against", "birmingham", "--from", str(saved), "--html", str(path))
    assert status == 0, err
    assert out == f"wrote {path}: what-if against birmingham, 4 paired game(s)\n"
    return path


@functools.cache
def played(ruleset_name: str, seed: int, bot: str = "greedy") -> GameRecord:
    """The record of the game with this seed between two such bots, seats rotated (as a comparison's)."""
    return play_game(load_ruleset(ruleset_name), 2, seed, seating([bot, bot], seed, True))


@functools.cache
def replay(ruleset_name: str, seed: int, bot: str = "greedy") -> Game:
    """The game `play_game` plays with this seed and bots (seats rotated), kept whole (never changed)."""
    ruleset = load_ruleset(ruleset_name)
    bots = seating([bot, bot], seed, True)
    game = Game.new(ruleset, 2, seed)
    seats = {seat: make_bot(bots[seat - 1], bot_seed(seed, seat)) for seat in (1, 2)}
    while not game.is_over:
        game.apply(decide(seats[deciding_seat(game)], game))
    return game


# -- each game's profile against its log -----------------------------------------------------------

# Birmingham seed 0: a Shrewsbury bonus; 1..3: VP lost to a shortfall; Lancashire with the heuristic
# bot, seed 0: seat 2 ends with £15, 1 VP (greedy players end Lancashire with under £10).
@pytest.mark.parametrize(("ruleset", "seed", "bot"), [("birmingham", s, "greedy") for s in range(4)] + [
    ("what-if", 0, "greedy"), ("lancashire", 0, "greedy"),
    pytest.param("lancashire", 0, "heuristic", marks=pytest.mark.slow)])  # two heuristic games: seconds
def test_the_vp_by_source_of_a_game_is_its_log(ruleset: str, seed: int, bot: str) -> None:
    rules = load_ruleset(ruleset)
    record = played(ruleset, seed, bot)
    game = replay(ruleset, seed, bot)
    assert record.standings == game.standings()
    assert record.profile is not None
    vp = record.profile["vp"]
    final = {row["seat"]: row for row in game.standings()}
    built_at: dict[str, tuple[str, int]] = {}
    links, tiles, lost, bonus = Counter(), Counter(), Counter(), Counter()
    for entry in game.log:
        if entry["event"] == "built":
            built_at[entry["slot"]] = (entry["industry"], entry["level"])
        elif entry["event"] == "link scoring":  # R-ERA-02
            for link in entry["links"]:
                links[link["owner"]] += link["vp"]
        elif entry["event"] == "tile scoring":  # R-ERA-03: the VP printed on the tile built there
            for tile in entry["tiles"]:
                industry, level = built_at[tile["tile"]]
                assert tile["vp"] == next(spec.vp for spec in rules.tiles[industry] if spec.level == level)
                tiles[(tile["owner"], industry)] += tile["vp"]
        elif entry["event"] == "shortfall":  # R-SHORT-03
            lost[entry["player"]] += entry["vp_lost"]
        elif entry["event"] == "merchant beer":  # R-MERCH-03
            bonus[entry["player"]] += MERCHANT_VP.get(entry["space"].split("/")[0], 0)
    for seat in (1, 2):
        sources = vp[str(seat)]
        assert sum(sources[key] for key in SOURCES if key != "tiles") + sum(sources["tiles"].values()) == \
            final[seat]["vp"]
        assert sources["links"] == links[seat]
        assert sources["tiles"] == {industry: n for (owner, industry), n in tiles.items() if owner == seat}
        assert sources["shortfall"] == -lost[seat]
        assert sources["other"] == bonus[seat]
        money_vp = final[seat]["money"] // 10 if ruleset.startswith("lancashire") else 0  # L-END-01
        assert sources["awards"] == money_vp
    if bot == "heuristic":
        assert vp["2"]["awards"] == 1  # £15 at the end: the check above is not vacuous


def test_the_games_above_hold_every_source() -> None:
    """So that their checks are not vacuous: a bonus, a shortfall, links and tiles (an award: above)."""
    games = (("birmingham", 0, "greedy"), ("birmingham", 1, "greedy"), ("lancashire", 0, "greedy"))
    seats = {(name, seed, seat): sources for name, seed, bot in games
             for seat, sources in (played(name, seed, bot).profile or {"vp": {}})["vp"].items()}
    assert seats[("birmingham", 1, "2")]["other"] == 4  # seat 2 sold with Shrewsbury's beer
    assert seats[("birmingham", 0, "1")]["shortfall"] < 0
    assert all(sources["links"] > 0 for sources in seats.values())
    assert all(sources["tiles"] for (name, _, _), sources in seats.items() if name == "lancashire")


@pytest.mark.parametrize(("ruleset", "seed"), [("birmingham", 1), ("lancashire", 0)])
def test_money_income_and_tiles_of_a_game_are_its_log(ruleset: str, seed: int) -> None:
    profile = played(ruleset, seed).profile
    assert profile is not None
    game = replay(ruleset, seed)
    ends = [(e["era"], e["round"]) for e in game.log if e["event"] == "end of round"]
    assert [tuple(r) for r in profile["rounds"]] == ends
    assert len(ends) == 20  # 2 players: 10 rounds in each era (R-SETUP, the deck of 40 cards at 2 players)
    # each round's income: the money after it is the money at the end of that round (R-INC-02)
    paid: dict[int, dict[int, int]] = {}
    index = 0
    for entry in game.log:
        if entry["event"] == "end of round":
            index += 1
        elif entry["event"] in ("income", "shortfall"):
            paid.setdefault(index, {})[entry["player"]] = entry["money"]
    assert len(paid) == 19  # no income after the last round (R-INC-03)
    for round_index, money in paid.items():
        assert {seat: profile["money"][round_index][seat - 1] for seat in money} == money
    final = {row["seat"]: row for row in game.standings()}
    assert profile["money"][-1] == [final[1]["money"], final[2]["money"]]
    assert profile["income_level"][-1] == [final[1]["income_level"], final[2]["income_level"]]
    built = Counter((str(e["player"]), e["industry"], str(e["level"])) for e in game.log if e["event"] == "built")
    assert {(s, i, lv): n for s, industries in profile["built"].items() for i, levels in industries.items()
            for lv, n in levels.items()} == dict(built)
    flips = Counter(str(e["owner"]) for e in game.log if e["event"] == "flipped")
    assert {s: sum(n for levels in industries.values() for n in levels.values())
            for s, industries in profile["flipped"].items()} == {s: flips.get(s, 0) for s in ("1", "2")}


def test_simulate_json_is_unchanged_and_out_records_hold_the_profile(saved: Path, simulated: dict[str, Any]) -> None:
    data = simulated
    for run in (data, data["against"]):
        for game in run["per_game"]:
            assert set(game) == {"seed", "bots", "winners", "actions", "decisions", "action_counts", "standings",
                                 "violations"}
    records = [json.loads(line) for line in saved.read_text().splitlines()]
    assert len(records) == 8 and all(set(r["profile"]) == {"vp", "rounds", "money", "income_level", "built",
                                                          "flipped"} for r in records)
    status, from_file, _ = brass("simulate", "what-if", "--against", "birmingham", *GAMES, "--json", "--out",
                                 str(saved), "--resume")
    assert status == 0 and json.loads(from_file) == data  # the summary read back from the file: the same


# -- the report's data -----------------------------------------------------------------------------

def test_the_report_says_what_simulate_says_and_sums_the_logs(saved: Path, simulated: dict[str, Any]) -> None:
    rulesets = (load_ruleset("what-if"), load_ruleset("birmingham"))
    report, warning = report_from_file(saved, rulesets, Origin("what-if", "birmingham", saved))
    assert warning is None
    assert report.comparison == simulated["comparison"]  # compare() on the same games, unchanged
    assert report.seeds == [0, 1, 2, 3] and report.unpaired == 0
    for role, name in (("ruleset", "what-if"), ("against", "birmingham")):
        side = report.sides[role]
        assert side.totals.games == 4 and side.missing == 0
        games = [replay(name, seed) for seed in range(4)]
        for seat in (1, 2):
            mean_vp = sum(row["vp"] for g in games for row in g.standings() if row["seat"] == seat) / 4
            assert sum(side.totals.seat_sources(str(seat)).values()) == pytest.approx(mean_vp, abs=1e-12)
        built = Counter((e["industry"], str(e["level"])) for g in games for e in g.log if e["event"] == "built")
        assert {(i, lv): n for i, levels in side.totals.built.items() for lv, n in levels.items()} == dict(built)
        money = [sum(map(sum, rows)) / 8 for rows in zip(*(replay_money(g) for g in games), strict=True)]
        assert [mean for _, mean, _ in side.totals.round_means()] == pytest.approx(money, abs=1e-12)


def replay_money(game: Game) -> Iterator[list[int]]:
    """Each round's end money of the two seats, from the log: income events, then the final standings."""
    paid: dict[int, dict[int, int]] = {}
    index = 0
    for entry in game.log:
        if entry["event"] == "end of round":
            index += 1
        elif entry["event"] in ("income", "shortfall"):
            paid.setdefault(index, {})[entry["player"]] = entry["money"]
    for round_index in range(19):
        yield [paid[round_index][1], paid[round_index][2]]
    final = {row["seat"]: row["money"] for row in game.standings()}
    yield [final[1], final[2]]


# -- the page --------------------------------------------------------------------------------------

class Page(HTMLParser):
    """The sections of a page (id -> its markup's tags and text), and every attribute that could fetch."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.sections: dict[str, list[str]] = {}
        self.current: str | None = None
        self.links: list[tuple[str, str]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if self.current is not None:
            self.sections[self.current].append(f"<{tag}>")
        if tag == "section":
            self.current = found.get("id") or ""
            self.sections[self.current] = []
        self.links += [(name, value or "") for name, value in attrs if name in ("src", "href", "srcset", "data")]

    def handle_endtag(self, tag: str) -> None:
        if tag == "section":
            self.current = None

    def handle_data(self, data: str) -> None:
        if self.current is not None and data.strip():
            self.sections[self.current].append(data)


def test_the_page_is_one_file_with_every_section(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for fetching in ("http://", "https://", "src=", "<script", "<link", "url(", "@import", "<img", "<iframe"):
        assert fetching not in text
    parsed = Page(text)
    assert all(value.startswith("#") for _, value in parsed.links)  # only the table of contents
    assert list(parsed.sections) == list(SECTIONS)
    for key, heading in SECTIONS.items():
        assert parsed.sections[key][:2] == ["<h2>", heading]
        assert "<svg>" in parsed.sections[key]
    compared = "".join(parsed.sections["compared"])
    assert "seeds 0..3" in compared and "greedy, greedy" in compared
    assert "brass simulate what-if --against birmingham --players 2 --bot greedy --games 4 --seed 0 " \
           "--out runs.jsonl" in compared
    assert "brass report what-if --against birmingham --from runs.jsonl --html report.html" in compared
    for ruleset in ("what-if", "birmingham"):
        assert fingerprint(load_ruleset(ruleset)) in compared and load_ruleset(ruleset).title in compared


def test_the_verdicts_are_the_comparisons(page: Path, simulated: dict[str, Any]) -> None:
    text = "".join(Page(page.read_text(encoding="utf-8")).sections["verdicts"])
    comparison = simulated["comparison"]
    for row in comparison["figures"].values():
        assert row["label"] in text and row["verdict"] in text
    differ = comparison["differ"]
    assert f"{differ['significant']} of the {differ['figures']} other figures differ after Holm's correction" in text


def test_games_played_by_the_command_give_the_page_of_the_file(folder: Path, page: Path) -> None:
    played = folder / "played.html"
    status, _, err = brass("report", "what-if", "--against", "birmingham", *GAMES, "--html", str(played))
    assert status == 0, err
    origin = re.compile(r"<li>The games were (played by this command|read from [^<]*)\.</li>")
    assert origin.sub("", played.read_text()) == origin.sub("", page.read_text())
    assert "The games were played by this command." in played.read_text()


def test_a_file_of_an_older_brass_says_what_it_cannot_draw(folder: Path, saved: Path) -> None:
    old = folder / "old.jsonl"
    records = [json.loads(line) for line in saved.read_text().splitlines()]
    old.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "profile"}) + "\n" for r in records))
    target = folder / "old.html"
    status, out, err = brass("report", "what-if", "--against", "birmingham", "--from", str(old), "--html", str(target))
    assert status == 0, err
    assert "without a profile (an older brass) leave sections undrawn or partial" in out
    sections = Page(target.read_text()).sections
    for key in PROFILE_SECTIONS:
        text = "".join(sections[key])
        assert "<svg>" not in sections[key]
        assert "Not drawn: none of the games in " in text and "older brass" in text
        assert "brass simulate what-if --against birmingham" in text  # how to get the data
    for key in set(SECTIONS) - set(PROFILE_SECTIONS):
        assert "<svg>" in sections[key]
    # one game without its profile: the sections are drawn from the others, and say so
    next(r for r in records if (r["role"], r["seed"]) == ("against", 0)).pop("profile")
    old.write_text("".join(json.dumps(r) + "\n" for r in records))
    status, _, err = brass("report", "what-if", "--against", "birmingham", "--from", str(old), "--html", str(target))
    assert status == 0, err
    sections = Page(target.read_text()).sections
    for key in PROFILE_SECTIONS:
        assert "Drawn from 3 of the 4 games of birmingham" in "".join(sections[key])
        assert "<svg>" in sections[key]


def test_lancashire_reports_its_money_award(folder: Path) -> None:
    target = folder / "lancashire.html"
    status, _, err = brass("report", "lancashire-classic", "--against", "lancashire", "--bot", "greedy", "--games",
                           "2", "--html", str(target))
    assert status == 0, err
    sections = Page(target.read_text()).sections
    assert list(sections) == list(SECTIONS)
    vp = "".join(sections["vp-sources"])
    assert "links" in vp and "Cotton Mill" in vp
    assert all("<svg>" in sections[key] for key in SECTIONS)


def test_nice_ticks() -> None:
    assert nice_ticks(0, 37) == [0, 10, 20, 30, 40]
    assert nice_ticks(-6.5, 21) == [-10, 0, 10, 20, 30]
    assert nice_ticks(0, 1) == [0, 0.2, 0.4, 0.6, 0.8, 1.0]


# -- errors ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("arguments", "message"), [
    (["what-if", "--html", "{out}"], "say what the variant is compared with: --against BASE"),
    (["what-if", "--against", "birmingham"], "say where to write the page: --html FILE"),
    (["what-if", "--against", "birmingham", "--from", "{runs}", "--players", "3", "--html", "{out}"],
     "--players says how to play the games; with --from {runs} they are the file's games"),
    (["what-if", "--against", "birmingham", "--from", "{folder}/none.jsonl", "--html", "{out}"],
     "--from {folder}/none.jsonl: no such file"),
    (["what-if", "--against", "birmingham", "--from", "{single}", "--html", "{out}"],
     "{single} holds a single run of what-if (line 1), not a comparison"),
    (["sell-level-ii", "--against", "birmingham", "--from", "{runs}", "--html", "{out}"],
     "{runs} holds a comparison of what-if against birmingham (line 1), not of sell-level-ii against birmingham"),
    (["what-if", "--against", "birmingham", "--from", "{bad}", "--html", "{out}"],
     "line 1 of {bad} is not a game record of `brass simulate --out`"),
    (["what-if", "--against", "birmingham", "--html", "{folder}/no/such/report.html"],
     "--html {folder}/no/such/report.html: the folder {folder}/no/such does not exist"),
    (["what-if", "--against", "birmingham", "--html", "{folder}"], "--html {folder} is a folder"),
    (["what-if", "--against", "birmingham", "--players", "5", "--html", "{out}"],
     "is played by 2, 3, 4 players, not 5"),
    (["what-if", "--against", "birmingham", "--games", "0", "--html", "{out}"], "--games must be at least 1, not 0"),
    (["what-if", "--against", "birmingham", "--bot", "nobody", "--html", "{out}"], "unknown bot 'nobody'"),
    (["what-if", "--against", "birmingham", "--primary", "luck", "--html", "{out}"],
     "--primary 'luck' is not a figure of this comparison"),
    (["what-if", "--against", "birmingham", "--from", "{runs}", "--primary", "luck", "--html", "{out}"],
     "no figure 'luck' to judge first"),
])
def test_bad_options_and_files_give_one_located_line(folder: Path, saved: Path, arguments: list[str],
                                                     message: str) -> None:
    single = folder / "single.jsonl"
    if not single.exists():
        assert brass("simulate", "what-if", "--games", "1", "--out", str(single))[0] == 0
    bad = folder / "bad.jsonl"
    bad.write_text('{"not": "a record"}\n')
    names = {"out": str(folder / "never.html"), "runs": str(saved), "folder": str(folder), "single": str(single),
             "bad": str(bad)}
    status, out, err = brass("report", *(a.format(**names) for a in arguments))
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and message.format(**names) in err
    assert not (folder / "never.html").exists()


# -- in a browser ----------------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("Chromium or chromedriver is missing (apt-get install chromium chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1200,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


DRAWN = """
return Array.from(document.querySelectorAll('section')).map(section => [section.id,
  Array.from(section.querySelectorAll('svg')).map(svg => {
    const box = svg.getBoundingClientRect();
    return [box.width, box.height, svg.querySelectorAll('rect, line, circle, polyline, text').length];
  }),
  section.querySelector('.missing') ? section.querySelector('.missing').textContent : '']);
"""


@pytest.mark.slow
def test_every_section_draws_in_chromium(browser: Any, page: Path, folder: Path, saved: Path) -> None:
    browser.get(page.resolve().as_uri())
    drawn = {key: (pictures, missing) for key, pictures, missing in browser.execute_script(DRAWN)}
    assert list(drawn) == list(SECTIONS)
    for key, (pictures, missing) in drawn.items():
        assert pictures and missing == "", key
        for width, height, marks in pictures:
            assert width > 100 and height > 10 and marks >= 3, key  # the verdicts' strips: 160 by 18
    assert [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"] == []
    # a file of an older brass: the profile sections say why, in the browser too
    old = folder / "old-browser.jsonl"
    old.write_text("".join(json.dumps({k: v for k, v in json.loads(line).items() if k != "profile"}) + "\n"
                           for line in saved.read_text().splitlines()))
    target = folder / "old-browser.html"
    assert brass("report", "what-if", "--against", "birmingham", "--from", str(old), "--html", str(target))[0] == 0
    browser.get(target.resolve().as_uri())
    drawn = {key: (pictures, missing) for key, pictures, missing in browser.execute_script(DRAWN)}
    for key in PROFILE_SECTIONS:
        assert drawn[key][0] == [] and "older brass" in drawn[key][1]
    assert [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"] == []


def test_a_seed_played_under_one_ruleset_only_is_left_out(folder: Path, saved: Path) -> None:
    """An interrupted run: seed 2 was played with what-if only. The report pairs the other three,
    says so, and its commands play seeds 0..3 again."""
    cut = folder / "cut.jsonl"
    cut.write_text("".join(line + "\n" for line in saved.read_text().splitlines()
                           if (json.loads(line)["role"], json.loads(line)["seed"]) != ("against", 2)))
    target = folder / "cut.html"
    status, out, err = brass("report", "what-if", "--against", "birmingham", "--from", str(cut), "--html", str(target))
    assert status == 0, err
    assert out.endswith("3 paired game(s)\n")
    compared = " ".join(Page(target.read_text()).sections["compared"])
    assert "3 paired games: every seed played under both rulesets, seeds 0..1, 3." in compared
    assert "1 game(s) of the file were played under one ruleset only (an interrupted run) and are left out." in compared
    assert "play every seed from 0 to 3, 1 more than this report holds" in compared
    assert "--games 4 --seed 0" in compared


@pytest.mark.slow
def test_games_played_in_worker_processes_give_the_same_page(folder: Path) -> None:
    pages = []
    for jobs in ("1", "2"):
        target = folder / f"jobs{jobs}.html"
        status, _, err = brass("report", "what-if", "--against", "birmingham", *GAMES, "--jobs", jobs,
                               "--html", str(target))
        assert status == 0, err
        pages.append(target.read_text())
    assert pages[0] == pages[1]
