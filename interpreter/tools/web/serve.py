"""`brass serve [--port P]`: the local web app (docs/web.md), served by uvicorn.

The web framework is the optional extra `[web]` (Starlette and uvicorn); without it the command
says which extra to install. The CLI imports this module for `add_commands` only: nothing here
imports the framework until the server starts, so every other command starts as fast as before.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from interpreter.ruleset.errors import BrassError

DEFAULT_PORT = 8765
REPO = Path(__file__).resolve().parents[3]
MISSING_EXTRA = ("brass serve needs the web extra (Starlette and uvicorn): pip install 'brass-rules[web]' "
                 "(from a source tree: pip install '.[web]')")


def add_commands(commands: argparse._SubParsersAction) -> None:
    serve = commands.add_parser("serve", help="a local web app: play against bots, replay games and traces, "
                                              "open scenarios")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT})")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: only this machine can connect)")
    serve.add_argument("--traces", nargs="*", metavar="DIR", default=None,
                       help="folders whose *.trace.json files the page may replay (default: ../shared/real-games)")
    serve.add_argument("--scenarios", nargs="*", metavar="DIR", default=None,
                       help="folders whose scenario and setup files the page may open (default: ./scenarios)")
    serve.set_defaults(run=run_serve)


def default_folders(traces: list[str] | None, scenarios: list[str] | None) -> tuple[list[str], list[str]]:
    """The folders given, else the usual places: beside the current folder and beside the source tree."""
    if traces is None:
        traces = [str(Path("..", "shared", "real-games")), str(REPO.parent / "shared" / "real-games")]
    if scenarios is None:
        scenarios = ["scenarios", str(REPO / "scenarios")]
    return traces, scenarios


def run_serve(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise BrassError(f"--port must be from 1 to 65535, not {args.port}")
    try:
        import uvicorn

        from interpreter.tools.web.api import create_app
        from interpreter.tools.web.sources import Folders
    except ImportError as error:
        raise BrassError(f"{MISSING_EXTRA} [{error}]") from None
    traces, scenarios = default_folders(args.traces, args.scenarios)
    folders = Folders.of(traces, scenarios)
    print(f"brass serve: http://{args.host}:{args.port}/ (Ctrl-C stops); traces from "
          f"{', '.join(map(str, folders.traces)) or 'nowhere'}; scenarios from "
          f"{', '.join(map(str, folders.scenarios)) or 'nowhere'}", flush=True)
    try:
        uvicorn.run(create_app(folders), host=args.host, port=args.port, log_level="warning")
    except SystemExit as stop:  # uvicorn exits when it cannot listen (the port is taken …)
        raise BrassError(f"the server could not start on {args.host}:{args.port} (is the port in use?)") from stop
    return 0
