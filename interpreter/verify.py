"""`brass verify PATH…`: run scenario files and report failures and rule coverage.

    brass verify scenarios/birmingham              # every *.yaml below the folder
    brass verify scenarios/birmingham/coal.yaml --coverage

Prints each failure located at its file and line (a step refused or accepted against
expectation, an assertion with the values of its sides), a file that cannot be loaded with
every error as FILE:LINE:COL: message, then one rule-coverage table per ruleset (each rule ID of
its index with the scenarios citing it, or "none") and a last line `N passed, M failed`.
Exit status 0 only when every scenario passed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence, TextIO

from interpreter.errors import BrassError
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
    """Per ruleset name: each rule ID of its index -> the scenarios (display paths) citing it."""
    table: dict[str, dict[str, list[str]]] = {}
    for scenario in scenarios:
        rules = table.setdefault(scenario.ruleset.name, {rid: [] for rid in scenario.ruleset.rules})
        for rid in scenario.rules:
            rules.setdefault(rid, []).append(scenario.display)
    return table


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
    table = coverage(loaded)
    for name, rules in table.items():
        print(f"\nrule coverage ({name}):", file=out)
        width = max(len(rid) for rid in rules)
        for rid, cited in rules.items():
            print(f"  {rid:<{width}}  {', '.join(_short(c) for c in cited) if cited else 'none'}", file=out)
        if show_coverage:
            covered = sum(1 for c in rules.values() if c)
            print(f"coverage ({name}): {covered}/{len(rules)} rule IDs = {100 * covered / len(rules):.1f}%", file=out)
    print(f"{passed} passed, {failed} failed", file=out)
    return 0 if failed == 0 else 1


def _print_failure(result: Result, out: TextIO) -> None:
    print(f"FAIL {result.scenario.display}", file=out)
    for problem in result.failures:
        print(_indent(str(problem)), file=out)


def _short(display: str) -> str:
    return Path(display).stem


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())
