"""`brass simulate` with --jobs, --ray or --out: a run's games played by a runner, saved as they
finish, and the summary made from what was played.

A runner plays batches of seeds (`simulate_batch`) here (`--jobs 1`), in worker processes
(`simulate_pool`) or as Ray tasks (`simulate_ray`), and hands back each batch as it
finishes, in no particular order. The summary sorts the games by seed, so it is the same
whatever the runner and the number of workers. With `--out`, every game is appended to the
file as it comes back (`simulate_store`), the summary is read back from the file, and an
interrupted run is finished with `--resume`, which plays only the seeds the file lacks.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.model import Ruleset
from interpreter.tools.bots.ladder import make_bot
from interpreter.tools.cluster.ray_connect import RayFailed, check_runner, cluster_cpus, connected
from interpreter.tools.simulate.batch import Batch, Shipment, batch_size, in_this_process, make_batches, shipment
from interpreter.tools.simulate.games import BotSpec, GameRecord, Summary, seat_bots
from interpreter.tools.simulate.pool import WorkersFailed, in_worker_processes, sigint_replaced
from interpreter.tools.simulate.ray_cluster import on_ray, ray_batch_size
from interpreter.tools.simulate.store import (
    GameWriter,
    Key,
    OutFileError,
    game_line,
    prepare,
    read_games,
    run_parameters,
)

Runner = Generator[tuple[Batch, list[GameRecord]], None, None]
LARGEST_LOCAL_BATCH = 4  # seeds per batch in worker processes: a batch is sent in well under a millisecond
INTERRUPTED_STATUS = 130


def bots_argument(text: str, players: int) -> BotSpec:
    """--bot as `simulate` takes it: one name, or one per seat (a wrong count is an error here)."""
    bot: BotSpec = text.split(",") if "," in text else text
    try:
        seat_bots(bot, players)
    except ValueError as error:
        raise BrassError(str(error)) from None
    return bot


def uses_runner(args: argparse.Namespace) -> bool:
    """Whether the options ask for more than the plain in-memory run of `simulate()`."""
    return args.jobs != 1 or args.ray is not None or args.out is not None or args.resume


@dataclass
class Plan:
    """A run: its rulesets by role ("ruleset", and "against" with --against), the seeds, where
    the games are saved, and which are done (with --out, only marked: the summary reads the file)."""

    rulesets: dict[str, Ruleset]
    shipments: dict[str, Shipment]  # by role: what a worker plays (`batch.Shipment`)
    run: dict[str, Any]  # the run's parameters, written in every record
    seeds: range
    players: int
    bots: list[str]
    check: bool
    path: Path | None
    done: dict[Key, GameRecord] = field(default_factory=dict)
    in_file: set[Key] = field(default_factory=set)  # every game the --out file held at the start

    def extend(self, seeds: range) -> None:
        """More seeds to play (--until-decided), counting those the file already holds as done."""
        self.seeds = seeds
        self.done.update({key: _SAVED for key in self.in_file if key[1] in seeds and key not in self.done})

    @property
    def rotate(self) -> bool:
        """A comparison's games rotate the seats (`simulate.seating`); a single run's keep them."""
        return "against" in self.rulesets

    @property
    def total(self) -> int:
        return len(self.seeds) * len(self.rulesets)

    def todo(self) -> dict[tuple[str, str], list[int]]:
        """(role, the ruleset's fingerprint) → the seeds still to play."""
        return {(role, self.shipments[role].fingerprint): [s for s in self.seeds if (role, s) not in self.done]
                for role in self.rulesets}

    def folders(self) -> dict[str, str]:
        """Each ruleset's own folder, by role (for messages)."""
        return {role: ruleset.folders[-1] for role, ruleset in self.rulesets.items() if ruleset.folders}

    def by_fingerprint(self) -> dict[str, Ruleset]:
        return {self.shipments[role].fingerprint: ruleset for role, ruleset in self.rulesets.items()}

    def saved(self) -> str:
        return f"saved {len(self.done)} of {self.total} games to {self.path}; rerun with --resume to finish"


def run_games(args: argparse.Namespace, ruleset: Ruleset, base: Ruleset | None,
              bot: BotSpec) -> tuple[Summary, Summary | None] | int:
    """The run's summaries (the ruleset's, and BASE's with --against), or the exit status when
    interrupted, after saying what was saved."""
    _check_options(args)
    plan = _plan(args, ruleset, base, bot)
    interrupted = _play_plan(args, plan)
    return interrupted if interrupted is not None else _summaries(plan, full=args.json)


def run_until_decided(args: argparse.Namespace, ruleset: Ruleset, base: Ruleset,
                      bot: BotSpec, decided: Callable[[Summary, Summary], bool]) -> tuple[Summary, Summary] | int:
    """`--until-decided`: batches of --games seeds under both rulesets, each batch's games added to
    the last, until `decided` says so of the summaries or --max-games are played (the exit status
    when interrupted, as `run_games`)."""
    _check_options(args)
    plan = _plan(args, ruleset, base, bot)
    while True:
        interrupted = _play_plan(args, plan)
        if interrupted is not None:
            return interrupted
        variant, against = _summaries(plan, full=args.json)
        assert against is not None  # a comparison
        if decided(variant, against) or len(plan.seeds) >= args.max_games:
            return variant, against
        plan.extend(range(plan.seeds.start, plan.seeds.start + min(args.max_games, len(plan.seeds) + args.games)))


def _play_plan(args: argparse.Namespace, plan: Plan) -> int | None:
    """Play the plan's games still to play; the exit status if interrupted, after saying what was saved."""
    try:
        _play(plan, _runner(args, plan))
    except KeyboardInterrupt:
        if plan.path is None:
            raise  # nothing saved: the command's usual one line
        print(plan.saved(), file=sys.stderr)
        return INTERRUPTED_STATUS
    except (WorkersFailed, RayFailed, OutFileError) as error:  # a full disk: how many games were saved
        raise BrassError(f"{error}; {plan.saved()}" if plan.path else str(error)) from None
    return None


def _check_options(args: argparse.Namespace) -> None:
    if args.resume and args.out is None:
        raise BrassError("--resume finishes the run saved in an --out file: give --out FILE too")
    check_runner(args.jobs, args.ray, "ruleset")


def _plan(args: argparse.Namespace, ruleset: Ruleset, base: Ruleset | None, bot: BotSpec) -> Plan:
    rulesets = {"ruleset": ruleset} if base is None else {"ruleset": ruleset, "against": base}
    names = _known_bots(bot, args.players)
    shipments = {role: shipment(each) for role, each in rulesets.items()}  # what the workers will play
    plan = Plan(rulesets, shipments, run_parameters(rulesets, args.players, names, args.check),
                range(args.seed, args.seed + args.games), args.players, names, args.check,
                Path(args.out) if args.out else None)
    if plan.path is not None:
        _warn(prepare(plan.path, args.resume))
        found, warning = read_games(plan.path, plan.run, brief=True, folders=plan.folders())
        _warn(warning)
        plan.in_file = set(found)
        plan.done = {key: _SAVED for key in found if key[1] in plan.seeds}  # the file keeps the records
    return plan


def _known_bots(bot: BotSpec, players: int) -> list[str]:
    names = seat_bots(bot, players)
    for name in set(names):
        try:
            make_bot(name, 0)  # an unknown name fails before any game is played
        except ValueError as error:
            raise BrassError(str(error)) from None
    return names


_SAVED = GameRecord(-1, [], [], 0, 0, 0.0)  # marks a game saved in the file, which holds its record


def _play(plan: Plan, runner: Runner) -> None:
    """Play the runner's batches, adding each game to `plan.done` (with --out: written to the
    file at once, and only marked in memory)."""
    writer = GameWriter(plan.path) if plan.path is not None else None
    with writer or contextlib.nullcontext(), progress_bar(plan.total, len(plan.done)) as advance, \
            contextlib.closing(runner):
        for batch, records in runner:
            for record in records:
                if writer is None:
                    plan.done[(batch.role, record.seed)] = record
                    continue
                with _ctrl_c_deferred():  # the file and the count of saved games must agree
                    writer.write(game_line(plan.run, batch.role, plan.rulesets[batch.role].name, record))
                    plan.done[(batch.role, record.seed)] = _SAVED
            advance(len(records))


@contextlib.contextmanager
def _ctrl_c_deferred() -> Iterator[None]:
    """Ctrl-C pressed inside is raised on leaving, not in the middle."""
    pressed: list[int] = []
    with sigint_replaced(lambda number, frame: pressed.append(number)):
        yield
    if pressed:
        raise KeyboardInterrupt


def _runner(args: argparse.Namespace, plan: Plan) -> Runner:
    """The games still to play, in batches, played where the options say."""
    todo = plan.todo()
    games = sum(len(seeds) for seeds in todo.values())
    if args.ray is not None:
        with connected(args.ray or None) as ray:
            size = ray_batch_size(games, cluster_cpus(ray))
            batches = make_batches(todo, plan.players, plan.bots, plan.check, size, plan.rotate)
            yield from on_ray(ray, batches, list(plan.shipments.values()))
        return
    jobs = args.jobs or _cores()
    size = batch_size(games, jobs, LARGEST_LOCAL_BATCH)
    batches = make_batches(todo, plan.players, plan.bots, plan.check, size, plan.rotate)
    if min(jobs, len(batches)) <= 1:
        yield from in_this_process(batches, plan.by_fingerprint())
    else:
        yield from in_worker_processes(batches, min(jobs, len(batches)), list(plan.shipments.values()), _warn)


def _cores() -> int:
    """The cores this process may run on (fewer than the machine's under a CPU limit)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


@contextlib.contextmanager
def progress_bar(total: int, done: int = 0,
                 status: Callable[[], str] | None = None) -> Iterator[Callable[[int], None]]:
    """A progress bar with the time left, on a terminal only; yields the function that advances it.
    `status`, if given, is shown after the bar and read again at every advance (a tuner's best so far)."""
    if not sys.stderr.isatty():
        yield lambda count: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = [TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn()]
    if status is not None:
        columns.append(TextColumn("{task.fields[status]}"))
    bar = Progress(*columns, console=Console(stderr=True), transient=True)
    task = bar.add_task("games", total=total, completed=done, status=status() if status else "")
    with bar:
        yield lambda count: bar.update(task, advance=count, status=status() if status else "")


def _summaries(plan: Plan, full: bool) -> tuple[Summary, Summary | None]:
    """A summary per ruleset, its games in seed order (whatever order they were played in); with
    --out, read from the file: what was saved is what counts (`full` records only for --json:
    the table's brief ones take less than half the memory)."""
    played = plan.done
    if plan.path is not None:
        played, warning = read_games(plan.path, plan.run, brief=not full, folders=plan.folders())
        _warn(warning)
    missing = [f"{role} seed {seed}" for role in plan.rulesets for seed in plan.seeds if (role, seed) not in played]
    if missing:
        raise BrassError(f"{len(missing)} game(s) are missing after the run (first: {missing[0]}); rerun with "
                         "--resume to play them")
    summaries = {role: Summary(ruleset.name, plan.players, plan.seeds.start, plan.bots, plan.check,
                               [played[(role, seed)] for seed in plan.seeds], list(ruleset.actions), plan.rotate)
                 for role, ruleset in plan.rulesets.items()}
    return summaries["ruleset"], summaries.get("against")


def _warn(warning: str | None) -> None:
    if warning:
        print(warning, file=sys.stderr)
