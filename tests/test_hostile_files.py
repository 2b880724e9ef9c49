"""Hostile files: a save never destroys the previous one nor writes through a planted symlink, and a
hostile real-game trace (`brass replay --trace`) is a TraceError naming what is wrong, never an
internal error."""

from __future__ import annotations

import copy
import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.files import guards, saves
from interpreter.tools.trace.importer import TraceError, load_trace, replay_trace, replay_trace_file

TRACES = Path(__file__).resolve().parents[2] / "shared" / "real-games" / "traces"
TRACE = TRACES / "wq9gs6-2p-full.trace.json"  # the shortest of the five (2 players, 78 steps)


def no_crash(err: str) -> bool:
    return "Traceback" not in err and "internal error" not in err


# == 5. saves =====================================================================================================

def saved_once(run, path: Path) -> str:
    status, out, err = run("play", "--seed", "2", "--seats", "human,greedy", "--save", str(path), stdin="1\ns\nq\n")
    assert status == 0 and f"saved to {path}" in out, err
    return path.read_text()


def test_a_planted_symlink_at_the_old_temporary_name_is_not_followed(tmp_path: Path, run) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    save = tmp_path / "game.json"
    (tmp_path / "game.json.tmp").symlink_to(victim)
    text = saved_once(run, save)
    assert victim.read_text() == "precious\n"
    assert json.loads(text)["format"] == "brass-game/1" and not save.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "game.json.tmp", "victim.txt"]


def test_a_failed_save_keeps_the_previous_one_and_leaves_no_temporary_file(tmp_path: Path, run,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "game.json"
    previous = saved_once(run, save)

    def disk_full(source: Any, target: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    status, out, err = run("play", "--load", str(save), "--seats", "human,greedy", stdin="1\ns\nq\n")
    assert status == 0 and no_crash(err)
    assert f"could not save to {save}: [Errno 28] No space left on device" in out
    assert save.read_text() == previous
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_save_interrupted_while_writing_leaves_no_temporary_file(tmp_path: Path, run,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "game.json"
    previous = saved_once(run, save)

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    game = saves.read_saved(load_ruleset("birmingham"), save)
    with pytest.raises(KeyboardInterrupt):
        saves.save(game, save)
    assert save.read_text() == previous
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_save_removes_the_stale_temporary_files_of_its_target_and_nothing_else(tmp_path: Path, run) -> None:
    """`kill -9` during a save left `.game.json.XXXXXXXX.tmp` for ever; the next save of the same
    file removes such a file once it is old enough that no save can still be writing it."""
    hour_ago = time.time() - 3600

    def planted(name: str, old: bool = True, make: Any = None) -> Path:
        path = tmp_path / name
        (make or (lambda p: p.write_text("half a save")))(path)
        if old:
            os.utime(path, (hour_ago, hour_ago), follow_symlinks=False)
        return path

    stale = [planted(".game.json.k3x_9a0q.tmp"), planted(".game.json.00000000.tmp")]
    kept = [
        planted(".game.json.abcdefgh.tmp", old=False),  # a save going on now, in another process
        planted(".other.json.abcdefgh.tmp"),  # another target's
        planted(".game.json.abc.tmp"),  # not a name mkstemp makes
        planted(".game.json.ABCDEFGH.tmp"),
        planted("game.json.abcdefgh.tmp"),  # not hidden: not ours
        planted(".game.json.abcdefgh.tmp.bak"),
        planted(".game.json.folder00.tmp", make=lambda p: p.mkdir()),
        planted(".game.json.symlink0.tmp", make=lambda p: p.symlink_to(tmp_path / "victim.txt")),
    ]
    (tmp_path / "victim.txt").write_text("precious\n")
    text = saved_once(run, tmp_path / "game.json")
    assert json.loads(text)["format"] == "brass-game/1"
    assert not any(p.exists() for p in stale)
    assert all(p.exists() or p.is_symlink() for p in kept)
    assert (tmp_path / "victim.txt").read_text() == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([p.name for p in kept] + ["game.json", "victim.txt"])


def test_stale_temporary_files_are_only_those_older_than_the_limit(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    temporary = tmp_path / ".game.json.abcdefgh.tmp"
    temporary.write_text("half a save")
    written = temporary.stat().st_mtime
    assert guards.remove_stale_temporaries(target, now=written + guards.STALE_AFTER_SECONDS) == []
    assert guards.remove_stale_temporaries(target, now=written + guards.STALE_AFTER_SECONDS + 1) == [temporary]
    assert not temporary.exists()


def test_a_save_gets_the_permissions_of_an_ordinary_new_file(tmp_path: Path, run) -> None:
    umask = os.umask(0o027)
    try:
        saved_once(run, tmp_path / "game.json")
    finally:
        os.umask(umask)
    assert (tmp_path / "game.json").stat().st_mode & 0o777 == 0o640


@pytest.mark.skipif(not Path("/dev/full").is_char_device(), reason="needs /dev/full")
def test_a_save_to_a_device_writes_to_it_and_never_replaces_it(run) -> None:
    """As root, renaming a temporary file over /dev/full would replace the device with a plain file."""
    status, out, err = run("play", "--seed", "2", "--seats", "human,greedy", "--save", "/dev/full", stdin="1\ns\nq\n")
    assert status == 0 and no_crash(err)
    assert "could not save to /dev/full: [Errno 28] No space left on device" in out
    assert Path("/dev/full").is_char_device()


# == 7. hostile traces ============================================================================================

needs_traces = pytest.mark.skipif(not TRACE.is_file(), reason=f"{TRACE} is absent")


def first_step(trace: dict[str, Any], key: str) -> int:
    return next(n for n, step in enumerate(trace["steps"]) if key in step["effects"] or (step.get("roundEnd") or {})
                .get(key))


def mutate(path: str, value: Any) -> Any:
    """A function that sets the value at `path` (keys and indexes separated by /) in a copy of a trace."""
    def change(trace: dict[str, Any]) -> dict[str, Any]:
        trace = copy.deepcopy(trace)
        *parents, last = [int(p) if p.isdigit() else p for p in path.split("/")]
        place = trace
        for key in parents:
            place = place[key]
        if value is KeyError:
            del place[last]
        else:
            place[last] = value
        return trace
    return change


@needs_traces
@pytest.mark.parametrize("change, message", [
    (mutate("steps/3/seq", KeyError), "is not a trace the replay can read: steps[3] has no 'seq'"),
    (mutate("setup", [1]), "is not a trace the replay can read: setup must be a mapping, not a list"),
    (mutate("steps/2/action/cardId", ["x"]), "steps[2].action.cardId must be text, not a list"),
    (mutate("steps/2/effects/slots", {"a": 1}), "steps[2].effects.slots must be a list, not a mapping"),
    (mutate("catalogue/links/0/index", "0"), "catalogue.links[0].index must be a whole number, not a string"),
    (mutate("setup/hands/0/0", None), "setup.hands[0][0] must be text, not null (nothing)"),
    (mutate("steps/0/after", [[1, 2]]), "steps[0].after[0] must be a mapping, not a list"),
    (mutate("setup/hands", [[]]), "the trace does not fit together in its setup: an index beyond its list"),
    (mutate("setup/merchants/oxford/tiles/0", "gold"), "oxford: unknown merchant tile 'gold'"),
    (mutate("catalogue/locationSlots/leek", [["nothing"]]),
     'hostile.trace.json: catalogue.locationSlots.leek[0] is ["nothing"], which matches no slot of leek on our board'),
])
def test_a_hostile_trace_is_an_error_naming_what_is_wrong(tmp_path: Path, run, change: Any, message: str) -> None:
    path = tmp_path / "hostile.trace.json"
    path.write_text(json.dumps(change(json.loads(TRACE.read_text()))))
    status, _, err = run("replay", "--trace", str(path))
    assert status == 1 and no_crash(err)
    assert err.startswith("error: ") and message in err and len(err.splitlines()) == 1, err


@needs_traces
@pytest.mark.parametrize("change, message", [
    (mutate("catalogue/locationSlots/leek/1", ["pottery", "coal"]),
     'catalogue.locationSlots.leek[1] is ["pottery", "coal"], which matches no slot of leek on our board '
     '(ours: [["cotton", "manufacturer"], ["cotton", "coal"]])'),
    (mutate("catalogue/locationSlots/leek", [["cotton", "manufacturer"]] * 2),
     'catalogue.locationSlots.leek[1] is ["cotton", "manufacturer"], which matches no slot of leek on our board '
     'left after the slots before it (ours: [["cotton", "manufacturer"], ["cotton", "coal"]])'),
    (mutate("catalogue/locationSlots/atlantis", [["coal"]]),
     "catalogue.locationSlots.atlantis: 'atlantis' is not a place on our board"),
    (mutate("catalogue/links/0/b", "farm-north"),
     "catalogue.links[0] (index 0) joins belper, farm_north: no link of our board joins these places"),
], ids=["slot", "slot-matched-before", "place", "link"])
def test_a_catalogue_that_is_not_our_board_names_the_file_the_field_and_the_value(tmp_path: Path, run, change: Any,
                                                                                    message: str) -> None:
    """Was "leek slot 1 ['pottery', 'coal']: no such slot here", naming neither file nor field."""
    path = tmp_path / "hostile.trace.json"
    path.write_text(json.dumps(change(json.loads(TRACE.read_text()))))
    picture = str(tmp_path / "board.svg")
    for command in (["replay", "--trace", str(path)], ["board", "--trace", str(path), "--svg", picture]):
        status, _, err = run(*command)
        assert status == 1 and no_crash(err)
        assert err == f"error: {path}: {message}\n", err
    with pytest.raises(TraceError, match=re.escape(f"{path}: {message}")):
        replay_trace_file(load_ruleset("birmingham"), path)


@needs_traces
def test_a_gained_card_that_is_not_a_card_id_is_a_trace_error() -> None:
    """Was an explicit AttributeError ('NoneType' object has no attribute 'group'): an internal error."""
    trace = load_trace(TRACE)
    step = first_step(trace, "cardsGained")
    trace["steps"][step]["effects"]["cardsGained"][0] = "joker"
    with pytest.raises(TraceError, match=rf"step seq {trace['steps'][step]['seq']} gains card 'joker', which is "
                                         r"not a card id of the trace \(loc-<location>-<n>"):
        replay_trace(load_ruleset("birmingham"), trace, "hostile")


@needs_traces
@pytest.mark.parametrize("hands", [1, 3])
def test_the_rail_deal_needs_one_hand_per_player(hands: int) -> None:
    trace = load_trace(TRACE)
    step = first_step(trace, "railHands")
    rail = trace["steps"][step]["roundEnd"]["railHands"]
    trace["steps"][step]["roundEnd"]["railHands"] = (rail + [[]])[:hands]
    result = replay_trace(load_ruleset("birmingham"), trace, "hostile")
    (difference,) = result.differences
    assert difference.what == "rail deal"
    assert difference.ours == (f"the Rail deal has {hands} hand(s) for 2 players: the trace must give one Rail "
                               "hand per player")


@needs_traces
@pytest.mark.parametrize("text, message", [
    ('{"format": "brass-birmingham-trace/v1", ', "is not JSON: Expecting property name"),
    ("[" * 100_000 + "]" * 100_000, "nests lists or mappings more than 64 levels deep"),
    ('{"format": "brass-birmingham-trace/v1", "seed": Infinity}', "Infinity is not a number JSON allows"),
    ('{"format": "brass-birmingham-trace/v1"}', "is not a trace the replay can read: the file has no 'playerCount'"),
    ("[]", "is not a trace (format 'list'"),
])
def test_an_unreadable_trace_file_is_an_error(tmp_path: Path, run, text: str, message: str) -> None:
    path = tmp_path / "hostile.trace.json"
    path.write_text(text)
    status, _, err = run("replay", "--trace", str(path))
    assert status == 1 and no_crash(err) and message in err, err


@needs_traces
def test_the_real_traces_have_the_shape_the_replay_reads() -> None:
    for path in sorted(TRACES.glob("*.trace.json")):
        load_trace(path)  # raises TraceError otherwise
