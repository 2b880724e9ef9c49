"""`brass verify PATH…`: run scenario files and report failures and rule coverage.

    brass verify scenarios/birmingham              # every *.yaml below the folder
    brass verify scenarios/birmingham/coal.yaml --coverage

Prints each failure located at its file and line (a step refused or accepted against
expectation, an assertion with the values of its sides), a file that cannot be loaded with
every error as FILE:LINE:COL: message; with `--coverage`, the rule-coverage tables; then a
summary of the failures, one line per failed file, and a last line `N passed, M failed`. Exit
status 0 only when every scenario passed.

A rule belongs to the ruleset whose files state it: the base game's index for every rule a
variant inherits, the variant's own table for a rule it rewrites. So a scenario of the
Introductory Game citing R-INTRO-01 covers the base index's R-INTRO-01, while a summary-es
scenario citing R-ERA-02 covers summary-es's reading of it, not the rulebook's.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from brass_dsl.source import SourcePos
from interpreter.ruleset.errors import BrassError, Diagnostic, RulesetError
from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.scenarios.scenario import (
    Result,
    Scenario,
    ScenarioError,
    display_path,
    load_scenario,
    run_scenario,
)

# A scenario folder's list of equivalent mutants (`brass verify --mutate` reads it; docs/scenarios.md):
# the one YAML file of a folder that is not a scenario.
EQUIVALENTS_FILE = "mutation-equivalents.yaml"


def scenario_files(paths: Sequence[str | Path]) -> list[Path]:
    """The scenario files named: files as given, folders searched recursively for *.yaml (but
    not their EQUIVALENTS_FILE)."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.yaml") if p.name != EQUIVALENTS_FILE
                                and not any(part.startswith(".") for part in p.parts)))
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


@dataclass
class Outcome:
    """One scenario file: its result, or the errors that kept it from loading."""

    display: str
    result: Result | None = None
    load_errors: list[Diagnostic] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.result is not None and self.result.passed


def run_files(paths: Sequence[str | Path], check: bool = False,
              rules: Sequence[str] = ()) -> tuple[list[Outcome], list[Scenario]]:
    """Load and run every scenario file named; (each file's outcome, the scenarios that loaded).
    With `rules` (IDs or prefixes such as R-COAL), only the scenarios citing one of them run; a
    file that cannot be loaded is always reported."""
    files = scenario_files(paths)
    if not files:
        raise BrassError(f"no scenario files (*.yaml) in {', '.join(map(str, paths))}")
    outcomes: list[Outcome] = []
    loaded: list[Scenario] = []
    for path in files:
        try:
            scenario = load_scenario(path)
        except ScenarioError as error:
            outcomes.append(Outcome(display_path(path), load_errors=list(error.diagnostics)))
            continue
        except Exception as error:  # a bug met on one file must not cost the results of the others
            outcomes.append(_crashed(path, error))
            continue
        if rules and not any(rid.startswith(wanted) for rid in scenario.rules for wanted in rules):
            continue
        loaded.append(scenario)
        try:
            outcomes.append(Outcome(scenario.display, run_scenario(scenario, check)))
        except Exception as error:
            outcomes.append(_crashed(path, error))
    if rules and not loaded:
        raise BrassError(f"no scenario in {', '.join(map(str, paths))} cites {', '.join(rules)}")
    return outcomes, loaded


def _crashed(path: Path, error: Exception) -> Outcome:
    """The outcome of a file on which brass itself failed: reported as that file's failure, located
    at its start (BRASS_DEBUG=1 stops there with the traceback, as for any internal error)."""
    if os.environ.get("BRASS_DEBUG"):
        raise error
    display = display_path(path)
    return Outcome(display, load_errors=[Diagnostic(SourcePos(display, 1, 1), (
        f"internal error on this file: {type(error).__name__}: {error} (this is a bug in brass; "
        "set BRASS_DEBUG=1 to see the traceback)"))])


def verify(paths: Sequence[str | Path], out: TextIO, show_coverage: bool = False, as_json: bool = False,
           check: bool = False, rules: Sequence[str] = ()) -> int:
    outcomes, loaded = run_files(paths, check, rules)
    tables = coverage(loaded)
    if as_json:
        print(json.dumps(_report(outcomes, tables, loaded), indent=2, ensure_ascii=False), file=out)
    else:
        _print_text(outcomes, tables, loaded, out, show_coverage)
    return 0 if all(o.passed for o in outcomes) else 1


def _print_text(outcomes: list[Outcome], tables: dict[str, dict[str, list[str]]], loaded: list[Scenario],
                out: TextIO, show_coverage: bool) -> None:
    for outcome in outcomes:
        if outcome.result is None:
            print(f"FAIL {outcome.display} (cannot be loaded)", file=out)
            for diagnostic in outcome.load_errors:
                print(_indent(str(diagnostic)), file=out)
        elif not outcome.passed:
            _print_failure(outcome.result, out)
    if show_coverage:
        _print_coverage(tables, loaded, out)
    _print_summary(outcomes, out)


def _print_coverage(tables: dict[str, dict[str, list[str]]], loaded: list[Scenario], out: TextIO) -> None:
    missing = not_implemented(loaded)
    for name, rules in tables.items():
        print(f"\nrule coverage ({name}{_what(name, loaded)}):", file=out)
        width = max(len(rid) for rid in rules)
        for rid, cited in rules.items():
            shown = ", ".join(cited) if cited else f"not implemented: {missing[rid]}" if rid in missing else "none"
            print(f"  {rid:<{width}}  {shown}", file=out)
        played = [rid for rid in rules if rid not in missing]
        covered = sum(1 for rid in played if rules[rid])
        apart = [rid for rid in rules if rid in missing]
        share = f"{100 * covered / len(played):.1f}%" if played else "n/a"
        note = f" ({len(apart)} more not implemented: {', '.join(apart)})" if apart else ""
        print(f"coverage ({name}): {covered}/{len(played)} rule IDs = {share}{note}", file=out)


def not_implemented(scenarios: Sequence[Scenario]) -> dict[str, str]:
    """The rules an index marks `not_implemented` (rule ID -> why): listed apart by the coverage,
    neither covered nor uncovered, since no scenario can play them."""
    return {rid: rule.not_implemented for s in scenarios for rid, rule in s.ruleset.rules.items()
            if rule.not_implemented}


def _print_summary(outcomes: list[Outcome], out: TextIO) -> None:
    """The failed files again, one line each with the first problem, so that the end of a long run
    says what went wrong; then `N passed, M failed`."""
    failed = [o for o in outcomes if not o.passed]
    if failed:
        print("\nfailed:", file=out)
    for outcome in failed:
        problems = outcome.load_errors if outcome.result is None else outcome.result.failures
        first = problems[0] if problems else None
        where = str(first.pos) if first is not None and first.pos else outcome.display
        what = first.message if first is not None else "failed"
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        loading = "cannot be loaded: " if outcome.result is None else ""
        print(f"  {where}: {loading}{what}{more}", file=out)
    passed = len(outcomes) - len(failed)
    print(f"{passed} passed, {len(failed)} failed", file=out)


def _report(outcomes: list[Outcome], tables: dict[str, dict[str, list[str]]],
            loaded: list[Scenario]) -> dict[str, Any]:
    """The run as JSON data: every file with its problems (located), and the coverage tables."""
    files = []
    for outcome in outcomes:
        problems = ([{"at": str(d.pos) if d.pos else None, "message": d.message} for d in outcome.load_errors]
                    if outcome.result is None else
                    [{"at": str(p.pos), "message": p.message, "detail": p.detail} for p in outcome.result.failures])
        files.append({"file": outcome.display, "passed": outcome.passed, "loaded": outcome.result is not None,
                      "problems": problems})
    passed = sum(1 for o in outcomes if o.passed)
    return {"passed": passed, "failed": len(outcomes) - passed, "scenarios": files,
            "coverage": {name: _json_table(name, rules, loaded) for name, rules in tables.items()}}


def _json_table(name: str, rules: dict[str, list[str]], loaded: list[Scenario]) -> dict[str, Any]:
    missing = {rid: why for rid, why in not_implemented(loaded).items() if rid in rules}
    return {"rewritten_by_variant": bool(_what(name, loaded)),
            "covered": sum(1 for rid, c in rules.items() if c and rid not in missing),
            "rules": len(rules) - len(missing), "cited_by": rules, "not_implemented": missing}


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
