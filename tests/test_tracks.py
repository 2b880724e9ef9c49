"""Ruleset-defined tracks (`tracks:`, docs/lancashire.md item 4): a number of the game with a
start, a min and a max, read by `track(id)` and changed by `move_track` and `set_track`; shown with
tests/data/demand-track (Birmingham with a demand marker, as Lancashire's Distant Market needs)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))

from brass_dsl import Env, compile_expression
from interpreter.engine.game import Game, IllegalAction
from interpreter.engine.given import GivenError
from interpreter.engine.invariants import check_invariants
from interpreter.ruleset.loader import load_ruleset

from position import card_id, last_cards, mill_for_oxford, pass_round, refused, turn

DEMAND = Path(__file__).resolve().parent / "data" / "demand-track"


def acting(demand: int = 0) -> Game:
    """Player 1 to act in Canal round 2 with a Cotton Mill I at Birmingham that can be sold to
    Oxford's wild merchant (with its barrel); the demand marker at `demand`."""
    g = Game.new(load_ruleset(DEMAND), 2, 1)
    mill_for_oxford(g)
    with g.table.editing():
        g.state.tracks["demand"] = demand
    return g


def sell(g: Game) -> dict:
    return {"action": "sell", "card": card_id(g, 1, "dudley"),
            "sales": [{"tile": "birmingham/0", "merchant": "oxford/0", "merchant_beer": True}]}


def demand(g: Game) -> int:
    value = compile_expression('track("demand")', g.ruleset.registry)(Env(g.table, {}))
    assert value == g.state.tracks["demand"]
    return value


def track_events(g: Game) -> list[dict]:
    return [e for e in g.state.log if e["event"] == "track"]


def test_a_track_starts_at_its_start_and_is_saved() -> None:
    g = Game.new(load_ruleset(DEMAND), 3, 7)
    assert g.state.tracks == {"demand": 0} and demand(g) == 0
    assert json.loads(g.to_json())["state"]["tracks"] == {"demand": 0}
    full = Game.new(load_ruleset("birmingham"), 3, 7)
    assert "tracks" not in json.loads(full.to_json())["state"]  # a ruleset without tracks saves as before


def test_an_action_moves_the_track() -> None:
    """A Sell moves the marker 0 -> 1, logged with where it was."""
    g = acting()
    g.apply(sell(g))
    assert demand(g) == 1
    assert track_events(g) == [{"event": "track", "track": "demand", "was": 0, "now": 1}]
    assert check_invariants(g.table) == []


def test_a_condition_reads_the_track() -> None:
    """At 2 a Sell is still allowed (-> 3); at 3 it is refused with R-DEMAND-01 and not listed."""
    g = acting(2)
    g.apply(sell(g))
    assert demand(g) == 3
    g = acting(3)
    assert refused(g, sell(g)) == ["R-DEMAND-01"]
    assert g.explain(sell(g))["failures"][0].message == \
        "The demand marker is at 3, its last space: no Sell until the era ends."
    assert {"action": "sell"} not in g.legal_actions()
    assert demand(g) == 3


@pytest.mark.parametrize("before, after", [(3, 1), (1, 0), (0, 0)])
def test_moving_down_stops_at_the_min(before: int, after: int) -> None:
    """A Loan moves the marker down 2, never below 0: 3 -> 1, 1 -> 0, 0 -> 0; and gives £30."""
    g = acting(before)
    g.apply({"action": "loan", "card": card_id(g, 1, "coventry")})
    assert (demand(g), g.table.player(1).money) == (after, 47)
    assert track_events(g)[-1] == {"event": "track", "track": "demand", "was": before, "now": after}


def test_the_era_end_resets_the_track() -> None:
    """The marker at 2 in the last Canal round: both pass, the era ends, `set_track` puts it to 0."""
    g = acting(2)
    turn(g, 1, round=10)
    last_cards(g, {1: ["birmingham"], 2: ["coventry"]})
    pass_round(g)
    assert (g.state.era_index, demand(g)) == (1, 0)
    assert track_events(g)[-1] == {"event": "track", "track": "demand", "was": 2, "now": 0}


def test_copies_saves_and_refusals_keep_the_track() -> None:
    """A copy moves on its own; a save gives the value back; a refused whole action leaves it."""
    g = acting(1)
    twin = g.copy()
    twin.apply(sell(twin))
    assert (demand(g), demand(twin)) == (1, 2)
    assert Game.from_json(twin.ruleset, twin.to_json()).state.tracks == {"demand": 2}
    with pytest.raises(IllegalAction):
        g.apply({"action": "loan", "card": card_id(g, 1, "coventry"), "extra": 1})
    assert demand(g) == 1


def test_the_invariants_check_the_tracks() -> None:
    g = acting()
    g.state.tracks["demand"] = 4
    assert check_invariants(g.table) == ["tracks: the demand track is at 4, outside 0..3"]
    del g.state.tracks["demand"]
    assert check_invariants(g.table) == ["tracks: the demand track has no value"]


def test_a_given_position_sets_a_track() -> None:
    rs = load_ruleset(DEMAND)
    assert Game.from_setup(rs, 2, {"tracks": {"demand": 2}}, seed=1).state.tracks == {"demand": 2}
    with pytest.raises(GivenError, match="5 is above the highest possible value, 3"):
        Game.from_setup(rs, 2, {"tracks": {"demand": 5}}, seed=1)
    with pytest.raises(GivenError, match=r"unknown key 'demnd'.*did you mean 'demand'"):
        Game.from_setup(rs, 2, {"tracks": {"demnd": 1}}, seed=1)


def test_the_fields_of_a_track() -> None:
    registry = load_ruleset(DEMAND).registry
    scope = registry.with_bindings({"t": registry.lookup_type("track")})
    read = compile_expression("[t.start, t.lowest, t.highest]", scope)
    assert read(Env(None, {"t": "demand"})) == (0, 0, 3)
    assert compile_expression("t.name", scope)(Env(None, {"t": "demand"})) == "Demand"


TRACK = "tracks:\n  demand: {name: Demand, start: 0, min: 0, max: 3}\n"


@pytest.mark.parametrize("text, line, message", [
    ("tracks:\n  demand: {name: Demand, start: 5, min: 0, max: 3}\n", 2,
     "track 'demand' starts at 5, outside its min..max (0..3)"),
    ("tracks:\n  demand: {name: Demand, start: 0, min: 4, max: 3}\n", 2,
     "track 'demand': min 4 is more than its max 3"),
    ("tracks:\n  demand: {name: Demand, start: 0, min: 0, maximum: 3}\n", 2,
     "unknown key 'maximum' in tracks.demand; did you mean 'max'?"),
    (TRACK + "round_end:\n  - set_turn_order\n  - move_track: {track: demnd, by: 1}\n", 5,
     "'demnd' is not a track; did you mean 'demand'?"),
    (TRACK + "game_end:\n  ranking:\n    - {name: demand, key: 'track(\"demnd\")'}\n", 5, "unknown track 'demnd'"),
])
def test_bad_tracks_are_located(variant_errors, text: str, line: int, message: str) -> None:
    found = variant_errors(text)
    assert any(at == line and message in said for at, said in found), found


@pytest.mark.parametrize("variant", ["demand-track", "shipyards", "late-loans", "two-buyers", "mill-trade"])
def test_the_test_variants_play_with_invariants_checked(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`brass simulate <variant> --players 4 --games 2 --seed 1 --check` finishes (bots, every
    invariant checked after each decision)."""
    from interpreter.tools.cli.main import main

    folder = DEMAND.parent / variant
    assert main(["simulate", str(folder), "--players", "4", "--games", "2", "--seed", "1", "--check"]) == 0
    assert "2 game(s), 4 players" in capsys.readouterr().out


def test_a_ruleset_without_tracks_takes_no_tracks_in_a_given_position() -> None:
    with pytest.raises(GivenError, match="unknown key 'tracks'"):
        Game.from_setup(load_ruleset("birmingham"), 2, {"tracks": {"demand": 1}}, seed=1)
