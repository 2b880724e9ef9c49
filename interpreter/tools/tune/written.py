"""The tuned parameters as a ruleset reads them: a `bots:` section, printed to paste, or written as
`bots.yaml` in the ruleset's own folder (--write).

Only the values that differ from the defaults are written, so a later change of a default reaches a
ruleset that did not tune that parameter. A `bots:` section already in another file of the folder
would be a second one: the run says so and writes nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

import yaml

from interpreter.ruleset.bot_params import BotParams, to_data
from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.model import Ruleset
from interpreter.tools.files.guards import write_whole

FILE = "bots.yaml"
HEAD = "# The bots' parameters for this ruleset, written by `brass tune` (docs/bots.md, \"Tuning\").\n"


def bots_yaml(params: BotParams) -> str:
    """The `bots:` section that sets `params` (only what differs from the defaults)."""
    return yaml.safe_dump({"bots": to_data(params)}, sort_keys=False, default_flow_style=False)


def write_bots(ruleset: Ruleset, params: BotParams) -> Path:
    """Write `bots.yaml` in the ruleset's own folder; BrassError when it is not a folder this user
    may write, or another of its files already has a `bots:` section."""
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
    write_whole(target, (HEAD + bots_yaml(params)).encode())
    return target
