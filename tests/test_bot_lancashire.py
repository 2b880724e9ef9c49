"""What the heuristic bot's knowledge sees in Brass: Lancashire, read from the ruleset's effects and
data (no bot module names a word of the game, tests/test_bots_generic.py): a Double Action Build
takes two actions, the three loan sizes are three different loans, a sale to one's own Port flips
the Port too, a Port is bought from by the mills that sell to it, and the Distant Market pays an
income bonus (docs/bots.md, "Any ruleset")."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from interpreter import Game, load_ruleset
from interpreter.tools.bots.knowledge.facts import facts
from interpreter.tools.bots.knowledge.flips import Prospects
from interpreter.tools.bots.knowledge.roles import roles
from interpreter.tools.bots.knowledge.worth import Appraiser, Outlook, discard_gain

RULESET = load_ruleset("lancashire")
MILL = {"slot": "preston/0", "owner": 1, "industry": "cotton_mill", "level": 1, "flipped": False}
PORT = {"slot": "fleetwood/0", "owner": 1, "industry": "port", "level": 1, "flipped": False}


def position(tiles: list[dict[str, Any]] | None = None, **given: Any) -> Game:
    """Seat 1 to act in the Canal Era's third round of a 2-player game, £20 and income level 2
    (track space 14, L-INC-01); seat 2's canal Preston-Fleetwood (K19) connects the two towns."""
    setup = {"era": "canal", "round": 3, "turn_order": [1, 2], "current": 1, "actions_left": 2,
             "players": {"1": {"money": 20, "income": 14}}, "links": [{"link": "K19", "owner": 2}],
             "tiles": [MILL, PORT] if tiles is None else tiles, **given}
    return Game.from_setup(RULESET, 2, setup, seed=1)


# == a Double Action Build takes both actions of the turn =========================================

def test_a_double_action_build_is_charged_the_other_action_it_uses() -> None:
    """L-BUILD-04: the Double Action Build applies `use_actions: 1`; neither its quick value (a
    build's) nor the estimate of the position after it counts the action it uses up, so it costs
    `action_worth` (2 VP) more than a Build of the same tile; a pass keeps its `pass_waste`."""
    known = roles(RULESET)
    assert [known.shape(a).more_actions != () for a in ("build", "double_build")] == [False, True]
    appraiser = Appraiser(position().table, 1)
    assert appraiser.more_actions(known.shape("double_build")) == 1
    assert (discard_gain(appraiser, "double_build"), discard_gain(appraiser, "build"),
            discard_gain(appraiser, "pass")) == (-2.0, 0.0, -2.0)
    dearer = Appraiser(position().table, 1, replace(RULESET.bots.heuristic, action_worth=3.0))
    assert discard_gain(dearer, "double_build") == -3.0


# == three loans ====================================================================================

def test_each_loan_size_is_valued_by_its_own_terms() -> None:
    """L-LOAN-01: £10, £20 or £30 for 1, 2 or 3 income levels, read from the loan action's
    `gain_money` and `drop_income_levels` with the amount chosen (they got the one value of the
    £10 loan before). With £20 and 17 income payments ahead a level is worth more than £10 in hand,
    so each loan costs VP, the bigger the more: −1.8, −4.6 and −7.4 VP."""
    appraiser = Appraiser(position().table, 1)
    terms = [appraiser.loan_terms("loan", {"action": "loan", "card": "any", "amount": m}) for m in (10, 20, 30)]
    assert terms == [(10, 1), (20, 2), (30, 3)]
    assert [round(appraiser.loan(*t), 9) for t in terms] == [-1.8, -4.6, -7.4]
    birmingham = Game.new(load_ruleset("birmingham"), 2, 1)
    assert Appraiser(birmingham.table, 1).loan_terms("loan", {"action": "loan", "card": "any"}) == (30, 3)


# == a sale to one's own Port ========================================================================

def test_a_sale_to_ones_own_port_counts_the_ports_flip() -> None:
    """L-SELL-02: selling my Preston mill to my Fleetwood Port flips both. The mill's flip alone is
    worth 2.654 VP (its 5 VP, of which 0.85 * (5 − 2 for the sale's action) = 2.55 were already
    counted, and its income spaces, counted at 0.85 before); the Port's flip adds 1.66 VP (its
    2 VP, of which 0.85 * 2 = 1.7 were counted, and its 3 income spaces on top of the mill's):
    4.314 VP. The sale's second `tile` choice is found by the action's `flip` step (`co_flipped`)."""
    assert roles(RULESET).shape("sell").co_flipped == ("port",)
    appraiser = Appraiser(position().table, 1)
    assert appraiser.sale("preston/0", "", False) == pytest.approx(2.654, abs=1e-9)
    assert appraiser.sale("preston/0", "", False, ["fleetwood/0"]) == pytest.approx(4.314, abs=1e-9)


def test_a_sale_to_another_seats_port_counts_only_the_mill() -> None:
    """The Port's owner gains its flip (L-SELL-02), not the seller: the sale is worth the same
    whether or not the Port is named."""
    game = position([MILL, {**PORT, "owner": 2}])
    appraiser = Appraiser(game.table, 1)
    assert appraiser.sale("preston/0", "", False, ["fleetwood/0"]) == appraiser.sale("preston/0", "", False)
    assert appraiser.sale("preston/0", "", False) == pytest.approx(5.646, abs=1e-9)


# == who buys from whom =============================================================================

def test_the_port_is_the_trading_industry_of_lancashire_only() -> None:
    """The industries a market's `access_through` names: a Port's tile is a trade icon (L-TRADE-01)."""
    assert facts(RULESET).trading == frozenset({"port"})
    assert facts(load_ruleset("birmingham")).trading == frozenset()


def test_ports_share_the_mills_still_to_sell() -> None:
    """Seat 2's one unsold mill at Preston can flip one Port (L-SELL-02), and two Ports want it:
    my Fleetwood Port, linked to Preston, flips with 0.85 * 1/2 = 0.425; seat 2's Liverpool Port,
    two canals away (Liverpool-Wigan, Wigan-Preston), with 0.85 * 0.5² * 1/2 = 0.10625. Neither
    owner spends an action on it: the mill's owner sells."""
    game = position([{**MILL, "owner": 2}, PORT,
                     {"slot": "liverpool/0", "owner": 2, "industry": "port", "level": 1, "flipped": False}])
    prospects = Prospects(game.table)
    tiles = game.table.state.tiles
    assert prospects.prospects(tiles["fleetwood/0"]) == pytest.approx((0.425, 0.0))
    assert prospects.prospects(tiles["liverpool/0"]) == pytest.approx((0.10625, 0.0))


def test_a_mill_finds_its_buyers_at_the_trade_icons() -> None:
    """A mill sells to a Port or, through any trade icon, the Distant Market (L-SELL-01, L-DM-01):
    Scotland, The Midlands, Yorkshire (L-TRADE-02) and every town with a Port, flipped or not."""
    game = position([{**MILL, "owner": 2}, PORT,
                     {"slot": "liverpool/0", "owner": 2, "industry": "port", "level": 1, "flipped": True}])
    distances = Prospects(game.table).buyer_distance("cotton_mill")
    assert {loc for loc, d in distances.items() if d == 0} == {
        "scotland", "the_midlands", "yorkshire", "fleetwood", "liverpool", "preston"}


# == the Distant Market's bonus ======================================================================

def test_a_mill_to_sell_counts_the_distant_markets_income_bonus() -> None:
    """L-DM-04: a sale to the Distant Market moves the income marker up by (8 − the marker's space)
    / 2 spaces, +3 with the marker on its first space; a mill still to sell counts
    `sale_bonus_share` (0.75) of it on top of its own 5 income spaces; a Port, which its owner
    does not sell, counts none; with the market's marker on X (space 9) there is no bonus."""
    outlook = Outlook(position().table)
    mill, port = RULESET.tiles["cotton_mill"][0], RULESET.tiles["port"][0]
    assert (outlook.sale_bonus(mill), outlook.income_of(mill), outlook.income_of(port)) == (2.25, 7.25, 3.0)
    closed = Outlook(position(tracks={"distant_market": 9}).table)
    assert closed.income_of(mill) == 5.0
    birmingham = Outlook(Game.new(load_ruleset("birmingham"), 2, 1).table)
    assert birmingham.sale_bonus(load_ruleset("birmingham").tiles["cotton"][0]) == 0.0


def test_no_buyer_beyond_the_board_once_the_distant_market_is_closed() -> None:
    """L-DM-03/05: with the marker on X (space 9) no mill sells to the Distant Market until the era
    ends: the trade icons no longer buy, only an unflipped Port does. Read from the sale's
    `advance_income` step, whose `when` holds for no value of the sale's `via` choice."""
    def buyers(track: int) -> set[str]:
        game = position([{**MILL, "owner": 2}, PORT], tracks={"distant_market": track})
        return {loc for loc, d in Prospects(game.table).buyer_distance("cotton_mill").items() if d == 0}

    assert buyers(8) == {"scotland", "the_midlands", "yorkshire", "fleetwood", "preston"}
    assert buyers(9) == {"fleetwood", "preston"}  # the unflipped Port, and Preston linked to it


def test_a_shipyard_flips_in_the_build_that_places_it() -> None:
    """L-BUILD-14: a Shipyard flips when built, so its build is sure of its VP and its income moves at
    once: a flip chance of 1 with no action of its owner to come (not a sold tile's 0.85)."""
    game = position()
    yard = next(t for t in RULESET.tiles["shipyard"] if t.level == 1)
    assert Prospects(game.table).prospects_at(yard, "liverpool", 0, game.table.player(1)) == (1.0, 0.0)
