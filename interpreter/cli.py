"""The `brass` command line.

    brass check [RULESET]          validate a ruleset; list every error as FILE:LINE:COL: message
    brass show [RULESET] [--json]  print the fully resolved ruleset (after `extends`)

RULESET is a folder holding a ruleset.yaml or the name of a built-in ruleset; it
defaults to the built-in Brass: Birmingham. Bad input never produces a Python
traceback: every error the project knows about is printed with its location, and
anything unexpected is reported as an internal error (run with BRASS_DEBUG=1 to
see the traceback).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from typing import Any, Sequence

import yaml

from interpreter.errors import BrassError, RulesetError
from interpreter.loader import DEFAULT_RULESET, load_ruleset
from interpreter.model import Ruleset


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except RulesetError as error:
        _print_errors(error)
        return 1
    except BrassError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # noqa: BLE001 - the last guard against a traceback for the user
        if os.environ.get("BRASS_DEBUG"):
            traceback.print_exc()
        print(f"internal error: {type(error).__name__}: {error} (this is a bug in brass; "
              "set BRASS_DEBUG=1 to see the traceback)", file=sys.stderr)
        return 3


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="brass", description="A rules interpreter for Brass: Birmingham.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check", help="validate a ruleset and print a summary")
    _ruleset_argument(check)
    check.set_defaults(run=run_check)

    show = commands.add_parser("show", help="print the fully resolved ruleset")
    _ruleset_argument(show)
    show.add_argument("--json", action="store_true", help="print JSON instead of YAML")
    show.set_defaults(run=run_show)
    return parser


def _ruleset_argument(command: argparse.ArgumentParser) -> None:
    command.add_argument("ruleset", nargs="?", default=DEFAULT_RULESET,
                         help=f"ruleset folder or built-in name (default: {DEFAULT_RULESET})")


def _print_errors(error: RulesetError) -> None:
    for diagnostic in error.diagnostics:
        print(diagnostic, file=sys.stderr)
    count = len(error.diagnostics)
    print(f"{count} error{'s' if count != 1 else ''}", file=sys.stderr)


def run_check(args: argparse.Namespace) -> int:
    ruleset = load_ruleset(args.ruleset)
    print(summary(ruleset))
    return 0


def summary(ruleset: Ruleset) -> str:
    """A few lines that let a designer see at a glance what the ruleset holds."""
    kinds: dict[str, int] = {}
    for location in ruleset.locations.values():
        kinds[location.kind] = kinds.get(location.kind, 0) + 1
    links = ruleset.links.values()
    tiles = ruleset.tiles_per_player()
    lines = [
        f"{ruleset.title} ({ruleset.name} {ruleset.version}): OK",
        f"  extends:    {' <- '.join(os.path.basename(f) for f in ruleset.folders)}",
        f"  players:    {', '.join(map(str, ruleset.players))}",
        f"  locations:  {len(ruleset.locations)} ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))})",
        f"  slots:      {len(ruleset.slots)}",
        f"  links:      {len(ruleset.links)} ({sum(k.canal for k in links)} canal, {sum(k.rail for k in links)} rail)",
        f"  tiles:      {sum(tiles.values())} per player ({', '.join(f'{n} {i}' for i, n in tiles.items())})",
        f"  deck:       {', '.join(f'{ruleset.deck_size(p)} cards at {p}p' for p in ruleset.players)}"
        f" + {sum(w.count for w in ruleset.wild_cards.values())} wild",
        f"  eras:       {', '.join(e.name for e in ruleset.eras)}",
        f"  actions:    {', '.join(ruleset.actions)}",
        f"  rules:      {len(ruleset.rules)} rule IDs in the index",
    ]
    return "\n".join(lines)


def run_show(args: argparse.Namespace) -> int:
    ruleset = load_ruleset(args.ruleset)
    data = _plain(ruleset.data)
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100), end="")
    return 0


def _plain(value: Any) -> Any:
    """Resolved data with mapping keys in a stable (file) order, ready to print."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


if __name__ == "__main__":
    sys.exit(main())
