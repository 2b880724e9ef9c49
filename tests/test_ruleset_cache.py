"""The ruleset cache (`interpreter/ruleset/ruleset_cache.py`): a new process serves what an earlier
one concluded about exactly the same files and code, and nothing else.

A hit gives the very ruleset a full load gives (its document, model, positions, legal lists, bot
games); editing, adding or removing any file of the ruleset or of a base it extends is a miss; a
damaged, foreign or unsafe cache file is not trusted; a ruleset with errors is never cached, and
its errors are reported exactly as without the cache.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rulesets
from brass_dsl import ast
from brass_dsl.parser import parse
from interpreter import Game
from interpreter.ruleset import loader, ruleset_cache
from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import clear_cache, load_ruleset

ROOT = Path(__file__).resolve().parents[1]
BIRMINGHAM = rulesets.builtin_path("birmingham")
assert BIRMINGHAM is not None


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache folder for this test (the ruleset cache on), and a clean per-process cache."""
    home = tmp_path / "cache-home"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.delenv(ruleset_cache.ENV_OFF, raising=False)
    clear_cache()
    yield home / "brass"
    clear_cache()


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Records, for every load that reaches the disk cache, whether it was served from it."""
    found: list[bool] = []
    lookup = ruleset_cache.lookup

    def spy(*args: Any) -> Any:
        hit = lookup(*args)
        found.append(hit is not None)
        return hit

    monkeypatch.setattr(ruleset_cache, "lookup", spy)
    return found


def fresh(name: str | Path) -> Any:
    """Load without the per-process cache (the disk cache decides)."""
    clear_cache()
    return load_ruleset(name)


def exact(ruleset: Any) -> tuple[Any, ...]:
    """A ruleset's document (data and every position, in order) and its model, as comparable text."""
    doc = ruleset.source
    model = {name: repr(getattr(ruleset, name)) for name in (
        "name", "players", "locations", "links", "industries", "tiles", "cards", "wild_cards", "merchant_tiles",
        "resources", "markets", "income", "setup", "economy", "rules", "folders", "rule_folders")}
    compiled = [(a.id, a.pos, [(r.rule, r.check.text, r.check.type, r.check.origin, r.pos) for r in a.part.requires])
                for a in ruleset.actions.values()]
    return (repr(doc.data), list(doc.marks.items()), list(doc.key_marks.items()), list(doc.origins.items()),
            model, compiled, repr(ruleset.eras), repr(ruleset.game_end), repr(ruleset.round_end))


def copy_of_birmingham(tmp_path: Path, name: str = "copy") -> Path:
    folder = tmp_path / name
    shutil.copytree(BIRMINGHAM, folder)
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def cache_files(cache: Path) -> list[Path]:
    return sorted(cache.glob(ruleset_cache.PREFIX + "*" + ruleset_cache.SUFFIX)) if cache.exists() else []


# --------------------------------------------------------------------------
# A hit is the ruleset a full load gives


def test_a_hit_gives_exactly_what_a_full_load_gives(cache: Path, served: list[bool], monkeypatch) -> None:
    monkeypatch.setenv(ruleset_cache.ENV_OFF, "1")
    without = fresh("birmingham")
    monkeypatch.delenv(ruleset_cache.ENV_OFF)
    first = fresh("birmingham")
    again = fresh("birmingham")
    assert served == [False, False, True]
    assert len(cache_files(cache)) == 1
    assert again is not first
    assert exact(again) == exact(first) == exact(without)
    for players in (2, 3, 4):
        for seed in (1, 2):
            hit, full = Game.new(again, players, seed=seed), Game.new(without, players, seed=seed)
            assert hit.legal_actions() == full.legal_actions()
            assert hit.to_json() == full.to_json()


def test_bot_games_on_a_hit_match_the_recorded_fingerprints(cache: Path, served: list[bool]) -> None:
    spec = importlib.util.spec_from_file_location("legal_lists", ROOT / "bench" / "legal_lists.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    recorded = json.loads((ROOT / "tests" / "data" / "behaviour_fingerprint.json").read_text(encoding="utf-8"))
    chosen = [r for r in recorded if r["seed"] == 1 and r["players"] == 2 and r["bot"] == "random"
              and r["ruleset"] in ("birmingham", "what-if")]
    assert len(chosen) == 2
    for r in chosen:
        fresh(r["ruleset"])  # written
        clear_cache()
        assert script.fingerprint(r["ruleset"], r["players"], r["bot"], r["seed"]) == r
    assert served == [False, True] * len(chosen)


def test_show_json_is_the_same_from_the_cache(cache: Path, served: list[bool], run, monkeypatch) -> None:
    monkeypatch.setenv(ruleset_cache.ENV_OFF, "1")
    clear_cache()
    without = run("show", "what-if", "--json")
    monkeypatch.delenv(ruleset_cache.ENV_OFF)
    clear_cache()
    run("show", "what-if", "--json")
    clear_cache()
    warm = run("show", "what-if", "--json")
    assert served == [False, False, True]
    assert warm == without and warm[0] == 0


def test_positions_name_files_as_the_current_directory_shows_them(cache: Path, served: list[bool],
                                                                 tmp_path: Path, monkeypatch) -> None:
    folder = copy_of_birmingham(tmp_path)
    monkeypatch.chdir(tmp_path)
    fresh(folder)  # written while positions read "copy/…"
    monkeypatch.chdir(folder)
    hit = fresh(folder)
    assert served == [False, True]
    money = hit.source.pos(("setup", "money"))
    assert (money.file, money.line) == ("setup.yaml", 5)
    monkeypatch.setenv(ruleset_cache.ENV_OFF, "1")
    assert exact(fresh(folder)) == exact(hit)


def test_a_new_process_on_a_warm_cache_imports_neither_yaml_nor_cerberus_nor_lark(tmp_path: Path) -> None:
    code = ("import sys; from interpreter import Game, load_ruleset; "
            "g = Game.new(load_ruleset('birmingham'), 4, seed=1); g.legal_actions(); "
            "print(sorted(m for m in ('yaml', 'cerberus', 'lark') if m in sys.modules))")
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRASS_NO_")}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
            for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr + runs[1].stderr
    assert runs[0].stdout.strip() == "['cerberus', 'lark', 'yaml']"  # cold: every check ran
    assert runs[1].stdout.strip() == "[]"  # warm


# --------------------------------------------------------------------------
# Any change to the files is a miss


def test_editing_a_file_of_the_ruleset_is_a_miss(cache: Path, served: list[bool], tmp_path: Path) -> None:
    folder = copy_of_birmingham(tmp_path)
    assert fresh(folder).setup.money == 17
    edit(folder / "setup.yaml", "money: 17", "money: 18")
    assert fresh(folder).setup.money == 18
    assert fresh(folder).setup.money == 18
    assert served == [False, False, True]


def test_editing_a_file_of_the_base_is_a_miss(cache: Path, served: list[bool], tmp_path: Path) -> None:
    base = copy_of_birmingham(tmp_path, "base")
    variant = tmp_path / "variant"
    variant.mkdir()
    (variant / "ruleset.yaml").write_text('name: variant\ntitle: V\nversion: "1"\nextends: ../base\n'
                                          "economy:\n  loan: {amount: 40}\n", encoding="utf-8")
    first = fresh(variant)
    assert (first.setup.money, first.economy.loan_amount) == (17, 40)
    edit(base / "setup.yaml", "money: 17", "money: 19")
    second = fresh(variant)
    assert (second.setup.money, second.economy.loan_amount) == (19, 40)
    edit(base / "setup.yaml", "money: 19", "money: 1000001")  # now an error, in the base
    with pytest.raises(RulesetError) as caught:
        fresh(variant)
    assert [(Path(d.pos.file), d.pos.line, d.pos.col) for d in caught.value.diagnostics] == [
        (base / "setup.yaml", 5, 10)]
    assert served == [False, False, False]


def test_adding_or_removing_a_file_is_a_miss(cache: Path, served: list[bool], tmp_path: Path) -> None:
    folder = copy_of_birmingham(tmp_path)
    fresh(folder)
    (folder / "extra.yaml").write_text("surprise: 1\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="unknown key 'surprise'"):
        fresh(folder)
    (folder / "extra.yaml").unlink()
    (folder / "notes.yml").write_text("a: 1\n", encoding="utf-8")
    with pytest.raises(RulesetError, match=r"must end in '\.yaml'"):
        fresh(folder)
    (folder / "notes.yml").unlink()
    fresh(folder)
    (folder / "income.yaml").unlink()
    with pytest.raises(RulesetError, match="income_track"):
        fresh(folder)
    assert served == [False, False, False, True, False]


def test_a_new_version_of_the_code_is_a_miss(cache: Path, served: list[bool], monkeypatch) -> None:
    fresh("birmingham")
    monkeypatch.setattr(ruleset_cache, "_environment_key", lambda: "another version of the code")
    fresh("birmingham")
    assert served == [False, False]


def test_nothing_is_cached_when_the_code_was_edited_while_the_process_ran(cache: Path, monkeypatch) -> None:
    monkeypatch.setattr(ruleset_cache, "_key_now", lambda: "the sources on disk now")
    fresh("birmingham")
    assert cache_files(cache) == []


# --------------------------------------------------------------------------
# Errors are never cached, and are reported as always


def test_a_ruleset_with_errors_is_never_cached(cache: Path, tmp_path: Path) -> None:
    folder = copy_of_birmingham(tmp_path)
    edit(folder / "actions.yaml", "check: tiles_left(me, industry) > 0", "check: tiles_left(me, industry) > ")
    for _ in range(2):
        with pytest.raises(RulesetError):
            fresh(folder)
    assert cache_files(cache) == []


def test_errors_are_located_the_same_on_a_warm_cache(cache: Path, served: list[bool], tmp_path: Path,
                                                     monkeypatch) -> None:
    folder = copy_of_birmingham(tmp_path)
    fresh("birmingham")
    fresh(folder)  # both valid, both cached
    breakages = [("actions.yaml", "check: tiles_left(me, industry) > 0", "check: tiles_left(me, industri) > 0"),
                 ("setup.yaml", "money: 17", "money: -1")]
    found = []
    for name, old, new in breakages:
        edit(folder / name, old, new)
        with pytest.raises(RulesetError) as warm:
            fresh(folder)
        monkeypatch.setenv(ruleset_cache.ENV_OFF, "1")
        with pytest.raises(RulesetError) as without:
            fresh(folder)
        monkeypatch.delenv(ruleset_cache.ENV_OFF)
        assert [str(d) for d in warm.value.diagnostics] == [str(d) for d in without.value.diagnostics]
        found += [(Path(d.pos.file).name, d.pos.line, d.pos.col, d.message) for d in warm.value.diagnostics]
        edit(folder / name, new, old)
    assert found == [("actions.yaml", 29, 31, "unknown name 'industri'; did you mean 'industries'?"),
                     ("setup.yaml", 5, 10, "setup.money must be at least 0, not -1")]
    assert served == [False, False] + [False, False] * 2


# --------------------------------------------------------------------------
# A cache file is trusted only when it is exactly what this code wrote, where only the user writes


def test_a_damaged_or_edited_cache_file_is_not_trusted(cache: Path, served: list[bool]) -> None:
    fresh("birmingham")
    (path,) = cache_files(cache)
    good = path.read_bytes()
    assert good.count(b'"money":17,') == 1
    path.write_bytes(good.replace(b'"money":17,', b'"money":99,'))  # the SHA-256 line no longer matches
    assert fresh("birmingham").setup.money == 17
    for damaged in (b"", b"garbage", good[: len(good) // 2], good.replace(b"\n", b"\r\n", 2), b"\xff" * 100):
        path.write_bytes(damaged)
        assert fresh("birmingham").setup.money == 17
    assert served == [False] * 7
    assert path.read_bytes() == good  # rewritten each time
    assert fresh("birmingham").setup.money == 17 and served[-1] is True


def test_a_well_formed_but_wrong_entry_is_not_trusted(cache: Path, served: list[bool], tmp_path: Path) -> None:
    copy = copy_of_birmingham(tmp_path)
    fresh("birmingham")
    fresh(copy)
    ours, theirs = (Path(ruleset_cache.entry_path(folder) or "") for folder in (loader._find("birmingham"), copy))
    shutil.copyfile(theirs, ours)  # the entry of another folder (same bytes, other files)
    fresh("birmingham")
    assert served == [False, False, False]

    def rewritten(change: Any) -> None:
        fmt, _, body = ours.read_bytes().split(b"\n", 2)
        entry = change(json.loads(body))
        body = json.dumps(entry).encode()
        ours.write_bytes(b"\n".join([fmt, hashlib.sha256(body).hexdigest().encode(), body]))

    def bad_tree(entry: dict) -> dict:
        text = next(iter(entry["trees"]))
        entry["trees"][text] = ["Exec", 1, 1, 1, 2, 1, "__import__('os')"]
        return entry

    def bad_digest(entry: dict) -> dict:
        entry["chain"][0]["files"][0][1] = "0" * 64
        return entry

    def bad_position(entry: dict) -> dict:
        entry["places"][1] = "1"
        return entry

    for change in (bad_tree, bad_digest, bad_position):
        rewritten(change)
        assert fresh("birmingham").setup.money == 17
    assert served == [False] * 6


def test_a_cache_file_or_folder_others_can_write_is_not_used(cache: Path, served: list[bool]) -> None:
    fresh("birmingham")
    (path,) = cache_files(cache)
    path.chmod(0o666)
    fresh("birmingham")  # not read; replaced by a private file
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    cache.chmod(0o777)
    fresh("birmingham")  # a good file, in a folder that is not private: neither read nor written
    path.write_bytes(b"not ours")
    fresh("birmingham")
    assert served == [False, False, False, False]
    assert sorted(p.name for p in cache.iterdir() if p.name.startswith(ruleset_cache.PREFIX)) == [path.name]
    assert path.read_bytes() == b"not ours"
    cache.chmod(0o700)


def test_a_symbolic_link_is_not_followed(cache: Path, served: list[bool], tmp_path: Path) -> None:
    fresh("birmingham")
    (path,) = cache_files(cache)
    elsewhere = tmp_path / "elsewhere"
    path.rename(elsewhere)
    path.symlink_to(elsewhere)
    fresh("birmingham")
    assert served == [False, False]
    assert not path.is_symlink()


def test_the_cache_can_be_turned_off(cache: Path, served: list[bool], monkeypatch) -> None:
    monkeypatch.setenv(ruleset_cache.ENV_OFF, "1")
    fresh("birmingham")
    fresh("birmingham")
    assert cache_files(cache) == []
    assert served == [False, False]


def test_at_most_max_entries_files_are_kept(cache: Path, served: list[bool], tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(ruleset_cache, "MAX_ENTRIES", 2)
    folders = [copy_of_birmingham(tmp_path, f"copy{n}") for n in range(3)]
    for folder in folders:
        fresh(folder)
        os.utime(ruleset_cache.entry_path(folder) or "", (1, 1 + len(served)))  # in order, whatever the clock
    assert len(cache_files(cache)) == 2
    fresh(folders[0])  # the oldest was removed
    fresh(folders[2])
    assert served == [False, False, False, False, True]


# --------------------------------------------------------------------------
# Syntax trees as JSON


def test_every_expression_of_every_shipped_ruleset_round_trips_as_json() -> None:
    texts = set()
    for name in rulesets.builtin_names():
        texts.update(_texts(load_ruleset(name)))
    assert len(texts) > 50
    for text in texts:
        tree = parse(text)
        again = ast.from_data(json.loads(json.dumps(ast.to_data(tree))))
        assert repr(again) == repr(tree) and again == tree


def _texts(ruleset: Any) -> set[str]:
    found = set()
    for action in ruleset.actions.values():
        parts = [action.part] + ([action.repeat.part] if action.repeat else [])
        for part in parts:
            found.update(r.check.text for r in part.requires if r.check is not None)
            found.update(p.domain.text for p in part.params if p.domain is not None)
            found.update(d.text for d in part.derived.values() if d is not None)
    found.update(k.key.text for k in ruleset.game_end.ranking)
    return found


@pytest.mark.parametrize("data", [
    None, [], "Name", ["Name", 1, 1, 1, 2, 1], ["Name", 1, 1, 1, 2, 1, "x", "y"], ["Nope", 1, 1, 1, 2, 1, "x"],
    ["Name", 1, 1, 1, 2, True, "x"], ["IntLit", 1, 1, 1, 2, 1, True], ["BoolLit", 1, 1, 1, 2, 1, 1],
    ["Name", 1, 1, 1, 2, 1, 7], ["Call", 1, 1, 1, 4, 2, "f", [["Name", 1, 3, 1, 4, 1, "x"]]],
    ["Unary", 1, 1, 1, 3, 2, "-", "x"], ["__class__", 1, 1, 1, 2, 1],
])
def test_malformed_tree_data_is_refused(data: Any) -> None:
    with pytest.raises(ValueError):
        ast.from_data(data)


# --------------------------------------------------------------------------
# Imports: only what is used


def test_imports_stay_lazy() -> None:
    code = """if True:
        import json, sys
        def loaded():
            return {m for m in sys.modules if m.split(".")[0] in ("interpreter", "brass_dsl", "yaml", "lark",
                                                                 "cerberus", "difflib", "rich")}
        import interpreter, brass_dsl
        print(json.dumps(sorted(loaded())))
        from brass_dsl import Env
        print(json.dumps(sorted(loaded())))
        from interpreter import Game, load_ruleset
        print(json.dumps(sorted(m for m in loaded() if not m.startswith("interpreter.engine"))))
    """
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    bare, env, front = (json.loads(line) for line in done.stdout.splitlines())
    assert bare == ["brass_dsl", "interpreter"]
    assert env == ["brass_dsl", "brass_dsl.runtime", "interpreter"]
    # the front door: what a warm load uses, and neither YAML, cerberus, Lark, the parser nor the checks
    assert not {"yaml", "lark", "cerberus", "brass_dsl.parser", "brass_dsl.parser_cache",
                "interpreter.ruleset.schema", "interpreter.ruleset.crossref", "interpreter.ruleset.merge",
                "interpreter.ruleset.yaml_compose", "interpreter.ruleset.yaml_build"} & set(front)
    assert {"interpreter.ruleset.loader", "interpreter.ruleset.ruleset_cache", "brass_dsl.compiler"} <= set(front)
