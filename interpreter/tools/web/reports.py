"""The balance reports `brass serve` shows: each `--out` file of `brass simulate VARIANT --against
BASE` found below the folders given with `--reports`, as the very page `brass report --from` writes
(simulate/report.py reads the games, simulate/report_html.py draws the page).

The page uses the base's other games as a control, as `brass report --base-from` does, when other
files below the reports folders hold games of the base as it is now with the same players and bots
(a run of the base alone, or the base side of another comparison; seeds the comparison plays itself
are left out): the page says so, and the command it prints to reproduce it names those files.

A file names its two rulesets as the command line did. A built-in name is loaded as such; any
other is a ruleset folder of that name beside the file, which must lie below a reports folder too
(so a file cannot make the server read a folder it was not given).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import rulesets
from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.simulate.compare import PRIMARY
from interpreter.tools.simulate.games import Summary
from interpreter.tools.simulate.report import Origin, brass_version, first_run, report_from_file
from interpreter.tools.simulate.report_html import report_page
from interpreter.tools.simulate.store import read_base_games
from interpreter.tools.web.sessions import WebError
from interpreter.tools.web.sources import Folders, inside

PATTERN = "*.jsonl"


def report_files(folders: Folders) -> list[dict[str, Any]]:
    """Every comparison file below the reports folders, with what it compares (a file that is not
    one is listed with the reason, so that a designer sees why their file is missing)."""
    found: list[dict[str, Any]] = []
    for root in folders.reports:
        for path in sorted(p for p in root.rglob(PATTERN) if p.is_file()):
            try:
                run = first_run(path)
            except BrassError as error:
                found.append({"path": str(path), "error": str(error)})
                continue
            if run.get("against") is None:
                found.append({"path": str(path), "error": "a single run, not a comparison"})
                continue
            found.append({"path": str(path), "variant": run.get("ruleset"), "base": run.get("against")})
    return found


def report_html(folders: Folders, value: Any) -> str:
    """The report page of the comparison file `value` names (below a reports folder)."""
    path = inside(value, folders.reports, "report")
    try:
        run = first_run(path)
        if run.get("against") is None:
            raise WebError(422, f"{path} holds a single run of {run.get('ruleset')}, not a comparison of a variant "
                                f"against its base (brass simulate VARIANT --against BASE --out FILE)")
        variant, base = (_ruleset(run.get(role), path, folders.reports) for role in ("ruleset", "against"))
        origin = Origin(variant.name, base.name, path, PRIMARY, brass_version())
        report, _ = report_from_file(path, (variant, base), origin)
        control = _base_files(folders, path, report.sides["ruleset"].summary, base)
        if control:
            report, _ = report_from_file(path, (variant, base), replace(origin, base_from=control))
    except BrassError as error:
        raise WebError(422, str(error)) from None
    return report_page(report)


def _base_files(folders: Folders, path: Path, compared: Summary, base: Ruleset) -> tuple[Path, ...]:
    """The other files below the reports folders with games of `base` a control can use (none when
    they hold fewer than 2 in all: a control needs 2 or more)."""
    played = {game.seed for game in compared.games}
    found: list[Path] = []
    seeds: set[int] = set()
    for root in folders.reports:
        for other in sorted(p for p in root.rglob(PATTERN) if p.is_file() and p.resolve() != path.resolve()):
            try:
                games = read_base_games([other], base, compared.players, compared.bots, played)
            except (BrassError, KeyError, TypeError, ValueError):
                continue  # not the base's games with these players and bots, or no run at all
            found.append(other)
            seeds.update(game.seed for game in games)
    return tuple(found) if len(seeds) >= 2 else ()


def _ruleset(name: Any, path: Path, roots: list[Path]) -> Ruleset:
    if not isinstance(name, str) or not name:
        raise WebError(422, f"{path} names no ruleset on its first line: not an --out file of brass simulate")
    if name in rulesets.builtin_names():
        return load_ruleset(name)
    folder = (path.parent / name).resolve()
    if not folder.is_dir() or not any(folder.is_relative_to(root) for root in roots):
        raise WebError(422, f"{path} compares {name!r}, which is neither a built-in ruleset nor a ruleset folder "
                            f"beside the file below a reports folder")
    return load_ruleset(str(folder))
