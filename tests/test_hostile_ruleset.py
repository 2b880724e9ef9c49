"""Hostile rulesets, expressions and paths: each gets the project's own located error, quickly, and
never a traceback, an "internal error", a hang or unbounded memory. Each test reproduces an input
found by fuzzing the loader (the numbers in the section titles are those of the report).
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import rulesets
from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import clear_cache, load_ruleset, resolve_ruleset_path
from interpreter.ruleset.merge import MAX_EXTENDS_DEPTH
from interpreter.ruleset.ruleset_files import MAX_FILES, MAX_RULESET_BYTES
from interpreter.ruleset.yaml_source import MAX_FILE_BYTES

BIRMINGHAM = rulesets.builtin_path("birmingham")
assert BIRMINGHAM is not None


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    """Every test loads for real: a ruleset cached by another test would hide what this one does."""
    clear_cache()
    yield
    clear_cache()


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Work from tmp_path, so that file names in messages are short and folders there are "in the cwd"."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def variant(folder: Path, extends: str = "birmingham", **files: str) -> Path:
    """A ruleset folder extending `extends`, with more files (`actions="..."` is actions.yaml)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ruleset.yaml").write_text(f'name: v\ntitle: V\nversion: "1"\nextends: {extends}\n', encoding="utf-8")
    for name, text in files.items():
        (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    return folder


def diagnostics(folder: Path | str) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        load_ruleset(folder)
    return [str(d) for d in caught.value.diagnostics]


def only_error(folder: Path | str) -> str:
    found = diagnostics(folder)
    assert len(found) == 1, found
    return found[0]


def checked(run, folder: Path | str) -> str:
    """`brass check FOLDER` must fail with located errors, never an internal error."""
    status, _, err = run("check", str(folder))
    assert status == 1 and "internal error" not in err and "Traceback" not in err, err
    return err


def requirement(check: str) -> str:
    """actions.yaml replacing the Loan's requirements by one `check`."""
    return f"actions:\n  loan:\n    requires:\n      - check: {check}\n        message: no\n"


# == 1. names and paths are never looked up in the current directory =========================================


def test_a_builtin_extends_ignores_a_folder_of_the_same_name_in_the_cwd(here: Path, run) -> None:
    impostor = shutil.copytree(BIRMINGHAM, here / "birmingham")
    setup = (impostor / "setup.yaml").read_text(encoding="utf-8")
    (impostor / "setup.yaml").write_text(setup.replace("money: 17", "money: 99"), encoding="utf-8")
    assert load_ruleset("what-if").setup.money == 17
    clear_cache()
    status, out, _ = run("show", "what-if", "--json")
    assert status == 0 and json.loads(out)["setup"]["money"] == 17


def test_a_builtin_name_means_the_shipped_ruleset_a_path_the_folder(here: Path) -> None:
    shutil.copytree(BIRMINGHAM, here / "birmingham")
    assert resolve_ruleset_path("birmingham") == BIRMINGHAM.resolve()
    assert resolve_ruleset_path("birmingham", relative_to=here) == BIRMINGHAM.resolve()
    assert resolve_ruleset_path("./birmingham") == (here / "birmingham").resolve()


def test_a_name_in_a_file_is_relative_to_that_file_never_to_the_cwd(here: Path) -> None:
    variant(here / "mine")  # in the cwd only
    scenarios = here / "scenarios"
    scenarios.mkdir()
    assert resolve_ruleset_path("mine", relative_to=scenarios) is None
    assert resolve_ruleset_path("../mine", relative_to=scenarios) == (here / "mine").resolve()
    assert resolve_ruleset_path("mine") == (here / "mine").resolve()  # typed on the command line


def test_extends_of_a_bare_name_is_a_folder_beside_the_ruleset_yaml_not_one_in_the_cwd(here: Path) -> None:
    variant(here / "base")  # in the cwd: not what `extends: base` of child/ means
    child = variant(here / "child", extends="base")
    assert only_error(child) == "child/ruleset.yaml:4:10: extends 'base': no such ruleset"
    variant(child / "base", setup="setup:\n  money: 5\n")
    assert load_ruleset(child).setup.money == 5
    sibling = variant(here / "sibling", extends="../base")
    assert load_ruleset(sibling).setup.money == 17


# == 2. every number and size of the schema is bounded ========================================================


def test_a_billion_income_spaces_is_refused_when_checked(here: Path, run) -> None:
    folder = variant(here / "v", income="income_track:\n  bands:\n    - {levels: [-10, 30], spaces: 1000000000}\n")
    started = time.monotonic()
    err = checked(run, folder)
    assert "v/income.yaml:3:35: income_track.bands.0.spaces must be at most 100, not 1000000000" in err
    assert time.monotonic() - started < 10


def test_a_tile_count_of_ten_to_the_thirty_is_refused(here: Path) -> None:
    folder = variant(here / "v", industries="tiles:\n  cotton:\n    $patch:\n      key: level\n      set:\n"
                                            "        - {level: 1, count: 1000000000000000000000000000000}\n")
    assert only_error(folder) == ("v/industries.yaml:6:29: tiles.cotton.0.count must be at most 100, "
                                  "not 1000000000000000000000000000000")


@pytest.mark.parametrize(("files", "message"), [
    ({"setup": "setup: {money: 1000001}\n"}, "setup.money must be at most 1000000, not 1000001"),
    ({"setup": "setup: {hand_size: 101}\n"}, "setup.hand_size must be at most 100, not 101"),
    ({"setup": "setup: {rounds_per_era: {2: 10, 3: 9, 4: 101}}\n"},
     "setup.rounds_per_era.4 must be at most 100, not 101"),
    ({"resources": "markets: {coal: {prices: [1, 2, 1000001]}}\n"},
     "markets.coal.prices.2 must be at most 1000000, not 1000001"),
    ({"resources": "markets: {coal: {start_cubes: 500}}\n"}, "markets.coal.start_cubes must be at most 100, not 500"),
    ({"income": "income_track: {bands: [{levels: [-5000, 0], spaces: 1}]}\n"},
     "income_track.bands.0.levels.0 must be at least -1000, not -5000"),
    ({"cards": "cards: {belper: {count: {2: 0, 3: 0, 4: 101}}}\n"},
     "cards.belper.count.4 must be at most 100, not 101"),
    ({"more": "players: [2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 3]\n"}, "players must have at most 10 entries, not 11"),
    ({"more": "rulebook: {title: t, year: 100000}\n"}, "rulebook.year must be at most 9999, not 100000"),
])
def test_numbers_out_of_their_range_are_located_errors(here: Path, files: dict[str, str], message: str) -> None:
    error = only_error(variant(here / "v", **files))
    assert error.startswith("v/") and error.endswith(message), error


def test_totals_are_bounded_too(here: Path) -> None:
    piles = "".join(f"  extra{i}: {{kind: industry, count: 100}}\n" for i in range(10))
    error = only_error(variant(here / "v", cards="wild_cards:\n" + piles))
    assert error == "v/cards.yaml:1:1: there are 1,008 wild cards, at most 1,000; use smaller counts"


# == 3. nested aggregates: a bound on the work of one evaluation ==============================================

SIX_LEVELS = ("count(a in slots where count(b in slots where count(c in slots where count(d in slots where "
              "count(e in slots where count(f in slots where f.index == e.index) > 0) > 0) > 0) > 0) > 0) > 0")


def test_six_nested_counts_are_refused_at_once_with_advice(here: Path, run) -> None:
    folder = variant(here / "v", actions=requirement(SIX_LEVELS))
    started = time.monotonic()
    err = checked(run, folder)
    assert time.monotonic() - started < 10
    assert "v/actions.yaml:4:154: this expression may cost 84,489,523,955 units of work each time it runs, more " \
           "than the limit of 25,000; 81% of it is `f.index == e.index`, up to 5 units run up to 13,841,287,201 " \
           "times (nested aggregates over slots (up to 49) x slots (up to 49)" in err
    assert "nest fewer aggregates" in err


def test_four_nested_aggregates_in_a_precondition_are_refused(here: Path) -> None:
    check = ("any(a in slots where any(b in slots where any(c in slots where any(d in slots where d == a))))")
    error = only_error(variant(here / "v", actions=requirement(check)))
    assert error.startswith("v/actions.yaml:4:100: this expression may cost 23,419,503 units of work")


def test_nesting_over_short_lists_is_fine(here: Path) -> None:
    # 49 slots x at most 4 slots of a location x at most 2 icons: 2,599 units.
    check = "all(s in slots where all(o in s.location.slots where any(i in o.industries where i == i)))"
    load_ruleset(variant(here / "v", actions=requirement(check)))


def test_a_scenario_assertion_has_the_same_bound(here: Path, run) -> None:
    nested = "count(a in slots where count(b in slots where count(c in slots where c == b) > 0) > 0) == 0"
    scenario = here / "nested.yaml"
    scenario.write_text("description: hostile\nruleset: birmingham\nrules: [R-LOAN-01]\nplayers: 2\n"
                        f"given: {{round: 2}}\nthen:\n  - {nested}\n", encoding="utf-8")
    status, out, err = run("verify", str(scenario))
    assert status != 0 and "internal error" not in err
    assert "nested.yaml:7:74: this expression may cost 482,850 units of work" in out + err


# == 4. long expressions ======================================================================================


def test_a_natural_long_assertion_fits(here: Path) -> None:
    # A card count over the deck, the hands and the discard piles of three players: over 2,000 characters.
    per_player = " + ".join(f'count(h in hand(p) where h.name == "{n}")' for n in ("Leek", "Stone", "Belper")) + " "
    check = " + ".join(f"sum({per_player}for p in players)" for _ in range(15)) + " >= 0"
    assert 2000 < len(check) < 10_000
    load_ruleset(variant(here / "v", actions=requirement(f"'{check}'")))


def test_a_too_long_expression_says_how_to_split_it(here: Path) -> None:
    check = " + ".join(["me.money"] * 1200) + " > 0"
    error = only_error(variant(here / "v", actions=requirement(check)))
    assert error.startswith(f"v/actions.yaml:4:16: expression is too long ({len(check)} characters, at most 10000); "
                            "split it: compute parts as derived values or check them as separate requirements")


@pytest.mark.parametrize("digits", [19, 5000])
def test_a_long_integer_literal_is_a_located_error(here: Path, digits: int) -> None:
    error = only_error(variant(here / "v", actions=requirement("me.money > " + "9" * digits)))
    assert error.startswith(f"v/actions.yaml:4:27: number is too long ({digits} digits, at most 18)")


# == 5. values and paths the system cannot take ==============================================================


def test_a_yaml_integer_of_5000_digits_is_a_located_error(here: Path, run) -> None:
    folder = variant(here / "v", setup="setup:\n  money: " + "7" * 5000 + "\n")
    assert only_error(folder).startswith("v/setup.yaml:2:10: number too long (5,000 characters, at most 100)")
    assert "v/setup.yaml:2:10: number too long" in checked(run, folder)


def test_a_lone_surrogate_is_a_located_error(here: Path, run) -> None:
    folder = variant(here / "v", more='description: "\\ud800"\n')
    expected = ("v/more.yaml:1:14: the text holds \\ud800, half of a UTF-16 surrogate pair, which is not a "
                "character; write the character itself, or \\U and its 8-digit code")
    assert only_error(folder) == expected
    assert expected in checked(run, folder)


def test_a_whole_surrogate_pair_is_its_character(here: Path) -> None:
    folder = variant(here / "v", more='description: "Brass \\ud83c\\udfed"\n')
    assert load_ruleset(folder).description == "Brass \U0001f3ed"


def test_a_5000_character_ruleset_path_is_a_located_error(here: Path, run) -> None:
    long = "a" * 5000
    message = f"'{long[:59]}…' cannot name a ruleset: it is 5,000 characters long, at most 1,024"
    assert only_error(long) == f"{long[:59]}…:1:1: {message}"
    assert message in checked(run, long)
    deep = "a/" * 2500
    assert "cannot name a ruleset" in checked(run, deep)
    assert resolve_ruleset_path(long) is None


def test_an_impossible_scenario_ruleset_is_the_scenarios_own_error(here: Path, run) -> None:
    scenario = here / "long.yaml"
    scenario.write_text("description: hostile\nruleset: " + "a" * 5000 + "\nrules: [R-LOAN-01]\nplayers: 2\n"
                        "given: {round: 2}\nthen:\n  - true\n", encoding="utf-8")
    status, out, err = run("verify", str(scenario))
    assert status != 0 and "internal error" not in err and "long.yaml:2:10: no ruleset 'aaa" in out + err


def test_a_nul_in_a_ruleset_name_is_a_located_error(here: Path, run) -> None:
    assert "a\\x00b:1:1: 'a\\x00b' cannot name a ruleset: it contains a NUL character" in checked(run, "a\0b")


@pytest.mark.parametrize(("extends", "problem"), [
    ("a" * 5000, "it is 5,000 characters long, at most 1,024"),
    ("x/" + "a" * 300, "a folder name in it is 300 characters long, at most 255"),
    ('"a\\0b"', "it contains a NUL character"),
])
def test_an_impossible_extends_path_is_located_at_the_value(here: Path, extends: str, problem: str) -> None:
    error = only_error(variant(here / "v", extends=extends))
    assert error.startswith("v/ruleset.yaml:4:10: extends '") and error.endswith(f"cannot name a ruleset: {problem}")


# == 6. slow inputs: bounded sizes, chains and nesting ========================================================


@pytest.mark.parametrize("size", [MAX_FILE_BYTES + 1, 10 * MAX_FILE_BYTES])
def test_a_file_over_the_limit_is_refused_before_it_is_parsed(here: Path, size: int) -> None:
    folder = variant(here / "v")
    (folder / "big.yaml").write_text("\t[" * (size // 2 + 1), encoding="utf-8")  # slow and wrong, never parsed
    started = time.monotonic()
    assert only_error(folder) == ("v/big.yaml:1:1: the file is too large: more than 524,288 bytes (512 KiB), the "
                                  "limit for one YAML file; split it into several files")
    assert time.monotonic() - started < 5


def test_a_ruleset_over_the_total_limit_is_refused(here: Path) -> None:
    folder = variant(here / "v")
    comment = ("# " + "x" * 97 + "\n") * (MAX_FILE_BYTES // 100)  # a valid file just under the limit
    for name in ("a", "b"):
        (folder / f"{name}.yaml").write_text(comment + "setup_" + name + ": 1\n", encoding="utf-8")
    assert 2 * len(comment) + (BIRMINGHAM / "rules.yaml").stat().st_size > MAX_RULESET_BYTES
    too_large = [e for e in diagnostics(folder) if "the ruleset is too large" in e]
    assert len(too_large) == 1 and too_large[0].endswith(  # the first file over the limit (here in the base)
        "(and those of the rulesets it extends) hold more than 1,048,576 bytes (1 MiB); make them smaller")


def test_too_many_files_are_refused(here: Path) -> None:
    folder = variant(here / "v")
    for n in range(MAX_FILES):
        (folder / f"part{n:03}.yaml").write_text(f"part_{n}: 1\n", encoding="utf-8")
    assert only_error(folder) == "v/ruleset.yaml:1:1: the folder holds 101 YAML files, at most 100; " \
                                 "put the sections in fewer files"


def test_a_long_extends_chain_stops_at_the_limit(here: Path) -> None:
    for n in range(40):
        variant(here / f"r{n}", extends=f"../r{n + 1}" if n < 39 else "birmingham")
    started = time.monotonic()
    error = only_error(here / "r0")
    assert error == (f"r{MAX_EXTENDS_DEPTH}/ruleset.yaml:4:10: too many rulesets extend each other: this is step "
                     f"{MAX_EXTENDS_DEPTH + 1} of `extends`, at most {MAX_EXTENDS_DEPTH}; extend a ruleset nearer "
                     "the base")
    assert time.monotonic() - started < 10
    assert load_ruleset(here / f"r{40 - MAX_EXTENDS_DEPTH}").setup.money == 17  # 16 steps are fine


@pytest.mark.parametrize("value", ["[" * 3000 + "]" * 3000, "{a: " * 3000 + "1" + "}" * 3000])
def test_deep_yaml_nesting_is_a_located_error(here: Path, value: str) -> None:
    folder = variant(here / "v", more="description: " + value + "\n")
    assert only_error(folder).startswith("v/more.yaml:1:")
    assert "nested more than 50 levels deep here" in only_error(folder)


def test_deep_block_nesting_is_a_located_error(here: Path) -> None:
    text = "description:\n" + "".join("  " * level + "a:\n" for level in range(1, 601)) + "  " * 601 + "1\n"
    error = only_error(variant(here / "v", more=text))
    assert error.startswith("v/more.yaml:51:101:") and "nested more than 50 levels deep" in error
