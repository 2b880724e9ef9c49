"""Trace-import situations kept as small trace fixtures of our own (tests/data/traces/, the
`brass-birmingham-trace/v1` format of docs/real-games.md), each ending at the step it is about: the
replay matches every step and stops only with "game end"."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.trace.actions import whole_action
from interpreter.tools.trace.importer import load_trace, replay_trace
from interpreter.tools.trace.mapping import TraceMapping

DATA = Path(__file__).resolve().parent / "data" / "traces"


@pytest.fixture(scope="module")
def birmingham():
    return load_ruleset("birmingham")


def test_merchant_barrels_go_to_the_sales_whose_merchant_buys_the_industry(birmingham):
    """brass-GM7VZA-anon up to seq 85, whose Sell lists its Pottery sale (Stafford) before its
    Manufacturer sale (Derby), both to Nottingham with merchant beer. The effects list the barrels
    used as Nottingham space 0 (the wild tile) then space 1 (the Pottery tile). Handed out in list
    order the Manufacturer sale would drink at the Pottery tile, which does not buy it (R-SELL-02);
    matched by what each tile buys, the Pottery sale takes space 1 and the Manufacturer space 0."""
    result = replay_trace(birmingham, load_trace(DATA / "sell-barrels-by-industry.trace.json"), "sell")
    assert result.steps == result.total == 86
    assert [d.what for d in result.differences] == ["game end"]
    trace = load_trace(DATA / "sell-barrels-by-industry.trace.json")
    before = replay_trace(birmingham, {**trace, "steps": trace["steps"][:-1]}, "sell").game
    action = whole_action(before, trace["steps"][-1], TraceMapping(birmingham, trace))
    assert [(s["tile"], s["merchant"]) for s in action["sales"]] == [("stafford/1", "nottingham/1"),
                                                                     ("derby/1", "nottingham/0")]
