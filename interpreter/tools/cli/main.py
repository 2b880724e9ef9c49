"""The `brass` command line.

    brass check [RULESET]          validate a ruleset; list every error as FILE:LINE:COL: message
    brass show [RULESET] [--json]  print the fully resolved ruleset (after `extends`)
    brass simulate [RULESET] --players N --games K --seed S [--seats BOT,...] [--json] [--check]
                   [--against BASE]
                                   play K games between bots; print statistics (with BASE: the same
                                   games under both, each difference with its 95% interval and a verdict)
    brass play [RULESET] --players N --seed S --seats human,greedy,... [--load FILE] [--save FILE]
                                   play at the terminal against bots
    brass play [RULESET] --from SETUP.yaml [--seats ...]
                                   play from a chosen position (a scenario's given; docs/scenarios.md)
    brass replay RECORD [--step]   replay a saved game move by move
    brass replay --trace FILE [--ruleset R] [--links-per-player N]
                                   replay a real recorded game (brass-birmingham-trace/v1) and compare
                                   every step with the record; print "0 differences" and the scores
    brass replay --trace DIR_OR_FILE... [--ruleset R] [--links-per-player N] [--json]
                                   replay many (a folder: every *.trace.json in it); a table of the
                                   games, the actions matched and the first differences by what differs
    brass diff A B [--json]        what ruleset B changes against ruleset A (values, conditions,
                                   entries added or removed), each with its FILE:LINE:COL
    brass explain SETUP.yaml ACTION [RULESET]
                                   why an action is illegal in a position (every failed precondition
                                   with its rule), or what it does when it is legal
    brass rule ID... [--ruleset R] [--scenarios PATH...]
                                   a rule's text and source, where the ruleset cites it (FILE:LINE:COL),
                                   and the scenarios that verify it (an ID prefix such as R-LINK lists several)
    brass board [RULESET] [--players N --seed S | --from SETUP | --load SAVE | --trace FILE [--step N]]
                --svg FILE [--png FILE]  a picture of a position (docs/board.md)
    brass serve [--port P] [--host H] [--traces DIR...] [--scenarios DIR...]
                                   a local web app: play, replay games and traces, scenarios (docs/web.md)
    brass report VARIANT --against BASE [--from RUNS.jsonl | --players N --games K --bot B --seed S --jobs N]
                 --html FILE       a balance report, one HTML page (docs/simulate.md)
    brass verify PATH... [--rule ID]... [--coverage] [--json] [--check]
                                   run scenario files (folders: every *.yaml below); print failures,
                                   rule coverage and "N passed, M failed"
    brass verify PATH... --mutate [--ruleset R] [--jobs N | --ray [ADDRESS]] [--sample EVERY]
              [--only PATTERN] [--budget TIME] [--inherited] [--equivalents FILE] [--json]
                                   mutation testing: which small changes of the ruleset no scenario notices

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
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from interpreter.ruleset.errors import BrassError, RulesetError
from interpreter.ruleset.loader import DEFAULT_RULESET, load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.authoring.command import add_commands as add_designer_commands
from interpreter.tools.authoring.command import strict_findings
from interpreter.tools.cli.board import add_commands as board_commands
from interpreter.tools.cli.report import report_commands
from interpreter.tools.cli.tune import tune_commands
from interpreter.tools.cli.verify import verify_commands
from interpreter.tools.files.guards import ENGINE_SLIPS, forgiving_streams, move_problem, parse_action_text, slip_text
from interpreter.tools.web import serve as web_app


def main(argv: Sequence[str] | None = None) -> int:
    forgiving_streams()
    try:
        status = _main(argv)
        sys.stdout.flush()  # a full disk shows here when the whole output fitted in the buffer
        return status
    except RulesetError as error:
        _print_errors(error)
        return 1
    except BrassError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `brass show | head`: the reader has gone, nothing to report
        sys.stderr.close()
        return 0
    except OSError as error:
        return _os_error(error)
    except Exception as error:  # the last guard against a traceback for the user
        if os.environ.get("BRASS_DEBUG"):
            traceback.print_exc()
        print(f"internal error: {type(error).__name__}: {error} (this is a bug in brass; "
              "set BRASS_DEBUG=1 to see the traceback)", file=sys.stderr)
        return 3


INTERRUPTED = "brass: interrupted (Ctrl-C)"  # also in cli/entry.py, which must not import this module early


def _main(argv: Sequence[str] | None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.version:
        print(f"brass {_version()}")
        return 0
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    status: int = args.run(args)
    return status


def _os_error(error: OSError) -> int:
    """An OSError no command turned into its own message. Without a file name it comes from
    writing the output (a full disk, a vanished terminal): say so in one line, status 1."""
    if error.filename is None:
        _discard_output()
        print(f"error: cannot write the output: {error.strerror or error}", file=sys.stderr)
        return 1
    print(f"error: {error.strerror or error}: {error.filename}", file=sys.stderr)
    return 1


def _discard_output() -> None:
    """Point standard output at the null device, so that Python's own flush at exit, which would
    fail the same way and print a traceback-like message, writes nowhere instead."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # a stream without a file descriptor (tests)
        pass


def _version() -> str:
    """The version of the installed distribution (its metadata, not a copy kept in the code)."""
    from importlib import metadata  # only here: importing it costs every brass command ~50 ms
    try:
        return metadata.version("brass-rules")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (brass-rules is not installed)"


class _ArgumentParser(argparse.ArgumentParser):
    def _print_message(self, message: str, file: Any = None) -> None:
        """As argparse's, but a failed write (--help on a full disk) is reported, not silently dropped."""
        if message:
            stream = file or sys.stderr
            stream.write(message)
            stream.flush()


def _parser() -> argparse.ArgumentParser:
    parser = _ArgumentParser(prog="brass",
                             description="A rules interpreter for the Brass board games, played from YAML rulesets.")
    parser.add_argument("--version", action="store_true", help="print the version of brass and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check", help="validate a ruleset and print a summary")
    _ruleset_argument(check)
    check.add_argument("--strict", action="store_true", help="also run `brass lint`; every warning is an error")
    check.set_defaults(run=run_check)
    add_designer_commands(commands)  # schema, lint (authoring/command.py)

    show = commands.add_parser("show", help="print the fully resolved ruleset")
    _ruleset_argument(show)
    show.add_argument("--json", action="store_true", help="print JSON instead of YAML")
    show.set_defaults(run=run_show)

    simulate = commands.add_parser("simulate", help="play many games between bots and print statistics")
    _ruleset_argument(simulate)
    simulate.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    simulate.add_argument("--games", type=_positive, default=10, help="number of games (default 10)")
    simulate.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed + i")
    simulate.add_argument("--bot", "--seats", dest="bot", default=None,
                          help="a bot for every seat (random, greedy...), or one per seat: greedy,random,... "
                               "(default heuristic with --against, each side with its ruleset's parameters; "
                               "random otherwise)")
    simulate.add_argument("--json", action="store_true", help="print machine-readable JSON (reproducible)")
    simulate.add_argument("--timings", action="store_true", help="add seconds per game to --json")
    simulate.add_argument("--check", action="store_true", help="check the invariants after every decision")
    simulate.add_argument("--against", metavar="BASE",
                          help="also play the same games (seeds, bots rotated through the seats) with ruleset "
                               "BASE; print each figure's difference with its 95%% interval and a verdict")
    simulate.add_argument("--primary", metavar="FIGURE",
                          help="with --against: the figure judged alone at 5%% (default vp_per_player); every "
                               "other figure is judged with Holm's correction over all of them")
    simulate.add_argument("--base-from", action="append", metavar="FILE",
                          help="with --against: the --out file of earlier games of BASE (its own run, or any "
                               "comparison against it; repeatable): its games of other seeds give the base's level "
                               "and the paired games serve as a control, which removes about twice the variance "
                               "pairing alone does")
    simulate.add_argument("--until-decided", action="store_true",
                          help="with --against: play batches of --games until the primary figure differs (or, "
                               "with --margin, is the same within it) by an always-valid 95%% interval")
    simulate.add_argument("--max-games", type=_positive, default=400, metavar="N",
                          help="with --until-decided: stop undecided after N games (default 400)")
    simulate.add_argument("--margin", type=float, default=None, metavar="M",
                          help="with --until-decided: also stop when the primary figure's difference is "
                               "shown smaller than M (equivalence)")
    simulate.add_argument("--jobs", type=int, default=1, metavar="N",
                          help="play in N worker processes (0: one per core); the results do not change")
    simulate.add_argument("--ray", nargs="?", const="", metavar="ADDRESS",
                          help="play as Ray tasks: a local Ray instance, or the cluster at ADDRESS (auto, HOST:PORT)")
    simulate.add_argument("--out", metavar="FILE", help="append each finished game to FILE (JSON lines); "
                                                        "the summary is read from it")
    simulate.add_argument("--resume", action="store_true", help="finish the run saved in --out: play only its "
                                                                "missing seeds")
    simulate.add_argument("--plot", metavar="FILE", help="draw VP per seat, the action mix and game length "
                                                         "into FILE (.png, .svg, .pdf; needs brass-rules[plot])")
    simulate.set_defaults(run=run_simulate)

    play = commands.add_parser("play", help="play a game at the terminal against bots")
    play.add_argument("ruleset", nargs="?", default=None,
                      help=f"ruleset folder or built-in name (default: {DEFAULT_RULESET}, or the --from file's)")
    play.add_argument("--players", type=int, default=None,
                      help="number of players (default: one a --seats entry, else 2; --load or --from decide)")
    play.add_argument("--seed", type=int, default=None,
                      help="seed of the game (default 0; a --load file decides; overrides a --from file's seed)")
    play.add_argument("--from", dest="setup", metavar="SETUP",
                      help="start from the position of a setup file: ruleset, players, seed, given "
                           "(a scenario file works too; docs/scenarios.md)")
    play.add_argument("--seats", help="who plays each seat, comma-separated: human or a bot (random, greedy, "
                                      "heuristic, search, search:400, search:2s; docs/bots.md) "
                                      "(default: human,greedy,...)")
    play.add_argument("--load", metavar="FILE", help="resume a saved game")
    play.add_argument("--save", metavar="FILE", help="where `s` saves the game (default: the --load file)")
    play.set_defaults(run=run_play)

    diff = commands.add_parser("diff", help="what ruleset B changes against ruleset A")
    diff.add_argument("base", help="ruleset A, the one compared against (folder or built-in name)")
    diff.add_argument("ruleset", help="ruleset B, the one whose changes are listed (folder or built-in name)")
    diff.add_argument("--json", action="store_true", help="print JSON instead of text")
    diff.set_defaults(run=run_diff)

    replay = commands.add_parser("replay", help="replay a saved game move by move")
    replay.add_argument("record", nargs="?", help="a saved game (the JSON written by `brass play`'s s)")
    replay.add_argument("--trace", metavar="DIR_OR_FILE", nargs="+",
                        help="instead of RECORD: real games in the brass-birmingham-trace/v1 format "
                             "(docs/real-games.md), compared step by step with our engine; a folder means "
                             "every *.trace.json in it. One file: every round and the first difference in "
                             "detail; more, or a folder: a table of where each game stops")
    replay.add_argument("--links-per-player", type=int, metavar="N",
                        help="with --trace: replay with N link tiles per player instead of the ruleset's "
                             "(the upstream engine has no limit; 2 of the 5 real games exceed 14)")
    replay.add_argument("--json", action="store_true",
                        help="with --trace: print the summary of the games as JSON (stable; same exit status)")
    replay.add_argument("--step", action="store_true", help="wait for Enter after each move (q stops)")
    replay.add_argument("--ruleset", help="ruleset to replay with (default: the one named in the record; "
                                          f"with --trace, {DEFAULT_RULESET})")
    replay.set_defaults(run=run_replay)

    explain = commands.add_parser("explain", help="why an action is illegal in a given position, or what it does")
    explain.add_argument("setup", metavar="SETUP", help="a setup or scenario file: the position (its given)")
    explain.add_argument("action", metavar="ACTION",
                         help="a whole action as JSON or YAML: the action and its params, e.g. '{action: ACTION, "
                              "card: CARD, …}' (cards by face or id; docs/scenarios.md shows whole actions)")
    explain.add_argument("ruleset", nargs="?", default=None,
                         help=f"ruleset when the file names none (default: {DEFAULT_RULESET})")
    explain.set_defaults(run=run_explain)

    rule = commands.add_parser("rule", help="a rule of the index: its text, where the ruleset cites it, its scenarios")
    rule.add_argument("ids", nargs="+", metavar="ID", help="rule IDs, or prefixes such as R-LINK")
    rule.add_argument("--ruleset", default=DEFAULT_RULESET, help=f"ruleset folder or name (default: {DEFAULT_RULESET})")
    rule.add_argument("--scenarios", nargs="*", metavar="PATH", default=None,
                      help="scenario files or folders to search (default: ./scenarios when it exists)")
    rule.set_defaults(run=run_rule)

    verify_commands(commands)
    report_commands(commands)  # brass report
    tune_commands(commands)  # brass tune
    web_app.add_commands(commands)  # brass serve
    board_commands(commands)
    return parser


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


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
    if args.strict and strict_findings(ruleset):
        return 1
    print(summary(ruleset))
    return 0


def summary(ruleset: Ruleset) -> str:
    """A few lines that let a designer see at a glance what the ruleset holds."""
    kinds: dict[str, int] = {}
    for location in ruleset.locations.values():
        kinds[location.kind] = kinds.get(location.kind, 0) + 1
    links = ruleset.links.values()
    tiles = ruleset.tiles_per_player()
    extends = " <- ".join(os.path.basename(f) for f in ruleset.folders) if len(ruleset.folders) > 1 else "(nothing)"
    assert ruleset.game_end is not None  # the schema requires `game_end` and the loader always compiles it
    lines = [
        f"{ruleset.title} ({ruleset.name} {ruleset.version}): OK",
        f"  extends:    {extends}",
        f"  players:    {', '.join(map(str, ruleset.players))}",
        f"  locations:  {len(ruleset.locations)} ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))})",
        f"  slots:      {len(ruleset.slots)}",
        f"  links:      {len(ruleset.links)} "
        f"({', '.join(f'{sum(k.takes(kind) for k in links)} {kind}' for kind in ruleset.link_kinds)})",
        f"  tiles:      {sum(tiles.values())} per player ({', '.join(f'{n} {i}' for i, n in tiles.items())})",
        f"  deck:       {', '.join(f'{ruleset.deck_size(p)} cards at {p}p' for p in ruleset.players)}"
        f"{_wild_cards(ruleset)}",
        f"  eras:       {', '.join(e.name for e in ruleset.eras)} (the game ends after the "
        f"{ruleset.era(ruleset.game_end.last_era).name})",
        f"  actions:    {', '.join(ruleset.actions)}",
        f"  rules:      {len(ruleset.rules)} rule IDs in the index{_not_implemented(ruleset)}",
    ]
    if ruleset.tracks:  # only a ruleset that defines its own numbers (tracks:, stacks:) shows them
        lines.append("  tracks:     " + ", ".join(f"{t.name} ({t.min}..{t.max}, starts at {t.start})"
                                                  for t in ruleset.tracks.values()))
    if ruleset.stacks:
        counts = " / ".join(map(str, ruleset.players))
        sizes = {s.id: " / ".join(str(len(s.pile(p))) for p in ruleset.players) for s in ruleset.stacks.values()}
        lines.append("  stacks:     " + ", ".join(f"{s.name} ({sizes[s.id]} tiles at {counts} players)"
                                                  for s in ruleset.stacks.values()))
    return "\n".join(lines)


def run_show(args: argparse.Namespace) -> int:
    ruleset = load_ruleset(args.ruleset)
    data = _plain(ruleset.data)
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        import yaml  # only `brass show` writes YAML

        print(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100), end="")
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    from interpreter.tools.simulate.command import run_simulate as run  # docs/simulate.md

    return run(args)


def _progress_bar(total: int) -> tuple[Any, Any]:
    """A rich progress bar on stderr and the callback that advances it."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task("games", total=total)
    return bar, lambda done: bar.update(task, completed=done)


def run_play(args: argparse.Namespace) -> int:
    from rich.console import Console

    from interpreter.tools.play.terminal import run_play as play
    from interpreter.tools.play.terminal import stdin_reader

    if args.setup is None:
        ruleset = load_ruleset(args.ruleset)
        players = args.players if args.players is not None else len(args.seats.split(",")) if args.seats else 2
        return play(ruleset, players, args.seed or 0, args.seats, args.load, args.save, Console(),
                    stdin_reader(sys.stdin))
    if args.load:
        raise BrassError("--from starts a new game from a position and --load resumes a saved one: give only one")
    from interpreter.tools.scenarios.scenario import game_from_setup_file

    game = game_from_setup_file(args.setup, args.ruleset, args.players, args.seed)
    return play(game.ruleset, len(game.table.players), game.seed, args.seats, None, args.save, Console(),
                stdin_reader(sys.stdin), start=game)


def run_diff(args: argparse.Namespace) -> int:
    from interpreter.tools.authoring.diff import changes_to_json, diff_rulesets, format_changes

    base, ruleset = load_ruleset(args.base), load_ruleset(args.ruleset)
    changes = diff_rulesets(base, ruleset)
    if args.json:
        print(changes_to_json(changes, args.base, args.ruleset))
    else:
        print(format_changes(changes, args.base, args.ruleset))
    return 0


def run_replay(args: argparse.Namespace) -> int:
    if args.trace:
        return run_replay_trace(args)
    if not args.record:
        raise BrassError("replay needs a saved game RECORD or --trace FILE")
    if args.json or args.links_per_player is not None:
        raise BrassError("--json and --links-per-player go with --trace")
    from rich.console import Console

    from interpreter.tools.play.terminal import run_replay as replay
    from interpreter.tools.play.terminal import stdin_reader

    def ruleset_for(name: str) -> Ruleset:
        return load_ruleset(args.ruleset or name)

    return replay(ruleset_for, args.record, args.step, Console(), stdin_reader(sys.stdin))


def run_replay_trace(args: argparse.Namespace) -> int:
    """Exit 0 when every game replays to the end with 0 differences, else 1."""
    from pathlib import Path

    from interpreter.tools.trace.command import replay_many_traces, replay_one_trace
    from interpreter.tools.trace.importer import ruleset_with_links

    if args.step or args.record:
        raise BrassError("--trace replays whole recorded games: give no RECORD and no --step")
    ruleset = load_ruleset(args.ruleset or DEFAULT_RULESET)
    if args.links_per_player is not None:
        ruleset = ruleset_with_links(args.ruleset or DEFAULT_RULESET, args.links_per_player)
    one = Path(args.trace[0])
    if len(args.trace) == 1 and one.exists() and not one.is_dir() and not args.json:
        return replay_one_trace(ruleset, args.trace[0])
    return replay_many_traces(ruleset, args.trace, args.json, _progress_bar if sys.stderr.isatty() else None)


def run_explain(args: argparse.Namespace) -> int:
    """Exit 0 when the action is legal (and print what it does), 1 with every reason when not."""
    from interpreter.engine.game import IllegalAction
    from interpreter.tools.scenarios.scenario import game_from_setup_file, with_card_ids
    from interpreter.tools.wording.names import entry_text, failure_lines

    game = game_from_setup_file(args.setup, args.ruleset)
    action = _action_argument(args.action)
    seat = game.deciding_seat
    move = with_card_ids(game, game.table.player(seat), action)
    print(f"player {seat}: {json.dumps(move, ensure_ascii=False)}")
    trial = game.copy()
    before = len(trial.state.log)
    try:
        trial.apply(move)
    except ENGINE_SLIPS as error:
        raise BrassError(f"the engine could not judge ACTION ({slip_text(error)}); this is a bug of the engine, "
                         "which should refuse it with reasons") from None
    except IllegalAction as error:
        print("illegal: " + str(error).splitlines()[0])
        for line in failure_lines(game.ruleset, error.failures) or [f"- {str(error).splitlines()[0]}"]:
            print(f"  {line}")
        return 1
    print("legal; it would do:")
    for entry in trial.state.log[before:]:
        if entry.get("event") == "drawn":  # face down until then: what follows depends on it
            stack = game.ruleset.stacks[entry["stack"]].name
            print(f"  then draw the top tile of {stack}, face down until drawn: what follows depends on it")
            return 0
        words = entry_text(trial, entry)  # in words, as the terminal game's log says it
        if words is not None:
            print(words.plain)
    for old, new in zip(game.table.players, trial.table.players, strict=True):
        changes = [f"{what} {a} → {b}" for what, a, b in (
            ("money", f"£{old.money}", f"£{new.money}"), ("income space", old.income_position, new.income_position),
            ("VP", old.vp, new.vp)) if a != b]
        if changes:
            print(f"  player {old.seat}: " + ", ".join(changes))
    return 0


def _action_argument(text: str) -> dict[str, Any]:
    """ACTION as a mapping; a located error for YAML that does not load (aliases of lists or
    mappings are refused, so a small text cannot expand into a huge one) or a malformed action."""
    try:
        action = parse_action_text(text)
    except RulesetError as error:  # the first problem is enough for one line (an alias bomb gives dozens)
        first = error.diagnostics[0]
        raise RulesetError([replace(first, message=f"ACTION is neither JSON nor YAML as brass reads it: "
                                                   f"{first.message}")]) from None
    if not isinstance(action, dict) or "action" not in action:
        raise BrassError("ACTION is a whole action, a mapping like {action: ACTION, card: CARD, …}")
    problem = move_problem(action)
    if problem is not None:
        raise BrassError(f"ACTION is not a whole action the engine can judge: {problem}")
    return action


def run_rule(args: argparse.Namespace) -> int:
    from pathlib import Path

    from interpreter.tools.authoring.rule_index import rule_report

    ruleset = load_ruleset(args.ruleset)
    paths = [Path(p) for p in args.scenarios] if args.scenarios is not None else \
        [p for p in (Path("scenarios"),) if p.is_dir()]
    reports = [rule_report(ruleset, wanted, paths) for wanted in args.ids]
    print("\n\n".join("\n".join(lines) for lines in reports))
    return 0


def _plain(value: Any) -> Any:
    """Resolved data with mapping keys in a stable (file) order, ready to print."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _wild_cards(ruleset: Ruleset) -> str:
    """` + 4 wild` after the deck sizes, for a ruleset with wild cards."""
    wild = sum(w.count for w in ruleset.wild_cards.values())
    return f" + {wild} wild" if wild else ""


def _not_implemented(ruleset: Ruleset) -> str:
    """`, 2 not implemented (L-CLASSIC-02, L-CLASSIC-03)`: the rules an index marks so."""
    marked = [rid for rid, rule in ruleset.rules.items() if rule.not_implemented]
    return f", {len(marked)} not implemented ({', '.join(marked)})" if marked else ""


if __name__ == "__main__":
    sys.exit(main())

