"""The 55 generated games (`../shared/real-games/generated`, played by the Quasrain engine's own
bots) replayed in bulk, and `brass replay --trace DIR` (docs/real-games.md).

Under `birmingham` each game replays to the end or stops at a difference caused by one of the
recorded engine's three deviations from the rulebook: a 15th link tile (refused, R-SETUP-08), VP
below 0 after a shortfall (R-SHORT-03), a rail link's coal measured from its first non-merchant end
(the mine it names is refused as farther than the nearest, R-COAL-06). Under `quasrain-compat`, the
variant with those three deviations, all 55 replay to the end. Every question is answered from the
trace: the tiles removed for unpaid income from the round end's effects, a double rail's coal per
link by naming its sources.
"""

from __future__ import annotations

import io
import json
import shutil
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.cli.main import main
from interpreter.tools.trace.actions import ChoiceResolver, try_action, whole_action
from interpreter.tools.trace.bulk import replay_traces, trace_files
from interpreter.tools.trace.importer import load_trace, replay_trace
from interpreter.tools.trace.mapping import TraceMapping
from interpreter.tools.trace.sources import choose_sources

REAL_GAMES = Path(__file__).resolve().parents[2] / "shared" / "real-games"
GENERATED = REAL_GAMES / "generated"
VARIANT = Path(__file__).resolve().parents[1] / "rulesets" / "quasrain-compat"

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not GENERATED.is_dir(), reason=f"{GENERATED} is absent")]

VP, COAL, LINKS = "players: VP", "coal source", "legality"
CAUSES = {VP: ["R-SHORT-01", "R-SHORT-03"], COAL: ["R-COAL-06"], LINKS: ["R-SETUP-08"]}
# game -> where it first stops under birmingham (seq, what differs), None: replays to the end
FIRST_STOP = {
    "2p-eps-s2204140": None,
    "2p-eps-s2264210": (51, COAL),
    "2p-eps-s257023": (75, LINKS),
    "2p-eps-s296618": (75, LINKS),
    "2p-heuristic-s2102021": (77, LINKS),
    "2p-heuristic-s2126049": (59, COAL),
    "2p-heuristic-s2186119": None,
    "2p-heuristic-s2222161": (73, LINKS),
    "2p-heuristic-s225307": (72, LINKS),
    "2p-heuristic-s2270217": (71, LINKS),
    "2p-heuristic-s2378343": (75, LINKS),
    "2p-heuristic-s2402371": (47, COAL),
    "2p-heuristic-s2426399": None,
    "2p-heuristic-s272821": (76, LINKS),
    "2p-heuristic-s304497": (47, COAL),
    "2p-heuristic-s344092": (75, LINKS),
    "2p-heuristic-s359930": (77, LINKS),
    "2p-mixseat-s257009": (13, VP),
    "2p-mixseat-s296604": (17, VP),
    "2p-mixseat-s312442": (33, VP),
    "2p-random-s256995": (21, VP),
    "2p-random-s264914": (33, VP),
    "2p-random-s375780": (25, VP),
    "3p-eps-s3096017": (55, COAL),
    "3p-eps-s3180115": (92, COAL),
    "3p-eps-s3192129": None,
    "3p-eps-s3228171": (62, VP),
    "3p-eps-s3324283": None,
    "3p-eps-s393428": None,
    "3p-eps-s409266": (104, LINKS),
    "3p-heuristic-s3102024": (86, COAL),
    "3p-heuristic-s3126052": (86, COAL),
    "3p-heuristic-s369631": None,
    "3p-heuristic-s432983": (63, COAL),
    "3p-heuristic-s440902": (67, COAL),
    "3p-heuristic-s448821": (80, VP),
    "3p-mixseat-s369657": (26, VP),
    "3p-mixseat-s377576": (26, VP),
    "3p-random-s377562": (32, VP),
    "4p-eps-s4444426": None,
    "4p-eps-s450643": (73, COAL),
    "4p-eps-s458562": (67, VP),
    "4p-eps-s498157": None,
    "4p-eps-s529833": None,
    "4p-heuristic-s4174111": (78, COAL),
    "4p-heuristic-s4402377": None,  # its double rail at seq 84 needs the coal named per link
    "4p-heuristic-s4450433": (83, VP),
    "4p-heuristic-s466441": (72, COAL),
    "4p-heuristic-s490198": (97, COAL),
    "4p-heuristic-s569388": (90, COAL),
    "4p-mixseat-s482305": (59, VP),
    "4p-random-s442696": (43, VP),
    "4p-random-s513967": (35, VP),
    "4p-random-s561481": (27, VP),
    "4p-random-s608995": (67, VP),
}


@pytest.fixture(scope="module")
def birmingham():
    return load_ruleset("birmingham")


@pytest.fixture(scope="module")
def summary(birmingham):
    return replay_traces(birmingham, [GENERATED])


def _trace(name: str) -> dict:
    return load_trace(GENERATED / f"{name}.trace.json")


def _until(trace: dict, seq: int) -> dict:
    """The trace's steps before `seq` (the replay then stops with 'game end' after them)."""
    return {**trace, "steps": [s for s in trace["steps"] if s["seq"] < seq]}


def test_the_folder_holds_the_55_games():
    assert sorted(p.name.removesuffix(".trace.json") for p in trace_files([GENERATED])) == sorted(FIRST_STOP)


def test_every_game_replays_to_the_end_or_stops_at_a_known_deviation(summary):
    stops = {g.name: None if g.difference is None else (g.difference.seq, g.difference.group) for g in summary.games}
    assert stops == FIRST_STOP
    for game in summary.games:
        assert game.error is None
        if game.difference is None:
            assert game.to_the_end and game.matched == game.actions
            continue
        difference = game.difference
        assert game.matched == len([s for s in _trace(game.name)["steps"] if s["seq"] < difference.seq])
        assert difference.rules == CAUSES[difference.group], (game.name, difference.describe())


def test_the_causes_grouped(summary):
    groups = {(what, tuple(rules)): len(games) for what, rules, games in summary.groups()}
    assert groups == {(VP, tuple(CAUSES[VP])): 18, (COAL, tuple(CAUSES[COAL])): 15,
                      (LINKS, tuple(CAUSES[LINKS])): 11}
    assert sum(game.to_the_end for game in summary.games) == 11


def test_vp_differences_are_the_vp_floor(summary):
    """The recorded engine takes VP below 0 in a shortfall; the rulebook stops at 0 (R-SHORT-03)."""
    for game in summary.games:
        if game.difference is None or game.difference.group != VP:
            continue
        differing = [(theirs[3], ours[3]) for theirs, ours in zip(game.difference.trace, game.difference.ours,
                                                                  strict=True) if theirs != ours]
        assert differing and all(theirs < 0 <= ours for theirs, ours in differing), game.name
        assert any(entry.get("event") == "shortfall" for entry in game.difference.log)


def test_coal_differences_are_a_rail_links_mine(summary):
    """The recorded engine measures a rail link's coal from its first non-merchant end; we refuse its
    mine as farther than the nearer one (R-COAL-06)."""
    for game in summary.games:
        if game.difference is None or game.difference.group != COAL:
            continue
        named = game.difference.trace["coal"]
        assert named and all(link.startswith("L") for link in named), game.name
        assert "R-COAL-06" in game.difference.ours and ", farther than " in game.difference.ours


def test_a_shortfall_is_answered_from_the_round_end(birmingham):
    """2p-heuristic-s225307 seq 17 (player 2's action) ends a round where player 1 cannot pay £1 of
    income: the question which tile to remove is open for them after the other player's action; the
    trace removed their Farm Brewery (farm-south slot 0)."""
    result = replay_trace(birmingham, _until(_trace("2p-heuristic-s225307"), 18), "s225307")
    assert result.steps == 18 and result.differences[0].what == "game end"
    [shortfall] = [e for e in result.game.state.log if e.get("event") == "shortfall"]
    assert shortfall["player"] == 1 and shortfall["removed"] == ["farm_south/0"] and shortfall["vp_lost"] == 0
    assert result.game.question is None


def test_an_unmatched_removal_is_a_difference(birmingham):
    trace = _until(_trace("2p-heuristic-s225307"), 18)
    trace["steps"][-1]["roundEnd"]["effects"]["slots"] = []  # the trace removes no tile
    result = replay_trace(birmingham, trace, "s225307")
    [difference] = result.differences
    assert (difference.seq, difference.what) == (17, "tiles removed for unpaid income")
    assert difference.trace == [] and difference.ours["options"]
    assert difference.rules == ["R-SHORT-02"]


def test_a_double_rails_coal_is_named_per_link(birmingham):
    """4p-heuristic-s4402377 seq 84: a double rail taking one coal from Coalbrookdale and one from
    Wolverhampton; our engine's own choice for the first link is the other mine, so the action names
    each link's source."""
    name = "4p-heuristic-s4402377"
    trace = _trace(name)
    result = replay_trace(birmingham, _until(trace, 84), name)
    assert result.steps == 84
    game = result.game
    step = next(s for s in trace["steps"] if s["seq"] == 84)
    mapping = TraceMapping(birmingham, trace)
    action = whole_action(game, step, mapping)
    trial = try_action(game, action, ChoiceResolver(game, step, mapping))
    chosen = choose_sources(game, step, mapping, action, trial)
    assert chosen.named and chosen.refused is None
    assert [link["coal_from"] for link in chosen.action["links"]] == [["coalbrookdale/2"], ["wolverhampton/1"]]
    game.apply(chosen.action)  # the whole action, its sources named


@pytest.mark.skipif(not VARIANT.exists(), reason="variant not written yet")
def test_every_game_replays_to_the_end_under_quasrain_compat():
    variant = load_ruleset(str(VARIANT))
    summary = replay_traces(variant, [GENERATED])
    stops = {g.name: g.difference for g in summary.games if not g.to_the_end and g.difference}
    assert not stops, "\n".join(d.describe() for d in stops.values())
    assert all(game.to_the_end for game in summary.games) and summary.ok


# == the command line ==============================================================================

@pytest.fixture
def folder(tmp_path):
    """Three games: one to the end, one stopping at VP below 0, one at a 15th link tile."""
    for name in ("2p-eps-s2204140", "2p-mixseat-s257009", "2p-heuristic-s359930"):
        shutil.copy(GENERATED / f"{name}.trace.json", tmp_path)
    return tmp_path


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["replay", *argv])
    return code, out.getvalue()


def test_cli_table_for_a_folder(folder):
    code, text = _run("--trace", str(folder))
    assert code == 1
    assert "3 trace(s), ruleset birmingham" in text
    assert "1 of 3 games to the end with 0 differences; 168 of 234 actions matched" in text
    assert "players: VP [R-SHORT-01, R-SHORT-03]: 1 game(s)" in text
    assert "legality [R-SETUP-08]: 1 game(s)" in text
    assert "[R-SETUP-08] You have no link tiles left." in text
    for line in ("2p-mixseat-s257009", "2p-heuristic-s359930"):
        assert line in text


def test_cli_json_for_a_folder(folder):
    code, text = _run("--trace", str(folder), "--json")
    assert code == 1
    data = json.loads(text)
    assert data["format"] == "brass-replay-summary/v1" and data["ruleset"] == "birmingham"
    assert (data["games"], data["to_the_end"], data["actions"], data["matched"]) == (3, 1, 234, 168)
    results = {r["game"]: r for r in data["results"]}
    assert results["2p-eps-s2204140"]["to_the_end"] and results["2p-eps-s2204140"]["difference"] is None
    stop = results["2p-mixseat-s257009"]["difference"]
    assert (stop["seq"], stop["group"], stop["rules"]) == (13, VP, CAUSES[VP])
    assert stop["trace"] == [[0, 7, -3, -1], [5, 7, -3, 0]] and stop["ours"] == [[0, 7, -3, 0], [5, 7, -3, 0]]
    groups = [(g["what"], g["rules"], [(x["game"], x["seq"]) for x in g["games"]]) for g in data["differences"]]
    assert groups == [(LINKS, CAUSES[LINKS], [("2p-heuristic-s359930", 77)]),
                      (VP, CAUSES[VP], [("2p-mixseat-s257009", 13)])]
    assert _run("--trace", str(folder), "--json")[1] == text  # stable: no timings


def test_cli_exit_status_is_0_when_every_game_replays(tmp_path):
    shutil.copy(GENERATED / "2p-eps-s2204140.trace.json", tmp_path)
    code, text = _run("--trace", str(tmp_path), str(GENERATED / "2p-heuristic-s2186119.trace.json"))
    assert code == 0, text
    assert "2 of 2 games to the end with 0 differences; 156 of 156 actions matched" in text
    assert "First differences" not in text


def test_cli_links_per_player_is_a_shortcut(tmp_path):
    shutil.copy(GENERATED / "2p-heuristic-s359930.trace.json", tmp_path)
    assert _run("--trace", str(tmp_path))[0] == 1
    code, text = _run("--trace", str(tmp_path), "--links-per-player", "99")
    assert code == 0 and "ruleset birmingham-links-99" in text


def test_cli_one_trace_keeps_the_detailed_output():
    code, text = _run("--trace", str(GENERATED / "2p-mixseat-s257009.trace.json"))
    assert code == 1
    assert "step seq 13: players [money, income space, income level, VP] differs" in text
    assert "rules: R-SHORT-01, R-SHORT-03" in text and '"event": "shortfall"' in text


def test_cli_a_bad_trace_in_a_folder_is_that_games_error(folder):
    (folder / "broken.trace.json").write_text('{"format": "brass-birmingham-trace/v1", "steps": 3}')
    code, text = _run("--trace", str(folder), "--json")
    assert code == 1
    broken = next(r for r in json.loads(text)["results"] if r["game"] == "broken")
    assert broken["error"] and not broken["to_the_end"] and broken["difference"] is None


def test_cli_refuses_a_missing_path_and_an_empty_folder(tmp_path, capsys):
    assert main(["replay", "--trace", str(tmp_path / "nothing")]) == 1
    assert "no such trace file or folder" in capsys.readouterr().err
    assert main(["replay", "--trace", str(tmp_path)]) == 1
    assert "holds no *.trace.json" in capsys.readouterr().err
