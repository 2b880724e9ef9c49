"""The designer's commands of `brass`: `schema`, `lint` and `check --strict`.

    brass schema [--variant] [--out FILE]   the JSON Schema of a ruleset file, for editors
    brass lint [RULESET] [--scenarios PATH…] likely mistakes, as FILE:LINE:COL: warning CODE: message
    brass check RULESET --strict            as check, and every lint warning is an error (exit 1)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.loader import DEFAULT_RULESET, load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.files.guards import write_whole

__all__ = ["add_commands", "schema_text", "strict_findings"]


def add_commands(commands: Any) -> None:
    """Add `schema` and `lint` to the sub-commands of `brass`."""
    schema = commands.add_parser("schema", help="print the JSON Schema of ruleset files, for editors")
    schema.add_argument("--variant", action="store_true",
                        help="the schema of a variant's files (a ruleset that extends another): partial records "
                             "and the $remove/$replace/$patch directives")
    schema.add_argument("--out", metavar="FILE", help="write it to FILE instead of printing it")
    schema.set_defaults(run=run_schema)

    lint = commands.add_parser("lint", help="warn about likely mistakes in a ruleset that loads")
    lint.add_argument("ruleset", nargs="?", default=DEFAULT_RULESET,
                      help=f"ruleset folder or built-in name (default: {DEFAULT_RULESET})")
    lint.add_argument("--scenarios", nargs="*", metavar="PATH", default=None,
                      help="folders of scenarios that may verify a rule (default: the scenarios folder beside "
                           "the rulesets folder)")
    lint.set_defaults(run=run_lint)


def schema_text(variant: bool = False) -> str:
    """The schema as `brass schema` prints it (and as docs/editor/ holds it)."""
    from interpreter.tools.authoring.json_schema import ruleset_json_schema
    from interpreter.tools.authoring.schema_docs import key_docs

    return json.dumps(ruleset_json_schema(variant=variant, describe=key_docs()), indent=1, ensure_ascii=False) + "\n"


def run_schema(args: argparse.Namespace) -> int:
    text = schema_text(args.variant)
    if args.out:
        try:  # whole or not at all: a full disk never leaves half a schema, and is said naming the file
            write_whole(Path(args.out), text.encode("utf-8"))
        except BrokenPipeError:
            raise  # the reader has gone (`--out /dev/stdout | head`): brass ends quietly
        except OSError as problem:
            raise BrassError(f"cannot write {args.out}: {problem.strerror or problem}") from None
    else:
        sys.stdout.write(text)
    return 0


def run_lint(args: argparse.Namespace) -> int:
    """Exit 0 when there is nothing to say, 1 when there are warnings (like any linter)."""
    from interpreter.tools.authoring.lint import lint

    ruleset = load_ruleset(args.ruleset)
    findings = lint(ruleset, None if args.scenarios is None else [Path(p) for p in args.scenarios])
    for finding in findings:
        print(finding)
    if findings:
        print(f"{len(findings)} warning{'s' if len(findings) != 1 else ''}", file=sys.stderr)
    return 1 if findings else 0


def strict_findings(ruleset: Ruleset) -> int:
    """`check --strict`: every lint warning printed as an error; the number of them."""
    from interpreter.tools.authoring.lint import lint

    findings = lint(ruleset)
    for finding in findings:
        print(str(finding).replace(": warning ", ": error ", 1), file=sys.stderr)
    if findings:
        print(f"{len(findings)} error{'s' if len(findings) != 1 else ''} (lint warnings, --strict)", file=sys.stderr)
    return len(findings)
