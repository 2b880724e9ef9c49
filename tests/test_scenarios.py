"""Every scenario under scenarios/ passes; the scenario format reports its errors at their place."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.engine.given import GivenError
from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.cli.main import main
from interpreter.tools.scenarios.scenario import ScenarioError, load_scenario, run_scenario
from interpreter.tools.scenarios.verify import scenario_files

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = scenario_files([ROOT / "scenarios"])  # a folder's mutation-equivalents.yaml is not one


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_scenario(path: Path) -> None:
    """Every scenario passes, and the engine's invariants hold on its position and after each step."""
    result = run_scenario(load_scenario(path), check=True)
    assert result.passed, "\n".join(str(f) for f in result.failures)


def test_there_are_scenarios_for_both_rulesets() -> None:
    assert {p.parent.name for p in SCENARIOS} >= {"birmingham", "birmingham-intro"}


# -- the format's errors ----------------------------------------------------------------------

HEAD = "rules: [R-COAL-02]\nplayers: 2\n"


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def errors_of(path: Path) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path, display="s.yaml")
    return [str(d).splitlines()[0] for d in caught.value.diagnostics]


@pytest.mark.parametrize("given, expected", [
    ("  tiles:\n    - {slot: dudley/0, owner: 2, industry: cotton, level: 1}\n",
     "s.yaml:6:44: slot dudley/0 shows no cotton icon (it shows: coal)"),
    ("  tiles:\n    - {slot: cannock/1, owner: 2, industry: coal, level: 9}\n",
     "s.yaml:6:58: Coal Mine has no level 9 (levels 1 to 4)"),
    ("  markets: {coal: 15}\n", "s.yaml:5:19: the coal market holds at most 14 cubes, not 15"),
    ("  tiles:\n    - {slot: atlantis/0, owner: 1, industry: coal, level: 1}\n",
     "s.yaml:6:14: unknown location 'atlantis'"),
    ("  players:\n    1: {hand: [belper]}\n", "s.yaml:6:16: card 'belper' is not in the 2-player game"),
    ("  players:\n    1: {hand: [birmingam]}\n", "s.yaml:6:16: unknown card 'birmingam'; did you mean 'birmingham'?"),
    ("  tiles:\n    - {slot: dudley/0, owner: 3, industry: coal, level: 1}\n",
     "s.yaml:6:31: unknown player 3: this game has seats 1 to 2"),
    ("  players:\n    5: {money: 3}\n", "s.yaml:6:8: unknown player 5: this game has seats 1 to 2"),
    ("  players:\n    1: {hand: [birmingham, birmingham, birmingham, birmingham]}\n",
     "s.yaml:6:52: no card 'birmingham' is left: the 2-player game has 3, all of them already given"),
    ("  merchants: {\"nottingham/0\": {tile: cotton}}\n",
     "s.yaml:5:15: merchant space nottingham/0 is not in use with 2 players "),
    ("  era: steam\n", "s.yaml:5:8: unknown era 'steam'"),
    ("  players:\n    1: {mat: {coal: 7}}\n",
     "s.yaml:6:21: Coal Mine has no level 7 (levels 1 to 4; 'none' when every tile is gone)"),
    ("  tiles:\n    - {location: dudley, owner: 1, industry: cotton, level: 1}\n",
     "s.yaml:6:18: Dudley has no free slot showing the cotton icon"),
    ("  tiles:\n    - {location: dudley, slot: dudley/0, owner: 1, industry: coal, level: 1}\n",
     "s.yaml:6:7: a tile is placed on a 'slot' (dudley/0) or in a 'location' (dudley), one of the two"),
    ("  players:\n    1: {mat: {coal: 1}}\n  tiles:\n    - {slot: dudley/0, owner: 1, industry: coal, level: 1}\n",
     "s.yaml:6:21: player 1's coal tiles on the board have taken every level 1 tile off the mat "
     "(the lowest left is level 2)"),
])
def test_an_impossible_given_is_a_located_error(tmp_path: Path, given: str, expected: str) -> None:
    path = write(tmp_path, HEAD + "given:\n  round: 2\n" + given)
    found = errors_of(path)
    assert len(found) == 1 and found[0].startswith(expected), found


def test_a_round_the_player_count_does_not_have_is_a_located_error(tmp_path: Path) -> None:
    """R-SETUP-12: an era has 10/9/8 rounds with 2/3/4 players."""
    path = write(tmp_path, "rules: [R-SETUP-12]\nplayers: 3\ngiven:\n  round: 10\n")
    assert errors_of(path) == ["s.yaml:4:10: an era has 9 rounds with 3 players, not 10 (R-SETUP-12)"]


def test_tiles_on_the_board_leave_the_mat_whatever_mat_says(tmp_path: Path) -> None:
    """A Cotton Mill I (3 on the mat) given on the board, then `mat: {cotton: 1}`: the lowest
    left is the second Cotton Mill I, not the one on the board again: 10 of 11 left."""
    path = write(tmp_path, HEAD + "given:\n  players:\n    1: {mat: {cotton: 1}}\n  tiles:\n"
                                  "    - {slot: birmingham/0, owner: 1, industry: cotton, level: 1}\n"
                                  "then:\n  - tiles_left(player(1), \"cotton\") == 10\n"
                                  "  - mat_level(player(1), \"cotton\") == 1\n")
    assert run_scenario(load_scenario(path)).passed


def test_unknown_keys_and_rule_ids_and_bad_assertions_are_located(tmp_path: Path) -> None:
    path = write(tmp_path, "rules: [R-COAL-99]\nplayers: 2\ngiven:\n  monney: 3\nthen:\n  - money(1) == \"x\"\n"
                           "  - player(1).cash == 3\nwhenn: []\n")
    found = errors_of(path)
    assert any(e.startswith("s.yaml:1:9: unknown rule ID 'R-COAL-99'") for e in found)
    assert any(e.startswith("s.yaml:8:1: unknown key 'whenn'; did you mean 'when'?") for e in found)
    assert any(e.startswith("s.yaml:6:14: cannot compare int with str") for e in found)  # int == str
    assert any(e.startswith("s.yaml:7:15:") and "cash" in e for e in found)


def test_unknown_given_key_is_located(tmp_path: Path) -> None:
    path = write(tmp_path, HEAD + "given:\n  monney: 3\n")
    assert errors_of(path) == ["s.yaml:4:3: unknown key 'monney'; expected one of: era, round, turn_order, "
                               "current, actions_left, players, tiles, links, markets, merchants, deck"]


FAILING = HEAD + """given:
  round: 2
  current: 1
  turn_order: [1, 2]
  players:
    1: {hand: [birmingham, dudley]}
when:
  - {player: 1, action: {action: loan, card: birmingham}}
then:
  - money(1) == 47
  - money(1) + 1 == vp(1)
"""


def test_a_failing_assertion_is_reported_with_its_line_and_values(tmp_path: Path) -> None:
    result = run_scenario(load_scenario(write(tmp_path, FAILING), display="s.yaml"))
    assert not result.passed
    [failure] = result.failures
    text = str(failure)
    assert text.startswith("s.yaml:13:5: assertion failed: money(1) + 1 == vp(1)")
    assert "money(1) + 1 = 48" in text and "vp(1) = 0" in text


def test_an_unexpected_refusal_and_an_unexpected_acceptance_are_failures(tmp_path: Path) -> None:
    refused = FAILING.replace("income", "x").replace("    1: {hand: [birmingham, dudley]}",
                                                      "    1: {hand: [birmingham, dudley], income: 2}")
    result = run_scenario(load_scenario(write(tmp_path, refused), display="s.yaml"))
    assert str(result.failures[0]).startswith(
        "s.yaml:10:5: step 1 (action {action: loan, card: birmingham}) was refused")
    assert "was refused" in str(result.failures[0])
    accepted = FAILING.replace("card: birmingham}}", "card: birmingham}, expect: illegal, reasons: [R-LOAN-02]}")
    result = run_scenario(load_scenario(write(tmp_path, accepted), display="s.yaml"))
    assert "was accepted; expected it to be refused" in str(result.failures[0])


def test_given_without_a_document_names_the_key() -> None:
    with pytest.raises(GivenError) as caught:
        Game.from_setup(load_ruleset("birmingham"), 2, {"markets": {"iron": 11}}, seed=1)
    assert str(caught.value.diagnostics[0]) == \
        "<given>:1:1: given.markets.iron: the iron market holds at most 10 cubes, not 11"


def test_game_from_setup_keeps_what_is_not_given() -> None:
    rs = load_ruleset("birmingham")
    plain = Game.from_setup(rs, 2, {}, seed=3)
    game = Game.from_setup(rs, 2, {"players": {2: {"money": 5}}, "links": [{"link": "L04", "owner": 1}]},
                           seed=3)
    assert game.table.player(2).money == 5 and game.table.player(1).money == plain.table.player(1).money
    assert game.table.player(1).links_left == plain.table.player(1).links_left - 1
    assert [c.id for c in game.table.player(1).hand] == [c.id for c in plain.table.player(1).hand]


def test_brass_verify_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    intro = str(ROOT / "scenarios" / "birmingham-intro")
    assert main(["verify", intro]) == 0
    out = capsys.readouterr().out
    files = len(scenario_files([intro]))
    assert out == f"{files} passed, 0 failed\n"  # the coverage tables only with --coverage
    assert main(["verify", intro, "--coverage"]) == 0
    out = capsys.readouterr().out
    assert "R-INTRO-02  intro_extra_scores" in out and out.rstrip().splitlines()[-1] == f"{files} passed, 0 failed"
    path = write(tmp_path, FAILING)
    assert main(["verify", str(tmp_path), "--coverage"]) == 1
    out = capsys.readouterr().out
    assert "assertion failed: money(1) + 1 == vp(1)" in out and "money(1) + 1 = 48" in out
    assert "coverage (birmingham): 1/" in out
    # the run ends with the failures: one line per failed file, at its first problem
    assert out.rstrip().splitlines()[-3:] == ["failed:", f"  {path}:13:5: assertion failed: money(1) + 1 == vp(1)",
                                              "0 passed, 1 failed"]


def test_coverage_counts_a_rewritten_rule_for_the_variant_only(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """summary-es rewrites R-ERA-02 and R-BEER-02: its scenario citing R-ERA-02 covers the
    variant's reading, not the rulebook's; an inherited rule counts for the base index."""
    write(tmp_path, "ruleset: summary-es\nplayers: 2\nrules: [R-ERA-02, R-SETUP-06]\n"
                    "then: ['market(\"coal\") == 13']\n", "es_reading.yaml")
    assert main(["verify", str(tmp_path), "--coverage"]) == 0
    out = capsys.readouterr().out
    base = out[out.index("rule coverage (birmingham):"):out.index("rule coverage (summary-es")]
    variant = out[out.index("rule coverage (summary-es, the rules it rewrites):"):]
    assert "R-SETUP-06  es_reading (summary-es)" in base and "R-ERA-02" not in base
    assert "coverage (birmingham): 1/122 rule IDs" in base
    assert "R-ERA-02   es_reading\n" in variant and "R-BEER-02  none\n" in variant
    assert "coverage (summary-es): 1/3 rule IDs = 33.3%" in variant


def test_card_any_plays_a_card_the_step_does_not_otherwise_use(tmp_path: Path) -> None:
    path = write(tmp_path, """\
rules: [R-TURN-05]
players: 2
given:
  round: 2
  current: 1
  players:
    1: {hand: [dudley, birmingham, coventry, coventry, stafford]}
when:
  - {player: 1, action: {action: pass, card: any}}
  - {player: 1, action: {action: scout, card: any, second_card: coventry, third_card: any}}
then:
  - count(f in discard_faces(player(1)) where f in ["dudley", "birmingham", "coventry"]) == 4
  - '"stafford" in hand_faces(player(1)) and "wild_location" in hand_faces(player(1))'
""")
    result = run_scenario(load_scenario(path))
    assert result.passed, [str(f) for f in result.failures]


def test_a_step_may_carry_its_own_assertions(tmp_path: Path) -> None:
    """`then:` on a step is checked right after it: the state between two steps."""
    text = """\
rules: [R-LOAN-01]
players: 2
given:
  round: 2
  turn_order: [1, 2]
  current: 1
  players:
    1: {money: 10, hand: [dudley, birmingham]}
when:
  - player: 1
    action: {action: loan, card: dudley}
    then: [money(1) == 40, actions_left == 1]
  - player: 1
    action: {action: loan, card: birmingham}
    then: [money(1) == 70, player(1).income_position == 4]
"""
    assert run_scenario(load_scenario(write(tmp_path, text))).passed
    failing = write(tmp_path, text.replace("money(1) == 40,", "money(1) == 41,"), "f.yaml")
    result = run_scenario(load_scenario(failing))
    assert [str(f).splitlines()[:2] for f in result.failures] == [
        [f"{failing}:12:12: assertion failed: money(1) == 41", "    money(1) = 40"]]


def test_brass_verify_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    write(tmp_path, FAILING, "failing.yaml")
    write(tmp_path, "rules: [R-COAL-99]\nplayers: 2\n", "broken.yaml")
    assert main(["verify", str(tmp_path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert (data["passed"], data["failed"]) == (0, 2)
    broken, failing = data["scenarios"]
    assert broken["loaded"] is False and broken["problems"][0]["message"].startswith("unknown rule ID 'R-COAL-99'")
    assert failing["loaded"] is True and failing["passed"] is False
    [problem] = failing["problems"]
    assert problem["at"].endswith("failing.yaml:13:5")
    assert problem["message"] == "assertion failed: money(1) + 1 == vp(1)"
    assert "money(1) + 1 = 48" in problem["detail"]
    table = data["coverage"]["birmingham"]
    assert table["rules"] == 125 and table["covered"] == 1 and table["cited_by"]["R-COAL-02"] == ["failing"]


def test_a_given_position_keeps_the_tile_count(tmp_path: Path) -> None:
    """Tiles a `mat:` takes off beyond those given on the board left the mat before the position
    (developed or removed): they are counted, so the invariants hold from the first position on."""
    from interpreter.engine.invariants import check_invariants

    game = Game.from_setup(load_ruleset("birmingham"), 2, {
        "players": {1: {"mat": {"coal": 3}}},
        "tiles": [{"slot": "dudley/0", "owner": 1, "industry": "coal", "level": 2}]}, seed=1)
    player = game.table.player(1)
    # I, II, II off; one on the board
    assert (sum(player.mat_used.values()), player.gone_before, player.removed) == (3, 2, 0)
    assert check_invariants(game.table) == []


def test_a_tile_given_by_location_takes_the_slot_a_build_would_use_first() -> None:
    """Birmingham: slot 0 shows cotton and manufacturer, slots 1 and 3 manufacturer only (R-BUILD-09)."""
    game = Game.from_setup(load_ruleset("birmingham"), 2, {"tiles": [
        {"location": "birmingham", "owner": 1, "industry": "manufacturer", "level": 1},
        {"location": "birmingham", "owner": 2, "industry": "manufacturer", "level": 1},
        {"location": "birmingham", "owner": 2, "industry": "manufacturer", "level": 2}]}, seed=1)
    assert sorted(game.state.tiles) == ["birmingham/0", "birmingham/1", "birmingham/3"]
    assert game.state.tiles["birmingham/0"].spec.level == 2


def test_brass_verify_runs_only_the_scenarios_of_a_rule(capsys: pytest.CaptureFixture[str]) -> None:
    cites = [p for p in SCENARIOS if "R-COAL-07" in load_scenario(p).rules]
    assert main(["verify", str(ROOT / "scenarios"), "--rule", "R-COAL-07"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1] == f"{len(cites)} passed, 0 failed" and len(cites) >= 4
    assert main(["verify", str(ROOT / "scenarios"), "--rule", "R-NOPE"]) == 1
    assert "no scenario in" in capsys.readouterr().err


# -- a player who is not deciding (R-TURN-01), and the state between an action's effects and its end --

OUT_OF_TURN = """\
rules: [R-TURN-01]
players: 2
given:
  round: 2
  turn_order: [1, 2]
  current: 1
  players:
    2: {money: 10, hand: [stafford, coventry]}
when:
  - player: 2
    action: {action: loan, card: stafford}
"""


def test_a_step_by_a_player_not_deciding_is_a_located_failure_citing_the_turn_rule(tmp_path: Path) -> None:
    """Without `expect: illegal` the move is the engine's to refuse (R-TURN-01): a failure at the step
    with the refusal and its rule, never a crash of the runner; the state is left as it was."""
    scenario = load_scenario(write(tmp_path, OUT_OF_TURN), display="s.yaml")
    result = run_scenario(scenario)
    assert [str(f).splitlines()[0] for f in result.failures] == [
        "s.yaml:10:5: step 1 (action {action: loan, card: stafford}) was refused: player 1 decides now, not player 2"]
    assert "[R-TURN-01] It is player 1's turn to act, not player 2's." in result.failures[0].detail
    expected = OUT_OF_TURN + ("    expect: illegal\n    reasons: [R-TURN-01]\n"
                              "then: [money(2) == 10, hand_size(player(2)) == 2]\n")
    assert run_scenario(load_scenario(write(tmp_path, expected, "e.yaml"))).passed


def test_a_step_by_a_seat_the_game_does_not_have_is_a_located_error(tmp_path: Path) -> None:
    path = write(tmp_path, OUT_OF_TURN.replace("  - player: 2", "  - player: 7") + "    expect: illegal\n")
    assert errors_of(path) == ["s.yaml:10:13: unknown player 7: this game has seats 1 to 2"]


AFTER_EFFECTS = """\
rules: [R-TURN-08]
players: 2
given:
  round: 2
  turn_order: [1, 2]
  current: 1
  players:
    1: {money: 10, hand: [dudley, birmingham, coventry, stafford, walsall, birmingham, dudley, coventry]}
  deck: 10
when:
  - {player: 1, action: {action: loan, card: dudley}}
  - player: 1
    action: {action: pass, card: birmingham}
    after_effects: [hand_size(player(1)) == 6, actions_left == 1, deck_size == 10]
    then: [hand_size(player(1)) == 8, deck_size == 8, to_act == player(2)]
"""


def test_after_effects_sees_the_hand_before_the_end_of_turn_refill(tmp_path: Path) -> None:
    """R-TURN-08: after the turn's second action the hand holds 8 − 2 = 6 cards until it is refilled to 8."""
    assert run_scenario(load_scenario(write(tmp_path, AFTER_EFFECTS))).passed
    failing = load_scenario(write(tmp_path, AFTER_EFFECTS.replace("== 6,", "== 8,"), "f.yaml"), display="f.yaml")
    result = run_scenario(failing)
    assert [str(f).splitlines()[:2] for f in result.failures] == [
        ["f.yaml:14:21: assertion failed: hand_size(player(1)) == 8", "    hand_size(player(1)) = 6"]]


def test_after_effects_of_a_step_that_ends_no_action_is_a_failure(tmp_path: Path) -> None:
    text = AFTER_EFFECTS.replace("action: {action: pass, card: birmingham}", "decision: {action: pass}")
    result = run_scenario(load_scenario(write(tmp_path, text), display="s.yaml"))
    assert [str(f) for f in result.failures] == [
        "s.yaml:14:21: step 2 (decision {action: pass}) ended no action: its after_effects were never checked "
        "(they are checked when an action's effects are done)"]


def test_after_effects_on_a_step_expected_to_be_refused_is_a_located_error(tmp_path: Path) -> None:
    text = AFTER_EFFECTS.replace("    then: [hand_size", "    expect: illegal\n    then: [hand_size")
    assert errors_of(write(tmp_path, text)) == [
        "s.yaml:14:5: a step expected to be refused runs no effects: after_effects needs an accepted step"]


def test_watching_action_ends_changes_nothing_and_skips_the_search_trials() -> None:
    """The hook is a window: the same game with and without it, called once per action taken (not for
    the whole-action search's trial runs, which run effects too)."""
    ruleset = load_ruleset("birmingham")
    plain, watched = Game.new(ruleset, players=2, seed=3), Game.new(ruleset, players=2, seed=3)
    hands: list[int] = []
    with watched.watching_action_ends(lambda: hands.append(len(watched.table.me.hand))):
        for _ in range(4):
            action = plain.whole_actions()[0]
            assert watched.whole_actions()[0] == action  # the search's trials run effects: not action ends
            plain.apply(action)
            watched.apply(action)
    assert plain.to_json() == watched.to_json()
    # R-TURN-03: 1 action each in the first round; then 8 − 1 and 8 − 2 before the refill (R-TURN-08)
    assert hands == [7, 7, 7, 6]
