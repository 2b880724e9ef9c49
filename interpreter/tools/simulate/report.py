"""The data of a balance report (`brass report VARIANT --against BASE`): a comparison's games,
its statistics as `brass simulate --against` computes them, and what the games were made of.

    report = report_from_file(Path("runs.jsonl"), variant, base)        # the games of an --out file
    report = report_from_games(variant_summary, base_summary, variant, base, origin)   # games just played
    report.comparison["verdicts"]      # compare()'s output, unchanged: the same verdicts as simulate's
    report.sides["ruleset"].totals     # the profiles summed (VP by source, money by round, tiles)

Every statistic comes from `compare.compare` on the paired games, never recomputed here: the
report says what `brass simulate --against` says of the same games. The profiles (`profile.py`)
are only summed into means per game. A file holds one record per (role, seed) that counts (the
first, as `store.read_games` keeps it); seeds played under one ruleset only (an interrupted run)
are left out, and the page says how many. Records of an older brass have no profile: the
sections drawn from profiles then say so instead of a picture (`Side.missing`).

A file is read twice, once for the statistics (brief records, as `brass simulate` reads its
summary) and once to sum the profiles record by record, so that a report of 100,000 games holds
the sums, not every game's profile.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.model import Ruleset
from interpreter.tools.simulate.compare import PRIMARY, compare
from interpreter.tools.simulate.games import Summary
from interpreter.tools.simulate.profile import Profile
from interpreter.tools.simulate.store import (
    Key,
    base_run,
    each_record,
    fingerprint,
    read_games,
    run_parameters,
    upgraded,
)

ROLES = ("ruleset", "against")  # the variant, the base (as in --out files)


@dataclass
class Totals:
    """The profiles of one ruleset's games, summed: divided by `games`, the means per game."""

    games: int = 0
    vp: dict[str, dict[str, float]] = field(default_factory=dict)  # seat -> source -> VP (tiles by industry apart)
    tile_vp: dict[str, dict[str, float]] = field(default_factory=dict)  # seat -> industry -> VP
    rounds: list[tuple[str, int]] = field(default_factory=list)  # (era id, round) of the longest game seen
    money: list[float] = field(default_factory=list)  # per round: the sum over games and seats
    income_level: list[float] = field(default_factory=list)
    reached: list[int] = field(default_factory=list)  # per round: the seats times games that reached it
    built: dict[str, dict[str, float]] = field(default_factory=dict)  # industry -> level -> tiles, all seats
    flipped: dict[str, dict[str, float]] = field(default_factory=dict)

    def add(self, profile: Profile) -> None:
        self.games += 1
        for seat, sources in profile["vp"].items():
            mine = self.vp.setdefault(seat, {})
            for source in ("links", "awards", "shortfall", "other"):
                mine[source] = mine.get(source, 0) + sources[source]
            _add_counts(self.tile_vp.setdefault(seat, {}), sources["tiles"])
        for index, (when, money, level) in enumerate(zip(profile["rounds"], profile["money"],
                                                         profile["income_level"], strict=True)):
            if index == len(self.rounds):
                self.rounds.append((str(when[0]), int(when[1])))
                self.money.append(0.0)
                self.income_level.append(0.0)
                self.reached.append(0)
            self.money[index] += sum(money)
            self.income_level[index] += sum(level)
            self.reached[index] += len(money)
        for seats, totals in ((profile["built"], self.built), (profile["flipped"], self.flipped)):
            for industries in seats.values():
                for industry, levels in industries.items():
                    _add_counts(totals.setdefault(industry, {}), levels)

    def per_game(self, value: float) -> float:
        return value / self.games if self.games else 0.0

    def seat_sources(self, seat: str) -> dict[str, float]:
        """A seat's mean VP per game by source: links, each industry's tiles, awards, other, shortfall."""
        vp, tiles = self.vp.get(seat, {}), self.tile_vp.get(seat, {})
        means = {"links": self.per_game(vp.get("links", 0))}
        means.update({f"tiles:{industry}": self.per_game(points) for industry, points in tiles.items()})
        for source in ("awards", "other", "shortfall"):
            means[source] = self.per_game(vp.get(source, 0))
        return means

    def round_means(self) -> list[tuple[tuple[str, int], float, float]]:
        """Per round reached: (era, round), mean money and mean income level per player."""
        return [(when, money / count, level / count) for when, money, level, count
                in zip(self.rounds, self.money, self.income_level, self.reached, strict=True) if count]


def _add_counts(totals: dict[str, float], counts: dict[str, Any]) -> None:
    for key, count in counts.items():
        totals[key] = totals.get(key, 0) + count


@dataclass
class Side:
    """One ruleset of the comparison: which, its games, and its profiles summed."""

    role: str
    ruleset: Ruleset
    summary: Summary
    totals: Totals

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.ruleset)

    @property
    def missing(self) -> int:
        """Games without a profile (saved by an older brass)."""
        return len(self.summary.games) - self.totals.games


@dataclass
class Origin:
    """Where the games come from and how to play them again: the rulesets as the command line
    named them, the --from file (None: played by this command), the figure judged first."""

    variant: str
    base: str
    path: Path | None = None
    primary: str = PRIMARY
    version: str = ""
    base_from: tuple[Path, ...] = ()  # earlier games of the base, for a control (`--base-from`)


@dataclass
class Report:
    sides: dict[str, Side]  # by role
    comparison: dict[str, Any]  # `compare()`'s output
    origin: Origin
    unpaired: int = 0  # games in the file whose seed was not played under the other ruleset

    @property
    def variant(self) -> Side:
        return self.sides["ruleset"]

    @property
    def base(self) -> Side:
        return self.sides["against"]

    @property
    def seeds(self) -> list[int]:
        return [game.seed for game in self.variant.summary.games]

    def industries(self) -> list[str]:
        """Every industry of either ruleset, the variant's order first."""
        return list(dict.fromkeys([*self.variant.ruleset.industries, *self.base.ruleset.industries]))

    def commands(self) -> list[str]:
        """The `brass` commands that play these games again and report them (every seed from the
        first to the last: when some between were left out, those too)."""
        summary = self.variant.summary
        bots = summary.bots[0] if len(set(summary.bots)) == 1 else ",".join(summary.bots)
        seeds = self.seeds
        simulate = ["brass", "simulate", self.origin.variant, "--against", self.origin.base, "--players",
                    str(summary.players), "--bot", bots, "--games", str(seeds[-1] - seeds[0] + 1), "--seed",
                    str(seeds[0])]
        if summary.checked:
            simulate.append("--check")
        options = ["--primary", self.origin.primary] if self.origin.primary != PRIMARY else []
        options += [word for path in self.origin.base_from for word in ("--base-from", str(path))]
        report = ["brass", "report", self.origin.variant, "--against", self.origin.base, "--from", "runs.jsonl",
                  *options, "--html", "report.html"]
        return [shlex.join([*simulate, *options, "--out", "runs.jsonl"]), shlex.join(report)]

    def contiguous(self) -> bool:
        """Whether the seeds are one run of consecutive numbers (as --seed and --games play them)."""
        seeds = self.seeds
        return seeds == list(range(seeds[0], seeds[0] + len(seeds)))


def report_from_games(variant: Summary, base: Summary, rulesets: Sequence[Ruleset], origin: Origin) -> Report:
    """The report of games just played (each record holds its profile)."""
    sides = {}
    for role, summary, ruleset in zip(ROLES, (variant, base), rulesets, strict=True):
        sides[role] = Side(role, ruleset, summary, _totals(game.profile for game in summary.games))
    return Report(sides, _compare(variant, base, origin, rulesets[1]), origin)


def _totals(profiles: Iterable[Profile | None]) -> Totals:
    totals = Totals()
    for profile in profiles:
        if profile is not None:
            totals.add(profile)
    return totals


def _compare(variant: Summary, base: Summary, origin: Origin, base_ruleset: Ruleset) -> dict[str, Any]:
    others = base_run(origin.base_from, base_ruleset, variant) if origin.base_from else None
    try:
        return compare(variant, base, origin.primary, others)
    except ValueError as error:  # a --primary that is not a figure of these games
        raise BrassError(str(error)) from None


def brass_version() -> str:
    """The installed brass-rules version a report names (empty when run from a bare source tree)."""
    from importlib import metadata

    try:
        return metadata.version("brass-rules")
    except metadata.PackageNotFoundError:
        return ""


# -- a file of `brass simulate --against --out` ----------------------------------------------------

def report_from_file(path: Path, rulesets: Sequence[Ruleset], origin: Origin) -> tuple[Report, str | None]:
    """The report of the games of an --out file, and a warning for a torn last line. The file must
    be a comparison of these two rulesets as they are now (a record of another run, or of a ruleset
    whose files have changed since, is an error naming its line, as `brass simulate` refuses it)."""
    variant, base = rulesets
    run = first_run(path)
    if run.get("against") is None:
        raise BrassError(f"{path} holds a single run of {run.get('ruleset')} (line 1), not a comparison: "
                         f"brass report reads the --out file of `brass simulate VARIANT --against BASE`")
    if (run.get("ruleset"), run.get("against")) != (variant.name, base.name):
        raise BrassError(f"{path} holds a comparison of {run.get('ruleset')} against {run.get('against')} "
                         f"(line 1), not of {variant.name} against {base.name}")
    players, bots, check = run.get("players"), run.get("bots"), run.get("check")
    if not (isinstance(players, int) and isinstance(bots, list) and len(bots) == players
            and all(isinstance(bot, str) for bot in bots) and isinstance(check, bool)):
        raise BrassError(f"line 1 of {path} is not a game record of `brass simulate --out`")
    wanted = run_parameters({"ruleset": variant, "against": base}, players, bots, check)
    folders = {role: ruleset.folders[-1] for role, ruleset in zip(ROLES, rulesets, strict=True) if ruleset.folders}
    found, warning = read_games(path, wanted, brief=True, folders=folders)
    seeds = sorted({seed for role, seed in found if role == "ruleset"} & {seed for role, seed in found
                                                                           if role == "against"})
    if not seeds:
        raise BrassError(f"{path} holds no game played under both {variant.name} and {base.name}: nothing to compare")
    summaries = {role: Summary(ruleset.name, wanted["players"], seeds[0], list(wanted["bots"]), wanted["check"],
                               [found[(role, seed)] for seed in seeds], list(ruleset.actions), rotated=True)
                 for role, ruleset in zip(ROLES, rulesets, strict=True)}
    totals = _file_totals(path, {(role, seed) for role in ROLES for seed in seeds})
    sides = {role: Side(role, ruleset, summaries[role], totals[role])
             for role, ruleset in zip(ROLES, rulesets, strict=True)}
    report = Report(sides, _compare(summaries["ruleset"], summaries["against"], origin, base), origin,
                    unpaired=len(found) - 2 * len(seeds))
    return report, warning


def first_run(path: Path) -> dict[str, Any]:
    """The run parameters of the file's first record; an error when it has none."""
    if not path.is_file():
        raise BrassError(f"--from {path}: {'it is a folder' if path.is_dir() else 'no such file'}; give the "
                         "--out file of `brass simulate VARIANT --against BASE`")
    for number, data in each_record(path):
        if data is not None:
            return upgraded(data["run"], path, number)
    raise BrassError(f"{path} holds no games")


def _file_totals(path: Path, wanted: set[Key]) -> dict[str, Totals]:
    """The profiles of the `wanted` games summed by role, reading the file record by record (the
    first record of a (role, seed) counts, as `read_games` keeps it)."""
    totals = {role: Totals() for role in ROLES}
    for number, data in each_record(path):
        if data is None:
            break
        key = (data["role"], data["seed"])
        if key not in wanted:
            continue
        wanted.discard(key)
        profile = data.get("profile")
        if profile is None:
            continue
        try:
            totals[data["role"]].add(profile)
        except (KeyError, TypeError, ValueError, AttributeError):
            raise BrassError(f"line {number} of {path}: its profile is not one `brass simulate --out` "
                             "writes") from None
    return totals

