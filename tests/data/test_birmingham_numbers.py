"""Self-check of the Brass: Birmingham numbers as transcribed into rulesets/birmingham/*.yaml.

Temporary: these tests read the YAML with plain `yaml.safe_load`, only to check the transcription
against components.md and rules.md. The real data tests will go through the ruleset loader.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

REPO = Path(__file__).parents[2]
DATA = REPO / "rulesets" / "birmingham"
RULES_MD = REPO.parent / "shared" / "reference" / "rules.md"
PLAYER_COUNTS = (2, 3, 4)
# The data files checked here (other files in the folder, e.g. actions, belong to other work).
DATA_FILES = (
    "ruleset.yaml", "board.yaml", "industries.yaml", "cards.yaml", "merchants.yaml",
    "resources.yaml", "income.yaml", "setup.yaml",
)


def load(name: str) -> dict:
    with open(DATA / name, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@pytest.fixture(scope="module")
def board() -> dict:
    return load("board.yaml")


@pytest.fixture(scope="module")
def cards() -> dict:
    return load("cards.yaml")


@pytest.fixture(scope="module")
def industries() -> dict:
    return load("industries.yaml")


@pytest.fixture(scope="module")
def merchants() -> dict:
    return load("merchants.yaml")


@pytest.fixture(scope="module")
def resources() -> dict:
    return load("resources.yaml")


# --- board (components.md §1) -------------------------------------------------------------------


def test_locations_27_split_20_2_5(board):
    kinds = [loc["kind"] for loc in board["locations"].values()]
    assert len(kinds) == 27
    assert kinds.count("town") == 20
    assert kinds.count("farm_brewery") == 2
    assert kinds.count("merchant") == 5


def test_49_slots_with_known_industries(board, industries):
    slots = [slot for loc in board["locations"].values() for slot in loc.get("slots", [])]
    assert len(slots) == 49
    known = set(industries["industries"])
    assert all(slot and set(slot) <= known for slot in slots)
    town_slots = sum(len(loc["slots"]) for loc in board["locations"].values() if loc["kind"] == "town")
    assert town_slots == 47


def test_towns_have_groups_and_merchants_two_link_icons(board):
    groups = set(board["colour_groups"])
    assert groups == {"blue", "teal", "red", "ochre", "purple"}
    for loc in board["locations"].values():
        if loc["kind"] == "town":
            assert loc["group"] in groups
        else:
            assert "group" not in loc
        if loc["kind"] == "merchant":
            assert loc["link_icons"] == 2
            assert "slots" not in loc
        if loc["kind"] == "farm_brewery":
            assert loc["slots"] == [["brewery"]]


def test_39_links_with_canal_rail_counts(board):
    links = board["links"]
    assert list(links) == [f"L{i:02d}" for i in range(1, 40)]
    assert sum(link["canal"] for link in links.values()) == 31
    assert sum(link["rail"] for link in links.values()) == 38
    assert sum(link["canal"] and link["rail"] for link in links.values()) == 30
    canal_only = [lid for lid, link in links.items() if link["canal"] and not link["rail"]]
    rail_only = [lid for lid, link in links.items() if link["rail"] and not link["canal"]]
    assert canal_only == ["L15"]
    assert rail_only == ["L02", "L05", "L07", "L11", "L23", "L25", "L37", "L38"]


def test_link_ends_are_locations(board):
    locations = set(board["locations"])
    for lid, link in board["links"].items():
        assert set(link["ends"]) <= locations, lid
        assert len(set(link["ends"])) == len(link["ends"])
        assert len(link["ends"]) == (3 if lid == "L30" else 2), lid
    assert board["links"]["L30"]["ends"] == ["kidderminster", "worcester", "farm_south"]
    assert board["links"]["L16"]["ends"] == ["cannock", "farm_north"]


# --- cards (components.md §3) -------------------------------------------------------------------


def test_deck_totals_40_54_64(cards):
    deck = cards["cards"]
    for card in deck.values():
        assert set(card["count"]) == set(PLAYER_COUNTS)
    totals = {n: sum(card["count"][n] for card in deck.values()) for n in PLAYER_COUNTS}
    assert totals == {2: 40, 3: 54, 4: 64}


def test_location_card_subtotals_27_35_41(cards, board):
    deck = cards["cards"]
    location_cards = [card for card in deck.values() if "location" in card]
    subtotals = {n: sum(card["count"][n] for card in location_cards) for n in PLAYER_COUNTS}
    assert subtotals == {2: 27, 3: 35, 4: 41}
    towns = {lid for lid, loc in board["locations"].items() if loc["kind"] == "town"}
    assert {card["location"] for card in location_cards} == towns


def test_blue_and_teal_cards_removed(cards, board):
    for card in cards["cards"].values():
        if "location" not in card:
            continue
        group = board["locations"][card["location"]]["group"]
        if group in ("blue", "teal"):
            assert card["count"][2] == 0
        if group == "teal":
            assert card["count"][3] == 0


def test_wild_cards_4_plus_4(cards):
    wild = cards["wild_cards"]
    assert wild["wild_location"]["count"] == 4
    assert wild["wild_industry"]["count"] == 4
    assert wild["wild_location"]["excludes"] == ["farm_brewery"]


# --- industry tiles (components.md §2) ----------------------------------------------------------


def test_45_tiles_per_player_split(industries):
    per_industry = {ind: sum(t["count"] for t in rows) for ind, rows in industries["tiles"].items()}
    assert per_industry == {"cotton": 11, "coal": 7, "iron": 4, "manufacturer": 11, "pottery": 5, "brewery": 7}
    assert sum(per_industry.values()) == 45


def test_tile_rows_shape(industries):
    meta = industries["industries"]
    for ind, rows in industries["tiles"].items():
        assert [t["level"] for t in rows] == list(range(1, len(rows) + 1))
        for t in rows:
            if meta[ind]["flips"] == "sold":
                assert "beer" in t and "output" not in t
            else:
                assert meta[ind]["flips"] == "emptied"
                assert "output" in t and "beer" not in t
            assert t["eras"] and set(t["eras"]) <= {"canal", "rail"}


def test_special_tiles(industries):
    tiles = industries["tiles"]
    mfg4 = tiles["manufacturer"][3]
    assert (mfg4["cost"], mfg4["income"]) == (8, 6)  # D1
    assert [t["develop"] for t in tiles["pottery"]] == [False, True, False, True, True]
    assert tiles["pottery"][0]["eras"] == ["canal", "rail"]
    assert tiles["pottery"][4]["eras"] == ["rail"]
    assert tiles["brewery"][3]["eras"] == ["rail"]
    assert [t["output"] for t in tiles["brewery"]] == [1, {"canal": 1, "rail": 2}, {"canal": 1, "rail": 2}, 2]
    for ind in ("cotton", "coal", "iron", "manufacturer", "brewery"):
        assert tiles[ind][0]["eras"] == ["canal"]


# --- merchants (components.md §1.6, §4) ---------------------------------------------------------


def test_merchant_tiles_equal_spaces_5_7_9(merchants, board):
    spaces = {n: sum(m["spaces"][n] for m in merchants["merchants"].values()) for n in PLAYER_COUNTS}
    tiles = {n: sum(t["count"][n] for t in merchants["merchant_tiles"].values()) for n in PLAYER_COUNTS}
    assert spaces == {2: 5, 3: 7, 4: 9}
    assert tiles == spaces
    merchant_locations = {lid for lid, loc in board["locations"].items() if loc["kind"] == "merchant"}
    assert set(merchants["merchants"]) == merchant_locations
    assert sum(max(t["count"].values()) for t in merchants["merchant_tiles"].values()) == 9


# --- markets and income track (components.md §5, §6) --------------------------------------------


def test_market_capacities_14_10(resources):
    coal, iron = resources["markets"]["coal"], resources["markets"]["iron"]
    assert len(coal["prices"]) == 14 and len(iron["prices"]) == 10
    assert (coal["start_cubes"], coal["empty_price"]) == (13, 8)
    assert (iron["start_cubes"], iron["empty_price"]) == (8, 6)
    assert coal["prices"] == sorted(coal["prices"]) and iron["prices"] == sorted(iron["prices"])


def test_income_bands_cover_100_positions():
    track = load("income.yaml")["income_track"]
    positions = 0
    expected_level = -10
    for band in track["bands"]:
        low, high = band["levels"]
        assert low == expected_level
        positions += (high - low + 1) * band["spaces"]
        expected_level = high + 1
    assert positions == 100
    assert expected_level == 31
    assert track["start_position"] == 10


def test_setup_numbers():
    data = load("setup.yaml")
    setup = data["setup"]
    assert (setup["money"], setup["vp"], setup["hand_size"], setup["face_down_discards"]) == (17, 0, 8, 1)
    assert setup["links_per_player"] == 14
    assert setup["rounds_per_era"] == {2: 10, 3: 9, 4: 8}
    assert data["economy"]["loan"]["amount"] == 30


# --- rule index (rules.md §2) -------------------------------------------------------------------


def _rules_md_ids() -> list[str]:
    if not RULES_MD.is_file():
        pytest.skip(f"{RULES_MD} not present")
    return re.findall(r"\*\*(R-[A-Z]+-\d+)\*\*", RULES_MD.read_text(encoding="utf-8"))


def test_every_rule_id_present_in_order():
    ids = _rules_md_ids()
    index = load("rules.yaml")["rules"]
    assert len(ids) == 125
    assert list(index) == ids
    for rid, rule in index.items():
        assert isinstance(rule["text"], str) and rule["text"] and "\n" not in rule["text"], rid
        assert isinstance(rule["source"], str) and rule["source"], rid


def _citations(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "rule":
                yield value
            elif key == "rules" and isinstance(value, list):
                yield from value
            else:
                yield from _citations(value)
    elif isinstance(node, list):
        for item in node:
            yield from _citations(item)


def test_cited_rule_ids_exist():
    known = set(load("rules.yaml")["rules"])
    for name in DATA_FILES:
        unknown = [rid for rid in _citations(load(name)) if rid not in known]
        assert not unknown, f"{name}: {unknown}"
