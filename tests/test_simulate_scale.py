"""`brass simulate` at scale: worker processes (--jobs), Ray (--ray), and a run saved game by game
(--out) that survives Ctrl-C, a killed worker and a torn last line (--resume).

Every runner must give the JSON of the plain in-process run for the same seeds, whatever the
number of workers and the order in which games finish. Runs are kept small (a few 2-player
games between random bots): what is tested is the plumbing, not the game.
"""

from __future__ import annotations

import errno
import json
import os
import pickle
import signal
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

import pytest

from interpreter.tools.simulate.games import InvariantViolation

pytestmark = pytest.mark.slow  # worker processes, Ray, matplotlib: seconds a test

SMALL = ["--players", "2", "--games", "4", "--seed", "3", "--bot", "random"]


def simulate_json(run, *args: str) -> dict[str, Any]:
    status, out, err = run("simulate", *args, "--json")
    assert status == 0, err
    return json.loads(out)


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# -- the same results, whatever runs the games ------------------------------------------------------

def test_two_worker_processes_give_the_json_of_one(run) -> None:
    """--against too: both rulesets' games go to the same workers and come back in any order."""
    alone = simulate_json(run, *SMALL, "what-if", "--against", "birmingham")
    shared = simulate_json(run, *SMALL, "what-if", "--against", "birmingham", "--jobs", "2")
    assert shared == alone
    assert [g["seed"] for g in shared["per_game"]] == [3, 4, 5, 6]


def test_a_broken_invariant_comes_back_from_a_worker_as_itself() -> None:
    """Raised in a worker process (with --check), it is pickled back to `brass`, which prints it."""
    error = InvariantViolation(7, 12, 40, {"action": "loan"}, ["money of player 1 is -3"])
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is InvariantViolation and str(again) == str(error) and again.seed == 7


def test_out_writes_one_record_per_game_and_the_summary_is_unchanged(run, tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    saved = simulate_json(run, *SMALL, "what-if", "--against", "birmingham", "--out", str(path))
    assert saved == simulate_json(run, *SMALL, "what-if", "--against", "birmingham")
    lines = records(path)
    assert sorted((r["role"], r["ruleset"], r["seed"]) for r in lines) == sorted(
        [("ruleset", "what-if", s) for s in range(3, 7)] + [("against", "birmingham", s) for s in range(3, 7)])
    first = lines[0]
    assert first["players"] == 2 and first["bots"] == ["random", "random"]
    assert first["actions"] == 78 and first["decisions"] > 78 and sum(first["action_counts"].values()) == 78
    assert {"vp", "money", "income_level"} <= set(first["standings"][0])
    assert first["run"]["ruleset"] == "what-if" and first["run"]["against"] == "birmingham"


def test_the_table_from_a_file_is_the_table_from_memory(run, tmp_path: Path) -> None:
    """Without --json the summary is read back in brief (less memory): the same figures."""
    def table(*extra: str) -> list[str]:
        status, out, err = run("simulate", *SMALL, "--against", "what-if", *extra)
        assert status == 0, err
        return [line for line in out.splitlines() if not line.lstrip().startswith("seconds")]

    assert table("--out", str(tmp_path / "runs.jsonl")) == table()


# -- nothing lost, nothing counted twice ------------------------------------------------------------

def test_a_torn_run_resumed_has_every_seed_once_and_the_same_summary(run, tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    expected = simulate_json(run, *SMALL, "--out", str(whole))
    lines = whole.read_text(encoding="utf-8").splitlines(keepends=True)
    torn = tmp_path / "torn.jsonl"  # two games saved, the third cut off mid-write
    torn.write_text(lines[0] + lines[1] + lines[2][: len(lines[2]) // 2], encoding="utf-8")

    status, out, err = run("simulate", *SMALL, "--out", str(torn), "--resume", "--json")
    assert status == 0, err
    assert "the last line is incomplete" in err
    assert json.loads(out) == expected
    assert sorted(r["seed"] for r in records(torn)) == [3, 4, 5, 6]


def test_a_game_saved_twice_counts_once(run, tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    expected = simulate_json(run, *SMALL, "--out", str(path))
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text(lines[0] + "".join(lines), encoding="utf-8")
    assert simulate_json(run, *SMALL, "--out", str(path), "--resume") == expected
    assert len(records(path)) == 5  # nothing was missing, nothing played


def test_a_larger_games_count_extends_a_run(run, tmp_path: Path) -> None:
    """The seeds are not part of a run's identity: --resume with more games plays the new seeds only."""
    path = tmp_path / "runs.jsonl"
    assert run("simulate", "--games", "2", "--seed", "3", "--out", str(path))[0] == 0
    assert simulate_json(run, *SMALL, "--out", str(path), "--resume") == simulate_json(run, *SMALL)
    assert sorted(r["seed"] for r in records(path)) == [3, 4, 5, 6]


@pytest.mark.parametrize("args, message", [
    (["--players", "3"], "holds the games of another run (line 1: players 2, not 3)"),
    (["--bot", "greedy"], "(line 1: bots random,random, not greedy,greedy)"),
    (["--against", "what-if"], "(line 1: against none, not what-if)"),
])
def test_a_file_of_another_run_is_refused(run, tmp_path: Path, args: list[str], message: str) -> None:
    path = tmp_path / "runs.jsonl"
    assert run("simulate", "--games", "1", "--out", str(path))[0] == 0
    status, _, err = run("simulate", "--games", "1", "--out", str(path), "--resume", *args)
    assert status == 1 and message in err and "Traceback" not in err


CHEAP = 'name: cheap\ntitle: Cheap\nversion: "0.1"\nextends: birmingham\neconomy:\n  loan: {amount: 40}\n'


def cheap_variant(tmp_path: Path) -> Path:
    """A variant in its own folder, whose file a test may edit: loans give £40."""
    variant = tmp_path / "cheap"
    variant.mkdir()
    (variant / "ruleset.yaml").write_text(CHEAP, encoding="utf-8")
    return variant


def edit_loans(variant: Path, amount: int) -> None:
    (variant / "ruleset.yaml").write_text(CHEAP.replace("40", str(amount)), encoding="utf-8")


@pytest.mark.parametrize("role, args", [("ruleset", []), ("against", ["--against"])])
def test_a_changed_ruleset_is_another_run_and_the_refusal_names_it(run, tmp_path: Path, role: str,
                                                                   args: list[str]) -> None:
    variant = cheap_variant(tmp_path)
    command = ["simulate", *args, str(variant), "--games", "1", "--out", str(tmp_path / "runs.jsonl")]
    assert run(*command)[0] == 0
    edit_loans(variant, 45)
    status, out, err = run(*command, "--resume")
    named = "ruleset cheap" if role == "ruleset" else "--against ruleset cheap"
    assert status == 1 and out == "" and "Traceback" not in err
    assert err.startswith(f"error: {tmp_path / 'runs.jsonl'} holds games played with {named} ({variant}) as its "
                          "files were then (line 1: fingerprint "), err
    assert "its files have changed since (now " in err
    assert ("to finish that run, put the files of cheap back as they were; to play cheap as it is now, give "
            "another --out file") in err


# -- the games are played by the ruleset `brass` loaded, however they are run ----------------------

@pytest.fixture
def edited_when_the_games_start(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Variants (appended by the test) whose loans become £90 after `brass` has loaded them, just
    before the first game is handed to a runner: a person editing the file while a run starts."""
    from interpreter.tools.simulate import run as run_module

    variants: list[Path] = []
    runner = run_module._runner

    def edited_then_run(*args: Any) -> Any:
        for variant in variants:
            edit_loans(variant, 90)
        yield from runner(*args)

    monkeypatch.setattr(run_module, "_runner", edited_then_run)
    return variants


@pytest.mark.parametrize("runner", [["--jobs", "2"], ["--jobs", "1"]])
def test_workers_play_the_ruleset_brass_loaded_not_its_edited_files(run, tmp_path: Path, runner: list[str],
                                                                    edited_when_the_games_start: list[Path]) -> None:
    """Workers used to load the ruleset again from its files: an edit made during a run changed
    the games while the file recorded the first fingerprint (and --resume mixed the two)."""
    variant = cheap_variant(tmp_path)
    args = [*SMALL, str(variant), "--against", "birmingham"]
    expected = simulate_json(run, *args)
    path = tmp_path / "runs.jsonl"
    edited_when_the_games_start.append(variant)
    assert simulate_json(run, *args, *runner, "--out", str(path)) == expected
    assert (variant / "ruleset.yaml").read_text(encoding="utf-8") == CHEAP.replace("40", "90")
    edited = simulate_json(run, *args)  # the edit does change these games
    assert edited["per_game"] != expected["per_game"]
    # and the file, recorded with the fingerprint of the loans of £40, is refused now
    status, _, err = run("simulate", *args, *runner, "--out", str(path), "--resume")
    assert status == 1 and "holds games played with ruleset cheap" in err


@pytest.mark.parametrize("content, args, message", [
    ("not json\n", ["--resume"], "line 1 of"),
    ('{"seed": 1}\n', ["--resume"], "is not a game record of `brass simulate --out`"),
    ("", ["--resume"], None),  # an empty file: nothing to resume, every game is played
    ("x\n", [], "already holds games: add --resume"),
])
def test_the_out_file_is_checked_before_any_game(run, tmp_path: Path, content: str, args: list[str],
                                                 message: str | None) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text(content, encoding="utf-8")
    status, _, err = run("simulate", "--games", "1", "--out", str(path), *args)
    if message is None:
        assert status == 0, err
    else:
        assert status == 1 and message in err


class FillsUp:
    """A file whose disk is full after `room` writes (the rest of the stream as it is)."""

    def __init__(self, stream: Any, room: int) -> None:
        self.stream, self.room = stream, room

    def write(self, data: Any) -> int:
        if self.room == 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room -= 1
        written: int = self.stream.write(data)
        return written

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)

    def __enter__(self) -> FillsUp:
        return self

    def __exit__(self, *error: Any) -> None:
        self.stream.close()


def test_a_full_disk_names_the_out_file_and_the_games_saved(run, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Was "error: cannot write the output: No space left on device", as if stdout had failed."""
    from interpreter.tools.simulate import store

    path = tmp_path / "runs.jsonl"
    expected = simulate_json(run, *SMALL)
    with monkeypatch.context() as patch:
        patch.setattr(store, "open", lambda *args, **kwargs: FillsUp(open(*args, **kwargs), room=3),  # noqa: SIM115
                      raising=False)
        status, out, err = run("simulate", *SMALL, "--out", str(path), "--json")
    assert (status, out) == (1, "")
    assert err == (f"error: cannot write {path}: No space left on device; saved 3 of 4 games to {path}; "
                   "rerun with --resume to finish\n")
    assert [r["seed"] for r in records(path)] == [3, 4, 5]
    assert simulate_json(run, *SMALL, "--out", str(path), "--resume") == expected  # space again: the rest


@pytest.mark.skipif(not Path("/dev/full").is_char_device(), reason="needs /dev/full and /dev/null")
@pytest.mark.parametrize("device", ["/dev/full", "/dev/null"])
def test_out_is_a_plain_file(run, device: str) -> None:
    """/dev/full was read back for ever (zeros, no newline: memory ran out); /dev/null lost every game."""
    status, _, err = run("simulate", "--games", "1", "--out", device)
    assert status == 1
    assert err == (f"error: {device} is not a plain file; --out needs one, as the summary is read back from it "
                   "(runs.jsonl, say)\n")


@pytest.mark.parametrize("args, message", [
    (["--resume"], "give --out FILE too"),
    (["--jobs", "2", "--ray"], "not both"),
    (["--ray", "birmingham"], "put it before --ray"),
    (["--jobs", "-1"], "0: one per core"),
])
def test_option_mistakes(run, args: list[str], message: str) -> None:
    status, _, err = run("simulate", "--games", "1", *args)
    assert status == 1 and message in err


# -- real processes: Ctrl-C and a killed worker -----------------------------------------------------

# `brass` with Ctrl-C raising KeyboardInterrupt as at a terminal, even when the tests run with it
# ignored (a shell ignores it in the jobs it starts in the background, and children inherit that).
CHILD = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
         "from interpreter.tools.cli.main import main; sys.exit(main(sys.argv[1:]))")


def start_brass(*args: str) -> subprocess.Popen[str]:
    """`brass` in a new process group of its own, as a terminal runs a command."""
    return subprocess.Popen([sys.executable, "-c", CHILD, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)


def wait_for_a_record(path: Path, process: subprocess.Popen[str], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not (path.exists() and path.stat().st_size > 0):
        assert process.poll() is None, process.communicate()[1]
        assert time.monotonic() < deadline, "no game was saved"
        time.sleep(0.05)


def test_ctrl_c_stops_cleanly_and_says_what_was_saved(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    process = start_brass("simulate", "--games", "5000", "--jobs", "2", "--out", str(path))
    try:
        wait_for_a_record(path, process)
        os.killpg(process.pid, signal.SIGINT)  # the whole group, workers too, as the terminal does
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    saved = records(path)  # every line whole: the file is never left torn by Ctrl-C
    assert process.returncode == 130
    assert err.strip() == f"saved {len(saved)} of 5000 games to {path}; rerun with --resume to finish"
    assert len({r["seed"] for r in saved}) == len(saved) < 5000


def worker_processes(pid: int) -> list[int]:
    """The pool's worker processes among `pid`'s children (not the resource tracker)."""
    children = [int(c) for task in os.listdir(f"/proc/{pid}/task")
                for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
    return [c for c in children if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]


@pytest.mark.skipif(not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists(),
                    reason="needs Linux's /proc/PID/task/TID/children to find the worker processes")
def test_a_killed_workers_games_are_played_again_and_counted_once(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    process = start_brass("simulate", "--games", "60", "--jobs", "2", "--out", str(path), "--json")
    try:
        wait_for_a_record(path, process)
        os.kill(worker_processes(process.pid)[0], signal.SIGKILL)
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "a worker process died" in err
    assert sorted(r["seed"] for r in records(path)) == list(range(60))
    assert [g["seed"] for g in json.loads(out)["per_game"]] == list(range(60))


# -- Ray ---------------------------------------------------------------------------------------------

def test_ray_missing_is_one_line_saying_how_to_install_it(run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if it were not installed
    status, out, err = run("simulate", "--games", "1", "--ray")
    assert status == 1 and out == ""
    assert err == "error: --ray needs Ray, which is not installed here: pip install 'brass-rules[ray]'\n"


class GcsUnavailable(Exception):
    """An error of Ray's own, of no kind `brass` could list in advance."""


@pytest.mark.parametrize("address, error, where", [
    ("10.0.0.5:6379", GcsUnavailable("Failed to connect to GCS at 10.0.0.5:6379: Deadline Exceeded\n  more"),
     "the Ray cluster at 10.0.0.5:6379"),
    ("auto", TimeoutError("Timed out while waiting for GCS to become available"), "the Ray cluster at auto"),
    ("", PermissionError(13, "Permission denied", "/tmp/ray/session_latest"), "a local Ray instance"),
])
def test_ray_failing_to_start_is_a_user_error_naming_the_address(run, monkeypatch: pytest.MonkeyPatch, address: str,
                                                                error: Exception, where: str) -> None:
    """Was "internal error … this is a bug in brass" (an exception ray.init raised that brass did
    not list), or, for an OSError, "cannot write the output"."""
    ray = types.ModuleType("ray")
    shut: list[bool] = []

    def init(**kwargs: Any) -> None:
        raise error

    ray.is_initialized = lambda: False  # type: ignore[attr-defined]
    ray.init = init  # type: ignore[attr-defined]
    ray.shutdown = lambda: shut.append(True)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ray", ray)
    status, out, err = run("simulate", "--games", "1", "--ray", *([address] if address else []))
    assert (status, out) == (1, "")
    assert err == f"error: cannot start or reach {where}: {str(error).splitlines()[0]}\n"
    assert shut == [True]  # whatever Ray had started is stopped


def test_ray_gives_the_json_of_one_process(local_ray: None, run, tmp_path: Path) -> None:
    args = ["--players", "2", "--games", "6", "--seed", "11"]
    alone = simulate_json(run, *args)
    path = tmp_path / "runs.jsonl"
    assert simulate_json(run, *args, "--ray", "--out", str(path)) == alone
    assert sorted(r["seed"] for r in records(path)) == list(range(11, 17))
    assert simulate_json(run, *args, "--ray", "--out", str(path), "--resume") == alone  # nothing left to play


def test_ray_plays_the_ruleset_brass_loaded_not_its_edited_files(local_ray: None, run, tmp_path: Path,
                                                                 edited_when_the_games_start: list[Path]) -> None:
    variant = cheap_variant(tmp_path)
    args = ["--players", "2", "--games", "6", "--seed", "11", str(variant)]
    expected = simulate_json(run, *args)
    edited_when_the_games_start.append(variant)
    assert simulate_json(run, *args, "--ray") == expected
    assert simulate_json(run, *args)["per_game"] != expected["per_game"]
