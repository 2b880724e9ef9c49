"""Trace-import situations kept as small trace fixtures of our own (tests/data/traces/, the
`brass-birmingham-trace/v1` format of docs/real-games.md), each ending at the step it is about: the
replay matches every step and stops only with "game end"."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.trace.actions import RoundEndAnswers, whole_action
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


SHORTFALL = DATA / "canal-end-shortfall-by-vp.trace.json"  # made by make_canal_end_shortfall_trace.py


def shortfalls(result) -> list[dict]:  # type: ignore[no-untyped-def]
    return [e for e in result.game.state.log if e.get("event") == "shortfall"]


def test_canal_end_shortfall_removals_are_told_apart_by_the_recorded_vp(birmingham):
    """A Canal Era of our own (2 players, 38 steps, see the generator's docstring): at the end of
    round 10 player 0 (our seat 1) owes £1 at income level −1 with £0, and has two level-I tiles each
    worth £5 / 2 = £2 (R-SHORT-01): a flipped Iron Works I (coalbrookdale/1) and an unflipped Coal
    Mine I (dudley/0). Either removal leaves £1, and the era's end removes the other (R-ERA-05), so
    the money and the board fit both; the VP do not. The record removed the Coal Mine: the Iron Works
    scores 3 VP (R-ERA-03) and gives the canal Coalbrookdale–Shrewsbury 1 link icon besides
    Shrewsbury's 2 (R-ERA-02): 3 + 3 = 6 VP; the replay finds it and matches every step."""
    result = replay_trace(birmingham, load_trace(SHORTFALL), "shortfall")
    assert result.steps == result.total == 38
    assert [d.what for d in result.differences] == ["game end"]
    [shortfall] = shortfalls(result)
    assert (shortfall["player"], shortfall["removed"], shortfall["money"]) == (1, ["dudley/0"], 1)
    player = result.game.table.player(1)
    assert (player.money, player.vp, player.income_position) == (1, 6, 9)
    assert result.game.state.era_index == 1 and not result.game.state.tiles


def leaves_the_board_and_money(self, seat: int, removals: list[str]) -> bool:  # type: ignore[no-untyped-def]
    """`RoundEndAnswers._leaves_the_recorded_position` without the VP: the round end tried with
    `removals` on a copy leaves the recorded tiles and money."""
    game = self.before.copy()
    game.apply(self.action)
    if not RoundEndAnswers(game, self.step, self.mapping, forced={**self.forced, seat: removals}).answer_all():
        return False
    kept = {slot for slot, tile in self.game.state.tiles.items() if tile.owner.seat == seat} - set(self._recorded(seat))
    return ({slot for slot, tile in game.state.tiles.items() if tile.owner.seat == seat} == kept
            and self._recorded_after(seat)[0] == game.table.player(seat).money)


@pytest.mark.parametrize("compare", ["board", "board and money"])
def test_without_the_vp_the_first_fitting_removal_would_be_taken(birmingham, monkeypatch, compare):
    """The same trace, the removals compared without the recorded VP: by the board alone (the import
    before the fix) or by the board and the money. Both removals fit either way, so the first in
    board order is taken, the flipped Iron Works (Coalbrookdale comes before Dudley), and the player
    ends the era with 2 VP (the canal's 2 merchant icons at Shrewsbury only) instead of the recorded 6."""
    if compare == "board":
        monkeypatch.setattr(RoundEndAnswers, "_recorded_after", lambda self, seat: None)
    else:
        monkeypatch.setattr(RoundEndAnswers, "_leaves_the_recorded_position", leaves_the_board_and_money)
    result = replay_trace(birmingham, load_trace(SHORTFALL), "shortfall")
    assert result.steps == 37
    [difference] = result.differences
    assert (difference.seq, difference.what) == (37, "players [money, income space, income level, VP]")
    assert difference.trace == [[1, 9, -1, 6], [17, 10, 0, 0]]
    assert difference.ours == [[1, 9, -1, 2], [17, 10, 0, 0]]
    assert shortfalls(result)[0]["removed"] == ["coalbrookdale/1"]
