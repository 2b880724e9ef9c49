"""Resources and link kinds declared by the ruleset (issue 16, docs/lancashire.md gap 1): a tile's and
a Network row's `needs:` map, a line's `kinds:`, `link_kinds:`, and Birmingham's named keys
(`coal: 1`, `canal: true`) read as sugar for them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from brass_dsl import DslEvaluationError, Env, compile_expression
from interpreter.engine.game import Game
from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.board.picture import board_svg

HEADER = "name: declared\ntitle: Declared\nversion: '1'\nextends: birmingham\n"
SHIPYARD = "industries:\n  shipyard: {name: Shipyard, flips: built}\ntiles:\n  shipyard:\n    - "
SHIP_TILE = "level: 1, count: 2, cost: 16, vp: 10, link_icons: 1, income: 2, develop: true, eras: [canal]"


def variant(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "declared"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ruleset.yaml").write_text(HEADER + text, encoding="utf-8")
    return folder


def test_birmingham_declares_its_kinds_and_needs_through_the_sugar() -> None:
    rs = load_ruleset("birmingham")
    assert list(rs.link_kinds) == ["canal", "rail"]  # no `link_kinds:`: the eras' kinds, in era order
    assert rs.links["L02"].kinds == ("rail",)  # belper–leek: `canal: false, rail: true` (R-LINK-07)
    assert rs.links["L01"].kinds == ("canal", "rail")
    assert sum(link.takes("canal") for link in rs.links.values()) == 31  # board.yaml: 31 `canal: true`
    assert sum(link.takes("rail") for link in rs.links.values()) == 38  # and 38 `rail: true`
    # Manufacturer I: £8, 1 coal, no iron, 1 beer to sell; every declared resource is listed
    assert rs.tiles["manufacturer"][0].needs == {"coal": 1, "iron": 0, "beer": 1}
    rail = rs.era("rail")
    assert [(o.links, o.money, dict(o.needs)) for o in rail.network] == [
        (1, 5, {"coal": 1, "iron": 0, "beer": 0}), (2, 15, {"coal": 2, "iron": 0, "beer": 1})]
    assert rs.barrel_resource == "beer"


def test_the_vocabulary_reads_needs_per_declared_resource() -> None:
    rs = load_ruleset("birmingham")
    def value(text: str) -> object:
        return compile_expression(text, rs.registry)(Env())

    assert value('needs(tile_spec("manufacturer", 1), "coal")') == 1
    assert value('tile_spec("manufacturer", 1).beer') == 1
    assert value('tile_spec("iron", 1).coal') == 1
    assert value('network_row("rail", 2).beer') == 1
    assert value('network_row("rail", 2).coal') == 2
    assert value('network_row("rail", 2).iron') == 0
    assert value('count(k in links where k.rail)') == 38
    assert value('count(k in links where k.canal and not k.rail)') == 1
    assert value('takes("L02", "rail") and not takes("L02", "canal")') is True  # belper–leek, R-LINK-07
    with pytest.raises(DslEvaluationError, match="'road' is not a link kind"):
        value('takes("L02", "road")')


def test_the_map_forms_equal_the_sugar(tmp_path: Path) -> None:
    """`needs:` and `kinds:` give the same model as the named keys they replace."""
    text = (f"{SHIPYARD}{{{SHIP_TILE}, needs: {{coal: 1, iron: 2}}}}\n"
            "links:\n  K01: {ends: [belper, derby], kinds: [rail]}\n")
    rs = load_ruleset(variant(tmp_path, text))
    assert rs.tiles["shipyard"][0].needs == {"coal": 1, "iron": 2, "beer": 0}
    assert rs.links["K01"].kinds == ("rail",)
    sugar = text.replace("needs: {coal: 1, iron: 2}", "coal: 1, iron: 2").replace("kinds: [rail]", "rail: true")
    other = load_ruleset(variant(tmp_path / "sugar", sugar))
    assert other.tiles["shipyard"][0].needs == rs.tiles["shipyard"][0].needs
    assert other.links["K01"].kinds == rs.links["K01"].kinds


@pytest.mark.parametrize("text, line, message", [
    (f"{SHIPYARD}{{{SHIP_TILE}, cole: 1}}\n", 5,
     "unknown key 'cole' (neither a field nor a resource); did you mean 'coal'?"),
    (f"{SHIPYARD}{{{SHIP_TILE}, needs: {{coal: 1, ale: 1}}}}\n", 5, "unknown resource 'ale'"),
    (f"{SHIPYARD}{{{SHIP_TILE}, coal: 1, needs: {{coal: 1}}}}\n", 5,
     "'coal' is written twice: as a key and in needs"),
    (f"{SHIPYARD}{{{SHIP_TILE}, needs: {{beer: 1}}}}\n", 5, "'shipyard' tiles are not sold, so they need no beer"),
    (f"{SHIPYARD}{{{SHIP_TILE}, coal: -1}}\n", 5, "tiles.shipyard.0.coal must be at least 0, not -1"),
    ("links:\n  K01: {ends: [belper, derby], kinds: [road]}\n", 2, "unknown link kind 'road'"),
    ("links:\n  K01: {ends: [belper, derby], raill: true}\n", 2,
     "unknown key 'raill' (neither a field nor a link kind); did you mean 'rail'?"),
    ("links:\n  K01: {ends: [belper, derby], canal: false}\n", 2, "link K01 takes no kind of link (canal, rail)"),
    ("links:\n  K01: {ends: [belper, derby], canal: yes}\n", 2, "links.K01.canal must be true or false, "
                                                                "not string 'yes'"),
])
def test_bad_declared_ids_are_located(variant_errors: Callable[[str], list[tuple[int, str]]], text: str, line: int,
                                      message: str) -> None:
    found = variant_errors(text)
    assert (line, message) in found, found


def test_an_era_names_a_declared_link_kind(variant_errors: Callable[[str], list[tuple[int, str]]]) -> None:
    """Declared kinds without `rail`: the Rail Era's `link_kind` (flow.yaml) and every line's
    `rail: true` name nothing."""
    found = variant_errors("link_kinds:\n  canal: {name: Canal}\n")
    messages = [m for _, m in found]
    assert "unknown link kind 'rail'" in messages, found
    assert "unknown key 'rail' (neither a field nor a link kind); a link kind is one of: canal" in messages


def test_a_declared_link_kind_colours_the_board(tmp_path: Path) -> None:
    """`link_kinds:` gives the picture's colours and dashes; the default palette keeps Birmingham's."""
    text = "link_kinds:\n  canal: {name: Waterway, colour: '#123456'}\n  rail: {name: Rail, dashed: false}\n"
    rs = load_ruleset(variant(tmp_path, text))
    assert rs.link_kinds["canal"].name == "Waterway"
    svg = board_svg(Game.new(rs, players=2, seed=1))
    assert 'stroke="#123456"' in svg
    assert "a waterway line" in svg and "a waterway or rail line" in svg
    assert 'stroke-dasharray="6 5"' not in svg  # neither kind is dashed now
    plain = board_svg(Game.new(load_ruleset("birmingham"), players=2, seed=1))
    assert 'stroke="#4f8fc0"' in plain and 'stroke-dasharray="6 5"' in plain and "a canal or rail line" in plain
    assert 'data-canal="true"' in plain


@pytest.mark.parametrize("text, line, message", [
    (f"{SHIPYARD}{{{SHIP_TILE}, 1: 2}}\n", 5, "unknown key '1' (neither a field nor a resource); a resource is one "
                                              "of: coal, iron, beer"),
    ("links:\n  K01: {ends: [belper, derby], 2: true}\n", 2, "unknown key '2' (neither a field nor a link kind); "
                                                             "a link kind is one of: canal, rail"),
    (f"{SHIPYARD}{{{SHIP_TILE}, needs: [coal]}}\n", 5, "tiles.shipyard.0.needs must be a mapping, not a list"),
    ("links:\n  K01: {ends: [belper, derby], kinds: rail}\n", 2, "links.K01.kinds must be a list, not string 'rail'"),
])
def test_odd_keys_are_refused_without_a_traceback(variant_errors: Callable[[str], list[tuple[int, str]]], text: str,
                                                  line: int, message: str) -> None:
    found = variant_errors(text)
    assert (line, message) in found, found
