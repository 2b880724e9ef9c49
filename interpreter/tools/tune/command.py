"""`brass tune RULESET`: the run from its options to its output (docs/bots.md, "Tuning").

    brass tune lancashire --players 4 --budget 20m --jobs 2 --out lancashire-4p.jsonl
    brass tune my-variant --players 3 --budget 40games --seed 2 --write

The budget is CPU time (`90s`, `20m`, `1.5h`: the games' own time, summed over the workers) or a
number of tuning games (`40games`: the same parameters for the same seed on every machine). A
generation starts only while the budget is not spent (the first always does); the verdict's games
come on top. Ctrl-C stops the run after saying what is saved; --resume continues it.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from interpreter.ruleset.bot_params import BotParams, HeuristicParams, Tuned, to_data
from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.cluster.ray_connect import RayFailed, check_runner
from interpreter.tools.simulate.batch import Batch, shipment
from interpreter.tools.simulate.games import GameRecord
from interpreter.tools.simulate.pool import WorkersFailed
from interpreter.tools.simulate.run import progress_bar
from interpreter.tools.simulate.stats import t_quantile, wilson
from interpreter.tools.simulate.store import fingerprint
from interpreter.tools.tune.checkpoint import FALSE_STEP, FORMAT, Saved, Writer, open_run
from interpreter.tools.tune.evolve import Settings, State, candidates, replay
from interpreter.tools.tune.play import Where, batches, margin, play, size_for
from interpreter.tools.tune.space import Space
from interpreter.tools.tune.verdict import Verdict, verdict, verdict_text
from interpreter.tools.tune.written import bots_yaml, write_bots

INTERRUPTED_STATUS = 130
UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0}


@dataclass(frozen=True)
class Budget:
    """How much tuning: a number of games, or seconds of the games' time."""

    amount: float
    games: bool

    def spent(self, saved: Saved) -> bool:
        return (saved.games if self.games else saved.seconds) >= self.amount


def parse_budget(text: str) -> Budget:
    """`40games`, `90s`, `20m`, `1.5h`; BrassError otherwise."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(games?|[smh])\s*", text)
    if found is None or float(found.group(1)) <= 0:
        raise BrassError(f"--budget {text!r}: give a time (90s, 20m, 1.5h) or a number of games (40games), "
                         "more than 0")
    amount, unit = float(found.group(1)), found.group(2)
    return Budget(amount, True) if unit.startswith("game") else Budget(amount * UNITS[unit], False)


@dataclass
class Run:
    """A tuning run as it goes."""

    ruleset: Ruleset
    settings: Settings
    space: Space
    start: BotParams
    where: Where
    writer: Writer
    saved: Saved
    state: State

    def params(self, point: list[float]) -> BotParams:
        return replace(self.start, heuristic=self.space.params(self.start.heuristic, point))

    @property
    def key(self) -> str:
        return shipment(self.ruleset).fingerprint


def run_tune(args: argparse.Namespace) -> int:
    budget = parse_budget(args.budget)
    ruleset = load_ruleset(args.ruleset)
    if args.players not in ruleset.players:
        raise BrassError(f"{ruleset.title} is played by {', '.join(map(str, ruleset.players))} players, "
                         f"not {args.players}")
    run = _open(args, ruleset)
    try:
        _tune(run, budget)
        found = _verdict(run, args.verdict_games) if run.state.taken else None
    except KeyboardInterrupt:
        print(f"interrupted; {run.saved.games} tuning game(s) and {len(run.saved.verdict)} verdict game(s) are "
              f"saved in {run.writer.path}: rerun with --resume to continue", file=sys.stderr)
        return INTERRUPTED_STATUS
    except (WorkersFailed, RayFailed) as error:
        raise BrassError(f"{error}; what was judged is saved in {run.writer.path} (--resume)") from None
    _report(args, run, found)
    return 0


def _open(args: argparse.Namespace, ruleset: Ruleset) -> Run:
    check_runner(args.jobs, args.ray, "ruleset")
    settings = Settings(args.players, args.seed, args.candidates, args.rounds)
    start = ruleset.bots
    space = Space.around(start.heuristic)
    path = Path(args.out or f"tune-{ruleset.name}-{args.players}p-seed{args.seed}.jsonl")
    header = {"tune": FORMAT, "ruleset": ruleset.name, "fingerprint": rules_fingerprint(ruleset),
              "players": settings.players, "seed": settings.seed, "candidates": settings.candidates,
              "rounds": settings.rounds, "space": space.to_dict(),
              "start": to_data(start, changed_only=False)["heuristic"]}
    saved = open_run(path, header, args.resume)
    state = replay(settings, space.point(start.heuristic), saved.scores)
    jobs = args.jobs or len(os.sched_getaffinity(0))
    return Run(ruleset, settings, space, start, Where(jobs, args.ray), Writer(path), saved, state)


def rules_fingerprint(ruleset: Ruleset) -> str:
    """The ruleset's fingerprint without its `bots:` section, for a run file's header. A tuning game
    takes each seat's parameters from the run (the header's `start`, checked too, and its
    candidates), never from the section, so the bots.yaml a run writes (--write) leaves it the same
    run: it can be resumed to write again, or to go on with a larger budget."""
    return fingerprint(ruleset, leaving_out=("bots",))


def _tune(run: Run, budget: Budget) -> None:
    """Generations until the budget is spent (the first one always), each candidate saved when judged."""
    settings = run.settings
    while (run.state.generation == 0 or not budget.spent(run.saved)) \
            and run.state.generation < settings.max_generations():
        _generation(run, budget)
        _say_generation(run.state)


def _generation(run: Run, budget: Budget) -> None:
    settings, state = run.settings, run.state
    points = candidates(settings, state)
    seeds = list(settings.seeds(state.generation))
    best = run.params(state.best)
    todo = [i for i in range(settings.candidates) if (state.generation, i) not in run.saved.scores]
    size = size_for(len(todo) * len(seeds), run.where)
    owner: dict[int, int] = {}
    all_batches: list[Batch] = []
    for index in todo:
        for batch in batches(run.key, settings.players, run.params(points[index]), best, seeds, size):
            owner[id(batch)] = index
            all_batches.append(batch)
    done: dict[int, list[GameRecord]] = {i: [] for i in todo}
    status = _status(run, budget)
    with progress_bar(len(todo) * len(seeds), status=lambda: status) as advance:
        for batch, records in play(run.ruleset, all_batches, run.where):
            index = owner[id(batch)]
            done[index] += records
            advance(len(records))
            if len(done[index]) == len(seeds):
                _judged(run, state.generation, index, done[index])
    run.state = replay(settings, run.space.point(run.start.heuristic), run.saved.scores)


def _judged(run: Run, generation: int, index: int, records: list[GameRecord]) -> None:
    margins = [margin(r, run.settings.players) for r in sorted(records, key=lambda r: r.seed)]
    line = {"generation": generation, "candidate": index, "margins": [round(m.margin, 4) for m in margins],
            "seconds": round(sum(m.seconds for m in margins), 3)}
    run.writer.write(line)
    run.saved.add(line)


def _status(run: Run, budget: Budget) -> str:
    """The progress bar's words: the generation (of how many, for a budget in games) and the best so far."""
    state = run.state
    of = f" of {max(1, math.ceil(budget.amount / run.settings.games_per_generation))}" if budget.games else ""
    last = "" if state.last is None else f", last winner {state.last:+.1f} VP a game"
    return f"generation {state.generation + 1}{of}: {state.taken} step(s) taken{last}, step size {state.sigma:.2f}"


def _say_generation(state: State) -> None:
    generation, score, taken = state.history[-1]
    print(f"generation {generation + 1}: best candidate {score:+.2f} VP a game (the sure lower bound of its mean) "
          "against the best so far: "
          f"{'taken' if taken else 'kept the best'} (step size now {state.sigma:.3f})", file=sys.stderr)


def _verdict(run: Run, games: int) -> Verdict:
    """The verdict's games still to play, played and saved one batch at a time; the verdict of all."""
    tuned = run.params(run.state.best)
    after = run.state.taken  # the steps that made the tuned parameters
    seeds = [s for s in run.settings.verdict_seeds(games) if (after, s) not in run.saved.verdict]
    todo = batches(run.key, run.settings.players, tuned, run.start, seeds, size_for(len(seeds), run.where)) \
        if seeds else []
    with progress_bar(games, games - len(seeds), status=lambda: "verdict: tuned against starting") as advance:
        for _, records in play(run.ruleset, todo, run.where):
            for record in records:
                game = margin(record, run.settings.players)
                line = {"verdict": game.seed, "after": after, "margin": round(game.margin, 4), "vp": game.vp,
                        "others": round(game.others, 4), "seconds": round(game.seconds, 3)}
                run.writer.write(line)
                run.saved.add(line)
            advance(len(records))
    lines = [run.saved.verdict[(after, s)] for s in run.settings.verdict_seeds(games)]
    return verdict([x["margin"] for x in lines], [x["vp"] for x in lines], [x["others"] for x in lines])


def _report(args: argparse.Namespace, run: Run, found: Verdict | None) -> None:
    tuned = run.params(run.state.best)
    print(f"{run.ruleset.name}, {run.settings.players} players, seed {run.settings.seed}: "
          f"{run.state.generation} generation(s) of {run.settings.candidates} candidates, {run.saved.games} "
          f"tuning games, {run.saved.seconds / 60:.1f} minutes of play (the games' time, summed over the workers); "
          f"{run.state.taken} step(s) taken")
    spread = run.saved.spread()
    if spread is not None:
        per = run.settings.games_per_candidate
        error = spread / per ** 0.5
        needed = t_quantile(1 - FALSE_STEP / run.settings.candidates, per - 1) * error if per > 1 else math.inf
        print(f"a game's margin (the seat under test's VP minus the others' mean) varied with a standard deviation "
              f"of {spread:.1f} VP: {per} games measure a candidate's mean margin to about ±{error:.1f} VP, so a "
              f"candidate was taken only when it beat the best by about {needed:.1f} VP a game or more (more "
              "--rounds see smaller gains)")
    if found is None:
        print("no candidate beat the starting parameters: they are kept, and no verdict is played (it would "
              "compare them with themselves); a larger budget or --rounds judges candidates more surely")
    else:
        print(f"{verdict_text(found.wins, found.games)}; the tuned seat scored {found.tuned_vp:.1f} VP a game, "
              f"a seat with the starting parameters {found.others_vp:.1f}: "
              + _judged_words(found))
        for line in _changes(run.start.heuristic, tuned.heuristic):
            print(f"  {line}")
    better = found is not None and found.better
    record = _record(run, found)
    text = bots_yaml(tuned if better else run.start, record, run.space.names)
    if args.write:
        print(f"wrote {write_bots(run.ruleset, text, _about(args, run, found))}"
              + ("" if better else ": the starting parameters, with the "
                                                            "record that tuning kept them"))
    elif better:
        print("\n# the parameters, to paste into the ruleset's bots.yaml:")
        print(text, end="")
    else:
        print("--write records in the ruleset's bots.yaml that it was tuned and kept its parameters")


def _about(args: argparse.Namespace, run: Run, found: Verdict | None) -> list[str]:
    """The comment `--write` puts above the section: the command that reproduces the run, and its outcome."""
    settings = run.settings
    command = (f"brass tune {args.ruleset} --players {settings.players} --candidates {settings.candidates} "
               f"--rounds {settings.rounds} --budget {args.budget} --seed {settings.seed}")
    said = [f"`{command}`: {run.state.generation} generation(s), {run.saved.games} tuning games, "
            f"{run.state.taken} step(s) taken."]
    if found is None:
        return [*said, "No candidate beat the starting parameters: they are kept."]
    return [*said, f"The verdict: {verdict_text(found.wins, found.games)}: {_judged_words(found)}."]


def _judged_words(found: Verdict) -> str:
    if found.better:
        return "the tuned parameters are better"
    if wilson(found.wins, found.games)[1] < 0.5:
        return "the tuned parameters are worse (the interval lies below 50 %): the starting parameters are kept"
    return "not shown better (the interval holds 50 %): the starting parameters are kept"


def _record(run: Run, found: Verdict | None) -> Tuned:
    """What the run leaves beside the parameters: players, seed, games, result and verdict."""
    if found is None:
        return Tuned(run.settings.players, run.settings.seed, run.saved.games, "kept")
    wins = int(found.wins) if found.wins == int(found.wins) else found.wins  # a half only when a game tied
    return Tuned(run.settings.players, run.settings.seed, run.saved.games, "better" if found.better else "kept",
                 wins, found.games)


def _changes(before: HeuristicParams, after: HeuristicParams) -> list[str]:
    old, new = to_data(BotParams(before), changed_only=False), to_data(BotParams(after), changed_only=False)
    return [f"{name}: {value} → {new['heuristic'][name]}" for name, value in old["heuristic"].items()
            if new["heuristic"][name] != value]
