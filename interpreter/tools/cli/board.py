"""`brass board`: a picture of a position, written as SVG (and PNG when cairosvg is installed).

    brass board [RULESET] [--players N] [--seed S] --svg FILE      the start of a new game
    brass board [RULESET] --from SETUP --svg FILE                  a setup or scenario file's position
    brass board [RULESET] --load SAVE --svg FILE                   a saved game (`brass play`'s s)
    brass board [RULESET] --trace TRACE [--step N] --svg FILE      a real game after its first N steps

The position is found as `brass play --from`, `brass play --load` and `brass replay --trace` find
it; the picture is `board_svg.board_svg`. `--svg -` writes the SVG to standard output. A file is
written whole or not at all (a temporary file renamed over it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.loader import DEFAULT_RULESET, load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.files.guards import write_whole

if TYPE_CHECKING:  # the engine and the picture are imported when the command runs, not with `brass`
    from interpreter.engine.game import Game

DEFAULT_PLAYERS = 4  # a picture of the whole board: every merchant space in play


def add_commands(commands: Any) -> None:
    """Register `brass board` on the `brass` command's subparsers."""
    board = commands.add_parser("board", help="draw a position as a picture (SVG, or PNG with cairosvg)",
                                description="Draw a position of a game: the map with its tiles, links and "
                                            "merchants (of a ruleset that has them), the markets, the tracks "
                                            "and stacks, and every player's figures.")
    board.add_argument("ruleset", nargs="?", default=None,
                       help=f"ruleset folder or built-in name (default: {DEFAULT_RULESET}, or the file's)")
    board.add_argument("--players", type=int, default=None,
                       help=f"players of a new game (default {DEFAULT_PLAYERS}, or the most the ruleset allows)")
    board.add_argument("--seed", type=int, default=None, help="seed of a new game (default 0); replaces a "
                                                              "--from file's seed")
    source = board.add_mutually_exclusive_group()
    source.add_argument("--from", dest="setup", metavar="SETUP", help="the position of a setup or scenario file")
    source.add_argument("--load", metavar="SAVE", help="a saved game")
    source.add_argument("--trace", metavar="TRACE", help="a real recorded game (a trace, as brass replay reads)")
    board.add_argument("--step", type=int, default=None, metavar="N",
                       help="with --trace: the position after the first N recorded steps (0: the setup; "
                            "default: every step)")
    board.add_argument("--links-per-player", type=int, default=None, metavar="N",
                       help="with --trace: N link tiles per player instead of the ruleset's (as for brass replay)")
    board.add_argument("--svg", metavar="FILE", help="write the picture as SVG to FILE (- for standard output)")
    board.add_argument("--png", metavar="FILE", help="write it as PNG to FILE (- for standard output; needs the "
                                                     "optional package cairosvg)")
    board.set_defaults(run=run_board)


def run_board(args: argparse.Namespace) -> int:
    from interpreter.tools.board.picture import board_svg

    _check_arguments(args)
    game = position(args)
    picture = board_svg(game)
    png = svg_to_png(picture) if args.png else b""  # before writing anything: a missing cairosvg writes nothing
    outputs = [(name, data) for name, data in ((args.svg, picture.encode("utf-8")), (args.png, png)) if name]
    for name, data in outputs:
        if name == "-":
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
        else:
            write_output(Path(name), data)
    if all(name != "-" and Path(name).is_file() for name, _ in outputs):  # else the message would join the picture
        print(f"wrote {' and '.join(name for name, _ in outputs)}: {_describe(game)}")
    return 0


def _check_arguments(args: argparse.Namespace) -> None:
    if not args.svg and not args.png:
        raise BrassError("say where to write the picture: --svg FILE (or --svg - for standard output) "
                         "or --png FILE")
    if args.svg == "-" and args.png == "-":
        raise BrassError("only one of --svg and --png can be - (standard output)")
    if args.step is not None and not args.trace:
        raise BrassError("--step goes with --trace: it is the number of recorded steps to replay")
    if args.links_per_player is not None and not args.trace:
        raise BrassError("--links-per-player goes with --trace")
    if args.step is not None and args.step < 0:
        raise BrassError(f"--step must be 0 or more, not {args.step}")
    if args.players is not None and (args.load or args.trace):
        raise BrassError("--players is for a new game or a --from file: a saved game or a trace has its own")
    if args.seed is not None and (args.load or args.trace):
        raise BrassError("--seed is for a new game or a --from file: a saved game or a trace has its own")
    for output in (args.svg, args.png):
        if output and output != "-" and not Path(output).resolve().parent.is_dir():
            raise BrassError(f"cannot write {output}: the folder {Path(output).parent} does not exist")
        if output and output != "-" and Path(output).is_dir():
            raise BrassError(f"cannot write {output}: it is a folder")


def position(args: argparse.Namespace) -> Game:
    """The game whose position the arguments name."""
    if args.setup:
        from interpreter.tools.scenarios.scenario import game_from_setup_file

        return game_from_setup_file(args.setup, args.ruleset, args.players, args.seed)
    if args.load:
        return _from_save(args.load, args.ruleset)
    if args.trace:
        return _from_trace(args.trace, args.ruleset, args.step, args.links_per_player)
    from interpreter.engine.game import Game

    ruleset = load_ruleset(args.ruleset or DEFAULT_RULESET)
    players = args.players if args.players is not None else _default_players(ruleset)
    if players not in ruleset.players:
        raise BrassError(f"{ruleset.title} is played by {', '.join(map(str, ruleset.players))} players, "
                         f"not {players}")
    return Game.new(ruleset, players, args.seed or 0)


def _default_players(ruleset: Ruleset) -> int:
    return DEFAULT_PLAYERS if DEFAULT_PLAYERS in ruleset.players else max(ruleset.players)


def _from_save(path: str, ruleset_name: str | None) -> Game:
    """As `brass replay`: the ruleset named on the command line, else the one the file names."""
    from interpreter.engine.errors import GameFileError
    from interpreter.tools.files.guards import parse_json, read_text
    from interpreter.tools.files.saves import parse_saved

    text = read_text(path, str(path), GameFileError)
    data = parse_json(text, str(path), GameFileError)
    named = data.get("ruleset") if isinstance(data, dict) else None
    ruleset = load_ruleset(ruleset_name or (named if isinstance(named, str) else None) or DEFAULT_RULESET)
    return parse_saved(ruleset, text, str(path))


def _from_trace(path: str, ruleset_name: str | None, step: int | None, links_per_player: int | None) -> Game:
    """The trace replayed through the engine up to `step` (every step when None); a replay that
    departs from the record before then is an error naming the step and what differs."""
    from interpreter.tools.trace.importer import load_trace, replay_trace, ruleset_with_links

    base = ruleset_name or DEFAULT_RULESET
    ruleset = ruleset_with_links(base, links_per_player) if links_per_player is not None else load_ruleset(base)
    trace = load_trace(path)
    steps = trace["steps"]
    wanted = len(steps) if step is None else step
    if wanted > len(steps):
        raise BrassError(f"{path} records {len(steps)} steps: --step must be 0 to {len(steps)}, not {wanted}")
    result = replay_trace(ruleset, {**trace, "steps": steps[:wanted]}, Path(path).name, source=path)
    if result.steps < wanted or result.game is None:
        first = result.differences[0].describe() if result.differences else "the replay stopped"
        raise BrassError(f"{path}: our engine departs from the record after {result.steps} of the {wanted} "
                         f"steps: {first}")
    return result.game


def svg_to_png(picture: str) -> bytes:
    """The picture as PNG, through cairosvg (an optional extra: `pip install 'brass-rules[png]'`)."""
    try:
        import cairosvg
    except ImportError:
        raise BrassError("--png needs the optional package cairosvg (pip install 'brass-rules[png]'); "
                         "--svg works without it") from None
    except OSError as problem:  # cairosvg is there but the system's cairo library is not
        raise BrassError(f"--png needs the cairo library of the system: {problem}") from None
    png: bytes = cairosvg.svg2png(bytestring=picture.encode("utf-8"))
    return png


def write_output(target: Path, data: bytes) -> None:
    """Write the picture whole or not at all (`guards.write_whole`); a problem is one clear line."""
    try:
        write_whole(target, data)
    except BrokenPipeError:
        raise  # the reader has gone (`--svg /dev/stdout | head`): brass ends quietly
    except OSError as problem:
        raise BrassError(f"cannot write {target}: {problem.strerror or problem}") from None


def _describe(game: Game) -> str:
    state = game.state
    era = game.ruleset.eras[state.era_index].name
    when = "the game is over" if game.is_over else f"{era}, round {state.round}"
    return f"{game.ruleset.title}, {len(state.players)} players, {when}"
