"""`brass simulate VARIANT --against BASE` as a sound comparison: paired games (the same seeds,
the bots rotated through the seats), each figure's difference with a paired t interval, verdicts
in words, and the win rate per seat with a Wilson interval.

The interval math is checked on data small enough to work by hand; the command on a few
2-player games between random bots (what is tested is the pairing and the plumbing, not the game).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from interpreter.tools.simulate.compare import compare, figures
from interpreter.tools.simulate.games import GameRecord, Summary, seating
from interpreter.tools.simulate.stats import (
    Difference,
    decimals,
    holm,
    incomplete_beta,
    paired_difference,
    t_quantile,
    variance_removed,
    verdict,
    wilson,
)

SMALL = ["--players", "2", "--games", "4", "--seed", "3", "--bot", "random"]


def simulate_json(run, *args: str) -> dict[str, Any]:
    status, out, err = run("simulate", *args, "--json")
    assert status == 0, err
    return json.loads(out)


# -- the math ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("df, expected", [
    (1, 12.7062047), (2, 4.3026527), (3, 3.1824463), (9, 2.2621572), (30, 2.0422725), (1000, 1.9623391),
])
def test_the_t_quantile_matches_the_printed_tables(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-6)


def test_the_t_quantile_is_symmetric_and_tends_to_the_normal() -> None:
    assert t_quantile(0.025, 5) == pytest.approx(-t_quantile(0.975, 5))
    assert t_quantile(0.995, 5) == pytest.approx(4.0321430, abs=1e-6)
    assert t_quantile(0.975, 10**6) == pytest.approx(1.959966, abs=1e-5)
    with pytest.raises(ValueError):
        t_quantile(1.0, 3)


def test_the_incomplete_beta_function_on_closed_forms() -> None:
    assert incomplete_beta(0.3, 1, 1) == pytest.approx(0.3)  # uniform
    assert incomplete_beta(0.3, 2, 1) == pytest.approx(0.09)  # x²
    assert incomplete_beta(0.3, 1, 3) == pytest.approx(1 - 0.7 ** 3)


def test_a_paired_t_interval_worked_by_hand() -> None:
    """Differences 1, 3, 3, 5: mean 3, s² = (4 + 0 + 0 + 4) / 3, SE = s / 2, t(0.975, 3) = 3.1824463."""
    difference = paired_difference([5, 7, 9, 11], [4, 4, 6, 6])
    half = 3.1824463 * math.sqrt(8 / 3) / 2  # 2.5984565
    assert difference.games == 4 and difference.mean == 3
    assert difference.low == pytest.approx(3 - half, abs=1e-6) and difference.high == pytest.approx(3 + half, abs=1e-6)
    assert difference.significant


def test_paired_differences_at_the_edges() -> None:
    assert paired_difference([2, 4], [2, 4]) == Difference(2, 0.0, 0.0, 0.0, 1.0)  # no change: not significant
    assert not paired_difference([2, 4], [2, 4]).significant
    assert paired_difference([3, 5], [2, 4]).significant  # the same +1 every game: a sure change
    assert paired_difference([7], [2]) == Difference(1, 5.0, None, None)  # one game: no interval
    with pytest.raises(ValueError):
        paired_difference([1, 2], [1])


@pytest.mark.parametrize("wins, low, high", [(0, 0.0, 0.2775328), (5, 0.2365931, 0.7634069), (10, 0.7224672, 1.0)])
def test_the_wilson_interval_of_ten_games(wins: int, low: float, high: float) -> None:
    found = wilson(wins, 10)
    assert found == pytest.approx((low, high), abs=1e-6)
    assert 0 <= found[0] <= wins / 10 <= found[1] <= 1


def test_the_wilson_interval_takes_shared_wins() -> None:
    assert wilson(1.5, 3) == pytest.approx((0.1253345, 0.8746655), abs=1e-6)
    assert wilson(0, 0) == (0.0, 1.0)


# -- the verdicts --------------------------------------------------------------------------------------

@pytest.mark.parametrize("difference, expected", [
    (Difference(40, 6.1, 3.8, 8.4), "the variant raises mean VP by 6.1 ± 2.3"),
    (Difference(40, -6.1, -8.4, -3.8), "the variant lowers mean VP by 6.1 ± 2.3"),
    (Difference(200, 0.12, 0.086, 0.154), "the variant raises mean VP by 0.120 ± 0.034"),
    (Difference(9, -61, -84, -38), "the variant lowers mean VP by 61 ± 23"),
    (Difference(12, 1.0, -0.5, 2.5), "no significant difference after 12 games"),
    (Difference(12, 0.0, 0.0, 0.0), "no significant difference after 12 games"),
    (Difference(1, 3.0, None, None), "too few games to tell (1; an interval needs 2 or more)"),
])
def test_verdict_wording(difference: Difference, expected: str) -> None:
    assert verdict("mean VP", difference) == expected


def test_decimals_show_two_significant_digits_of_the_half_width() -> None:
    assert [decimals(h) for h in (23, 2.3, 0.23, 0.034, 0.0001, 0)] == [0, 1, 2, 3, 3, 2]


# -- the comparison of two runs, on made-up games --------------------------------------------------------

def made_up(vps: list[tuple[int, int]], money: int, name: str) -> Summary:
    """Two-player games with these VP (seat 1, seat 2), seeds 0, 1, …"""
    games = []
    for seed, (first, second) in enumerate(vps):
        rows = sorted(({"seat": seat, "vp": vp, "money": money, "income_position": 10, "income_level": 0}
                       for seat, vp in ((1, first), (2, second))), key=lambda row: -row["vp"])
        winners = [row["seat"] for row in rows if row["vp"] == rows[0]["vp"]]
        games.append(GameRecord(seed, rows, sorted(winners), 78, 200, 0.0, action_counts={"build": 9},
                                bots=seating(["random", "greedy"], seed, True)))
    return Summary(name, 2, 0, ["random", "greedy"], False, games, ["build", "pass"], rotated=True)


def test_compare_pairs_games_by_seed() -> None:
    variant = made_up([(50, 40), (60, 45), (55, 50), (70, 41)], 12, "variant")
    base = made_up([(45, 40), (50, 45), (50, 50), (60, 41)], 12, "base")
    report = compare(variant, base)
    assert report["games"] == 4 and report["seeds"] == [0, 3] and report["seating"] == "rotated"
    seat_1 = report["figures"]["vp_seat_1"]  # differences 5, 10, 5, 10: mean 7.5, s = √(25/3)
    half = 3.1824463 * math.sqrt(25 / 3) / 2
    assert (seat_1["variant"], seat_1["base"], seat_1["difference"]) == (58.75, 51.25, 7.5)
    assert seat_1["interval"] == pytest.approx([7.5 - half, 7.5 + half], abs=1e-4)
    # t = 7.5 / (√(25/3) / 2) = 5.196 with 3 degrees of freedom: p = 0.0138 alone; 11 other figures,
    # all of the same p or 1.0, so Holm multiplies it by 11: 0.1523, and the figure does not differ.
    assert (seat_1["p_value"], seat_1["p_holm"], seat_1["significant"]) == (0.0138, 0.1523, False)
    assert seat_1["verdict"] == ("no significant difference after 4 games, judged with the other figures (alone it "
                                 "would read: the variant raises the VP of seat 1 by 7.5 ± 4.6)")
    primary = report["figures"]["vp_per_player"]  # judged alone: the same p, significant
    assert (primary["p_value"], primary["p_holm"], primary["primary"], primary["significant"]) == \
        (0.0138, None, True, True)
    assert report["differ"] == {"figures": 11, "significant": 0, "by_chance_uncorrected": 0.55}
    assert report["figures"]["vp_seat_2"]["interval"] == [0.0, 0.0]
    assert report["verdicts"]["vp_per_player"] == "the variant raises mean VP by 3.8 ± 2.3"
    assert report["verdicts"]["money_per_player"] == "no significant difference after 4 games"
    assert report["figures"]["margin"]["variant"] == 14.75  # 10, 15, 5, 29
    assert report["figures"]["actions_pass"] == {
        "label": "pass actions per game", "variant": 0.0, "base": 0.0, "difference": 0.0, "interval": [0.0, 0.0],
        "p_value": 1.0, "p_holm": 1.0, "primary": False, "significant": False,
        "verdict": "no significant difference after 4 games", "variance_removed": None}
    assert list(report["verdicts"]) == ["vp_per_player", "winner_vp", "margin", "money_per_player",
                                        "income_level_per_player", "actions", "decisions"]
    assert report["win_rate_by_seat"]["base"]["1"]["rate"] == 0.875  # 3 wins and a shared one of 4


def test_compare_refuses_runs_that_do_not_pair() -> None:
    variant = made_up([(50, 40), (60, 45)], 12, "variant")
    with pytest.raises(ValueError, match="same seeds"):
        compare(variant, made_up([(50, 40)], 12, "base"))


def test_seating_rotates_by_the_seed() -> None:
    bots = ["a", "b", "c"]
    assert [seating(bots, seed, True) for seed in (3, 4, 5)] == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    assert seating(bots, 4, False) == bots
    for seat in range(3):  # over any 3 games in a row, each bot sits in each seat once
        assert sorted(seating(bots, seed, True)[seat] for seed in range(7, 10)) == bots


# -- the command ---------------------------------------------------------------------------------------

def test_a_comparison_rotates_the_bots_and_pairs_every_game(run) -> None:
    data = simulate_json(run, *SMALL, "what-if", "--against", "birmingham", "--bot", "greedy,random")
    assert data["seating"] == data["against"]["seating"] == "rotated"
    seats = [game["bots"] for game in data["per_game"]]
    assert seats == [game["bots"] for game in data["against"]["per_game"]]  # the same seating, seed by seed
    assert seats == [["random", "greedy"], ["greedy", "random"], ["random", "greedy"], ["greedy", "random"]]
    assert {(seat, game[seat]) for game in seats for seat in range(2)} == {
        (0, "greedy"), (0, "random"), (1, "greedy"), (1, "random")}  # each bot in each seat


def test_a_single_run_keeps_each_bot_in_its_seat(run) -> None:
    data = simulate_json(run, *SMALL, "--seats", "greedy,random")  # --seats: the same as --bot
    assert data["seating"] == "fixed" and data["bots"] == ["greedy", "random"]
    assert all(game["bots"] == ["greedy", "random"] for game in data["per_game"])
    rates = data["summary"]["win_rate_by_seat"]
    assert set(rates) == {"1", "2"} and sum(rate["rate"] for rate in rates.values()) == pytest.approx(1)
    assert all(rate["low"] <= rate["rate"] <= rate["high"] for rate in rates.values())


def test_the_comparison_json_has_its_shape_and_is_the_same_twice(run) -> None:
    first = simulate_json(run, *SMALL, "what-if", "--against", "birmingham")
    assert simulate_json(run, *SMALL, "what-if", "--against", "birmingham") == first
    report = first["comparison"]
    assert (report["variant"], report["base"], report["games"], report["seeds"]) == ("what-if", "birmingham", 4, [3, 6])
    assert report["confidence"] == 0.95 and "paired t interval" in report["method"]
    for key in ("vp_seat_1", "vp_seat_2", "vp_per_player", "winner_vp", "margin", "money_per_player",
                "income_position_per_player", "income_level_per_player", "actions", "decisions", "actions_loan"):
        row = report["figures"][key]
        assert set(row) == {"label", "variant", "base", "difference", "interval", "p_value", "p_holm", "primary",
                            "significant", "verdict", "variance_removed"}
        assert row["difference"] == pytest.approx(row["variant"] - row["base"], abs=1e-3)
        assert row["interval"][0] <= row["difference"] <= row["interval"][1]
        assert row["significant"] == (row["interval"][0] > 0 or row["interval"][1] < 0)
    assert set(report["win_rate_by_seat"]) == {"variant", "base"}
    assert report["win_rate_by_seat"]["base"] == first["against"]["summary"]["win_rate_by_seat"]


def test_every_figure_is_the_paired_difference_of_the_saved_games(run) -> None:
    """The comparison's numbers recomputed from the games it prints: seed by seed, the variant's
    game minus the base's, and the interval of those differences."""
    data = simulate_json(run, *SMALL, "what-if", "--against", "birmingham", "--bot", "greedy,random")
    variant, base = data["per_game"], data["against"]["per_game"]
    assert [game["seed"] for game in variant] == [game["seed"] for game in base] == [3, 4, 5, 6]

    def per_player(game: dict[str, Any], column: str) -> float:
        return sum(row[column] for row in game["standings"]) / len(game["standings"])

    readers = {
        "vp_per_player": lambda game: per_player(game, "vp"),
        "money_per_player": lambda game: per_player(game, "money"),
        "vp_seat_2": lambda game: next(row["vp"] for row in game["standings"] if row["seat"] == 2),
        "winner_vp": lambda game: game["standings"][0]["vp"],
        "margin": lambda game: game["standings"][0]["vp"] - game["standings"][1]["vp"],
        "decisions": lambda game: game["decisions"],
        "actions_build": lambda game: game["action_counts"].get("build", 0),
    }
    phrases = {figure.key: figure.phrase for figure in figures(2, ["build"])}
    for key, read in readers.items():
        mine, theirs = [read(game) for game in variant], [read(game) for game in base]
        expected = paired_difference(mine, theirs)
        assert expected.low is not None and expected.high is not None
        row = data["comparison"]["figures"][key]
        assert row["variant"] == round(sum(mine) / 4, 4) and row["base"] == round(sum(theirs) / 4, 4), key
        assert row["difference"] == round(expected.mean, 4), key
        assert row["interval"] == [round(expected.low, 4), round(expected.high, 4)], key
        assert row["verdict"] == verdict(phrases[key], expected), key
    # the seats rotate with the seed (3 and 5 odd: the list turned once) and pair up game by game
    assert [game["bots"] for game in variant] == [["random", "greedy"], ["greedy", "random"]] * 2
    assert [game["bots"] for game in base] == [game["bots"] for game in variant]


def test_a_ruleset_against_itself_differs_in_nothing(run) -> None:
    report = simulate_json(run, *SMALL, "--against", "birmingham")["comparison"]
    assert all(row["difference"] == 0 and row["interval"] == [0, 0] for row in report["figures"].values())
    assert set(report["verdicts"].values()) == {"no significant difference after 4 games"}


def test_the_comparison_table(run) -> None:
    status, out, err = run("simulate", *SMALL, "what-if", "--against", "birmingham", "--bot", "greedy")
    assert status == 0, err
    assert "what-if against birmingham: 4 paired game(s), seeds 3..6 played with both" in out
    assert "difference (95%)" in out and "VP per player" in out and "loan actions per game" in out
    assert "verdicts: VP per player judged alone (significant when its 95% interval excludes 0); every other " \
        "figure with Holm's correction over all of them:" in out
    assert "other figures differ after the correction" in out
    assert out.count("after 4 games") + out.count("the variant ") >= 7  # a verdict per key figure
    assert "seat balance: win rate per seat with its 95% Wilson interval" in out


def test_two_worker_processes_give_the_comparison_of_one_and_save_each_games_seats(run, tmp_path: Path) -> None:
    """The rotation travels with the batches: workers seat the bots as the plain run does, and
    each saved game says who sat where."""
    path = tmp_path / "runs.jsonl"
    args = [*SMALL, "what-if", "--against", "birmingham", "--bot", "random,greedy"]
    assert simulate_json(run, *args, "--jobs", "2", "--out", str(path)) == simulate_json(run, *args, "--jobs", "1")
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 8 and {line["run"]["seating"] for line in lines} == {"rotated"}
    assert all(line["bots"] == seating(["random", "greedy"], line["seed"], True) for line in lines)


def old_format(path: Path) -> None:
    """Rewrite a file as brass-simulate/1 wrote it: no `seating`, and the run's bots on each line."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        line["run"]["format"] = "brass-simulate/1"
        del line["run"]["seating"]
        line["bots"] = line["run"]["bots"]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def test_an_old_file_of_a_single_run_is_still_read(run, tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    expected = simulate_json(run, *SMALL, "--out", str(path))
    old_format(path)
    assert simulate_json(run, *SMALL, "--out", str(path), "--resume") == expected


def test_an_old_file_of_a_comparison_is_refused(run, tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    args = ["--players", "2", "--games", "1", "what-if", "--against", "birmingham"]
    assert run("simulate", *args, "--out", str(path))[0] == 0
    old_format(path)
    status, _, err = run("simulate", *args, "--out", str(path), "--resume")
    assert status == 1 and "Traceback" not in err
    assert "holds a comparison saved by an older brass (line 1: brass-simulate/1)" in err
    assert "comparisons now rotate the seats" in err


def test_the_p_value_is_five_percent_at_the_edge_of_the_interval() -> None:
    """A paired difference whose 95% interval just touches 0 has a two-sided p-value of 0.05."""
    base = [0.0, 0.0, 0.0, 0.0, 0.0]
    spread = [1.0, -1.0, 2.0, -2.0, 0.0]  # mean 0, s² = 2.5
    half = t_quantile(0.975, 4) * math.sqrt(2.5 / 5)
    found = paired_difference([v + half for v in spread], base)
    assert found.low == pytest.approx(0.0, abs=1e-9) and found.p_value == pytest.approx(0.05, abs=1e-9)
    # t = 10 / √0.5 = 14.14 with 4 degrees of freedom, where P(|T| < t) = x(3 − x²)/2, x = t / √(t² + 4)
    t = 10 / math.sqrt(0.5)
    x = t / math.sqrt(t * t + 4)
    assert paired_difference([v + 10 for v in spread], base).p_value == pytest.approx(1 - x * (3 - x * x) / 2,
                                                                                        rel=1e-6)


def test_holm_adjusts_from_the_smallest_p_value_up() -> None:
    """Sorted p 0.01, 0.03, 0.04 of 3 figures: 3·0.01 = 0.03, 2·0.03 = 0.06, max(0.06, 1·0.04) = 0.06."""
    assert holm({"a": 0.01, "b": 0.04, "c": 0.03}) == pytest.approx({"a": 0.03, "c": 0.06, "b": 0.06})
    assert holm({"a": 0.5, "b": 0.9}) == {"a": 1.0, "b": 1.0}
    assert holm({}) == {}


def test_pairing_says_how_much_variance_it_removed() -> None:
    """Games of a seed that move together: most of the variance goes; games that do not: none."""
    assert variance_removed([10, 20, 30], [11, 21, 31]) == pytest.approx(1.0)
    assert variance_removed([10, 20, 30], [30, 20, 10]) == pytest.approx(-1.0)  # opposite: worse than independent
    assert variance_removed([1, 1, 1], [2, 2, 2]) is None


def test_a_null_comparison_of_many_figures_declares_one_rarely() -> None:
    """An A/A test with a fixed generator: 400 comparisons of 12 figures (games drawn from the same
    distribution for variant and base). One test per figure at 5% declares at least one figure in
    about 1 − 0.95¹² ≈ 46% of comparisons; Holm keeps it at most 5% (here: counted exactly)."""
    import random

    rng = random.Random(20261207)
    any_uncorrected = any_holm = 0
    for _ in range(400):
        p_values = {}
        for figure in range(12):
            variant = [rng.gauss(0, 1) for _ in range(20)]
            base = [rng.gauss(0, 1) for _ in range(20)]
            p_values[str(figure)] = paired_difference(variant, base).p_value or 1.0
        any_uncorrected += any(p < 0.05 for p in p_values.values())
        any_holm += any(p < 0.05 for p in holm(p_values).values())
    assert 0.38 <= any_uncorrected / 400 <= 0.54
    assert any_holm / 400 <= 0.07
