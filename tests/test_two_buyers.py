"""Buyers of several kinds in one Sell (docs/lancashire.md item 7): tests/data/two-buyers lets each
sale go to a merchant or to the Distant Market, and a failed draw end the Sell, as Brass:
Lancashire's Port-or-Distant-Market sales do (L-SELL-03, L-DM-03). A Distant Market sale names
no merchant: `merchant` and `merchant_beer` are optional params, asked only for a merchant sale."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))

from interpreter.engine.game import Game
from interpreter.engine.invariants import check_invariants
from interpreter.ruleset.loader import load_ruleset

from position import card_id, hand, link, merchants, refused, tile, turn

TWO_BUYERS = Path(__file__).resolve().parent / "data" / "two-buyers"


def seller(marker: int, top: list[int]) -> Game:
    """Player 1 to act (Canal round 2, 2 players) with a Cotton Mill I and a Manufacturer I at
    Birmingham, linked to Oxford (a wild merchant with its barrel); the Distant Market marker on
    `marker` and `top` the top tiles of its pile (top last)."""
    g = Game.new(load_ruleset(TWO_BUYERS), 2, 1)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    merchants(g, {"oxford/0": "wild"})
    link(g, 2, "L06")
    tile(g, 1, "birmingham/0", "cotton", 1)
    tile(g, 1, "birmingham/1", "manufacturer", 1)
    with g.table.editing():
        g.state.tracks["distant_market"] = marker
        pile = g.state.stacks["dm_tiles"]
        for value in top:
            pile.remove(value)
        pile.extend(top)
    return g


def to_market(g: Game, slot: str) -> dict:
    """A sale to the Distant Market: no merchant, no barrel."""
    return {"tile": slot, "via": "distant_market"}


def to_oxford(slot: str) -> dict:
    return {"tile": slot, "via": "merchant", "merchant": "oxford/0", "merchant_beer": True}


def sell(g: Game, *sales: dict) -> dict:
    return {"action": "sell", "card": card_id(g, 1, "dudley"), "sales": list(sales)}


def test_one_sell_two_kinds_of_buyer() -> None:
    """The mill to the Distant Market (tile 2: marker 1 -> 3, +2; flip +5, no beer), then the
    Manufacturer to Oxford (barrel +2, flip +5): income 10 -> 24."""
    g = seller(1, [2])
    g.apply(sell(g, to_market(g, "birmingham/0"), to_oxford("birmingham/1")))
    assert g.state.tiles["birmingham/0"].flipped and g.state.tiles["birmingham/1"].flipped
    assert (g.state.tracks["distant_market"], g.table.player(1).income_position) == (3, 24)
    assert check_invariants(g.table) == []


def test_a_failed_draw_ends_the_sell_even_for_a_merchant() -> None:
    """Marker on 6, tile 4: the mill's sale reaches X and flips nothing; the Oxford sale asked for
    after it is not done (the Sell is over; issue 26: the whole action was refused with R-BUY-02
    before, which put the drawn tile back), though a merchant sale alone is still allowed in a new
    Sell: income 10 -> 17."""
    g = seller(6, [4])
    g.apply(sell(g, to_market(g, "birmingham/0"), to_oxford("birmingham/1")))
    assert not g.state.tiles["birmingham/0"].flipped
    assert g.state.tracks == {"distant_market": 9, "dm_tile": 4, "sell_failed": 1}
    g.apply({"action": "sell", "card": card_id(g, 1, "coventry"), "sales": [to_oxford("birmingham/1")]})
    assert g.state.tiles["birmingham/1"].flipped
    assert (g.state.tracks["sell_failed"], g.table.player(1).income_position) == (0, 17)


def test_a_closed_market_leaves_the_merchants() -> None:
    """Marker on X: a Distant Market sale is refused (R-DM-01), a merchant sale is not."""
    g = seller(9, [])
    assert "R-DM-01" in refused(g, sell(g, to_market(g, "birmingham/0")))
    g.apply(sell(g, to_oxford("birmingham/0")))
    assert g.state.tiles["birmingham/0"].flipped


def test_the_market_needs_a_merchant_connection() -> None:
    """Without the Oxford link the mill reaches no merchant location: refused with R-BUY-01."""
    g = seller(1, [2])
    with g.table.editing():
        g.state.links.clear()
        g.table.player(2).links_left += 1
    assert refused(g, sell(g, to_market(g, "birmingham/0"))) == ["R-BUY-01"]
