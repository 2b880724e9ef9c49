"""`brass tune` (interpreter/tools/tune/): the same seed and budget in games give the same search
and parameters; an interrupted run resumed ends as an uninterrupted one; the verdict's words; bad
input is one located line. And `simulate --against`, which plays the tuned bots: the heuristic by
default, each side's parameters named, a warning when a ruleset plays with another's."""

from __future__ import annotations

import contextlib
import io
import json
import math
import random
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from interpreter.ruleset.bot_params import BotParams, HeuristicParams, Tuned, tuned_record
from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.cli.main import main
from interpreter.tools.tune import checkpoint
from interpreter.tools.tune.checkpoint import cautious_mean
from interpreter.tools.tune.command import Budget, parse_budget
from interpreter.tools.tune.evolve import START_SIGMA, Settings, State, advance, candidates, replay
from interpreter.tools.tune.space import SPANS
from interpreter.tools.tune.verdict import verdict, verdict_text
from interpreter.tools.tune.written import bots_yaml

# Two generations of two candidates, one game per seat each (2 players): 8 tuning games, 2 verdict games,
# from the defaults (birmingham-intro carries tuned parameters: tests/data/tune-start starts from the defaults).
START = Path(__file__).resolve().parent / "data" / "tune-start"
TINY = [str(START), "--players", "2", "--budget", "8games", "--candidates", "2", "--rounds", "1",
        "--verdict-games", "2", "--seed", "2"]


def searched(path: Path) -> list[dict]:
    """The run file without its clock readings: what the search did."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return [{k: v for k, v in line.items() if k != "seconds"} for line in lines]


def result(out: str) -> str:
    """The output after its first line (which says how long the games took)."""
    return out.split("\n", 1)[1]


@pytest.fixture(scope="module")
def first_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """One run of TINY, shared by the tests that compare with it."""
    path = tmp_path_factory.mktemp("tune") / "run.jsonl"
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(io.StringIO()):
        assert main(["tune", *TINY, "--out", str(path)]) == 0
    return path, buffer.getvalue()


def test_a_run_file_holds_each_judged_candidate_and_verdict_game(first_run: tuple[Path, str]) -> None:
    path, out = first_run
    lines = searched(path)
    assert lines[0]["tune"] == 2 and lines[0]["ruleset"] == "birmingham-intro" and lines[0]["players"] == 2
    judged = [(line["generation"], line["candidate"]) for line in lines if "generation" in line]
    assert judged == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert all(len(line["margins"]) == 2 for line in lines if "generation" in line)  # one game per seat
    assert [line["verdict"] for line in lines if "verdict" in line] == [2_900_000, 2_900_001]  # fresh seeds
    # each verdict game names the steps that made the parameters it judged: a run resumed with a
    # larger budget that steps again plays its verdict anew
    assert [line["after"] for line in lines if "verdict" in line] == [1, 1]
    saved = checkpoint.Saved(2)
    for raw in path.read_text().splitlines()[1:]:
        saved.add(json.loads(raw))
    saved.add({"verdict": 2_900_000, "margin": 1.0, "vp": 50, "others": 49.0})  # a line of no known step
    assert sorted(saved.verdict) == [(-1, 2_900_000), (1, 2_900_000), (1, 2_900_001)]
    assert "2 generation(s) of 2 candidates, 8 tuning games" in out
    assert "tuned beats the starting parameters in 1 of 2 games (Wilson 9–91 %)" in out
    assert "not shown better" in out and "bots:" not in out  # nothing to paste: the starting ones are kept
    assert "so a candidate was taken only when it beat the best by about " in out  # the run's own threshold


def test_the_same_seed_and_budget_give_the_same_search_and_parameters(run, tmp_path: Path,
                                                                     first_run: tuple[Path, str]) -> None:
    path, out = first_run
    status, again, err = run("tune", *TINY, "--out", str(tmp_path / "again.jsonl"))
    assert status == 0, err
    assert searched(tmp_path / "again.jsonl") == searched(path)
    assert result(again) == result(out)


def test_an_interrupted_run_resumed_ends_as_an_uninterrupted_one(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 first_run: tuple[Path, str]) -> None:
    path, out = first_run
    target = tmp_path / "cut.jsonl"
    write = checkpoint.Writer.write
    written: list[int] = []

    def ctrl_c_after_three(self: checkpoint.Writer, line: dict) -> None:
        write(self, line)
        written.append(1)
        if len(written) == 3:  # mid-way through the second generation
            raise KeyboardInterrupt

    monkeypatch.setattr(checkpoint.Writer, "write", ctrl_c_after_three)
    status, _, err = run("tune", *TINY, "--out", str(target))
    assert status == 130 and "rerun with --resume" in err and f"saved in {target}" in err
    assert len(target.read_text().splitlines()) == 4  # the header and three judged candidates
    monkeypatch.setattr(checkpoint.Writer, "write", write)
    status, resumed, err = run("tune", *TINY, "--out", str(target), "--resume")
    assert status == 0, err
    assert searched(target) == searched(path)
    assert result(resumed) == result(out)


def test_the_verdict_in_words_with_wilsons_interval() -> None:
    assert verdict_text(71, 100) == "tuned beats the starting parameters in 71 of 100 games (Wilson 61–79 %)"
    assert verdict_text(2.5, 4) == "tuned beats the starting parameters in 2.5 of 4 games (Wilson 22–91 %)"
    found = verdict([3.0, 0.0, -1.0, 5.5], [60, 50, 49, 70], [57, 50, 50, 64.5])
    assert (found.games, found.wins, found.tuned_vp, found.others_vp) == (4, 2.5, 57.25, 55.375)
    assert not found.better  # 2.5 of 4: the interval holds 50 %
    assert verdict([1.0] * 20, [60] * 20, [50] * 20).better


def test_a_winner_above_zero_is_taken_and_the_step_grows_else_it_shrinks() -> None:
    settings = Settings(players=2, seed=0, candidates=2, rounds=1)
    start = State([0.5, 0.5])
    points = candidates(settings, start)
    taken = advance(settings, start, [-1.0, 2.0])
    assert taken.best == points[1] and taken.sigma == pytest.approx(START_SIGMA * 1.25) and taken.taken == 1
    kept = advance(settings, start, [-1.0, 0.0])
    assert kept.best == [0.5, 0.5] and kept.sigma == pytest.approx(START_SIGMA * 0.8) and kept.taken == 0
    # A generation half judged is not replayed: the run continues it.
    assert replay(settings, [0.5, 0.5], {(0, 0): -1.0, (0, 1): 2.0, (1, 0): 4.0}).generation == 1


def test_a_candidates_score_is_the_sure_lower_bound_of_its_mean_margin() -> None:
    """Mean 13, standard error √(20/3/4) = 1.291; one-sided Student t with 3 degrees of freedom at
    90 % (one candidate: t = 1.6377) or at 95 % (two candidates share the 10 %: t = 2.3534)."""
    assert cautious_mean([10.0, 12.0, 14.0, 16.0], 1) == pytest.approx(13 - 1.6377 * 1.2910, abs=1e-3)
    assert cautious_mean([10.0, 12.0, 14.0, 16.0], 2) == pytest.approx(13 - 2.3534 * 1.2910, abs=1e-3)
    assert cautious_mean([25.0], 1) == -math.inf  # one game says nothing of the spread


def test_candidates_no_better_than_the_best_step_in_at_most_a_tenth_of_generations() -> None:
    """4 candidates of 4 games whose margins are noise: a generation steps when its best score is
    above 0. Bonferroni bounds it by 10 % (exactly 1 − 0.975⁴ = 9.6 % for normal margins); the
    mean less one standard error, the first format's rule, stepped in about 60 %."""
    rng = random.Random(7)
    generations = 4000
    stepped = sum(max(cautious_mean([rng.gauss(0, 30) for _ in range(4)], 4) for _ in range(4)) > 0
                  for _ in range(generations))
    assert 0.08 < stepped / generations < 0.11


def test_a_run_file_of_the_first_format_is_refused(run, tmp_path: Path) -> None:
    old = tmp_path / "old.jsonl"
    old.write_text('{"tune": 1, "ruleset": "birmingham-intro"}\n')
    status, _, err = run("tune", *TINY, "--out", str(old), "--resume")
    assert status != 0 and f"{old}:1: a tuning run of an earlier brass tune, whose rule for taking a step " \
        "differs: start a new run (another --out)" in err


def test_a_budget_in_games_or_time() -> None:
    assert parse_budget("40games") == Budget(40, True)
    assert parse_budget("20m") == Budget(1200, False)
    assert parse_budget("1.5h") == Budget(5400, False)
    assert parse_budget("90s") == Budget(90, False)
    for bad in ("soon", "0games", "20 minutes", "-5m"):
        with pytest.raises(BrassError, match="give a time"):
            parse_budget(bad)


@pytest.mark.parametrize("args, said", [
    (["no-such-ruleset"], "no-such-ruleset"),
    (["birmingham-intro", "--budget", "soon"], "--budget 'soon': give a time (90s, 20m, 1.5h) or a number of games"),
    (["birmingham-intro", "--players", "5"], "is played by 2, 3, 4 players, not 5"),
    (["birmingham-intro", "--jobs", "2", "--ray"], "give --jobs (worker processes on this machine) or --ray"),
    (["birmingham-intro", "--resume", "--out", "{folder}/none.jsonl"], "none.jsonl: no such file to resume"),
])
def test_bad_input_is_one_line(run, tmp_path: Path, args: list[str], said: str) -> None:
    status, _, err = run("tune", *[a.replace("{folder}", str(tmp_path)) for a in args])
    assert status != 0 and said.replace("{folder}", str(tmp_path)) in err
    assert "Traceback" not in err


def test_a_damaged_or_foreign_run_file_is_refused_at_its_line(run, tmp_path: Path,
                                                               first_run: tuple[Path, str]) -> None:
    path, _ = first_run
    lines = path.read_text().splitlines()
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text("\n".join([lines[0], lines[1][:20], *lines[2:]]) + "\n")
    status, _, err = run("tune", *TINY, "--out", str(damaged), "--resume")
    assert status != 0 and f"{damaged}:2: not JSON" in err
    foreign = tmp_path / "foreign.jsonl"
    foreign.write_text(lines[0].replace('"seed":2', '"seed":4') + "\n")
    status, _, err = run("tune", *TINY, "--out", str(foreign), "--resume")
    assert status != 0 and f"{foreign}:1: the file holds another tuning run (seed 4 in the file, 2 now)" in err
    stranger = tmp_path / "stranger.jsonl"
    stranger.write_text('{"ruleset": "birmingham-intro"}\n')
    status, _, err = run("tune", *TINY, "--out", str(stranger), "--resume")
    assert status != 0 and f"{stranger}:1: not the file of a tuning run" in err
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines[0] + '\n{"verdict": 1900000, "vp": 50}\n')
    status, _, err = run("tune", *TINY, "--out", str(broken), "--resume")
    assert status != 0 and f"{broken}:2: not a line of a tuning run (KeyError('margin'))" in err
    status, _, err = run("tune", *TINY, "--out", str(path))  # without --resume
    assert status != 0 and "already holds a tuning run: give --resume to continue it" in err


def test_write_puts_bots_yaml_in_the_folder_and_the_ruleset_loads_it(run, tmp_path: Path) -> None:
    """A step was taken, but 2 verdict games cannot show it better: the starting parameters are
    written, with the record that this ruleset was tuned and kept them."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(f"name: mine\ntitle: Mine\nversion: '1'\nextends: {START}\n")
    status, out, err = run("tune", str(folder), *TINY[1:], "--write", "--out", str(tmp_path / "run.jsonl"))
    assert status == 0, err
    assert f"wrote {folder / 'bots.yaml'}: the starting parameters, with the record that tuning kept them" in out
    assert "1 step(s) taken" in out and "not shown better (the interval holds 50 %)" in out  # TINY's games
    text = (folder / "bots.yaml").read_text()
    assert text.startswith(
        "# The bots' parameters for this ruleset, written by `brass tune` (docs/bots.md, \"Tuning\").\n"
        f"# `brass tune {folder} --players 2 --candidates 2 --rounds 1 --budget 8games --seed 2`: 2 generation(s), "
        "8 tuning games, 1 step(s) taken.\n"
        "# The verdict: tuned beats the starting parameters in 1 of 2 games (Wilson 9–91 %): not shown better")
    assert list(yaml.safe_load(text)["bots"]["heuristic"]) == list(SPANS)  # the searched ones, pinned
    # the bots.yaml it wrote leaves it the same run: resumed, it writes again without playing
    status, again, err = run("tune", str(folder), *TINY[1:], "--write", "--out", str(tmp_path / "run.jsonl"),
                             "--resume")
    assert status == 0 and result(again) == result(out) and (folder / "bots.yaml").read_text() == text, err
    mine = load_ruleset(folder)  # a bots.yaml the loader accepts: the defaults, and the record
    assert mine.bots == BotParams()
    assert tuned_record(mine.source.data["bots"]) == Tuned(2, 2, 8, "kept", 1, 2)


def test_tuned_parameters_are_written_each_one_the_run_searched_and_the_record_first() -> None:
    """A searched parameter that ended at its default is written too: the base's value must not
    take its place; one not searched is written only when it differs from the default."""
    params = BotParams(replace(HeuristicParams(), debt=2.5, looks=7))
    text = bots_yaml(params, Tuned(4, 3, 128, "better", 71, 100), ("debt", "vp_per_pound"))
    assert yaml.safe_load(text) == {"bots": {
        "tuned": {"players": 4, "seed": 3, "games": 128, "result": "better", "verdict": {"wins": 71, "games": 100}},
        "heuristic": {"debt": 2.5, "looks": 7, "vp_per_pound": 0.4}}}


def test_a_run_without_a_step_taken_plays_no_verdict(run, tmp_path: Path) -> None:
    status, out, err = run("tune", *TINY[:-1], "3", "--budget", "4games", "--out", str(tmp_path / "run.jsonl"))
    assert status == 0, err
    assert "0 step(s) taken" in out and "no candidate beat the starting parameters: they are kept, and no " \
        "verdict is played" in out and "bots:" not in out
    assert "--write records in the ruleset's bots.yaml that it was tuned and kept its parameters" in out


# -- simulate --against: the heuristic bot, each side's parameters named -----------------------------

def test_a_comparison_plays_the_heuristic_bot_and_warns_of_borrowed_parameters(run, tmp_path: Path) -> None:
    folder = tmp_path / "borrows"  # a variant without bots.yaml: it plays with Birmingham's parameters
    folder.mkdir()
    (folder / "ruleset.yaml").write_text("name: borrows\ntitle: Borrows\nversion: '1'\nextends: birmingham\n")
    status, out, err = run("simulate", str(folder), "--against", "birmingham", "--games", "1", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["bots"] == ["heuristic", "heuristic"]
    assert data["parameters"] == {
        "variant": {"ruleset": "borrows", "from": "defaults", "tuned_for": "birmingham",
                    "warning": f"borrows plays with parameters tuned for birmingham; run brass tune {folder} for a "
                               "fairer comparison"},
        "base": {"ruleset": "birmingham", "from": "defaults", "tuned_for": "birmingham"}}
    assert (f"warning: borrows plays with parameters tuned for birmingham; run brass tune {folder} for a fairer "
            "comparison") in " ".join(err.split())
    status, out, _ = run("simulate", str(folder), "--against", "birmingham", "--games", "1")
    assert "bots heuristic,heuristic" in out
    assert "parameters: borrows from defaults (tuned for birmingham); birmingham from defaults" in out


def test_a_shipped_variant_says_how_it_was_tuned(run) -> None:
    """rulesets/what-if/bots.yaml: its own tuning run kept Birmingham's parameters."""
    status, out, err = run("simulate", "what-if", "--against", "birmingham", "--games", "1")
    assert status == 0 and "warning" not in err, err
    assert ("parameters: what-if from rulesets/what-if/bots.yaml (tuned for 2 players: the starting ones kept, no "
            "candidate beat them in 384 games); birmingham from defaults") in " ".join(out.split()).replace(
                str(Path.cwd()) + "/", "")


def test_a_variant_with_its_own_parameters_is_not_warned_of_and_bot_still_chooses(run, tmp_path: Path) -> None:
    folder = tmp_path / "own"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text("name: own\ntitle: Own\nversion: '1'\nextends: birmingham\n")
    (folder / "bots.yaml").write_text("bots:\n  heuristic:\n    debt: 2.5\n")
    status, out, err = run("simulate", str(folder), "--against", "birmingham", "--games", "1", "--json")
    assert status == 0 and "warning" not in err
    assert json.loads(out)["parameters"]["variant"] == {"ruleset": "own", "from": str(folder / "bots.yaml"),
                                                        "tuned_for": "own"}
    status, out, err = run("simulate", str(folder), "--against", "birmingham", "--games", "1", "--bot", "random",
                           "--json")
    assert json.loads(out)["bots"] == ["random", "random"] and "parameters" not in json.loads(out)
    status, out, err = run("simulate", "birmingham", "--games", "1", "--json")  # no comparison: random
    assert json.loads(out)["bots"] == ["random", "random"]


@pytest.mark.parametrize("record, words", [
    ("{players: 2, seed: 1, games: 96, result: kept, verdict: {wins: 52, games: 100}}",
     "(tuned for 2 players: the starting ones kept, tuned ones won only 52 of 100 games against them)"),
    ("{players: 2, seed: 1, games: 16, result: kept, verdict: {wins: 0, games: 0}}",
     "(tuned for 2 players: the starting ones kept, no candidate beat them in 16 games)"),
    ("{players: 4, seed: 1, games: 96, result: better, verdict: {wins: 61.5, games: 100}}",
     "(tuned for 4 players: they beat the starting ones in 61.5 of 100 games; played here by 2)"),
])
def test_a_comparison_says_how_each_side_was_tuned(run, tmp_path: Path, record: str, words: str) -> None:
    folder = tmp_path / "kept"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text("name: kept\ntitle: Kept\nversion: '1'\nextends: birmingham\n")
    (folder / "bots.yaml").write_text(f"bots:\n  tuned: {record}\n")
    status, out, err = run("simulate", str(folder), "--against", "birmingham", "--games", "1")
    assert status == 0 and "warning" not in err, err
    assert f"parameters: kept from {folder / 'bots.yaml'} {words}; birmingham from defaults" in " ".join(out.split())
    status, out, err = run("simulate", str(folder), "--against", "birmingham", "--games", "1", "--json")
    assert json.loads(out)["parameters"]["variant"]["tuning"] == yaml.safe_load(record)


def test_worker_processes_judge_the_same_candidates(run, tmp_path: Path, first_run: tuple[Path, str]) -> None:
    """--jobs 2: each seat's parameters travel with the batch; the lines come in another order, the same."""
    path, out = first_run
    status, shared, err = run("tune", *TINY, "--jobs", "2", "--out", str(tmp_path / "shared.jsonl"))
    assert status == 0, err
    assert sorted(map(json.dumps, searched(tmp_path / "shared.jsonl"))) == sorted(map(json.dumps, searched(path)))
    assert result(shared) == result(out)


def test_ray_judges_the_same_candidates(local_ray: None, run, tmp_path: Path, first_run: tuple[Path, str]) -> None:
    path, out = first_run
    status, on_ray, err = run("tune", *TINY, "--ray", "--out", str(tmp_path / "ray.jsonl"))
    assert status == 0, err
    assert sorted(map(json.dumps, searched(tmp_path / "ray.jsonl"))) == sorted(map(json.dumps, searched(path)))
    assert result(on_ray) == result(out)
    status, _, err = run("tune", "birmingham-intro", "--ray", "birmingham")
    assert status != 0 and "(to name the ruleset, put it before --ray)" in err
