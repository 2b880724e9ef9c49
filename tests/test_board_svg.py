"""The picture of a position (`board_svg`, `brass board`, issue 15): what it draws, from the
ruleset's data, for any ruleset; the automatic layout of a map without positions; the command."""

from __future__ import annotations

import dataclasses
import io
import json
import math
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.board import layout as board_layout
from interpreter.tools.board import panel as board_panel
from interpreter.tools.board import picture as board_svg
from interpreter.tools.board import style as board_style
from interpreter.tools.board import svg
from interpreter.tools.board.picture import board_svg as draw
from interpreter.tools.board.picture import player_colour
from interpreter.tools.cli.main import main

SVG = "{http://www.w3.org/2000/svg}"
REAL_GAMES = Path(__file__).resolve().parents[2] / "shared" / "real-games" / "traces"


def parse(text: str) -> ET.Element:
    return ET.fromstring(text.encode("utf-8"))


def by_id(root: ET.Element) -> dict[str, ET.Element]:
    return {e.attrib["id"]: e for e in root.iter() if "id" in e.attrib}


def of_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.attrib.get("class") == name]


def text_of(element: ET.Element) -> str:
    return "".join(element.itertext())


@pytest.fixture(scope="module")
def birmingham():
    return load_ruleset("birmingham")


# -- what the picture of a new game shows ---------------------------------------------------------

def test_the_start_of_a_4_player_game_has_every_location_slot_link_and_merchant_space(birmingham) -> None:
    root = parse(draw(Game.new(birmingham, 4, seed=0)))
    assert root.tag == f"{SVG}svg"
    assert len(of_class(root, "location")) == 27
    assert len(of_class(root, "slot")) == 49
    assert len(of_class(root, "link")) == 39
    spaces = of_class(root, "merchant-space")
    assert len(spaces) == 9 and all(s.attrib["data-in-play"] == "true" for s in spaces)
    assert of_class(root, "tile") == []
    ids = by_id(root)
    assert ids["slot-stoke_on_trent-1"].attrib["data-slot"] == "stoke_on_trent/1"
    assert ids["slot-stoke_on_trent-1"].attrib["data-industries"] == "pottery iron"
    link = ids["link-L30"].attrib
    assert (link["data-ends"], link["data-canal"], link["data-rail"]) == ("kidderminster worcester farm_south",
                                                                        "true", "true")
    assert "data-owner" not in link
    assert ids["link-L02"].attrib["data-this-era"] == "false"  # rail only, in the Canal Era
    assert ids["link-L02"].attrib["opacity"] == "0.4"
    assert ids["loc-farm_north"].attrib["data-kind"] == "farm_brewery"


def test_players_figures_markets_and_deck_at_the_start(birmingham) -> None:
    root = parse(draw(Game.new(birmingham, 4, seed=649)))
    ids = by_id(root)
    for seat in (1, 2, 3, 4):
        assert text_of(ids[f"player-{seat}-money"]) == "£17"
        assert text_of(ids[f"player-{seat}-income"]) == "+0"
        assert ids[f"player-{seat}-income"].attrib["data-space"] == "10"
        assert text_of(ids[f"player-{seat}-vp"]) == "0"
        assert text_of(ids[f"player-{seat}-links"]) == "14"
        assert text_of(ids[f"player-{seat}-hand"]) == "8"
        assert text_of(ids[f"player-{seat}-left-coal"]) == "Coal I: 7"
        assert ids[f"player-{seat}-left-manufacturer"].attrib["data-tiles-left"] == "11"
    assert ids["turn-order"].attrib["data-order"] == "2 1 3 4"  # seed 649
    assert text_of(ids["to-play"]) == "Player 2 to play, 1 action left"
    assert text_of(ids["era"]) == "Canal Era, round 1 of 8"
    coal = ids["market-coal"].attrib
    assert (coal["data-cubes"], coal["data-capacity"]) == ("13", "14")
    # filled from the most expensive space down: the first £1 space is the empty one
    assert [ids[f"market-coal-{i}"].attrib["data-filled"] for i in (0, 1, 13)] == ["false", "true", "true"]
    assert ids["market-iron-1"].attrib == {"id": "market-iron-1", "data-price": "1", "data-filled": "false"}
    assert text_of(ids["deck"]) == "Draw deck: 28 cards"  # 64 cards, 8 dealt to each of 4 players, 4 face down


def test_at_2_players_the_merchant_spaces_out_of_play_are_drawn_as_such(birmingham) -> None:
    ids = by_id(parse(draw(Game.new(birmingham, 2, seed=3))))
    in_play = {k: v.attrib["data-in-play"] for k, v in ids.items() if k.startswith("merchant-")}
    assert [k for k, v in in_play.items() if v == "false"] == ["merchant-warrington-0", "merchant-warrington-1",
                                                               "merchant-nottingham-0", "merchant-nottingham-1"]
    assert "data-tile" not in ids["merchant-nottingham-0"].attrib


def seat_numbers(group: ET.Element) -> list[ET.Element]:
    """The texts of the seat-number badges inside `group`."""
    return [t for badge in group.iter() if badge.attrib.get("class") == "seat-number" for t in badge.iter(f"{SVG}text")]


# Machado, Oliveira and Fernandes (2009): linear-RGB matrices simulating full dichromacy.
DICHROMACY = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def seen_as(colour: str, matrix: tuple[tuple[float, float, float], ...]) -> tuple[float, ...]:
    """`#rrggbb` as a reader with that dichromacy sees it, in sRGB 0-255."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    def gamma(c: float) -> float:
        c = min(1.0, max(0.0, c))
        return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)
    rgb = [linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5)]
    return tuple(gamma(sum(m * v for m, v in zip(row, rgb, strict=True))) for row in matrix)


def closest_pair(colours: list[str], matrix: tuple[tuple[float, float, float], ...]) -> float:
    seen = [seen_as(c, matrix) for c in colours]
    return min(math.dist(a, b) for n, a in enumerate(seen) for b in seen[n + 1:])


def test_the_four_seats_colours_stay_apart_for_colour_blind_readers() -> None:
    """Issue 25: seats 1 (red) and 4 (green) looked the same under deuteranopia. Simulated, the old
    colours' closest pair was 30 apart (of 441, sRGB distance) under deuteranopia; Okabe-Ito's are
    at least 65 apart under each dichromacy (69.7 the closest) and at least 140 for normal vision."""
    old = ["#d62728", "#1f77b4", "#f2c12e", "#2ca02c"]
    assert round(closest_pair(old, DICHROMACY["deuteranopia"])) == 30
    seats = [player_colour(seat) for seat in (1, 2, 3, 4)]
    assert len(set(seats)) == 4
    for name, matrix in DICHROMACY.items():
        assert closest_pair(seats, matrix) >= 65, name
    identity = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    assert closest_pair(seats, identity) >= 140


def test_a_built_tile_is_drawn_in_its_owners_colour_at_its_slot(birmingham) -> None:
    game = Game.new(birmingham, 4, seed=649)
    game.apply({"action": "build", "industry": "cotton", "card": "leek#2", "location": "leek", "slot": "leek/0"})
    ids = by_id(parse(draw(game)))
    tile = ids["tile-leek-0"]
    assert tile.attrib == {"id": "tile-leek-0", "class": "tile", "data-owner": "2", "data-industry": "cotton",
                           "data-level": "1", "data-flipped": "false", "data-cubes": "0"}
    body = tile.find(f"{SVG}rect")
    assert body is not None and body.attrib["fill"] == player_colour(2) == "#56b4e9"  # Okabe-Ito's sky blue
    assert "I" in [text_of(t) for t in tile.iter(f"{SVG}text")]
    assert [text_of(e) for e in tile.iter(f"{SVG}text") if e in seat_numbers(tile)] == ["2"]
    assert tile in list(ids["slot-leek-0"])  # inside its slot
    assert "tile-leek-1" not in ids
    assert text_of(ids["player-2-money"]) == "£5"  # £17 - £12 for Cotton Mill I
    assert text_of(ids["player-2-spent"]) == "£12"
    assert text_of(ids["player-2-left-cotton"]) == "Cot I: 10"  # Cotton Mill I: 3 tiles, 2 left


def test_a_built_link_a_producers_cubes_and_a_flipped_tile(birmingham) -> None:
    given = {"players": {1: {"money": 50}},
             "tiles": [{"slot": "dudley/0", "owner": 1, "industry": "coal", "level": 1, "cubes": 2},
                       {"slot": "dudley/1", "owner": 2, "industry": "iron", "level": 1, "flipped": True},
                       {"slot": "stone/0", "owner": 2, "industry": "brewery", "level": 1, "cubes": 1}],
             "links": [{"link": "L04", "owner": 2}]}
    root = parse(draw(Game.from_setup(birmingham, 2, given, seed=1)))
    ids = by_id(root)
    assert ids["tile-dudley-0"].attrib["data-cubes"] == "2"
    assert len([e for e in ids["tile-dudley-0"].iter() if e.attrib.get("class") == "cube"]) == 2
    brewery = ids["tile-stone-0"]  # beer, the resource merchants hold, is drawn as barrels
    assert [e.tag for e in brewery.iter() if e.attrib.get("class") in ("cube", "barrel")] == [f"{SVG}circle"]
    flipped = ids["tile-dudley-1"]
    assert flipped.attrib["data-flipped"] == "true"
    assert [text_of(e) for e in flipped.iter() if e.attrib.get("class") == "flipped"] == ["✓ 3 VP"]
    link = ids["link-L04"]
    assert (link.attrib["data-owner"], link.attrib["data-built"]) == ("2", "canal")
    assert player_colour(2) in [line.attrib["stroke"] for line in link.iter(f"{SVG}line")]
    assert [text_of(e) for e in seat_numbers(link)] == ["2"]  # the owner's number on the line
    assert [text_of(e) for e in seat_numbers(ids["tile-dudley-0"])] == ["1"]
    assert text_of(ids["player-1-money"]) == "£50"


def test_the_same_position_gives_the_same_bytes_and_a_seats_view_draws_the_same_board(birmingham) -> None:
    game = Game.new(birmingham, 3, seed=7)
    first = draw(game)
    assert draw(Game.new(birmingham, 3, seed=7)) == first
    assert draw(game.view(1)) == first == draw(game.view(3))


def test_a_question_at_the_rounds_end_marks_the_player_who_must_answer(birmingham) -> None:
    """At the end of round 2 of seed 45 (2 players), player 1 cannot pay £2 of income and must choose a
    tile to remove (R-SHORT-02); no turn is under way then, so the panel names who is deciding."""
    game = Game.new(birmingham, 2, seed=45)
    for _ in range(44):
        game.apply(game.legal_actions()[0])
    assert game.question is not None and game.question["rule"] == "R-SHORT-02"
    root = ET.fromstring(draw(game))
    to_play = next(e for e in root.iter() if e.get("id") == "to-play")
    assert to_play.get("data-seat") == "1"
    assert "".join(to_play.itertext()).startswith("Player 1 to play")


def test_text_from_the_ruleset_is_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(
        'name: odd\ntitle: "Brass <&> \\"quoted\\", a title long enough for two lines"\nversion: "1"\n'
        'extends: birmingham\n'
        'locations:\n  leek: {name: "Leek\\x01 & <Sons>"}\n', encoding="utf-8")  # \x01: not allowed in XML
    ruleset = load_ruleset(str(folder))
    root = parse(draw(Game.new(ruleset, 2, seed=0)))
    location = by_id(root)["loc-leek"]
    assert text_of(location.find(f"{SVG}title")) == "Leek & <Sons>"
    title = 'Brass <&> "quoted", a title long enough for two lines'
    assert text_of(root.find(f"{SVG}title")) == title
    lines = [text_of(e) for e in of_class(root, "title")]  # the panel's heading, wrapped to its width
    assert len(lines) == 2 and " ".join(lines) == title


def test_no_python_string_names_a_location_or_industry_of_birmingham(birmingham) -> None:
    """The picture is drawn from the ruleset's data: none of its modules spells out a name of the map."""
    ids = [*birmingham.locations, *birmingham.industries, *birmingham.resources, *birmingham.markets,
           *birmingham.colour_groups, *birmingham.merchant_tiles]
    for module in (board_svg, board_panel, board_style, board_layout, svg):
        source = Path(module.__file__).read_text(encoding="utf-8")
        assert [i for i in ids if f'"{i}"' in source or f"'{i}'" in source] == [], module.__name__


def test_labels_and_colours_a_ruleset_does_not_give_are_chosen(birmingham) -> None:
    plain = dataclasses.replace(birmingham, industries={
        iid: dataclasses.replace(ind, short=None, colour=None) for iid, ind in birmingham.industries.items()})
    palette = board_style.Palette.of(plain)
    assert palette.labels == {"cotton": "Cot", "coal": "Coa", "iron": "Iro", "manufacturer": "Man",
                              "pottery": "Pot", "brewery": "Bre"}
    assert list(palette.industries.values()) == list(board_style.FALLBACK_COLOURS[:6])
    assert palette.resources["coal"] == palette.industries["coal"]  # cubes: the producing industry's colour
    assert palette.barrel == palette.industries["brewery"]  # merchants hold the resource breweries make
    given = board_style.Palette.of(birmingham)
    assert (given.labels["manufacturer"], given.industries["coal"]) == ("Man", "#3a3a3a")  # industries.yaml


# -- positions --------------------------------------------------------------------------------------

def test_birmingham_places_every_location_as_on_the_board(birmingham) -> None:
    at = {lid: loc.at for lid, loc in birmingham.locations.items()}
    assert None not in at.values()
    assert at["birmingham"] == (620, 870)
    x, y = (lambda lid: at[lid][0]), (lambda lid: at[lid][1])
    assert x("shrewsbury") < x("coalbrookdale") < x("wolverhampton") < x("birmingham") < x("coventry")
    assert y("warrington") < y("stoke_on_trent") < y("stafford") < y("cannock") < y("birmingham") < y("gloucester")
    assert x("nottingham") > x("derby") > x("burton_on_trent") and y("nottingham") < y("birmingham")


def _without_positions(tmp_path: Path, keep: tuple[str, ...] = ()) -> Path:
    """A ruleset that extends birmingham and removes the `at` of every location not in `keep`."""
    folder = tmp_path / "no_positions"
    folder.mkdir()
    birmingham = load_ruleset("birmingham")
    removed = {lid: {"$remove": ["at"]} for lid in birmingham.locations if lid not in keep}
    (folder / "ruleset.yaml").write_text(
        "name: no_positions\ntitle: A map without positions\nversion: \"1\"\nextends: birmingham\n"
        f"locations: {json.dumps(removed)}\n", encoding="utf-8")
    return folder


def _boxes(root: ET.Element) -> dict[str, tuple[float, float, float, float]]:
    """Each location's box on the picture: left, top, width, height."""
    boxes = {}
    for group in of_class(root, "location"):
        left, top = (float(v) for v in group.attrib["transform"].removeprefix("translate(").rstrip(")").split(","))
        frame = group.find(f"{SVG}rect")
        assert frame is not None
        boxes[group.attrib["data-location"]] = (left, top, float(frame.attrib["width"]),
                                                float(frame.attrib["height"]))
    return boxes


def _overlapping(boxes: dict[str, tuple[float, float, float, float]]) -> list[tuple[str, str]]:
    items = list(boxes.items())
    return [(a, b) for n, (a, (ax, ay, aw, ah)) in enumerate(items) for b, (bx, by, bw, bh) in items[n + 1:]
            if ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah]


def test_birminghams_own_boxes_do_not_overlap(birmingham) -> None:
    assert _overlapping(_boxes(parse(draw(Game.new(birmingham, 4, seed=0))))) == []


def test_a_map_without_positions_is_laid_out_the_same_way_every_time_with_no_box_on_another(tmp_path: Path) -> None:
    ruleset = load_ruleset(str(_without_positions(tmp_path)))
    assert all(loc.at is None for loc in ruleset.locations.values())
    first = board_layout.location_positions(ruleset)
    assert board_layout.location_positions(ruleset) == first
    assert len(set(first.values())) == 27
    picture = draw(Game.new(ruleset, 4, seed=0))
    assert draw(Game.new(ruleset, 4, seed=0)) == picture
    boxes = _boxes(parse(picture))
    assert len(boxes) == 27 and _overlapping(boxes) == []
    # linked locations end up nearer each other than locations in general
    centre = {lid: (x + w / 2, y + h / 2) for lid, (x, y, w, h) in boxes.items()}

    def distance(a: str, b: str) -> float:
        return float(((centre[a][0] - centre[b][0]) ** 2 + (centre[a][1] - centre[b][1]) ** 2) ** 0.5)

    linked = [distance(*link.ends[:2]) for link in ruleset.links.values()]
    pairs = [distance(a, b) for n, a in enumerate(centre) for b in list(centre)[n + 1:]]
    assert sum(linked) / len(linked) < 0.6 * sum(pairs) / len(pairs)


def test_a_location_without_a_position_is_placed_among_those_that_have_one(tmp_path: Path) -> None:
    placed = tuple(lid for lid in load_ruleset("birmingham").locations if lid != "tamworth")
    ruleset = load_ruleset(str(_without_positions(tmp_path, keep=placed)))
    positions = board_layout.location_positions(ruleset)
    assert all(positions[lid] == ruleset.locations[lid].at for lid in placed)
    assert positions["tamworth"] not in [ruleset.locations[lid].at for lid in placed]
    assert _overlapping(_boxes(parse(draw(Game.new(ruleset, 2, seed=0))))) == []


def test_a_map_too_large_for_the_force_layout_is_laid_out_on_a_grid(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    placed = tuple(lid for lid in load_ruleset("birmingham").locations if lid < "m")  # 14 placed, 13 free
    ruleset = load_ruleset(str(_without_positions(tmp_path, keep=placed)))
    monkeypatch.setattr(board_layout, "MAX_FORCE_LOCATIONS", 12)
    positions = board_layout.location_positions(ruleset, dict.fromkeys(ruleset.locations, (150.0, 70.0)))
    assert all(positions[lid] == ruleset.locations[lid].at for lid in placed)
    free = [positions[lid] for lid in ruleset.locations if lid not in placed]
    assert len({x for x, _ in free}) == 3 and len({y for _, y in free}) == 5  # 3 columns (isqrt 13), 5 rows
    lowest_placed = max(ruleset.locations[lid].at[1] for lid in placed)
    assert min(y for _, y in free) == lowest_placed + 84  # below the placed ones, a box and a gap down
    assert _overlapping(_boxes(parse(draw(Game.new(ruleset, 2, seed=0))))) == []


@pytest.mark.parametrize(("at", "message"), [
    ("[5]", "locations.leek.at"),
    ('[5, "x"]', "locations.leek.at"),
    ("[5, 10001]", "locations.leek.at"),
    ("[330, 170]", "location 'stoke_on_trent' is at the same point as 'leek' (330, 170)"),
])
def test_a_bad_position_is_an_error_at_its_place(tmp_path: Path, at: str, message: str) -> None:
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(f'name: bad\ntitle: Bad\nversion: "1"\nextends: birmingham\n'
                                         f"locations:\n  leek:\n    at: {at}\n", encoding="utf-8")
    with pytest.raises(RulesetError) as error:
        load_ruleset(str(folder))
    [problem] = error.value.diagnostics
    # at the variant's value, or at the base's location that now shares its point
    assert message in str(problem) and ("bad/ruleset.yaml:7:" in str(problem) or "board.yaml:" in str(problem))


# -- brass board ----------------------------------------------------------------------------------

def test_brass_board_draws_the_start_of_a_4_player_game(tmp_path: Path, run) -> None:
    out_file = tmp_path / "b.svg"
    status, out, err = run("board", "--svg", str(out_file))
    assert (status, err) == (0, "")
    assert out == f"wrote {out_file}: Brass: Birmingham, 4 players, Canal Era, round 1\n"
    root = parse(out_file.read_text(encoding="utf-8"))
    assert len(of_class(root, "player")) == 4
    assert out_file.read_text(encoding="utf-8") == draw(Game.new(load_ruleset("birmingham"), 4, seed=0))


def test_brass_board_to_standard_output_from_a_setup_and_a_saved_game(tmp_path: Path, run) -> None:
    setup = tmp_path / "setup.yaml"
    setup.write_text("players: 3\nseed: 4\ngiven:\n  players:\n    2: {money: 41}\n", encoding="utf-8")
    status, out, err = run("board", "--from", str(setup), "--svg", "-")
    assert status == 0, err
    assert text_of(by_id(parse(out))["player-2-money"]) == "£41"
    game = Game.new(load_ruleset("birmingham"), 2, seed=9)
    game.apply(game.whole_actions()[0])
    save = tmp_path / "game.json"
    save.write_text(game.to_json(), encoding="utf-8")
    status, out, err = run("board", "--load", str(save), "--svg", "-")
    assert status == 0, err
    assert out == draw(game)


@pytest.mark.skipif(not REAL_GAMES.is_dir(), reason="the real games are in ../shared/real-games")
def test_brass_board_draws_a_real_game_after_n_steps(run) -> None:
    path = sorted(REAL_GAMES.glob("*.trace.json"))[0]
    trace = json.loads(path.read_text(encoding="utf-8"))
    tiles: dict[tuple[str, int], bool] = {}  # the trace's own record of the board after 12 steps
    for step in trace["steps"][:12]:
        for change in step["effects"].get("slots", []):
            tiles[(change["location"], change["slotIndex"])] = change["after"] is not None
    status, out, err = run("board", "--trace", str(path), "--step", "12", "--svg", "-")
    assert status == 0, err
    assert len(of_class(parse(out), "tile")) == sum(tiles.values()) > 0
    status, out, err = run("board", "--trace", str(path), "--step", "0", "--svg", "-")
    assert status == 0 and of_class(parse(out), "tile") == []


@pytest.mark.skipif(not REAL_GAMES.is_dir(), reason="the real games are in ../shared/real-games")
def test_the_end_of_a_real_game_shows_the_recorded_scores_and_places(run) -> None:
    path = REAL_GAMES / "anon-4p2-human-vs-jsb-v20260910-0908.trace.json"
    final = json.loads(path.read_text(encoding="utf-8"))["scores"]["finalVP"]
    status, out, err = run("board", "--trace", str(path), "--svg", "-")
    assert status == 0, err
    root = parse(out)
    ids = by_id(root)
    assert final == [154, 124, 110, 112]
    assert [text_of(ids[f"player-{seat}-vp"]) for seat in (1, 2, 3, 4)] == ["154", "124", "110", "112"]
    assert [text_of(ids[f"player-{seat}-name"]) for seat in (1, 2, 3, 4)] == [
        "Player 1: place 1", "Player 2: place 2", "Player 3: place 4", "Player 4: place 3"]
    assert text_of(ids["to-play"]) == "The game is over"
    # the links are scored and removed at the end of the last era; the tiles stay
    assert [e for e in of_class(root, "link") if "data-owner" in e.attrib] == []
    assert len(of_class(root, "tile")) > 20


@pytest.mark.parametrize(("args", "message"), [
    ((), "say where to write the picture: --svg FILE"),
    (("--players", "5", "--svg", "-"), "Brass: Birmingham is played by 2, 3, 4 players, not 5"),
    (("--step", "3", "--svg", "-"), "--step goes with --trace"),
    (("--load", "x.json", "--players", "2", "--svg", "-"), "--players is for a new game or a --from file"),
    (("--svg", "/no/such/folder/b.svg"), "cannot write /no/such/folder/b.svg: the folder /no/such/folder does not"),
    (("--svg", "-", "--png", "-"), "only one of --svg and --png can be -"),
    (("--load", "/no/such/game.json", "--svg", "-"), "/no/such/game.json"),
    (("--trace", "/no/such.trace.json", "--svg", "-"), "/no/such.trace.json"),
    (("no_such_ruleset", "--svg", "-"), "no_such_ruleset"),
])
def test_bad_arguments_give_a_clear_error(run, args: tuple[str, ...], message: str) -> None:
    status, out, err = run("board", *args)
    assert status == 1 and out == ""
    assert message in err and "Traceback" not in err


def test_a_step_beyond_the_trace_and_two_sources_are_refused(tmp_path: Path, run) -> None:
    if REAL_GAMES.is_dir():
        path = sorted(REAL_GAMES.glob("*.trace.json"))[0]
        steps = len(json.loads(path.read_text(encoding="utf-8"))["steps"])
        status, _, err = run("board", "--trace", str(path), "--step", str(steps + 1), "--svg", "-")
        assert status == 1 and f"--step must be 0 to {steps}, not {steps + 1}" in err
    with pytest.raises(SystemExit) as exit_:
        run("board", "--from", "a.yaml", "--load", "b.json", "--svg", "-")
    assert exit_.value.code == 2  # argparse: not allowed with argument --from


def test_a_link_keeps_being_a_link_and_a_folder_is_refused(tmp_path: Path, run) -> None:
    real, link = tmp_path / "real.svg", tmp_path / "link.svg"
    link.symlink_to(real)
    status, out, err = run("board", "--players", "2", "--svg", str(link))
    assert status == 0, err
    assert link.is_symlink() and real.read_text(encoding="utf-8").startswith("<svg ")
    status, out, err = run("board", "--svg", str(tmp_path))
    assert (status, out) == (1, "") and f"cannot write {tmp_path}: it is a folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.svg", "real.svg"]  # no temporary file left


def test_png_needs_cairosvg_and_writes_a_png(tmp_path: Path, run, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("cairosvg")
    png = tmp_path / "b.png"
    status, out, err = run("board", "--players", "2", "--png", str(png))
    assert status == 0, err
    assert out == f"wrote {png}: Brass: Birmingham, 2 players, Canal Era, round 1\n"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")  # a binary standard output, as a terminal's or a pipe's
    monkeypatch.setattr(sys, "stdout", stdout)
    assert main(["board", "--players", "2", "--png", "-", "--svg", str(tmp_path / "b.svg")]) == 0
    stdout.flush()
    assert stdout.buffer.getvalue() == png.read_bytes()  # the same PNG, and nothing else
    assert (tmp_path / "b.svg").read_text(encoding="utf-8").startswith("<svg ")


def test_without_cairosvg_png_is_refused_and_nothing_is_written(tmp_path: Path, run,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if it were not installed
    status, out, err = run("board", "--svg", str(tmp_path / "b.svg"), "--png", str(tmp_path / "b.png"))
    assert (status, out) == (1, "")
    assert "--png needs the optional package cairosvg (pip install 'brass-rules[png]')" in err
    assert list(tmp_path.iterdir()) == []
