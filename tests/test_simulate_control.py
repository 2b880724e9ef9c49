"""`brass simulate VARIANT --against BASE --base-from FILE` (issue 24, item 2): the base's games
of other seeds give its level, and the paired base games serve as a control variate.

The estimator is checked on data small enough to work by hand, its interval's coverage on
synthetic games drawn from our own seeded generator, and the command on a few 2-player games
between random bots (the plumbing, not the game).
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from interpreter.tools.simulate.stats import controlled_difference, paired_difference, t_quantile, variance_removed

SMALL = ["--players", "2", "--bot", "random"]


# -- the estimator -----------------------------------------------------------------------------------

def test_a_variant_that_adds_the_same_to_every_game_is_measured_exactly() -> None:
    base = [50.0, 61.0, 47.0, 58.0, 55.0]
    found = controlled_difference([b + 2 for b in base], base, [40.0, 70.0, 52.0])
    assert found.weight == pytest.approx(1.0)  # the variant moves with its base one for one
    assert found.difference.mean == pytest.approx(2.0)
    assert found.difference.low == pytest.approx(2.0) and found.difference.high == pytest.approx(2.0)
    assert found.difference.p_value == 0.0


def test_an_uncorrelated_variant_weighs_the_paired_base_games_by_their_number() -> None:
    # cov(variant, base) = 0, so beta = 0 and w = n / (M + n) = 4 / 6: the base's level is the mean of all
    # six base games, 0 * 2/3 + 12 * 1/3 = 4, and the difference -4
    found = controlled_difference([1.0, 1.0, -1.0, -1.0], [1.0, -1.0, 1.0, -1.0], [10.0, 14.0])
    assert found.weight == pytest.approx(2 / 3)
    assert found.difference.mean == pytest.approx(-4.0)
    # residual variance 52/27 on n - 2 = 2 degrees of freedom: 26/9; over n: 13/18; the others' mean,
    # weighted (1/3)^2 * 8 / 2 = 8/18; beta's error (26/9) / (4/3 * 3) times the lever (2/6 * -12)^2: 208/18
    half = t_quantile(0.975, 2) * math.sqrt(229 / 18)
    assert found.difference.high - found.difference.mean == pytest.approx(half)
    assert found.difference.games == 4


def test_too_few_games_fall_back_to_plain_pairing() -> None:
    plain = paired_difference([5.0, 7.0], [4.0, 4.0])
    assert controlled_difference([5.0, 7.0], [4.0, 4.0], [1.0, 2.0, 3.0]).difference == plain  # 2 paired games
    assert controlled_difference([5.0, 7.0, 9.0], [4.0, 4.0, 6.0], [3.0]).weight == 1.0  # 1 other game
    with pytest.raises(ValueError, match="differ in length"):
        controlled_difference([1.0, 2.0, 3.0], [1.0, 2.0], [1.0, 2.0])


def _synthetic(rng: random.Random, games: int, correlation: float) -> tuple[list[float], list[float]]:
    """Pairs of games of the same seed that share a part (the deal) and go their own ways after."""
    variant, base = [], []
    for _ in range(games):
        shared = rng.gauss(0, 1) * math.sqrt(correlation)
        variant.append(100 + 15 * (shared + rng.gauss(0, 1) * math.sqrt(1 - correlation)))
        base.append(100 + 15 * (shared + rng.gauss(0, 1) * math.sqrt(1 - correlation)))
    return variant, base


@pytest.mark.parametrize("games, others", [(10, 200), (40, 400), (20, 20)])
def test_the_interval_holds_the_true_difference_95_times_in_100(games: int, others: int) -> None:
    """No difference, 2,000 comparisons: about 5% may exclude 0 (plain least squares' error for
    the weight, with n - 1 degrees of freedom and no term for beta's own error, gave 7.1% at 10 games)."""
    rng, wrong = random.Random(24), 0
    for _ in range(2000):
        variant, base = _synthetic(rng, games, 0.25)
        other = [100 + 15 * rng.gauss(0, 1) for _ in range(others)]
        wrong += controlled_difference(variant, base, other).difference.significant
    assert 0.035 <= wrong / 2000 <= 0.062


def test_a_large_cached_base_removes_about_half_the_variance_where_pairing_removes_a_quarter() -> None:
    rng, controlled, paired = random.Random(7), [], []
    for _ in range(300):
        variant, base = _synthetic(rng, 40, 0.25)
        found = controlled_difference(variant, base, [100 + 15 * rng.gauss(0, 1) for _ in range(1000)])
        controlled.append(found.removed)
        paired.append(variance_removed(variant, base))
    # pairing: the correlation, 0.25; the control: 1 - (1 - 0.25^2) / 2 ≈ 0.53 with an exact base level,
    # less the errors of the base's level and of beta
    assert 0.20 <= sum(paired) / len(paired) <= 0.30
    assert 0.45 <= sum(controlled) / len(controlled) <= 0.56


# -- the command ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def base_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twelve random-bot games of Birmingham alone (seeds 100..111), as --out writes them."""
    from interpreter.tools.cli.main import main

    path = tmp_path_factory.mktemp("base") / "base.jsonl"
    assert main(["simulate", "birmingham", *SMALL, "--games", "12", "--seed", "100", "--out", str(path),
                 "--json"]) == 0
    return path


def test_the_comparison_reads_the_base_level_from_the_other_games(run, base_file: Path) -> None:
    status, out, err = run("simulate", "what-if", "--against", "birmingham", *SMALL, "--games", "4",
                           "--seed", "104", "--base-from", str(base_file), "--json")
    assert status == 0, err
    comparison = json.loads(out)["comparison"]
    assert comparison["control"]["base_games"] == 8  # seeds 100..111 less 104..107, played by the comparison
    row = comparison["figures"]["vp_per_player"]
    assert "control_weight" in row and "variance_removed_by_pairing" in row
    plain = comparison["figures"]["vp_per_player"]["base"]  # the paired base games' mean, as without it
    status, out, _ = run("simulate", "what-if", "--against", "birmingham", *SMALL, "--games", "4", "--seed", "104",
                         "--json")
    assert json.loads(out)["comparison"]["figures"]["vp_per_player"]["base"] == plain
    assert "control" not in json.loads(out)["comparison"]


def test_the_table_says_how_the_difference_was_estimated(run, base_file: Path) -> None:
    status, out, err = run("simulate", "what-if", "--against", "birmingham", *SMALL, "--games", "4",
                           "--seed", "200", "--base-from", str(base_file))
    assert status == 0, err
    text = " ".join(out.split())
    assert "the paired base games as a control, the base's level from 12 more games of it" in text
    assert "removed" in text and "(pairing alone:" in text


def test_the_base_side_of_an_earlier_comparison_serves_as_well(run, tmp_path: Path) -> None:
    earlier = tmp_path / "earlier.jsonl"
    assert run("simulate", "sell-level-ii", "--against", "birmingham", *SMALL, "--games", "5", "--seed", "300",
               "--out", str(earlier))[0] == 0
    status, out, err = run("simulate", "what-if", "--against", "birmingham", *SMALL, "--games", "3", "--seed",
                           "301", "--base-from", str(earlier), "--json")
    assert status == 0, err
    assert json.loads(out)["comparison"]["control"]["base_games"] == 2  # seeds 300 and 304


@pytest.mark.parametrize("extra, message", [
    (["--bot", "greedy"], "holds no game of birmingham as it is now with 2 players and bots greedy,greedy "
                          "(line 1: bots random,random)"),
    (["--players", "3"], "holds no game of birmingham as it is now with 3 players"),
    (["--seed", "100", "--games", "12"], "holds 0 game(s) of birmingham outside seeds 100..111"),
])
def test_games_that_do_not_match_are_refused_with_the_reason(run, base_file: Path, extra: list[str],
                                                             message: str) -> None:
    status, _, err = run("simulate", "what-if", "--against", "birmingham", *SMALL, "--games", "2",
                         "--base-from", str(base_file), *extra)
    assert status != 0 and message in " ".join(err.split()) and "Traceback" not in err


def test_base_from_is_refused_where_it_cannot_serve(run, base_file: Path, tmp_path: Path) -> None:
    status, _, err = run("simulate", "birmingham", "--base-from", str(base_file))
    assert status != 0 and "needs --against BASE" in err
    status, _, err = run("simulate", "what-if", "--against", "birmingham", "--until-decided", "--base-from",
                         str(base_file))
    assert status != 0 and "cannot be combined with --until-decided" in err
    status, _, err = run("simulate", "what-if", "--against", "birmingham", "--base-from", str(tmp_path / "none"))
    assert status != 0 and "no such file" in err
    status, _, err = run("simulate", "birmingham", "--against", "what-if", *SMALL, "--base-from", str(base_file))
    assert status != 0 and "holds no game of what-if" in err and "another ruleset" in err


def test_the_report_uses_the_same_control_and_says_so(run, base_file: Path, tmp_path: Path) -> None:
    runs, page = tmp_path / "runs.jsonl", tmp_path / "report.html"
    status, out, err = run("simulate", "what-if", "--against", "birmingham", *SMALL, "--games", "4", "--seed", "104",
                           "--base-from", str(base_file), "--out", str(runs), "--json")
    assert status == 0, err
    printed = json.loads(out)["comparison"]
    status, _, err = run("report", "what-if", "--against", "birmingham", "--from", str(runs), "--base-from",
                         str(base_file), "--html", str(page))
    assert status == 0, err
    html = page.read_text(encoding="utf-8")
    assert "With 8 more games of the base: the base&#x27;s games of other seeds" in html
    assert "as a control (weight" in html
    assert f"--base-from {base_file}" in html  # the commands that play it again
    removed = round(printed["figures"]["vp_per_player"]["variance_removed"] * 100)
    assert f"removed {removed}% of the variance of the VP per player difference of two independent runs" in html
