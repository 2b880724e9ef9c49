"""Industries that flip when built (`flips: built`) and tiles below level I that are never built
(level 0, `eras: []`), docs/lancashire.md item 3, shown with tests/data/shipyards: Birmingham with
Brass: Lancashire's Shipyard (L-BUILD-13, L-BUILD-14, L-FLIP-03, L-DEV-03)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))

from interpreter.engine.game import Game
from interpreter.engine.given import GivenError
from interpreter.engine.invariants import check_invariants
from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import load_ruleset

from position import card_id, era, hand, last_cards, pass_round, refused, set_mat, set_player, tile, turn

DATA = Path(__file__).resolve().parent / "data"
SHIPYARDS = DATA / "shipyards"


def builder(round: int = 2, locked: bool = False) -> Game:
    """Player 1 to act in the Canal Era with £30 and a Birmingham card; the two locked level-0
    Shipyards already developed away unless `locked`."""
    g = Game.new(load_ruleset(SHIPYARDS), 2, 1)
    turn(g, 1, order=[1, 2], round=round)
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    set_player(g, 1, money=30)
    if not locked:
        set_mat(g, 1, "shipyard", 1)
        g.table.player(1).gone_before = 2  # developed before this position (for the invariants)
    return g


def build_shipyard(g: Game) -> None:
    g.apply({"action": "build", "card": card_id(g, 1, "birmingham"), "industry": "shipyard",
             "location": "birmingham", "slot": "birmingham/4"})


def test_a_shipyard_flips_in_the_build_that_places_it() -> None:
    """Shipyard I: £16 and 1 iron from the market (its cheapest filled space, £2): £30 -> £12; it
    lies flipped at once and its owner's income marker moves 2 spaces, 10 -> 12; the log says
    "built", then "flipped"."""
    g = builder()
    build_shipyard(g)
    placed = g.state.tiles["birmingham/4"]
    player = g.table.player(1)
    assert placed.flipped and (placed.spec.level, placed.cubes) == (1, 0)
    assert (player.money, player.income_position, player.vp) == (12, 12, 0)
    assert g.state.markets["iron"] == 7
    events = [e for e in g.state.log if e["event"] in ("built", "flipped")][-2:]
    assert [e["event"] for e in events] == ["built", "flipped"]
    assert events[1] == {"event": "flipped", "tile": "birmingham/4", "owner": 1, "income": 2, "income_position": 12}
    assert check_invariants(g.table) == []


def test_other_industries_still_lie_unflipped_when_built() -> None:
    """In the same variant a Cotton Mill I (flips: sold) is built unflipped: income stays at 10."""
    g = builder()
    g.apply({"action": "build", "card": card_id(g, 1, "birmingham"), "industry": "cotton",
             "location": "birmingham", "slot": "birmingham/0"})
    assert not g.state.tiles["birmingham/0"].flipped
    assert g.table.player(1).income_position == 10


def test_the_shipyard_scores_at_the_end_of_the_era() -> None:
    """Built in the last Canal round, then both players pass: the round's income pays level 1
    (space 12) -> £13; the era's end scores the Shipyard's 10 VP (no links were placed) and, as
    a level I tile, removes it."""
    g = builder(round=10)
    last_cards(g, {1: ["birmingham", "dudley"], 2: ["coventry", "stafford"]})
    turn(g, 1, order=[1, 2])
    build_shipyard(g)
    pass_round(g)
    assert g.state.era_index == 1
    one, two = g.table.player(1), g.table.player(2)
    assert (one.vp, one.money, one.income_position) == (10, 13, 12)
    assert two.vp == 0
    assert "birmingham/4" not in g.state.tiles
    scored = next(e for e in g.state.log if e["event"] == "tile scoring")
    assert scored["tiles"] == [{"tile": "birmingham/4", "owner": 1, "vp": 10}]


def test_a_shipyard_cannot_be_sold() -> None:
    """Birmingham's Sell takes only industries that flip when sold (R-SELL-02)."""
    g = builder()
    tile(g, 1, "birmingham/4", "shipyard", 1, flipped=True)
    sale = {"action": "sell", "card": card_id(g, 1, "dudley"),
            "sales": [{"tile": "birmingham/4", "merchant": "oxford/0", "merchant_beer": False}]}
    assert "R-SELL-02" in refused(g, sale)


def test_a_given_shipyard_is_flipped() -> None:
    """In a given position a Shipyard lies flipped by default, and cannot be given unflipped."""
    rs = load_ruleset(SHIPYARDS)
    at = {"slot": "birmingham/4", "owner": 1, "industry": "shipyard", "level": 2}
    g = Game.from_setup(rs, 2, {"era": "rail", "tiles": [at]}, seed=1)
    assert g.state.tiles["birmingham/4"].flipped
    with pytest.raises(GivenError, match="a Shipyard flips as soon as it is built, so it cannot lie unflipped"):
        Game.from_setup(rs, 2, {"era": "rail", "tiles": [{**at, "flipped": False}]}, seed=1)


def test_an_unflipped_shipyard_breaks_the_invariants() -> None:
    g = builder()
    build_shipyard(g)
    g.state.tiles["birmingham/4"].flipped = False
    assert check_invariants(g.table) == [
        "flips: tile shipyard/1 of player 1 at birmingham/4 flips when built but is not flipped"]


# -- level 0: never built, only developed away ------------------------------------------------

@pytest.mark.parametrize("era_id, rule", [("canal", "R-BUILD-13"), ("rail", "R-BUILD-14")])
def test_a_level_zero_tile_is_never_built(era_id: str, rule: str) -> None:
    """With the locked tiles on the mat no Shipyard can be built, in either era: the lowest tile
    (level 0) may be built in no era (`eras: []`)."""
    g = builder(locked=True)
    era(g, era_id, round=2)
    build = {"action": "build", "card": card_id(g, 1, "birmingham"), "industry": "shipyard",
             "location": "birmingham", "slot": "birmingham/4"}
    assert refused(g, build) == [rule]
    assert g.table.lowest_tile(g.table.player(1), "shipyard").level == 0


def test_developing_the_locked_tiles_opens_the_shipyards() -> None:
    """Develop removes both level-0 tiles for 1 iron each from the market (£2 + £2): £30 -> £26;
    then the second action builds Shipyard I (£16 + iron at £3): £7, flipped, income 10 -> 12."""
    g = builder(locked=True)
    g.apply({"action": "develop", "card": card_id(g, 1, "dudley"),
             "tiles": [{"industry": "shipyard"}, {"industry": "shipyard"}]})
    player = g.table.player(1)
    assert (player.money, g.state.markets["iron"]) == (26, 6)
    assert (g.table.tiles_left(player, "shipyard"), g.table.lowest_tile(player, "shipyard").level) == (4, 1)
    build_shipyard(g)
    assert g.state.tiles["birmingham/4"].flipped
    assert (player.money, player.income_position, g.state.markets["iron"]) == (7, 12, 5)
    assert check_invariants(g.table) == []


def test_a_negative_level_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(
        "name: bad\ntitle: Bad\nversion: '1'\nextends: birmingham\ntiles:\n  cotton:\n"
        "    - {level: -1, count: 3, cost: 12, coal: 0, iron: 0, beer: 1, vp: 5, link_icons: 1, income: 5,"
        " develop: true, eras: [canal]}\n")
    with pytest.raises(RulesetError) as error:
        load_ruleset(folder)
    assert [(d.pos.line, d.message) for d in error.value.diagnostics] == [
        (7, "tiles.cotton.0.level must be at least 0, not -1")]


@pytest.mark.parametrize("text, line, message", [
    ("industries:\n  shipyard: {name: Shipyard, flips: bilt}\n", 2,
     "industries.shipyard.flips: 'bilt' is not allowed; expected one of sold, emptied, built"),
    ("industries:\n  shipyard: {name: Shipyard, flips: built}\ntiles:\n  shipyard:\n"
     "    - {level: 1, count: 2, cost: 16, coal: 0, iron: 1, output: 2, vp: 10, link_icons: 1, income: 2,"
     " develop: true, eras: [canal]}\n", 5, "'shipyard' tiles flip when built, so they have no output"),
    ("industries:\n  shipyard: {name: Shipyard, flips: built}\ntiles:\n  shipyard:\n"
     "    - {level: 1, count: 2, cost: 16, coal: 0, iron: 1, beer: 1, vp: 10, link_icons: 1, income: 2,"
     " develop: true, eras: [canal]}\n", 5, "'shipyard' tiles are not sold, so they need no beer"),
])
def test_bad_flips_are_located(variant_errors, text: str, line: int, message: str) -> None:
    found = variant_errors(text)
    assert (line, message) in found, found
