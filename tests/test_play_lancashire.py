"""Brass: Lancashire in the front ends (issue 16, point 5): `brass play lancashire` with a sale to
the Distant Market, `brass board lancashire` with every location, the Distant Market track and the
tile pile's size, and `brass serve`'s view of a Lancashire game. Lancashire has no merchants, no
beer and no Scout: the front ends must not miss them."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, load_ruleset
from interpreter.tools.board.picture import board_svg
from interpreter.tools.play.keys import action_keys, help_text
from interpreter.tools.scenarios.scenario import game_from_setup_file
from interpreter.tools.web.sessions import PlaySession
from interpreter.tools.web.view import counters_json, decisions_json, mat_json

SVG = "{http://www.w3.org/2000/svg}"
# Player 1 in Canal round 2 with an unflipped Cotton Mill I at Macclesfield, linked (K26) to The
# Midlands, whose trade icon reaches the Distant Market; a 3 on top of the 2-player pile.
SETUP = """\
ruleset: lancashire
players: 2
seed: 1
given:
  era: canal
  round: 2
  turn_order: [1, 2]
  current: 1
  actions_left: 2
  players:
    1: {money: 20, income: 10, hand: [preston, bolton]}
  tiles:
    - {slot: macclesfield/0, owner: 1, industry: cotton_mill, level: 1, flipped: false}
  links:
    - {link: K26, owner: 1}
  stacks: {dm_tiles: [1, 2, 2, 2, 3, 4, 3, 3]}
"""


@pytest.fixture
def setup(tmp_path: Path) -> Path:
    path = tmp_path / "sell.yaml"
    path.write_text(SETUP, encoding="utf-8")
    return path


def sold(setup: Path) -> Game:
    """The sale of the setup made: tile 3 drawn, the marker 1 -> 4 (+2 income spaces), the mill
    flipped (+5): income space 10 -> 17."""
    game = game_from_setup_file(str(setup), None, None, None)
    preston = next(card.id for card in game.table.player(1).hand if card.face == "preston")
    game.apply({"action": "sell"})
    game.apply({"card": preston})
    while game.pending is not None:  # the rest is forced: the mill, the Distant Market, done
        game.apply(game.legal_actions()[0])
    return game


def one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text)


# -- brass play lancashire ------------------------------------------------------------------------------

def test_the_keys_of_lancashires_actions() -> None:
    """s saves: Sell takes its next free letter after Develop's e and Double Build's d."""
    keys = {k.action: k.key for k in action_keys(load_ruleset("lancashire"))}
    assert keys == {"build": "b", "double_build": "d", "network": "n", "develop": "e", "sell": "l", "loan": "o",
                    "pass": "p"}


def test_a_sale_to_the_distant_market_at_the_terminal(run: Any, setup: Path) -> None:
    """l (Sell), 1 (the Preston card); the mill, the Distant Market and the rest are the only
    choices. The summary and the full board show the marker on 4, the tile drawn and the pile's
    7 tiles left; no line for merchants, which Lancashire has not."""
    status, out, err = run("play", "--from", str(setup), "--seats", "human,random", stdin="l\n1\nm\nq\n")
    assert (status, err) == (0, "")
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80
    text = one_line(out)
    assert "Distant Market demand 1 (1..9); Last Distant Market tile drawn 0 (0..4); This Sell failed 0 " \
           "(0..1); Distant Market tiles: 8 face down, none drawn" in text  # before the sale
    assert "drawn: Distant Market tiles, value 3, left 7" in text  # the log names the stack
    assert "track: Distant Market demand, was 1, now 4" in text
    after = "Distant Market demand 4 (1..9); Last Distant Market tile drawn 3 (0..4); This Sell failed 0 " \
            "(0..1); Distant Market tiles: 7 face down, drawn 3"
    assert text.count(after) == 2  # the summary after the sale, then the full board (m)
    assert "Your mat P1: £20, income +4 (space 17), 0 VP, 13 links left" in text
    assert "Macclesfield: P1 Cotton Mill I flipped" in text and "P1: Macclesfield - The Midlands" in text
    assert "Merchants" not in text and "beer" not in text.lower()
    assert "Cotton Mill Coal Mine Iron Works Port Shipyard I (11) I (7) I (4) I (8) 0 (6)" in text


def test_a_whole_lancashire_game_at_the_terminal(run: Any) -> None:
    """A person who always passes against a random bot: the game reaches its final standings."""
    lines = "\n".join(["p", "1"] * 200) + "\n"
    status, out, err = run("play", "lancashire", "--players", "2", "--seed", "4", "--seats", "human,random",
                           stdin=lines)
    assert (status, err) == (0, "")
    assert "Final standings" in out and "Rail Era: the game is over" in out
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80


def test_the_help_of_lancashire_promises_no_merchant() -> None:
    text = help_text(load_ruleset("lancashire"))
    assert "m          the full board: every tile, link, market, track and stack\n" in text
    assert '{"action": "pass", "card": ' in text  # Pass: Lancashire's first action whose only choice is a card


# -- brass board lancashire --------------------------------------------------------------------------------

def test_the_picture_has_every_location_and_no_merchant_space(run: Any) -> None:
    status, out, err = run("board", "lancashire", "--svg", "-")
    assert (status, err) == (0, "")
    root = ET.fromstring(out)
    names = {"".join(e.itertext()) for e in root.iter(f"{SVG}text")}
    ruleset = load_ruleset("lancashire")
    assert len(ruleset.locations) == 25
    assert {location.name for location in ruleset.locations.values()} <= names
    ids = {e.attrib["id"] for e in root.iter() if "id" in e.attrib}
    assert {f"loc-{location}" for location in ruleset.locations} <= ids
    assert {f"link-{link}" for link in ruleset.links} <= ids and len(ruleset.links) == 36
    assert len([e for e in root.iter() if e.attrib.get("id", "").startswith("slot-")]) == 43
    assert not [i for i in ids if i.startswith("merchant-")]
    assert {"track-distant_market", "track-dm_tile", "track-sell_failed", "stack-dm_tiles"} <= ids


def test_the_picture_after_a_sale_shows_the_marker_and_the_piles_size(setup: Path) -> None:
    root = ET.fromstring(board_svg(sold(setup)))
    by_id = {e.attrib["id"]: e for e in root.iter() if "id" in e.attrib}
    assert by_id["track-distant_market"].attrib["data-value"] == "4"
    assert (by_id["stack-dm_tiles"].attrib["data-face-down"], by_id["stack-dm_tiles"].attrib["data-drawn"]) == \
        ("7", "3")
    assert "".join(by_id["stack-dm_tiles"].itertext()) == "Distant Market tiles: 7 face down, drawn 3"
    assert by_id["tile-macclesfield-0"].attrib["data-flipped"] == "true"
    assert by_id["player-1-income"].attrib["data-space"] == "17"


# -- brass serve ---------------------------------------------------------------------------------------

def test_the_web_view_of_lancashire(setup: Path) -> None:
    game = sold(setup)
    assert counters_json(game)["tracks"][0] == {"id": "distant_market", "name": "Distant Market demand",
                                                "value": 4, "min": 1, "max": 9}
    assert counters_json(game)["stacks"] == [{"id": "dm_tiles", "name": "Distant Market tiles", "face_down": 7,
                                              "drawn": [3]}]
    mat = {row["industry"]: row for row in mat_json(game, 1)}
    assert list(mat) == ["cotton_mill", "coal_mine", "iron_works", "port", "shipyard"]
    assert (mat["cotton_mill"]["left"], mat["shipyard"]["level"]) == (11, 0)
    assert set(mat["iron_works"]["needs"]) == {"coal", "iron"}  # no beer in Lancashire


def test_the_port_a_mill_is_sold_to_is_chosen_on_the_board() -> None:
    """Lancashire's Sell names its buyer `port`, a parameter of type tile: the page marks the Port's
    slot on the picture as it marks Birmingham's tiles (by the parameter's type, not its name)."""
    game = Game.from_setup(load_ruleset("lancashire"), 2, {
        "era": "canal", "round": 2, "turn_order": [1, 2], "current": 1, "actions_left": 2,
        "players": {1: {"hand": ["preston", "bolton"]}},
        "tiles": [{"slot": "warrington/1", "owner": 1, "industry": "cotton_mill", "level": 1},
                  {"slot": "warrington/0", "owner": 2, "industry": "port", "level": 1}]}, seed=1)
    session = PlaySession(game, ["human", "random"])
    preston = next(card.id for card in game.table.player(1).hand if card.face == "preston")
    for decision in ({"action": "sell"}, {"card": preston}, {"tile": "warrington/1"}, {"via": "port"}):
        game.apply(decision)
    rows = decisions_json(session)
    assert rows["board_keys"] == [{"key": "port", "attribute": "slot"}]
    assert [row["board"] for row in rows["decisions"]] == [{"attribute": "slot", "key": "port",
                                                             "value": "warrington/0"}]

