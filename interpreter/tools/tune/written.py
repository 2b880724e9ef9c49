"""The tuned parameters as a ruleset reads them: a `bots:` section, printed to paste, or written as
`bots.yaml` in the ruleset's own folder (--write), with the run's record (`tuned:`: players, seed,
games, result and verdict), so that a comparison can tell parameters tuned for the ruleset from
borrowed ones.

Written are the parameters the run searched (each was tuned, even where it ended at its default or
kept its starting value: a later change of the base ruleset's values must not take its place) and
the others that differ from the defaults, so a later change of a default reaches a ruleset that did
not tune that parameter. When the tuned parameters were not shown better, the starting ones are
written with a `kept` record. A `bots:` section already in another file of the folder would be a
second one: the run says so and writes nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import yaml

from interpreter.ruleset.bot_params import BotParams, Tuned, to_data
from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.model import Ruleset
from interpreter.tools.files.guards import write_whole

FILE = "bots.yaml"
HEAD = "# The bots' parameters for this ruleset, written by `brass tune` (docs/bots.md, \"Tuning\").\n"


def bots_yaml(params: BotParams, record: Tuned, searched: Iterable[str] = ()) -> str:
    """The `bots:` section that sets `params` (the heuristic parameters `searched`, and the others
    where they differ from the defaults), after the run's record."""
    section: dict[str, object] = {"tuned": record.to_data()}
    changed = to_data(params)
    pinned = {name: getattr(params.heuristic, name) for name in searched}
    if pinned:
        changed["heuristic"] = {**changed.get("heuristic", {}), **pinned}
    section.update(changed)
    return yaml.safe_dump({"bots": section}, sort_keys=False, default_flow_style=False)


def write_bots(ruleset: Ruleset, text: str, about: Iterable[str] = ()) -> Path:
    """Write `bots.yaml` (`text`: a `bots_yaml` section, after the comment lines `about`: the run) in
    the ruleset's own folder; BrassError when
    it is not a folder this user may write, or another of its files already has a `bots:` section."""
    if not ruleset.folders:
        raise BrassError(f"ruleset {ruleset.name} has no folder to write {FILE} in; paste the printed section")
    folder = Path(ruleset.folders[-1])
    if not os.access(folder, os.W_OK):
        raise BrassError(f"{folder} is not a folder you may write; paste the printed section instead")
    target = folder / FILE
    document = ruleset.source
    written = document is not None and isinstance(document.data, dict) and "bots" in document.data
    where = document.pos(("bots",), key=True) if written and document is not None else None
    if where is not None and Path(where.file).resolve().parent == folder.resolve() and Path(where.file).name != FILE:
        raise BrassError(f"{where}: this folder already sets bots: here; put the printed section there instead")
    comment = "".join(f"# {line}\n" for line in about)
    write_whole(target, (HEAD + comment + text).encode())
    return target
