"""Optional action params (docs/ruleset-format.md, "Optional params"): a param with `when:` is asked
only when that holds, else it is absent, named by no decision; an expression reads it only where
`present(name)` is known to hold, checked when the ruleset loads. tests/data/two-buyers uses it: a
Distant Market sale names no merchant and no barrel (`merchant`, `merchant_beer`)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))

from test_two_buyers import sell, seller, to_market, to_oxford

from interpreter.engine.game import Game, IllegalAction

from position import card_id

Errors = Callable[[str], list[tuple[int, str]]]


def start_sale(g: Game, via: str) -> None:
    """Player 1 begins a Sell with the Dudley card, the Cotton Mill, and the kind of buyer `via`."""
    for decision in ({"action": "sell"}, {"card": card_id(g, 1, "dudley")}, {"tile": "birmingham/0"}, {"via": via}):
        g.apply(decision)


def test_whole_actions_name_the_optional_params_only_when_asked() -> None:
    """3 cards x (one sale of either tile: 2 x 2 buyers; two sales: 2 orders x 2 x 2 buyers) = 30
    Sells; a Distant Market sale has only its tile and buyer, a merchant sale its merchant and barrel
    too (the only barrel a mill can use here: no beer is connected)."""
    g = seller(1, [2, 2])
    sells = [m for m in g.whole_actions() if m["action"] == "sell"]
    assert len(sells) == 30
    kinds = {tuple(sorted(s)) for m in sells for s in m["sales"]}
    assert kinds == {("tile", "via"), ("merchant", "merchant_beer", "tile", "via")}
    assert all(s["via"] == "distant_market" for m in sells for s in m["sales"] if "merchant" not in s)
    assert all(s == to_oxford(s["tile"]) for m in sells for s in m["sales"] if "merchant" in s)


def test_an_optional_param_is_not_asked_when_its_condition_fails() -> None:
    """Decision by decision: after `via: distant_market` the sale is complete, and the next decision
    is the next sale or done; after `via: merchant` the merchant, then the barrel, are asked."""
    g = seller(1, [2])
    start_sale(g, "distant_market")
    assert g.legal_actions() == [{"tile": "birmingham/1"}, {"done": True}]
    g = seller(1, [2])
    start_sale(g, "merchant")
    assert g.legal_actions() == [{"merchant": "oxford/0"}]
    g.apply({"merchant": "oxford/0"})
    assert g.legal_actions() == [{"merchant_beer": True}]


def test_naming_a_param_that_is_not_asked_is_refused() -> None:
    """A decision, or a whole action, naming the merchant of a Distant Market sale is refused with
    the param's rule (R-SELL-02), saying why it is not asked; nothing changes."""
    g = seller(1, [2])
    start_sale(g, "distant_market")
    with pytest.raises(IllegalAction) as refused:
        g.apply({"merchant": "oxford/0"})
    assert [f.rule for f in refused.value.failures] == ["R-SELL-02"]
    assert refused.value.failures[0].message == (
        'merchant is not asked here: it is asked only when via == "merchant" holds, and that does not hold now.')
    g = seller(1, [2])
    before = g.to_json()
    bad = sell(g, {**to_market(g, "birmingham/0"), "merchant": "oxford/0"})
    explained = g.explain(bad)
    assert not explained["legal"]
    assert [(f.rule, f.message) for f in explained["failures"]] == [("R-SELL-02", refused.value.failures[0].message)]
    with pytest.raises(IllegalAction):
        g.apply(bad)
    assert g.to_json() == before


def test_naming_a_param_not_asked_by_the_last_sale_is_refused_the_same_way() -> None:
    """Marker on 6, tile 4: the Distant Market sale fails and ends the Sell (R-BUY-02), so the
    merchant it names comes after the action: still refused because it was not asked."""
    g = seller(6, [4])
    explained = g.explain(sell(g, {**to_market(g, "birmingham/0"), "merchant": "oxford/0"}))
    assert [(f.rule, f.message) for f in explained["failures"]] == [("R-SELL-02", (
        'merchant is not asked here: it is asked only when via == "merchant" holds, and that does not hold now.'))]


def test_an_asked_param_left_out_is_refused() -> None:
    """A merchant sale without its merchant: the Sell asks for it, saying when it is asked."""
    g = seller(1, [2])
    explained = g.explain(sell(g, {"tile": "birmingham/0", "via": "merchant", "merchant_beer": True}))
    assert [f.message for f in explained["failures"]] == [
        'Sell asks for its merchant now (asked when via == "merchant" holds).']


def test_saves_and_replays_hold_no_absent_param() -> None:
    """The record of a Distant Market sale has no merchant decision; the save loads to the same
    state, and its moves replayed one by one on a fresh position give it too."""
    g = seller(1, [2])
    fresh = seller(1, [2])
    g.apply(sell(g, to_market(g, "birmingham/0"), to_oxford("birmingham/1")))
    record = g.moves[-8:]
    assert record == [{"action": "sell"}, {"card": card_id(fresh, 1, "dudley")}, {"tile": "birmingham/0"},
                      {"via": "distant_market"}, {"tile": "birmingham/1"}, {"via": "merchant"},
                      {"merchant": "oxford/0"}, {"merchant_beer": True}]
    loaded = Game.from_json(g.ruleset, g.to_json())
    assert (loaded.state_hash(), loaded.moves) == (g.state_hash(), g.moves)
    for move in record:
        fresh.apply(move)
    assert fresh.state_hash() == g.state_hash()


BARTER = """actions:
  barter:
    name: Barter
    params:
      - {name: card, type: card, from: hand(me)}
      - {name: tile, type: tile, from: board_tiles, when: me.money > 5}
      - {name: again, type: bool, from: "[tile.flipped]", when: present(card)}
      - {name: other, type: int, from: "[1]", when: 3}
    requires:
      - check: tile.owner == me
        message: Not yours.
      - check: not present(tile) or tile.owner == me
        message: "{tile.location.name} is not yours."
    effects:
      - gain_money: {amount: tile.level, when: present(tile)}
      - gain_money: {amount: tile.level}
    repeat:
      name: bits
      params:
        - {name: bit, type: int, from: "[1, 2]", when: present(tile)}
"""


def test_reading_an_optional_param_unguarded_is_refused_at_load(variant_errors: Errors) -> None:
    """Each unguarded read, a present() of a param that is always asked, a `when:` that is no bool
    and an optional first param of a repeated part are errors at their lines; the guarded check
    (line 14), its message (15) and the guarded effect (17) are not."""
    found = variant_errors(BARTER)
    unguarded = "'tile' is asked only when its `when:` holds, so it may be absent here"
    assert [(line, message.split(";")[0]) for line, message in found] == [
        (7, unguarded),
        (7, "present(…) takes the name of an action param that has `when:` (one that may be absent), "
            "like present(x) for a param x"),
        (8, "expected bool but the expression is int"),
        (10, unguarded),
        (16, unguarded),
        (20, "the first param of a repeated part cannot have `when:` (a repetition begins with it"),
    ]
