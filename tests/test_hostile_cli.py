"""Hostile input to the `brass` command: every bad file, argument or typed line gets the project's own
clear error (located where there is a file), never a traceback, a hang, an "internal error" or a lost
game; and the process itself survives Ctrl-C at start-up, a closed stdin, a full disk and an ASCII
terminal."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interpreter.tools.cli import main as cli
from interpreter.tools.cli.main import main

POSITION = """\
players: 2
given:
  round: 2
  current: 1
  players:
    1: {hand: [coventry, dudley]}
"""

# a scenario whose 9th line is its one step (the located errors point there)
STEP_SCENARIO = """\
rules: [R-LOAN-01]
players: 2
given:
  round: 2
  current: 1
  players:
    1: {{hand: [coventry, dudley]}}
when:
  - {{player: 1, action: {step}}}
"""
GOOD_SCENARIO = STEP_SCENARIO.format(step="{action: loan, card: dudley}") + "then: [player(1).money == 47]\n"


def no_crash(err: str) -> bool:
    return "Traceback" not in err and "internal error" not in err


def brass(*args: str, stdin: str | None = "", env: dict[str, str] | None = None,
          **options: object) -> subprocess.CompletedProcess[str]:
    """The real command in a new process (output captured unless `stdout` is given)."""
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **options}
    return subprocess.run([sys.executable, "-m", "interpreter.tools.cli.main", *args], input=stdin, text=True,
                          timeout=120, env={**os.environ, **(env or {})}, **streams)  # type: ignore[call-overload]


@pytest.fixture
def position(tmp_path: Path) -> Path:
    path = tmp_path / "position.yaml"
    path.write_text(POSITION, encoding="utf-8")
    return path


@pytest.fixture
def save_file(tmp_path: Path, run) -> Path:
    """A saved game after a few moves."""
    path = tmp_path / "game.json"
    status, _, err = run("play", "--seed", "2", "--seats", "human,greedy", "--save", str(path), stdin="1\n1\n1\ns\nq\n")
    assert status == 0, err
    return path


# == 1. brass verify: one bad step fails its file only ==========================================================

@pytest.mark.parametrize("step, located", [
    ("{action: loan, card: [x]}", "9:5: step 1 (action {action: loan, card: ['x']}) was refused"),
    ("{action: [x]}", "9:34: unknown action ['x']"),
    # the engine raised TypeError for these; now it refuses them: the step fails at its line either way
    ("{action: loan, card: dudley, answers: 5}", "9:5: step 1 (action {action: loan, card: dudley, answers: 5})"),
    ("{action: network, card: dudley, links: 5}", "9:5: step 1 (action {action: network, card: dudley, links: 5})"),
])
def test_one_bad_step_fails_its_file_and_the_others_still_run(tmp_path: Path, run, step: str, located: str) -> None:
    (tmp_path / "a_good.yaml").write_text(GOOD_SCENARIO, encoding="utf-8")
    bad = tmp_path / "b_bad.yaml"
    bad.write_text(STEP_SCENARIO.format(step=step), encoding="utf-8")
    (tmp_path / "c_good.yaml").write_text(GOOD_SCENARIO, encoding="utf-8")
    status, out, err = run("verify", str(tmp_path))
    assert status == 1 and no_crash(err) and err == ""
    assert f"{bad}:{located}" in out
    assert out.count("FAIL ") == 1 and out.splitlines()[-1] == "2 passed, 1 failed"


def test_an_engine_failure_on_a_step_fails_that_step_located(tmp_path: Path, run,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever raw Python error the engine raises for a step, that step fails at its line."""
    from interpreter.engine.game import Game

    def slip(self: Game, move: object, seat: int | None = None) -> None:
        raise TypeError("'int' object is not iterable")

    monkeypatch.setattr(Game, "apply", slip)
    bad = tmp_path / "bad.yaml"
    bad.write_text(STEP_SCENARIO.format(step="{action: loan, card: dudley}"), encoding="utf-8")
    status, out, err = run("verify", str(bad))
    assert status == 1 and no_crash(err)
    assert (f"{bad}:9:5: step 1 (action {{action: loan, card: dudley}}) could not be judged: the engine failed "
            "with TypeError: 'int' object is not iterable (a bug of the engine") in out


def test_a_bug_met_on_one_file_does_not_cost_the_others(tmp_path: Path, run, monkeypatch: pytest.MonkeyPatch) -> None:
    import interpreter.tools.scenarios.verify as verify

    real = verify.run_scenario

    def broken_on_b(scenario, check=False):  # a stand-in for any bug of brass on one file
        if scenario.path.name == "b.yaml":
            raise RuntimeError("boom")
        return real(scenario, check)

    monkeypatch.setattr(verify, "run_scenario", broken_on_b)
    for name in ("a.yaml", "b.yaml", "c.yaml"):
        (tmp_path / name).write_text(GOOD_SCENARIO, encoding="utf-8")
    monkeypatch.delenv("BRASS_DEBUG", raising=False)
    status, out, _ = run("verify", str(tmp_path))
    assert status == 1
    assert f"{tmp_path / 'b.yaml'}:1:1: internal error on this file: RuntimeError: boom" in out
    assert out.splitlines()[-1] == "2 passed, 1 failed"


# == 2, 3. brass explain: ACTION ================================================================================

def alias_bomb(levels: int = 9) -> str:
    """The billion-laughs pattern: 9**9 x's from a few hundred bytes, if the aliases were expanded."""
    lines = ["a: &a [" + ",".join("x" * 9) + "]"]
    for previous, name in zip("abcdefgh", "bcdefghi"[:levels - 1], strict=False):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]")
    return "{" + ", ".join(lines) + "}"


def test_an_alias_bomb_as_action_is_refused_at_once(position: Path, run) -> None:
    started = time.monotonic()
    status, out, err = run("explain", str(position), alias_bomb())
    assert time.monotonic() - started < 5
    assert status == 1 and no_crash(err) and out == ""
    first, count = err.splitlines()
    assert first.startswith("ACTION:1:") and "aliases are only supported for single values" in first
    assert count == "1 error"


def test_a_huge_action_is_refused(position: Path, run) -> None:
    status, _, err = run("explain", str(position), "{action: loan, card: " + "x" * 20_000 + "}")
    assert status == 1 and err.startswith("error: ACTION is 20022 characters long; a whole action is at most")


def test_an_engine_failure_on_explain_is_an_error_not_a_crash(position: Path, run,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from interpreter.engine.game import Game

    def slip(self: Game, move: object, seat: int | None = None) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(Game, "apply", slip)
    status, _, err = run("explain", str(position), "{action: loan, card: dudley}")
    assert status == 1 and no_crash(err)
    assert err == ("error: the engine could not judge ACTION (RecursionError: maximum recursion depth exceeded); "
                   "this is a bug of the engine, which should refuse it with reasons\n")


@pytest.mark.parametrize("action, message", [
    ("{action: loan, card: [x]}", None),  # refused by the engine, with its reason
    ("{action: loan, card: dudley, answers: 5}", None),  # the engine raised TypeError; now it refuses
    ("{action: [x]}", None),
    ("{action: loan, card: dudley, x: " + "[" * 3000 + "]" * 3000 + "}", "ACTION:1:"),  # the YAML loader's words
    ("{action: loan, card: dudley, x: " + "[" * 20 + "]" * 20 + "}", "more than 8 levels deep"),
    ("{action: network, card: dudley, links: 5}", None),  # the engine raised TypeError: refused either way
    ("5", "ACTION is a whole action"),
])
def test_a_malformed_action_is_an_error_not_a_crash(position: Path, run, action: str, message: str | None) -> None:
    status, out, err = run("explain", str(position), action)
    assert status == 1 and no_crash(err)
    if message is None:
        assert "illegal:" in out or "error:" in err
    else:
        assert message in err


# == 3. saves, replays and records ===============================================================================

@pytest.mark.parametrize("change, message", [
    ({"seed": float("inf")}, "Infinity is not a number JSON allows"),
    ({"seed": float("nan")}, "NaN is not a number JSON allows"),
    ({"players": 1e400}, "not a number JSON allows"),
])
def test_a_save_with_a_non_finite_number_is_a_file_error(save_file: Path, run, change: dict, message: str) -> None:
    save_file.write_text(json.dumps({**json.loads(save_file.read_text()), **change}))
    for command in (["play", "--load", str(save_file)], ["replay", str(save_file)]):
        status, _, err = run(*command)
        assert status == 1 and no_crash(err) and message in err, err


def test_a_deeply_nested_save_is_a_file_error(tmp_path: Path, run) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    for command in (["play", "--load", str(path)], ["replay", str(path)]):
        status, _, err = run(*command)
        assert status == 1 and no_crash(err)
        assert err == f"error: {path} nests lists or mappings more than 64 levels deep\n"


@pytest.mark.parametrize("move", [
    {"action": ["x"]},
    ["x"],
    {"action": "loan", "card": ["x"]},
    {"action": "loan", "card": "x", "answers": 5},
    {"action": "network", "card": "x", "links": 5},
    {"action": "loan", "card": "x", "y": [[[[[[[[[[1]]]]]]]]]]},
])
def test_replaying_a_malformed_saved_move_is_a_file_error(save_file: Path, run, move: object) -> None:
    data = json.loads(save_file.read_text())
    data["moves"] = [move]
    del data["state"]
    save_file.write_text(json.dumps(data))
    status, _, err = run("replay", str(save_file))
    assert status == 1 and no_crash(err) and err.startswith(f"error: {save_file}: move 1 ")


# == 4. brass play: typed lines ==================================================================================

@pytest.mark.parametrize("line", [
    "[" * 5000 + "]" * 5000,
    '{"action": ' + "[" * 5000 + "]" * 5000 + "}",
    '{"action": "loan", "card": ' + "[" * 50 + "]" * 50 + "}",
    '{"action": "loan", "card": "x", "answers": 5}',
    '{"action": "loan", "card": NaN}',
    "{" * 20_000,
    "9" * 5000,
    "²",
])
def test_a_hostile_line_is_refused_and_the_game_goes_on(tmp_path: Path, run, line: str) -> None:
    save, unharmed = tmp_path / "game.json", tmp_path / "unharmed.json"
    status, out, err = run("play", "--seed", "1", "--save", str(save), stdin=f"{line}\n1\ns\nq\n")
    assert status == 0 and err == ""
    assert "refused:" in out and f"saved to {save}" in out and out.rstrip().endswith("quitting")
    assert max(len(line) for line in out.splitlines()) < 400  # the line is not echoed whole
    assert run("play", "--seed", "1", "--save", str(unharmed), stdin="1\ns\nq\n")[0] == 0
    assert save.read_text() == unharmed.read_text()  # the refused line changed nothing; the game went on


def test_an_engine_failure_on_a_typed_move_is_refused_and_the_game_goes_on(run,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from interpreter.engine.game import Game

    real = Game.apply

    def slip_on_y(self: Game, move: object) -> None:  # the bot's moves still apply
        if isinstance(move, dict) and "y" in move:
            raise RecursionError("maximum recursion depth exceeded")
        real(self, move)

    monkeypatch.setattr(Game, "apply", slip_on_y)
    status, out, err = run("play", "--seed", "1", stdin='{"action": "loan", "y": 1}\n1\nq\n')
    assert status == 0 and err == ""
    words = " ".join(out.split())  # the output is wrapped at 80 columns
    assert ('refused: the engine could not check {"action": "loan", "y": 1} (RecursionError: maximum recursion '
            "depth exceeded)") in words
    assert "P1: Build" in out and out.rstrip().endswith("quitting")


# == 3. the process: closed stdin, full disk, ASCII terminal =====================================================

def test_play_with_closed_stdin_ends_saying_the_input_ended() -> None:
    result = brass("play", "--seed", "1", stdin=None, preexec_fn=lambda: os.close(0))
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.rstrip().endswith("end of input: quitting (the game is not saved unless you typed s)")


def test_play_with_no_stdin_object_ends_saying_the_input_ended(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", None)  # what Python sets when the process starts with fd 0 closed
    assert main(["play", "--seed", "1"]) == 0
    assert "end of input: quitting" in capsys.readouterr().out


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["check"], ["show"], ["--help"], ["play", "--seed", "1"]])
def test_output_to_a_full_disk_is_one_clear_error(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        result = brass(*args, stdout=full)
    assert result.returncode == 1
    assert result.stderr == "error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "LANG": "C"}])
def test_a_terminal_without_unicode_gets_the_output_with_replacements(position: Path, env: dict[str, str]) -> None:
    result = brass("explain", str(position), "{action: loan, card: dudley}", env=env)
    assert result.returncode == 0 and result.stderr == ""
    assert "money" in result.stdout and "income space 10" in result.stdout
    result = brass("play", "--seed", "1", stdin="m\nq\n", env=env)
    assert result.returncode == 0 and result.stderr == "" and "quitting" in result.stdout


# == 6. Ctrl-C ===================================================================================================

def test_the_console_script_is_the_entry_module() -> None:
    import tomllib

    from interpreter.tools.cli import entry

    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["brass"] == "interpreter.tools.cli.entry:main"
    assert entry.INTERRUPTED == cli.INTERRUPTED


def interrupted(marker: str | None, *args: str) -> tuple[int, str]:
    """Run `brass ARGS` (the entry module, as the console script does) and send it SIGINT once the
    import of `marker` has finished (Python reports every import with -X importtime) or, without a
    marker, once it shows its first prompt; (status, stderr without the import report)."""
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1", "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "-m", "interpreter.tools.cli.entry", *args], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    seen: list[str] = []
    assert process.stderr is not None and process.stdout is not None
    stream = process.stderr if marker else process.stdout
    for line in stream:
        seen.append(line)
        if (marker and line.rstrip().endswith(" " + marker)) or (not marker and line.startswith("Actions:")):
            break
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    lines = (seen if marker else []) + err.splitlines(keepends=True)
    return process.returncode, "".join(line for line in lines if not line.startswith("import time:"))


def test_ctrl_c_while_the_cli_is_imported_is_one_line_and_status_130() -> None:
    """SIGINT right after the CLI starts importing its own modules (guards is imported by cli only)."""
    status, err = interrupted("interpreter.tools.files.guards", "play", "--seed", "1")
    assert (status, err) == (130, "brass: interrupted (Ctrl-C)\n")


def test_ctrl_c_during_a_command_is_one_line_and_status_130() -> None:
    status, err = interrupted(None, "play", "--seed", "1")
    assert (status, err) == (130, "brass: interrupted (Ctrl-C)\n")


@pytest.mark.skipif(shutil.which("brass") is None, reason="the brass script is not installed")
def test_the_installed_script_answers_ctrl_c_too() -> None:
    process = subprocess.Popen([shutil.which("brass") or "brass", "play", "--seed", "1"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith("Actions:"):
            break
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert (process.returncode, err) == (130, "brass: interrupted (Ctrl-C)\n")
