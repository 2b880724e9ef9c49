"""The front ends (`brass play`, `brass board`, `brass serve`) with a ruleset's own tracks and
stacks (issue 16, point 5): the tracks' values and the stacks' sizes are shown, never the order of
the face-down tiles; the help, the mat and the legend come from the ruleset, not from Birmingham.
Played on the small Distant Market variant (tests/data/distant-market)."""

from __future__ import annotations

import ast
import dataclasses
import io
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.console import Console

from interpreter import Game, load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.board import layout as board_layout
from interpreter.tools.board import panel as board_panel
from interpreter.tools.board.picture import board_svg
from interpreter.tools.cli import board as board_command
from interpreter.tools.play import keys as play_keys
from interpreter.tools.play import session as play_session
from interpreter.tools.play import tables as play_board
from interpreter.tools.play import terminal as play
from interpreter.tools.play.keys import help_text
from interpreter.tools.play.session import TerminalGame
from interpreter.tools.web import api as web_api
from interpreter.tools.web import guard as web_guard
from interpreter.tools.web import serve as web_app
from interpreter.tools.web import sessions as web_session
from interpreter.tools.web import sources as web_sources
from interpreter.tools.web import view as web_view
from interpreter.tools.web import work as web_work

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))
from position import card_id, mill_for_oxford, on_top

ROOT = Path(__file__).resolve().parents[1]
MARKET = ROOT / "tests" / "data" / "distant-market"
SVG = "{http://www.w3.org/2000/svg}"


def seller() -> Game:
    """Player 1 to act in Canal round 2 with a Cotton Mill I at Birmingham that Oxford's wild
    merchant buys (as in tests/test_stacks.py), and a 3 on top of the Distant Market pile."""
    g = Game.new(load_ruleset(MARKET), 2, 1)
    mill_for_oxford(g)
    on_top(g, "dm_tiles", [3])
    return g


def sold_once() -> Game:
    """The sale made: the marker goes 1 -> 4 and 7 of the 8 tiles stay face down."""
    g = seller()
    g.apply({"action": "sell", "card": card_id(g, 1, "dudley"),
             "sales": [{"tile": "birmingham/0", "merchant": "oxford/0", "merchant_beer": True}]})
    return g


def terminal(game: Game, *lines: str) -> str:
    out = io.StringIO()
    feed = iter(lines)
    TerminalGame(game, ["human", "random"], Console(file=out, width=80, color_system=None),
                 lambda: next(feed, None)).run()
    return out.getvalue()


def one_line(text: str) -> str:
    """The terminal's output with rich's wrapping undone (a long line may break anywhere)."""
    return re.sub(r"\s+", " ", text)


# -- brass play -------------------------------------------------------------------------------------

def test_the_summary_and_the_full_board_show_the_tracks_values_and_the_stacks_sizes() -> None:
    out = one_line(terminal(sold_once(), "m"))
    assert out.count("Distant Market demand 4 (1..9); Last Distant Market tile drawn 3 (0..4); "
                     "Distant Market tiles: 7 face down, drawn 3") == 2  # the summary, then `m`
    assert "Merchants: " in out  # this variant keeps Birmingham's merchants


def test_a_ruleset_without_tracks_shows_no_line_for_them() -> None:
    out = one_line(terminal(Game.new(load_ruleset("birmingham"), 2, 1), "m"))
    assert "face down" not in out and "(1..9)" not in out
    assert "Merchants: Shrewsbury: buys Manufacturer, has beer; Gloucester: buys Cotton Mill, Manufacturer, " \
           "Pottery, has beer; Oxford: buys Cotton Mill, has beer" in out  # seed 1, 2 players


def test_the_help_takes_its_examples_and_the_boards_parts_from_the_ruleset() -> None:
    birmingham, market = load_ruleset("birmingham"), load_ruleset(MARKET)
    first_card = next(iter(birmingham.cards))
    # Loan is Birmingham's first action whose only choice is a card
    assert f'{{"action": "loan", "card": "{first_card}#1"}}' in help_text(birmingham)
    assert "every tile, link, market and merchant\n" in help_text(birmingham)
    assert "every tile, link, market, merchant, track and stack\n" in help_text(market)
    assert "(e.g. ?n)" in help_text(birmingham)  # Network's key: the second action's
    assert max(len(line) for line in help_text(market).splitlines()) <= 80


def test_the_help_of_a_ruleset_without_merchants_promises_none() -> None:
    plain = _without_merchants(load_ruleset(MARKET))
    assert "every tile, link, market, track and stack\n" in help_text(plain)


def _without_merchants(ruleset: Ruleset) -> Ruleset:
    return dataclasses.replace(ruleset, merchants={})


# -- brass board --------------------------------------------------------------------------------------

def test_the_panel_draws_each_track_with_its_marker_and_each_stack_with_its_size() -> None:
    root = ET.fromstring(board_svg(sold_once()))
    ids = {e.attrib["id"]: e for e in root.iter() if "id" in e.attrib}
    demand = ids["track-distant_market"]
    assert (demand.attrib["data-value"], demand.attrib["data-min"], demand.attrib["data-max"]) == ("4", "1", "9")
    texts = ["".join(t.itertext()) for t in demand.findall(f"{SVG}text")]
    assert texts == ["Distant Market demand: 4", *map(str, range(1, 10))]
    spaces = demand.findall(f"{SVG}rect")
    assert len(spaces) == 9 and [r.attrib["fill"] for r in spaces].index("#333333") == 3  # space 4 of 1..9
    assert ids["track-dm_tile"].attrib["data-value"] == "3"
    stack = ids["stack-dm_tiles"]
    assert (stack.attrib["data-face-down"], stack.attrib["data-drawn"]) == ("7", "3")
    assert "".join(stack.itertext()) == "Distant Market tiles: 7 face down, drawn 3"


def test_the_face_down_order_is_not_in_the_picture() -> None:
    """Two games whose piles hold the same tiles in different orders draw the same picture."""
    first, second = Game.new(load_ruleset(MARKET), 2, 1), Game.new(load_ruleset(MARKET), 2, 1)
    with second.table.editing():
        second.state.stacks["dm_tiles"].reverse()
    assert first.state.stacks != second.state.stacks
    assert board_svg(first) == board_svg(second)


def test_the_legend_names_the_link_kinds_of_the_eras() -> None:
    root = ET.fromstring(board_svg(Game.new(load_ruleset(MARKET), 2, 1)))
    legend = next(e for e in root.iter() if e.attrib.get("id") == "legend")
    kinds = [era.link_kind for era in load_ruleset(MARKET).eras]
    labels = ["".join(t.itertext()) for t in legend.iter(f"{SVG}text")]
    assert labels[:3] == [f"a {kinds[0]} line", f"a {kinds[1]} line", f"a {kinds[0]} or {kinds[1]} line"]


# -- brass serve -------------------------------------------------------------------------------------

def test_the_web_view_lists_tracks_stacks_and_each_resource_a_tile_needs() -> None:
    game = sold_once()
    counters = web_view.counters_json(game)
    assert counters == {
        "tracks": [{"id": "distant_market", "name": "Distant Market demand", "value": 4, "min": 1, "max": 9},
                   {"id": "dm_tile", "name": "Last Distant Market tile drawn", "value": 3, "min": 0, "max": 4}],
        "stacks": [{"id": "dm_tiles", "name": "Distant Market tiles", "face_down": 7, "drawn": [3]}]}
    assert web_view.counters_json(Game.new(load_ruleset("birmingham"), 2, 1)) == {"tracks": [], "stacks": []}
    mat = {row["industry"]: row for row in web_view.mat_json(game, 1)}
    # the lowest tiles of Birmingham's mat: Iron Works I needs 1 coal; Manufacturer I 1 coal
    assert mat["iron"]["needs"] == {"coal": 1, "iron": 0, "beer": 0}
    assert [r["id"] for r in web_view.resources_json(game.ruleset)] == list(game.ruleset.resources)


def test_board_decisions_are_marked_by_the_type_of_their_parameter() -> None:
    """Sell's tile (type tile: found by its slot) and merchant (type merchant_tile: by its space)
    are clickable on the picture, whatever the ruleset calls the parameters."""
    game = seller()
    session = web_session.PlaySession(game, ["human", "random"])
    marked = []
    for decision in ({"action": "sell"}, {"card": card_id(game, 1, "dudley")}, {"tile": "birmingham/0"}):
        game.apply(decision)
        rows = web_view.decisions_json(session)
        marked.append((rows["board_keys"], [row.get("board") for row in rows["decisions"]]))
    assert marked == [
        ([], [None, None, None]),  # the cards: in the hand, not on the board
        ([{"key": "tile", "attribute": "slot"}], [{"attribute": "slot", "key": "tile", "value": "birmingham/0"}]),
        ([{"key": "merchant", "attribute": "space"}],
         [{"attribute": "space", "key": "merchant", "value": "oxford/0"}])]


# -- no game's words in the front ends' code ------------------------------------------------------------

MODULES = (play, play_board, play_keys, play_session, web_api, web_app, web_guard, web_session, web_sources, web_view,
           web_work, board_command, board_layout, board_panel)
STATIC = ROOT / "interpreter" / "tools" / "web" / "static"


def game_words(ruleset: Ruleset) -> set[str]:
    """The ids and names of the ruleset's resources, industries, locations, link kinds and actions."""
    words: set[str] = set()
    for things in (ruleset.resources, ruleset.industries, ruleset.locations, ruleset.actions):
        for thing_id, thing in things.items():
            words |= {thing_id.lower(), thing.name.lower()}
    return words | {era.link_kind for era in ruleset.eras}


def literals(source: str) -> list[str]:
    """Every string literal of a module but its docstrings."""
    tree = ast.parse(source)
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs]


@pytest.mark.parametrize("name", ["birmingham", "lancashire", str(MARKET)])
def test_no_string_of_the_front_ends_names_a_thing_of_the_game(name: str) -> None:
    """A literal that is a game word, or quotes one (`"loan"` in an example), would tie the front
    end to one game; the page's script and markup are read for quoted words too."""
    words = game_words(load_ruleset(name))
    found = []
    for module in MODULES:
        for text in literals(Path(str(module.__file__)).read_text(encoding="utf-8")):
            if text.strip().lower() in words or any(f'"{w}"' in text.lower() for w in words):
                found.append(f"{module.__name__}: {text!r}")
    for path in sorted(STATIC.iterdir()):
        quoted = re.findall(r"""["'`]([^"'`]+)["'`]""", path.read_text(encoding="utf-8"))
        found += [f"{path.name}: {text!r}" for text in quoted if text.strip().lower() in words]
    assert found == []
