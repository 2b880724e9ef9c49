"""Market access through locations a ruleset's expression chooses (a resource's `access_through`),
docs/lancashire.md item 2, shown with tests/data/mill-trade: Birmingham where a location with a
Cotton Mill gives access to the coal market, as Lancashire's Port tiles carry the trade icon."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))

from interpreter.engine.game import Game
from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import load_ruleset

from position import card_id, hand, link, refused, tile, turn

MILL_TRADE = Path(__file__).resolve().parent / "data" / "mill-trade"


def coventry(ruleset: str | Path, mill: bool = True) -> Game:
    """Player 1 to act with a Coventry card and £17, their link Birmingham–Coventry (L03), no
    Coal Mine anywhere and no merchant connected; player 2's Cotton Mill I at Birmingham."""
    g = Game.new(load_ruleset(ruleset), 2, 1)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["coventry", "dudley"])
    link(g, 1, "L03")
    if mill:
        tile(g, 2, "birmingham/0", "cotton", 1)
    return g


def build(g: Game, industry: str) -> dict:
    return {"action": "build", "card": card_id(g, 1, "coventry"), "industry": industry,
            "location": "coventry", "slot": "coventry/1"}


def test_coal_is_bought_through_a_mill() -> None:
    """Manufacturer I (£8, 1 coal) at Coventry: the variant buys the coal at the market's cheapest
    filled space (£1) through the mill at Birmingham: £17 -> £8; Birmingham refuses (R-BUILD-10)."""
    g = coventry(MILL_TRADE)
    g.apply(build(g, "manufacturer"))
    assert (g.table.player(1).money, g.state.markets["coal"]) == (8, 12)
    full = coventry("birmingham")
    assert refused(full, build(full, "manufacturer")) == ["R-BUILD-10"]


def test_a_new_coal_mine_sells_through_a_mill() -> None:
    """Coal Mine I (£5, 2 cubes) at Coventry: through the mill it sells 1 cube to the one empty
    space (£1): £13, 1 cube left, market 14; in Birmingham it keeps both cubes: £12, market 13."""
    g = coventry(MILL_TRADE)
    g.apply(build(g, "coal"))
    assert (g.table.player(1).money, g.state.tiles["coventry/1"].cubes, g.state.markets["coal"]) == (13, 1, 14)
    full = coventry("birmingham")
    full.apply(build(full, "coal"))
    assert (full.table.player(1).money, full.state.tiles["coventry/1"].cubes, full.state.markets["coal"]) == (12, 2, 13)


def test_access_follows_the_board() -> None:
    """Without the mill the variant refuses the Manufacturer as Birmingham does; once the mill is
    built, the same Build is allowed (what was worked out for the old position is forgotten)."""
    g = coventry(MILL_TRADE, mill=False)
    assert refused(g, build(g, "manufacturer")) == ["R-BUILD-10"]
    tile(g, 2, "birmingham/0", "cotton", 1)
    assert g.explain(build(g, "manufacturer"))["failures"] == []


@pytest.mark.parametrize("expression, message", [
    ("me.money > 0", "'me' is not available here"),
    ("any(t in tiles_at(l) where t.industry == 'coton')", "unknown industry 'coton'; did you mean 'cotton'?"),
    ("count(t in tiles_at(l))", "expected bool but the expression is int"),
])
def test_access_through_is_checked(tmp_path: Path, expression: str, message: str) -> None:
    """A bool over `l` alone (no `me`: no player is acting when the market is reached), checked
    with the ruleset, located at its line."""
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(
        "name: bad\ntitle: Bad\nversion: '1'\nextends: birmingham\n"
        f"resources:\n  coal:\n    access_through: \"{expression}\"\n")
    with pytest.raises(RulesetError) as error:
        load_ruleset(folder)
    found = [(d.pos.line, d.message) for d in error.value.diagnostics]
    assert len(found) == 1 and found[0][0] == 7 and message in found[0][1], found
