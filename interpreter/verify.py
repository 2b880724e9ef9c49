"""`brass verify PATH…`: run scenario files and report failures and rule coverage.

    brass verify scenarios/birmingham              # every *.yaml below the folder
    brass verify scenarios/birmingham/coal.yaml --coverage

Prints each failure located at its file and line (a step refused or accepted against
expectation, an assertion with the values of its sides), a file that cannot be loaded with
every error as FILE:LINE:COL: message, then the rule-coverage tables and a last line
`N passed, M failed`. Exit status 0 only when every scenario passed.

A rule belongs to the ruleset whose files state it: the base game's index for every rule a
variant inherits, the variant's own table for a rule it rewrites. So a scenario of the
Introductory Game citing R-INTRO-01 covers the base index's R-INTRO-01, while a summary-es
scenario citing R-ERA-02 covers summary-es's reading of it, not the rulebook's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence, TextIO

from interpreter.errors import BrassError, RulesetError
from interpreter.loader import load_ruleset
from interpreter.model import Ruleset
from interpreter.scenario import Result, Scenario, ScenarioError, display_path, load_scenario, run_scenario


def scenario_files(paths: Sequence[str | Path]) -> list[Path]:
    """The scenario files named: files as given, folders searched recursively for *.yaml."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.yaml") if not any(part.startswith(".") for part in p.parts)))
        elif path.is_file():
            found.append(path)
        else:
            raise BrassError(f"no such file or folder: {raw}")
    return list(dict.fromkeys(found))


def coverage(scenarios: Sequence[Scenario]) -> dict[str, dict[str, list[str]]]:
    """Per ruleset that states rules: each rule ID it states -> the scenarios citing it.

    A scenario is named by its file's stem, followed by its ruleset's name in brackets when it
    is played with another ruleset than the one the table is for."""
    tables: dict[str, dict[str, list[str]]] = {}
    for ruleset in {id(s.ruleset): s.ruleset for s in scenarios}.values():
        for rid in ruleset.rules:
            tables.setdefault(_owner(ruleset, rid), {}).setdefault(rid, [])
    for scenario in scenarios:
        for rid in scenario.rules:
            owner = _owner(scenario.ruleset, rid)
            label = _short(scenario.display)
            tables[owner][rid].append(label if owner == scenario.ruleset.name else f"{label} ({scenario.ruleset.name})")
    return tables


def _owner(ruleset: Ruleset, rid: str) -> str:
    """The name of the ruleset whose files state the rule (the ruleset itself or a base)."""
    folder = ruleset.rule_folders.get(rid)
    if folder is None or folder == ruleset.folders[-1]:
        return ruleset.name
    return _folder_name(folder)


def _folder_name(folder: str) -> str:
    try:
        return load_ruleset(folder).name  # a base of a loaded ruleset: it loads (from the cache)
    except RulesetError:
        return Path(folder).name


def verify(paths: Sequence[str | Path], out: TextIO, show_coverage: bool = False) -> int:
    files = scenario_files(paths)
    if not files:
        raise BrassError(f"no scenario files (*.yaml) in {', '.join(map(str, paths))}")
    passed = failed = 0
    loaded: list[Scenario] = []
    for path in files:
        try:
            scenario = load_scenario(path)
        except ScenarioError as error:
            failed += 1
            print(f"FAIL {display_path(path)} (cannot be loaded)", file=out)
            for diagnostic in error.diagnostics:
                print(_indent(str(diagnostic)), file=out)
            continue
        loaded.append(scenario)
        result = run_scenario(scenario)
        if result.passed:
            passed += 1
        else:
            failed += 1
            _print_failure(result, out)
    for name, rules in coverage(loaded).items():
        print(f"\nrule coverage ({name}{_what(name, loaded)}):", file=out)
        width = max(len(rid) for rid in rules)
        for rid, cited in rules.items():
            print(f"  {rid:<{width}}  {', '.join(cited) if cited else 'none'}", file=out)
        if show_coverage:
            covered = sum(1 for c in rules.values() if c)
            print(f"coverage ({name}): {covered}/{len(rules)} rule IDs = {100 * covered / len(rules):.1f}%", file=out)
    print(f"{passed} passed, {failed} failed", file=out)
    return 0 if failed == 0 else 1


def _what(name: str, scenarios: Sequence[Scenario]) -> str:
    """For a variant's table: which of the index's rules it holds."""
    for ruleset in (s.ruleset for s in scenarios):
        if ruleset.name == name and len(ruleset.folders) > 1:
            return ", the rules it rewrites"
    return ""


def _print_failure(result: Result, out: TextIO) -> None:
    print(f"FAIL {result.scenario.display}", file=out)
    for problem in result.failures:
        print(_indent(str(problem)), file=out)


def _short(display: str) -> str:
    return Path(display).stem


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())
