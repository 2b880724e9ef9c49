"""The `brass simulate`, `brass play` and `brass replay` commands: reproducible JSON, exit
codes, a whole game played from a pipe, and clean errors (never a traceback) on bad files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.tools.cli.main import main


def brass(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run the real command in a new process, as a person at a shell would (slower: used sparingly)."""
    return subprocess.run([sys.executable, "-m", "interpreter.tools.cli.main", *args], input=stdin, capture_output=True,
                          text=True, timeout=120)


def simulate_json(capsys: pytest.CaptureFixture[str], *extra: str) -> dict:
    assert main(["simulate", "--players", "2", "--games", "2", "--seed", "9", "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_json_is_identical_for_identical_arguments(capsys) -> None:
    first = simulate_json(capsys, "--bot", "greedy,random", "--check")
    second = simulate_json(capsys, "--bot", "greedy,random", "--check")
    assert first == second
    assert [g["seed"] for g in first["per_game"]] == [9, 10]
    assert all(g["actions"] == 78 and g["violations"] == [] for g in first["per_game"])
    assert sum(first["summary"]["wins_by_seat"].values()) == pytest.approx(2)
    assert "seconds" not in json.dumps(first)


def test_simulate_timings_only_when_asked(capsys) -> None:
    data = simulate_json(capsys, "--timings")
    assert "seconds_per_game" in data["summary"] and "seconds" in data["per_game"][0]


def test_simulate_table(capsys) -> None:
    assert main(["simulate", "--players", "3", "--games", "1", "--bot", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "VP mean" in out and "wins" in out and "actions" in out and "105" in out


@pytest.mark.parametrize("args, status, message", [
    (["--players", "5"], 1, "not 5"),
    (["--bot", "clever"], 1, "unknown bot 'clever'"),
    (["--bot", "random,random,random"], 1, "3 bots given for 2 players"),
    (["no-such-ruleset"], 1, "no-such-ruleset"),
])
def test_simulate_errors(capsys, args: list[str], status: int, message: str) -> None:
    assert main(["simulate", "--games", "1", *args]) == status
    assert message in capsys.readouterr().err


def test_simulate_usage_error_exits_2(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "--games", "0"])
    assert exit_.value.code == 2


def test_a_whole_game_can_be_played_from_a_pipe(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = brass("play", "--players", "2", "--seed", "4", "--seats", "human,greedy", "--save", str(save),
                   stdin="abc\n?\n" + "p\n1\n" * 600)  # always pass, with the first card offered
    assert result.returncode == 0, result.stderr
    assert "refused: 'abc' is not a key of the menu" in result.stdout
    assert "Final standings" in result.stdout
    assert "Traceback" not in result.stderr


def test_save_load_quit_and_replay(tmp_path: Path, run) -> None:
    save = tmp_path / "game.json"
    status, out, _ = run("play", "--players", "3", "--seed", "2", "--seats", "human,random,greedy", "--save", str(save),
                         stdin="1\n1\n1\n1\ns\nq\n")
    assert status == 0
    assert f"saved to {save}" in out and "quitting" in out
    saved = json.loads(save.read_text())
    assert saved["players"] == 3 and saved["moves"]

    status, out, err = run("play", "--load", str(save), "--seats", "human,random,greedy")
    assert status == 0, err
    assert f"resumed {save}" in out and "end of input" in out

    status, out, err = run("replay", str(save))
    assert status == 0, err
    assert "   1. player" in out and "Standings so far" in out
    moves = out.split("Standings so far")[0]
    assert "=" not in moves and "'" not in moves  # in the terminal game's words, not key=value
    assert "P1 end of turn: drew 1" in moves


def test_explaining_a_refused_action_cites_the_rule(run) -> None:
    """A typed whole action the rules forbid: refused; `?` lists the failure and the rule's text."""
    status, out, _ = run("play", "--seed", "3", "--seats", "human,random", stdin="\n".join([
        '{"action": "build", "card": "kidderminster#1", "industry": "coal", "location": "kidderminster", '
        '"slot": "kidderminster/1"}', "?", "q"]))
    assert status == 0
    assert "refused:" in out and "? for every reason" in out
    assert "[R-BUILD-09] This slot does not show the Coal Mine icon." in out
    assert "R-BUILD-09: Use an undeveloped space" in out


def test_typed_nonsense_is_refused_and_the_game_goes_on(run) -> None:
    status, out, err = run("play", "--seed", "3", "--seats", "human,random", stdin="\n".join([
        '{"action": "build", "card": "no-such-card#1", "industry": "coal", "location": "leek", "slot": "leek/0"}',
        '{"action": "fly"}', "{not json", "0", "q"]))
    assert status == 0, err
    assert out.count("refused:") == 4 and "quitting" in out


@pytest.mark.parametrize("content, message", [
    ('{"format": "brass-game/1"', "is not JSON"),
    ("[1, 2]", "is not a saved game"),
    ('{"format": "brass-game/1", "ruleset": "birmingham", "players": 2, "seed": 1, "moves": [{"action": "fly"}]}',
     "illegal"),
    ('{"format": "brass-game/1", "ruleset": "birmingham", "players": 2, "seed": 1, "moves": []}',
     "cannot be read"),  # no state
])
def test_a_corrupt_save_is_an_error_without_traceback(tmp_path: Path, run, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    status, _, err = run("play", "--load", str(path))
    assert status == 1 and message in err and "Traceback" not in err and "internal error" not in err
    if "state" not in message:  # replay needs only the moves; a record without a state is fine there
        status, _, err = run("replay", str(path))
        assert (status == 1) == ("moves" not in content or "fly" in content), err
        assert "Traceback" not in err and "internal error" not in err


def test_a_corrupt_save_in_a_real_process_prints_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "brass-game/1", "players": 2, "seed": 1, "moves": 5}')
    result = brass("play", "--load", str(path))
    assert result.returncode == 1 and "error:" in result.stderr and "Traceback" not in result.stderr


def test_a_changed_save_is_refused(tmp_path: Path, run) -> None:
    path = tmp_path / "game.json"
    assert run("play", "--seed", "1", "--seats", "random,human", "--save", str(path), stdin="1\n1\ns\nq\n")[0] == 0
    data = json.loads(path.read_text())
    data["state"]["players"][0]["money"] += 1
    path.write_text(json.dumps(data))
    status, _, err = run("play", "--load", str(path))
    assert status == 1 and "does not match" in err


def test_simulate_against_a_base_plays_the_same_games_with_both(capsys) -> None:
    """A variant's effect: the same seeds and bots with the variant and with its base."""
    assert main(["simulate", "what-if", "--against", "birmingham", "--bot", "random", "--players", "2", "--games", "2",
                 "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["ruleset"], data["against"]["ruleset"]) == ("what-if", "birmingham")
    assert [g["seed"] for g in data["per_game"]] == [g["seed"] for g in data["against"]["per_game"]] == [3, 4]
    for run in (data, data["against"]):
        for game in run["per_game"]:
            assert sum(game["action_counts"].values()) == game["actions"] == 78  # R-SETUP-12: 2 players
        kinds = run["summary"]["actions_by_kind"]
        assert list(kinds) == ["build", "network", "develop", "sell", "loan", "scout", "pass"]
        assert sum(kinds.values()) == 78
    assert main(["simulate", "what-if", "--against", "birmingham", "--bot", "random", "--players", "2",
                 "--games", "1"]) == 0
    out = capsys.readouterr().out
    assert "what-if against birmingham: 1 paired game(s), seeds 0..0 played with both" in out
    assert "loan actions per game" in out and "too few games to tell" in out


def test_simulate_against_an_unknown_ruleset_is_an_error(capsys) -> None:
    assert main(["simulate", "--against", "no-such-ruleset", "--games", "1"]) != 0
    assert "no-such-ruleset" in capsys.readouterr().err


def test_play_takes_the_number_of_players_from_seats() -> None:
    """`brass play --seats human,search,heuristic` (issue 13's done-when) is a 3-player game."""
    result = brass("play", "--seats", "human,greedy,greedy", "--seed", "3", stdin="q\n")
    assert result.returncode == 0, result.stderr
    assert "P3" in result.stdout and "P4" not in result.stdout
    mismatch = brass("play", "--players", "2", "--seats", "human,greedy,greedy", stdin="q\n")
    assert mismatch.returncode == 1 and "--seats names 3 seat(s) but the game has 2 players" in mismatch.stderr
