"""`brass simulate --plot FILE`: the run as pictures, in one PNG, SVG or PDF file.

Three panels: the VP distribution of each seat (a box per seat; with --against, the variant's
and the base's boxes side by side), the action mix (the mean number of each action per game),
and the length of a game (a histogram of the decisions per game; the actions per game are set
by the rules, the decisions are not). Matplotlib is an optional extra (`pip install
'brass-rules[plot]'`), imported only here and only when --plot is given; its figure is drawn
without pyplot, so no window system or backend setting is involved.

The file is the same for the same games: the SVG's ids come from a fixed salt and no date is
written into any format, so a plot can be kept under version control beside its JSON.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from interpreter.ruleset.errors import BrassError
from interpreter.tools.simulate.games import Summary

INSTALL_HINT = "--plot needs matplotlib, which is not installed here: pip install 'brass-rules[plot]'"
FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
COLOURS = ("#1f77b4", "#ff7f0e")  # the variant (or the only run), the base
STABLE = {"svg.hashsalt": "brass-simulate", "svg.fonttype": "none", "path.simplify": True}
NO_DATE = {"png": {"Software": None}, "svg": {"Date": None}, "pdf": {"CreationDate": None}}


def check_plot_path(path: str) -> str:
    """The file's format from its name, and matplotlib there to draw it; checked before any game."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise BrassError(f"--plot {path}: the file name must end in {', '.join(FORMATS)} (the picture's format)")
    if Path(path).is_dir():
        raise BrassError(f"--plot {path} is a folder; give a file such as plot.svg")
    import_matplotlib()
    return FORMATS[suffix]


def import_matplotlib() -> ModuleType:
    """`matplotlib.figure`, or the error that says how to install it."""
    try:  # by name: the type checker need not know matplotlib, which may be missing
        importlib.import_module("matplotlib")
        return importlib.import_module("matplotlib.figure")
    except ImportError:
        raise BrassError(INSTALL_HINT) from None


def write_plot(path: str, result: Summary, against: Summary | None = None) -> None:
    """Draw the run (and its base, with --against) into `path`."""
    form = check_plot_path(path)
    matplotlib = importlib.import_module("matplotlib")
    runs = [result] if against is None else [result, against]
    with matplotlib.rc_context(STABLE):
        figure = import_matplotlib().Figure(figsize=(11, 9), layout="constrained")
        top, bottom = figure.subfigures(2, 1, height_ratios=[1, 1])
        _vp_by_seat(top.subplots(), runs)
        mix, length = bottom.subplots(1, 2, width_ratios=[3, 2])
        _action_mix(mix, runs)
        _game_length(length, runs)
        figure.suptitle(_title(result, against))
        try:
            figure.savefig(path, format=form, metadata=NO_DATE[form])
        except OSError as error:
            raise BrassError(f"cannot write {path}: {error.strerror or error}") from None


def _title(result: Summary, against: Summary | None) -> str:
    first, last = result.seed, result.seed + len(result.games) - 1
    who = result.ruleset if against is None else f"{result.ruleset} against {against.ruleset}"
    return (f"{who}: {len(result.games)} game(s), {result.players} players, seeds {first}..{last}, "
            f"bots {','.join(result.bots)}{', seats rotated' if result.rotated else ''}")


def _vp_by_seat(axes: Any, runs: Sequence[Summary]) -> None:
    """A box per seat (and per run): the median, the quartiles, the whiskers to 1.5 IQR, the mean."""
    seats = range(1, runs[0].players + 1)
    width = 0.8 / len(runs)
    for index, run in enumerate(runs):
        vp = run.vp_by_seat()
        positions = [seat - 0.4 + width * (index + 0.5) for seat in seats]
        boxes = axes.boxplot([vp[seat] for seat in seats], positions=positions, widths=width * 0.9,
                             patch_artist=True, showmeans=True, manage_ticks=False,
                             medianprops={"color": "black"})
        for box in boxes["boxes"]:
            box.set(facecolor=COLOURS[index], alpha=0.45)
        axes.plot([], [], color=COLOURS[index], linewidth=8, alpha=0.45, label=run.ruleset)  # the legend's key
    axes.set_xticks(list(seats), [f"seat {seat}" for seat in seats])
    axes.set_ylabel("VP at the end of the game")
    axes.set_title("VP per seat (box: quartiles, line: median, triangle: mean)")
    if len(runs) > 1:
        axes.legend()


def _action_mix(axes: Any, runs: Sequence[Summary]) -> None:
    """The mean number of each kind of action per game, a bar per run."""
    kinds = list(dict.fromkeys(kind for run in runs for kind in run.action_kinds))
    width = 0.8 / len(runs)
    for index, run in enumerate(runs):
        means = run.actions_by_kind(kinds)
        axes.bar([k - 0.4 + width * (index + 0.5) for k in range(len(kinds))], [means[kind] for kind in kinds],
                 width=width, color=COLOURS[index], label=run.ruleset)
    axes.set_xticks(range(len(kinds)), kinds)
    axes.set_ylabel("actions per game (mean)")
    axes.set_title("action mix")
    if len(runs) > 1:
        axes.legend()


def _game_length(axes: Any, runs: Sequence[Summary]) -> None:
    """A histogram of the decisions per game, the runs on the same bins."""
    lengths = [[game.decisions for game in run.games] for run in runs]
    low, high = min(min(values) for values in lengths), max(max(values) for values in lengths)
    bins = min(20, max(1, high - low + 1))
    for index, (run, values) in enumerate(zip(runs, lengths, strict=True)):
        axes.hist(values, bins=bins, range=(low - 0.5, high + 0.5), color=COLOURS[index], alpha=0.55,
                  label=run.ruleset)
    axes.yaxis.get_major_locator().set_params(integer=True)  # a count of games
    axes.set_xlabel("decisions per game")
    axes.set_ylabel("games")
    axes.set_title("game length")
    if len(runs) > 1:
        axes.legend()
