"""`brass verify PATH… --mutate`: do the scenarios notice when the ruleset is wrong?

    brass verify scenarios/birmingham --mutate --jobs 2
    brass verify scenarios/birmingham --mutate --sample 50 --equivalents equivalents.yaml --json
    brass verify scenarios/birmingham --mutate --only 'tiles.pottery.*' --only industries.yaml:90

Each mutant of the ruleset (`mutants.generate`: a number ±1, an operator swapped, a precondition
or effect step removed, an item of a list of choices removed) is loaded like any ruleset: one that
the loader refuses is caught by the loader. The others play every scenario of PATH that names the
ruleset, in file order, until one fails (the mutant is killed) or all pass (it survives). A
surviving mutant is a place where the ruleset could be mistyped without any scenario noticing.
Mutants a designer judged unable to change any game are listed in an equivalents file
(`equivalents.py`) and reported apart. The report: `mutate_report.py`.
"""

from __future__ import annotations

import contextlib
import fnmatch
import multiprocessing
import resource
import signal
import sys
import threading
import time
from collections.abc import Generator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TextIO

from interpreter.ruleset.errors import BrassError, RulesetError
from interpreter.ruleset.loader import load_ruleset, ruleset_from_document
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.yaml_source import Document
from interpreter.tools.files.guards import slip_text
from interpreter.tools.scenarios.mutants import Mutant, apply, generate
from interpreter.tools.scenarios.mutate_ray import on_ray
from interpreter.tools.scenarios.scenario import Scenario, ScenarioError, run_scenario, with_ruleset
from interpreter.tools.scenarios.verify import EQUIVALENTS_FILE, run_files

__all__ = ["MutationRun", "Shipment", "Verdict", "judge", "judge_limited", "mutate", "own_mutants", "prepare",
           "run_mutants", "select", "spread"]

CHUNK = 4  # mutants sent to a worker at once: few enough that both workers stay busy to the end
# A mutant may make the engine run away: Birmingham without `deal_hands` at the Canal Era's end
# plays empty rounds for ever, growing without bound (23 GB before the kernel killed its worker).
# A worker stops a mutant past these limits, which then counts as killed (no scenario passes with
# it), by the limit. The time limit comes first (that mutant reaches 3 GiB in about a minute): a
# worker that met MemoryError may not recover enough memory to go on.
MEMORY_LIMIT = 3 * 1024 ** 3  # bytes of address space per worker
CPU_SECONDS = 15  # per mutant; all 315 Birmingham scenarios take 1-2 s


@dataclass(frozen=True)
class Verdict:
    """What became of one mutant: `loader` (refused by the loader), `killed` or `survived`; `by`
    says what caught it (the loader's first error, or the scenario and its first failure)."""

    number: int
    status: str
    by: str = ""


@dataclass(frozen=True)
class Shipment:
    """Everything a worker needs, and nothing it would read from a file: the ruleset's resolved
    document (a mutant is applied to it) and each scenario file as read (path, display, document)."""

    document: Document
    folders: tuple[str, ...]
    rule_folders: dict[str, str]
    scenarios: tuple[tuple[Path, str, Document], ...]
    check: bool = False


@dataclass
class MutationRun:
    ruleset: Ruleset
    shipment: Shipment
    mutants: list[Mutant]  # every mutant of the scope, in generated order
    inherited: int = 0  # mutants of a variant's base left out (the base's scenarios judge them)
    folder_ruleset: str | None = None  # the ruleset the scenario folders are for (see _folders_ruleset)


def prepare(paths: Sequence[str | Path], ruleset_name: str | None = None, check: bool = False,
            rules: Sequence[str] = (), inherited: bool = False) -> MutationRun:
    """Load the scenarios of `paths`, check that they all pass unmutated, and generate the mutants
    of the ruleset they play (or of `ruleset_name`; only the scenarios that play it are used).
    Of a variant (a ruleset that `extends` another), only the values its own files state, unless
    `inherited`: what it inherits is the base's, judged by the base's own scenarios."""
    outcomes, loaded = run_files(paths, check, rules)
    failing = [o.display for o in outcomes if not o.passed]
    if failing:
        raise BrassError(f"{len(failing)} scenario(s) fail without any mutant ({', '.join(failing[:5])}"
                         f"{', …' if len(failing) > 5 else ''}): mutation testing needs scenarios that pass; "
                         f"run `brass verify {' '.join(map(str, paths))}` first")
    ruleset = _target(loaded, ruleset_name)
    played = [s for s in loaded if s.ruleset.folders == ruleset.folders]
    if not played:
        raise BrassError(f"no scenario in {', '.join(map(str, paths))} plays ruleset {ruleset.name!r}")
    assert ruleset.source is not None  # a loaded ruleset keeps its resolved document
    shipment = Shipment(ruleset.source, ruleset.folders, dict(ruleset.rule_folders),
                        tuple((s.path, s.display, s.doc) for s in played), check)
    every = generate(ruleset.source)
    mutants = every if inherited else own_mutants(every, ruleset)
    return MutationRun(ruleset, shipment, mutants, len(every) - len(mutants), _folders_ruleset(loaded))


def _folders_ruleset(loaded: Sequence[Scenario]) -> str | None:
    """The ruleset the scenario folders are for (the one mutated when none is named), whose
    mutants their equivalents file lists without naming a ruleset."""
    try:
        return _target(loaded, None).name
    except BrassError:  # several rulesets, none the base of the others
        return None


def own_mutants(mutants: Sequence[Mutant], ruleset: Ruleset) -> list[Mutant]:
    """The mutants stated in the ruleset's own folder (the last of its `extends` chain)."""
    own = Path(ruleset.folders[-1]).resolve()
    return [m for m in mutants if own in Path(m.pos.file).resolve().parents]


def _target(loaded: Sequence[Scenario], name: str | None) -> Ruleset:
    """The ruleset named, else the one the scenarios play; of several, the base the others extend
    (a game's folder holds its variants' scenarios too: its own are the ones to mutate)."""
    if name is not None:
        return load_ruleset(name)
    found = {s.ruleset.folders: s.ruleset for s in loaded}
    bases = [r for r in found.values() if all(r.folders == other.folders[:len(r.folders)] for other in found.values())]
    if len(found) > 1 and not bases:
        names = ", ".join(sorted(r.name for r in found.values()))
        raise BrassError(f"the scenarios play several rulesets ({names}): name the one to mutate with --ruleset")
    return bases[0] if bases else next(iter(found.values()))


def judge(shipment: Shipment, mutant: Mutant) -> Verdict:
    """Load the mutant and play the scenarios against it, up to the first that fails."""
    doc = shipment.document
    mutated = Document(apply(doc.data, mutant), doc.marks, doc.key_marks, doc.origins)
    try:
        ruleset = ruleset_from_document(mutated, shipment.folders, shipment.rule_folders, checked=True)
    except RulesetError as error:
        first = error.diagnostics[0]
        return Verdict(mutant.number, "loader", f"{first.pos}: {first.message}" if first.pos else first.message)
    except Exception as error:  # a loader that fails on data it should refuse: still no ruleset to play
        return Verdict(mutant.number, "loader", f"the loader failed with {slip_text(error)}")
    for path, display, scenario_doc in shipment.scenarios:
        caught = _play(path, display, scenario_doc, ruleset, shipment.check)
        if caught:
            return Verdict(mutant.number, "killed", caught)
    return Verdict(mutant.number, "survived")


def _play(path: Path, display: str, doc: Document, ruleset: Ruleset, check: bool) -> str:
    """'' when the scenario passes with the mutant, else how it failed."""
    try:
        scenario = with_ruleset(path, display, doc, ruleset)
        result = run_scenario(scenario, check)
    except ScenarioError as error:  # its position or assertions no longer fit the mutant
        return f"{display} no longer loads: {error.diagnostics[0]}"
    except Exception as error:  # the engine failed on the mutant: the scenario did not pass
        return f"{display}: the engine failed with {slip_text(error)}"
    if result.passed:
        return ""
    return str(result.failures[0]).split("\n")[0]  # located in the scenario file


def run_mutants(run: MutationRun, chosen: Sequence[Mutant], jobs: int = 1,
                progress: TextIO | None = None, deadline: float | None = None,
                ray: ModuleType | None = None) -> list[Verdict]:
    """The verdict of each chosen mutant, in their order, judged in `jobs` worker processes (with
    limits of memory and time), in this process with `jobs=0`, or as tasks of a connected `ray`.
    Past `deadline` (a time.monotonic() value) no more are judged: the list then holds the
    verdicts of a prefix."""
    verdicts: list[Verdict] = []
    stream: Generator[Verdict, None, None] = \
        on_ray(ray, run.shipment, chosen, judge_limited) if ray else _verdicts(run.shipment, chosen, jobs)
    try:
        for verdict in stream:
            verdicts.append(verdict)
            if progress is not None and (len(verdicts) % 50 == 0 or len(verdicts) == len(chosen)):
                print(f"  {len(verdicts)}/{len(chosen)} mutants", file=progress, flush=True)
            if deadline is not None and time.monotonic() >= deadline:
                break
    finally:
        stream.close()  # stops the workers at once when the budget cut the run short
    return verdicts


def spread(mutants: Sequence[Mutant]) -> list[Mutant]:
    """The mutants in an order whose every prefix is spread evenly over the ruleset (indices in
    bit-reversed order: 0, n/2, n/4, 3n/4 …), so that a run cut short by --budget has judged
    mutants of every file and kind, not only the first files'."""
    bits = max(1, (len(mutants) - 1).bit_length())
    order = sorted(range(len(mutants)), key=lambda i: int(f"{i:0{bits}b}"[::-1], 2))
    return [mutants[i] for i in order]


def _verdicts(shipment: Shipment, chosen: Sequence[Mutant], jobs: int) -> Generator[Verdict, None, None]:
    if jobs < 1:  # in this process, without the limits (tests, on chosen mutants)
        for mutant in chosen:
            yield judge(shipment, mutant)
        return
    # "spawn": a fresh interpreter, never a fork of this one (see simulate/pool.py); each worker is
    # sent the shipment once, then only the mutants (a few numbers and a path each)
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_receive, initargs=(shipment,))
    try:
        yield from pool.map(_judge_received, chosen, chunksize=CHUNK)
    except BrokenProcessPool:
        pool.shutdown(wait=True, cancel_futures=True)
        raise BrassError("a worker process died (out of memory, or killed?) while judging mutants; "
                         "the run is incomplete: run again with fewer --jobs") from None
    except BaseException:  # Ctrl-C or an error: stop the workers now rather than after their mutants
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            with contextlib.suppress(OSError):
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


_received: list[Shipment] = []


class _OutOfTime(BaseException):
    """Raised in a worker when a mutant has used its CPU_SECONDS (a BaseException: no `except
    Exception` of the engine may take it for a failure of one step)."""


def _receive(shipment: Shipment) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the parent, which stops the workers
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == resource.RLIM_INFINITY or hard > MEMORY_LIMIT:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, hard))
    _received[:] = [shipment]


def _out_of_time(signum: int, frame: object) -> None:
    raise _OutOfTime


def _judge_received(mutant: Mutant) -> Verdict:
    return judge_limited(_received[0], mutant)


def judge_limited(shipment: Shipment, mutant: Mutant) -> Verdict:
    """`judge`, stopped past CPU_SECONDS of CPU (a runaway mutant, counted killed) when run in a
    process's main thread, where a signal can interrupt it (a worker process, a Ray worker)."""
    if threading.current_thread() is not threading.main_thread():
        return judge(shipment, mutant)
    previous = signal.signal(signal.SIGPROF, _out_of_time)
    signal.setitimer(signal.ITIMER_PROF, CPU_SECONDS)
    try:
        return judge(shipment, mutant)
    except _OutOfTime:
        return Verdict(mutant.number, "killed", f"ran out of time: over {CPU_SECONDS} s of CPU (a runaway engine)")
    except MemoryError:
        return Verdict(mutant.number, "killed", f"ran out of memory: over {MEMORY_LIMIT // 1024 ** 3} GiB")
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def select(mutants: Sequence[Mutant], sample: int = 1, only: Sequence[str] = ()) -> list[Mutant]:
    """Every `sample`-th mutant in generated order (stable across runs), then, with `only`, those
    whose id or position matches one of the glob patterns (a position matches as FILE:LINE:COL, or
    by its tail: `industries.yaml:90` matches every mutant on that line)."""
    chosen = list(mutants[::sample])
    if not only:
        return chosen
    picked = [m for m in chosen if any(_matches(m, pattern) for pattern in only)]
    if not picked:
        raise BrassError(f"--only {' '.join(only)}: no mutant matches (a mutant id such as "
                         f"{mutants[0].id!r} or a position FILE:LINE such as {_position(mutants[0])!r})")
    return picked


def _position(mutant: Mutant) -> str:
    return str(mutant.pos)


def _matches(mutant: Mutant, pattern: str) -> bool:
    position = _position(mutant)
    return (fnmatch.fnmatchcase(mutant.id, pattern) or fnmatch.fnmatchcase(position, pattern)
            or fnmatch.fnmatchcase(position, f"*{pattern}") or fnmatch.fnmatchcase(position, f"*{pattern}:*"))


def folder_equivalents(paths: Sequence[str | Path]) -> Path | None:
    """The equivalents file of the scenario folders named (EQUIVALENTS_FILE in one of them), if any."""
    found = [Path(p) / EQUIVALENTS_FILE for p in paths if (Path(p) / EQUIVALENTS_FILE).is_file()]
    if len(found) > 1:
        raise BrassError(f"several equivalents files ({', '.join(map(str, found))}): name one with --equivalents")
    return found[0] if found else None


def mutate(paths: Sequence[str | Path], out: TextIO, ruleset: str | None = None, jobs: int = 1,
           sample: int = 1, only: Sequence[str] = (), equivalents: str | None = None, as_json: bool = False,
           check: bool = False, rules: Sequence[str] = (), inherited: bool = False,
           budget: float | None = None, ray_address: str | None = None) -> int:
    """`brass verify --mutate`: exit status 0 when no mutant judged survives except listed
    equivalents. With a `budget` (seconds of wall clock) the mutants are judged in `spread` order
    until it is spent, and the report says how many were left unjudged."""
    from interpreter.tools.scenarios.equivalents import load_equivalents
    from interpreter.tools.scenarios.mutate_report import Report, print_json, print_text

    run = prepare(paths, ruleset, check, rules, inherited)
    if equivalents:
        listed = load_equivalents(Path(equivalents), run.mutants)
    else:
        listing = folder_equivalents(paths)
        listed = load_equivalents(listing, run.mutants, run.ruleset.name, run.folder_ruleset) if listing else {}
    chosen = select(run.mutants, sample, only)
    if budget is not None:
        chosen = spread(chosen)
    deadline = None if budget is None else time.monotonic() + budget
    progress = None if as_json else sys.stderr
    if ray_address is None:
        verdicts = run_mutants(run, chosen, jobs, progress, deadline)
    else:  # "" for a local Ray instance
        from interpreter.tools.cluster.ray_connect import connected

        with connected(ray_address) as ray:
            verdicts = run_mutants(run, chosen, jobs, progress, deadline, ray=ray)
    judged = sorted(zip(chosen[:len(verdicts)], verdicts, strict=True), key=lambda row: row[0].number)
    report = Report(run.ruleset.name, len(run.mutants), sample, [m for m, _ in judged], [v for _, v in judged],
                    listed, run.inherited, unjudged=len(chosen) - len(verdicts))
    if as_json:
        print_json(report, out)
    else:
        print_text(report, out)
    return 0 if not report.unlisted_survivors else 1
