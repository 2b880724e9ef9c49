"""`brass serve [--port P] [--host ADDRESS] [--allowed-host NAME]… [--db PATH]`: the local web app
(docs/web.md), served by uvicorn; its rooms are kept in an SQLite file (`--db`, web/store.py). Safe
by default: it listens on 127.0.0.1 and answers only to localhost, IP addresses and the names
allowed (web/guard.py); listening beyond this machine prints a warning.

The web framework is the optional extra `[web]` (Starlette and uvicorn); without it the command
says which extra to install. The CLI imports this module for `add_commands` only: nothing here
imports the framework until the server starts, so every other command starts as fast as before.
"""

from __future__ import annotations

import argparse
import ipaddress
import re
import sys
from pathlib import Path

from interpreter.ruleset.errors import BrassError
from interpreter.tools.web.store import IN_MEMORY

DEFAULT_PORT = 8765
DEFAULT_DB = "brass-rooms.sqlite3"
# Seconds a stopping server (Ctrl-C, SIGTERM) waits for the requests in flight before it cancels
# them: a bot's decision in a thread of its own (web/work.py) is then left to die with the process.
STOP_GRACE = 2
HOST_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*")
REPO = Path(__file__).resolve().parents[3]
MISSING_EXTRA = ("brass serve needs the web extra (Starlette and uvicorn): pip install 'brass-rules[web]' "
                 "(from a source tree: pip install '.[web]')")


def add_commands(commands: argparse._SubParsersAction) -> None:
    serve = commands.add_parser("serve", help="a local web app: play against bots, replay games and traces, "
                                              "open scenarios")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT})")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: only this machine can connect; "
                            "0.0.0.0: anyone on the network can play and read the games)")
    serve.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                       help="a name of this machine the page may be opened by, e.g. on a LAN (repeatable; "
                            "localhost and IP addresses are always allowed)")
    serve.add_argument("--bot-seconds", type=float, default=None, metavar="S",
                       help="wall clock the bots of one request may use before the page asks again (default 2)")
    serve.add_argument("--db", default=DEFAULT_DB, metavar="PATH",
                       help=f"the SQLite file the rooms are kept in, so that a restart resumes them "
                            f"(default {DEFAULT_DB} in the current folder; {IN_MEMORY}: none, rooms end with "
                            "the server)")
    serve.add_argument("--max-rooms-per-client", type=int, default=20, metavar="N",
                       help="rooms not yet over that one address may have (default 20; more are refused with 429)")
    serve.add_argument("--traces", nargs="*", metavar="DIR", default=None,
                       help="folders whose *.trace.json files the page may replay (default: ../shared/real-games)")
    serve.add_argument("--scenarios", nargs="*", metavar="DIR", default=None,
                       help="folders whose scenario and setup files the page may open (default: ./scenarios)")
    serve.add_argument("--reports", nargs="*", metavar="DIR", default=[],
                       help="folders whose --out files of `brass simulate VARIANT --against BASE` the page shows "
                            "as balance reports (/reports?path=FILE, as `brass report` writes them)")
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
    if args.bot_seconds is not None and not 0 < args.bot_seconds <= 3600:
        raise BrassError(f"--bot-seconds must be more than 0 and at most 3600, not {args.bot_seconds}")
    if not 1 <= args.max_rooms_per_client <= 100_000:
        raise BrassError(f"--max-rooms-per-client must be from 1 to 100000, not {args.max_rooms_per_client}")
    try:
        import uvicorn

        from interpreter.tools.web.api import BOT_SECONDS, create_app
        from interpreter.tools.web.sources import Folders
    except ImportError as error:
        raise BrassError(f"{MISSING_EXTRA} [{error}]") from None
    allowed = allowed_hosts(args.host, args.allowed_host)
    traces, scenarios = default_folders(args.traces, args.scenarios)
    folders = Folders.of(traces, scenarios, args.reports)
    reports = f"; reports from {', '.join(map(str, folders.reports))}" if folders.reports else ""
    print(f"brass serve: http://{args.host}:{args.port}/ (Ctrl-C stops); traces from "
          f"{', '.join(map(str, folders.traces)) or 'nowhere'}; scenarios from "
          f"{', '.join(map(str, folders.scenarios)) or 'nowhere'}; rooms kept in {rooms_place(args.db)}{reports}",
          flush=True)
    if not loopback(args.host):
        print(f"brass serve: warning: listening on {args.host}, not only on this machine: anyone on the network "
              "who can reach it can play and read every game on this server that is not in a room, and any room "
              "whose link they have (there is no TLS: a link can be read on the way); stop it when the playtest "
              "is over", file=sys.stderr, flush=True)
    try:
        app = create_app(folders, allowed, BOT_SECONDS if args.bot_seconds is None else args.bot_seconds,
                         db=args.db, max_rooms_per_client=args.max_rooms_per_client)
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                    timeout_graceful_shutdown=STOP_GRACE)
    except SystemExit as stop:  # uvicorn exits when it cannot listen (the port is taken …)
        raise BrassError(f"the server could not start on {args.host}:{args.port} (is the port in use?)") from stop
    return 0


def rooms_place(db: str) -> str:
    """Where the rooms are kept, for the first line the server prints."""
    return "memory only (gone when the server stops)" if db == IN_MEMORY else str(Path(db).resolve())


def allowed_hosts(host: str, names: list[str]) -> list[str]:
    """The names given with --allowed-host, and --host's own if it is a name: the Host headers the
    server answers to besides localhost and IP addresses. A name is letters, digits, `-` and dots
    (no port: any port goes, no `*`: each name is given)."""
    for name in names:
        if not HOST_NAME.fullmatch(name):
            raise BrassError(f"--allowed-host {name!r} is not a host name (letters, digits, '-' and dots, "
                             "no port, no wildcard), e.g. --allowed-host my-laptop.local")
    bound = [] if _is_address(host) or not HOST_NAME.fullmatch(host) else [host]
    return list(dict.fromkeys(name.lower() for name in [*names, *bound]))


def loopback(host: str) -> bool:
    """Whether listening on `host` keeps the server to this machine (127.0.0.1, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
