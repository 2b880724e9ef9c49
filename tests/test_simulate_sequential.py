"""`brass simulate VARIANT --against BASE --until-decided` (issue 24, item 3): a confidence sequence
that stays valid however often it is looked at, the decisions read from it, and the command that
plays batches until one is reached."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from interpreter.tools.simulate.sequential import MIN_GAMES, confidence_sequence, decide, describe
from interpreter.tools.simulate.stats import paired_difference

ALPHA = 0.05


def test_the_confidence_sequence_worked_by_hand() -> None:
    """100 differences with mean 0 and sample standard deviation exactly 1, planned for 100 games:
    rho² = (−2 ln 0.05 + ln(1 − 2 ln 0.05)) / 100 = (5.99146 + 1.94469) / 100 = 0.0793615;
    spread = 100 rho² + 1 = 8.93615; half-width = sqrt(2 · 8.93615 / (100² rho²) · ln(sqrt(8.93615) / 0.05))
    = sqrt(0.0225203 · 4.09078) = 0.30352, against 0.1984 for the one-look t interval."""
    a = math.sqrt(0.99)  # ±a fifty times each: sample variance 100 a² / 99 = 1
    look = confidence_sequence([a, -a] * 50, planned=100)
    assert look.games == 100 and look.mean == pytest.approx(0, abs=1e-12)
    assert look.high == pytest.approx(0.30352, abs=1e-5) and look.low == pytest.approx(-0.30352, abs=1e-5)
    t = paired_difference([a, -a] * 50, [0.0] * 100)
    assert t.half_width == pytest.approx(0.19843, abs=1e-5)


def _sequential_run(rng: random.Random, effect: float, margin: float | None = None) -> tuple[str, int]:
    differences: list[float] = []
    while True:
        differences += [rng.gauss(effect, 10) for _ in range(20)]
        decision = decide(differences, planned=400, margin=margin)
        if decision.final:
            return decision.outcome, decision.look.games


def test_looking_after_every_batch_keeps_the_false_verdicts_under_five_percent() -> None:
    """300 null comparisons (differences drawn around 0, sd 10), looked at every 20 games up to 400.
    Stopping when a t interval first excludes 0 would declare a difference in about a quarter of
    them; the confidence sequence in at most 5 % (about 1.3 % measured)."""
    rng = random.Random(20261207)
    outcomes = [_sequential_run(rng, 0.0)[0] for _ in range(300)]
    assert outcomes.count("differ") / 300 <= ALPHA
    peeking = 0
    for _ in range(300):
        differences: list[float] = []
        for _look in range(20):
            differences += [rng.gauss(0, 10) for _ in range(20)]
            if paired_difference(differences, [0.0] * len(differences)).significant:
                peeking += 1
                break
    assert peeking / 300 >= 0.15  # why the t interval must not be looked at again and again


def test_a_real_effect_is_found_early_and_a_null_one_shown_small() -> None:
    """Half a standard deviation (5 VP, sd 10) is found in every run, in well under 400 games; with
    a margin of 3 VP, a null effect is shown to be smaller than the margin in nearly every run."""
    rng = random.Random(7)
    found = [_sequential_run(rng, 5.0) for _ in range(100)]
    assert all(outcome == "differ" for outcome, _ in found)
    assert sum(games for _, games in found) / 100 < 120
    shown = [_sequential_run(rng, 0.0, margin=3.0)[0] for _ in range(100)]
    assert shown.count("equivalent") >= 95 and shown.count("differ") <= 5


def test_no_decision_before_twenty_games_and_undecided_at_the_planned_games() -> None:
    huge = [100.0, 101.0] * 5  # 10 games, plainly different from 0
    assert decide(huge, planned=400).outcome == "continue"
    assert decide(huge * 2, planned=400).outcome == "differ"  # 20 games
    assert MIN_GAMES == 20
    noise = [1.0, -1.0] * 20
    assert decide(noise, planned=40).outcome == "undecided"
    assert describe(decide(noise, planned=40), "VP per player", None) == (
        "VP per player: undecided after 40 games: no difference shown (give --margin to test for no "
        "difference) (+0.00, always-valid 95% interval -0.49 to +0.49)")


# -- the command -------------------------------------------------------------------------------------

A_A = "name: a-a\ntitle: Birmingham again\nversion: '1'\nextends: birmingham\n"


def test_a_ruleset_identical_to_its_base_is_shown_equivalent_at_the_first_look(run, tmp_path: Path) -> None:
    """An A/A comparison: the same games under both (a variant that changes nothing), every
    difference 0: equivalent within any margin once 20 games are played."""
    folder = tmp_path / "a-a"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(A_A)
    status, out, err = run("simulate", str(folder), "--against", "birmingham", "--bot", "random", "--players", "2",
                           "--games", "20",
                           "--until-decided", "--margin", "1", "--json")
    assert status == 0, err
    sequential = json.loads(out)["comparison"]["sequential"]
    assert {k: sequential[k] for k in ("outcome", "games", "looks", "mean", "interval", "margin")} == \
        {"outcome": "equivalent", "games": 20, "looks": 1, "mean": 0.0, "interval": [0.0, 0.0], "margin": 1.0}


def test_batches_until_the_most_games_then_undecided_saved_to_a_file(run, tmp_path: Path) -> None:
    out_file = tmp_path / "runs.jsonl"
    args = ["simulate", "what-if", "--against", "birmingham", "--bot", "random", "--players", "2", "--games", "20",
            "--max-games", "40", "--until-decided", "--out", str(out_file)]
    status, out, err = run(*args)
    assert status == 0, err
    assert out.startswith("until decided: VP per player: undecided after 40 games: no difference shown")
    assert "2 look(s) at the games in batches, at most 40" in out
    assert "what-if against birmingham: 40 paired game(s), seeds 0..39 played with both" in out
    assert len(out_file.read_text().splitlines()) == 80  # 40 seeds under each ruleset
    status, again, err = run(*args, "--resume")  # every game is in the file: nothing is played again
    assert status == 0, err
    assert again == out and len(out_file.read_text().splitlines()) == 80


@pytest.mark.parametrize(("extra", "message"), [
    ([], "--until-decided plays until a comparison is decided: it needs --against BASE"),
    (["--against", "birmingham", "--margin", "0"], "--margin is the largest difference that counts as none"),
    (["--against", "birmingham", "--games", "50", "--max-games", "40"],
     "--games (50, the games of one batch) is more than --max-games (40)"),
])
def test_bad_sequential_options(run, extra: list[str], message: str) -> None:
    status, _, err = run("simulate", "--players", "2", "--until-decided", *extra)
    assert status == 1 and message in err


@pytest.mark.slow
def test_a_variant_with_a_known_effect_is_found_different(run) -> None:
    """The power check on real games: the what-if variant costs greedy players about 13 VP each
    (docs/simulate.md); two looks of 20 paired games find it."""
    status, out, err = run("simulate", "what-if", "--against", "birmingham", "--bot", "greedy", "--players", "2",
                           "--games", "20", "--until-decided", "--jobs", "2", "--json")
    assert status == 0, err
    sequential = json.loads(out)["comparison"]["sequential"]
    assert (sequential["outcome"], sequential["games"], sequential["looks"]) == ("differ", 40, 2)
    assert sequential["mean"] == -12.825 and sequential["interval"][1] < 0
