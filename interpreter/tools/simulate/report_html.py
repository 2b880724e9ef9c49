"""The balance report as one self-contained HTML page (`brass report ... --html FILE`).

    page = report_page(report)     # `report.Report`: the games, compare()'s output, the profiles

One file: its style is inline, its pictures inline SVG (`report_svg`), and it has no script and
fetches nothing (no font, image or style sheet from elsewhere), so it opens offline, can be
mailed, and shows the same in any browser. Each section has a heading and an id (`SECTIONS`),
in this order: what was compared, the verdicts, VP by source, win rate by seat, the action mix,
game length, money and income over the rounds, tiles built and flipped. The numbers are
`compare()`'s, as `brass simulate --against` prints them; the profile sections show means per
game, and say why they are not drawn when the games have no profile (a file of an older brass).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from interpreter.tools.simulate.compare import variance_sentence
from interpreter.tools.simulate.report import Report, Side
from interpreter.tools.simulate.report_svg import (
    Segment,
    Series,
    grouped_bars,
    histograms,
    intervals,
    lines,
    seating,
    stacked_bars,
    strip,
)
from interpreter.tools.simulate.stats import decimals

SECTIONS = {"compared": "What was compared", "verdicts": "Verdicts", "vp-sources": "VP by source",
            "win-rate": "Win rate by seat", "action-mix": "Action mix", "game-length": "Game length",
            "money-income": "Money and income over the rounds", "tiles": "Tiles built and flipped"}
COLOURS = {"ruleset": "#1f77b4", "against": "#ff7f0e"}  # the variant, the base (as `--plot` draws them)
SOURCE_COLOURS = {"links": "#8c8c8c", "awards": "#bcbd22", "other": "#9467bd", "shortfall": "#d62728"}
SPARE_COLOURS = ("#2ca02c", "#17becf", "#e377c2", "#8c564b", "#1f3b73", "#ffbb78", "#98df8a", "#c5b0d5")
STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; padding-bottom: .2em; }
table { border-collapse: collapse; margin: .8em 0; font-size: .9em; }
th, td { padding: .2em .6em; border-bottom: 1px solid #eee; text-align: right; vertical-align: middle; }
th:first-child, td:first-child, th:last-child, td:last-child, table.text td { text-align: left; }
figure { margin: 1em 0; } figcaption { font-weight: bold; }
pre { background: #f5f5f5; padding: .6em; overflow-x: auto; }
.primary { font-size: 1.15em; } .missing { background: #fff4e0; border-left: 4px solid #e0a030; padding: .5em; }
.yes { color: #c0392b; font-weight: bold; } .note { color: #555; font-size: .9em; }
svg { display: block; margin: .5em 0; max-width: 100%; height: auto; }
td svg { display: inline; margin: 0; }
"""


def report_page(report: Report) -> str:
    """The whole page."""
    variant, base = report.variant, report.base
    title = f"{variant.ruleset.title} against {base.ruleset.title}"
    body = [f"<h1>Balance report: {escape(title)}</h1>",
            f'<p class="primary">{escape(_primary_sentence(report))}</p>',
            "<nav><p>" + " · ".join(f'<a href="#{key}">{escape(name)}</a>' for key, name in SECTIONS.items())
            + "</p></nav>"]
    for key, draw in BUILDERS.items():
        body.append(f'<section id="{key}">\n<h2>{escape(SECTIONS[key])}</h2>\n{draw(report)}\n</section>')
    body.append(f'<p class="note">Written by brass {escape(report.origin.version or "(version unknown)")}; '
                "this page is one file: no script, nothing fetched from elsewhere.</p>")
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{escape(title)}</title>\n'
            f"<style>{STYLE}</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n")


def _primary_sentence(report: Report) -> str:
    row = report.comparison["figures"][report.comparison["primary"]]
    return (f"{row['label']}: {row['verdict']} ({report.comparison['games']} paired games, "
            f"{report.variant.summary.players} players).")


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], raw: bool = False) -> str:
    """A table; cells are escaped unless `raw` (cells that hold markup made here)."""
    def cell(text: str) -> str:
        return text if raw else escape(text)

    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{cell(c)}</td>" for c in row) + "</tr>\n" for row in rows)
    return f"<table>\n<tr>{head}</tr>\n{body}</table>"


def _names(report: Report) -> list[str]:
    return [report.variant.ruleset.name, report.base.ruleset.name]


def _series(report: Report, values: Callable[[Side], Sequence[float]]) -> list[Series]:
    return [Series(side.ruleset.name, COLOURS[side.role], values(side)) for side in (report.variant, report.base)]


# -- what was compared -----------------------------------------------------------------------------

def _compared(report: Report) -> str:
    variant, base = report.variant, report.base
    rows = [[label, read(variant), read(base)] for label, read in (
        ("ruleset", lambda s: s.ruleset.name), ("title", lambda s: s.ruleset.title),
        ("version", lambda s: str(s.ruleset.version)), ("fingerprint", lambda s: s.fingerprint),
        ("folder", lambda s: s.ruleset.folders[-1] if s.ruleset.folders else "(built in)"))]
    summary = variant.summary
    seeds = report.seeds
    facts = [
        f"{summary.players} players; {len(seeds)} paired games: every seed played under both rulesets, "
        f"seeds {_seed_ranges(seeds)}.",
        f"Bots, by seat before rotation: {', '.join(summary.bots)}. The game with seed s seats this list "
        f"rotated by s mod {summary.players}, the same under both rulesets, so each bot sits in each seat "
        "equally often; each bot's own random choices come from a seed made of the game's seed and its seat.",
        _bot_options(summary.bots),
        "Invariants checked after every decision (--check)." if summary.checked else "",
        _origin(report),
    ]
    if report.unpaired:
        facts.append(f"{report.unpaired} game(s) of the file were played under one ruleset only (an interrupted "
                     "run) and are left out.")
    commands = "\n".join(report.commands())
    if not report.contiguous():
        facts.append(f"The seeds are not consecutive: the commands below play every seed from {seeds[0]} to "
                     f"{seeds[-1]}, {seeds[-1] - seeds[0] + 1 - len(seeds)} more than this report holds.")
    items = "".join(f"<li>{escape(fact)}</li>" for fact in facts if fact)
    first = seeds[: summary.players]
    picture = seating([f"seed {seed}" for seed in first], [f"seat {n}" for n in range(1, summary.players + 1)],
                      [_seated(summary.bots, seed) for seed in first], "who sits where in the first games")
    facts_table = _table(["", "variant", "base"], rows).replace("<table>", '<table class="text">', 1)
    return (facts_table + f"\n<ul>{items}</ul>\n"
            "<p>To play these games again and report them (the same seeds give the same games with the same "
            f"rulesets, fingerprints and brass version):</p>\n<pre><code>{escape(commands)}</code></pre>\n{picture}")


def _seated(bots: Sequence[str], seed: int) -> list[str]:
    shift = seed % len(bots)
    return list(bots[shift:]) + list(bots[:shift])


def _seed_ranges(seeds: Sequence[int]) -> str:
    """`0..39`, or `0..9, 15..20` when some are missing."""
    ranges: list[list[int]] = []
    for seed in seeds:
        if ranges and seed == ranges[-1][1] + 1:
            ranges[-1][1] = seed
        else:
            ranges.append([seed, seed])
    return ", ".join(str(a) if a == b else f"{a}..{b}" for a, b in ranges)


def _bot_options(bots: Sequence[str]) -> str:
    with_options = sorted({bot for bot in bots if ":" in bot})
    if not with_options:
        return "The bots take no options here: each plays with its built-in parameters (docs/bots.md)."
    return "Bot options: " + "; ".join(f"{bot.partition(':')[0]} with {bot.partition(':')[2]}"
                                       for bot in with_options) + " (docs/bots.md)."


def _origin(report: Report) -> str:
    path = report.origin.path
    if path is None:
        return "The games were played by this command."
    return f"The games were read from {path} (saved by brass simulate --out), not played again."


# -- verdicts --------------------------------------------------------------------------------------

def _verdicts(report: Report) -> str:
    comparison = report.comparison
    primary = comparison["figures"][comparison["primary"]]
    differ = comparison["differ"]
    lines_ = [f'<p class="primary"><b>{escape(primary["label"])}</b>, judged alone (significant when its 95% '
              f'interval excludes 0): {escape(primary["verdict"])}.</p>',
              f"<p>{differ['significant']} of the {differ['figures']} other figures differ after Holm's correction; "
              f"when nothing changed, the chance that any does is at most 5% (one test per figure at 95% would "
              f"declare about {differ['by_chance_uncorrected']:g} of them by chance).</p>"]
    removed = variance_sentence(primary)
    if removed is not None:
        lines_.append(f"<p>{escape(removed[0].upper() + removed[1:])}.</p>")
    rows = []
    for row in comparison["figures"].values():
        low, high = row["interval"] or (None, None)
        rows.append([escape(row["label"]), f"{row['variant']:.2f}", f"{row['base']:.2f}", _difference(row),
                     strip(low, high, row["difference"], row["significant"]), _p(row["p_value"]),
                     _p(row["p_holm"]) if not row["primary"] else "(alone)",
                     '<span class="yes">yes</span>' if row["significant"] else "",
                     escape(row["verdict"])])
    header = ["figure", report.variant.ruleset.name, report.base.ruleset.name, "difference (95%)", "interval",
              "p", "Holm p", "significant", "verdict"]
    lines_.append(_table(header, rows, raw=True))
    control = comparison.get("control")
    method = comparison["method"] + ("" if control is None else
                                     f" With {control['base_games']} more games of the base: {control['method']}.")
    lines_.append(f'<p class="note">{escape(method)} These are the verdicts <code>brass simulate '
                  "--against</code> gives for the same games, judged once on all of them; a run stopped by "
                  "<code>--until-decided</code> was decided by its always-valid interval, which that command "
                  "printed.</p>")
    return "\n".join(lines_)


def _difference(row: dict[str, Any]) -> str:
    """The difference ± the half-width of its 95% interval, as `brass simulate` prints it."""
    interval = row["interval"]
    if interval is None:
        return f"{row['difference']:+.2f} ± ?"
    half = (interval[1] - interval[0]) / 2
    digits = max(2, decimals(half))
    return f"{row['difference']:+.{digits}f} ± {half:.{digits}f}"


def _p(value: float | None) -> str:
    return "" if value is None else f"{value:.3g}" if value >= 0.001 else "<0.001"


# -- the profile sections --------------------------------------------------------------------------

def _missing(report: Report) -> str | None:
    """Why the profile sections cannot be drawn (None: they can), or a note that part is missing."""
    empty = [side for side in (report.variant, report.base) if side.totals.games == 0]
    if empty:
        where = f"in {report.origin.path} " if report.origin.path else ""
        return ('<p class="missing">Not drawn: none of the games ' + escape(where) + "of "
                + escape(" and ".join(side.ruleset.name for side in empty)) + " has a profile (VP by source, money "
                "and income by round, tiles built and flipped). The file was written by an older brass, which did "
                "not record it. To draw this section, play the games again with this brass: <code>"
                + escape(report.commands()[0]) + "</code>, then report that file.</p>")
    return None


def _partial(report: Report) -> str:
    notes = [f"{side.totals.games} of the {len(side.summary.games)} games of {side.ruleset.name}"
             for side in (report.variant, report.base) if side.missing]
    if not notes:
        return ""
    return (f'<p class="missing">Drawn from {escape(" and ".join(notes))}: the others were saved by an older '
            "brass, without a profile.</p>")


def _vp_sources(report: Report) -> str:
    missing = _missing(report)
    if missing:
        return missing
    industries = report.industries()
    names = {iid: side.ruleset.industries[iid].name for side in (report.base, report.variant)
             for iid in side.ruleset.industries}
    segments = [Segment("links", "links", SOURCE_COLOURS["links"])]
    segments += [Segment(f"tiles:{iid}", names.get(iid, iid), _industry_colour(report, iid, n))
                 for n, iid in enumerate(industries)]
    segments += [Segment(key, label, SOURCE_COLOURS[key]) for key, label in (
        ("awards", "awards (end scoring)"), ("other", "other (during actions)"), ("shortfall", "lost to shortfall"))]
    seats = [str(seat) for seat in range(1, report.variant.summary.players + 1)]
    values = {(f"seat {seat}", side.ruleset.name): side.totals.seat_sources(seat)
              for seat in seats for side in (report.variant, report.base)}
    picture = stacked_bars([f"seat {seat}" for seat in seats], _names(report), segments, values, "VP per game",
                           "mean VP per game by source, per seat and ruleset")
    used = [s for s in segments if any(v.get(s.key) for v in values.values())]
    rows = []
    for seat in seats:
        for side in (report.variant, report.base):
            sources = values[(f"seat {seat}", side.ruleset.name)]
            vp = side.summary.vp_by_seat()[int(seat)]
            rows.append([f"seat {seat}", side.ruleset.name, *(f"{sources.get(s.key, 0.0):.2f}" for s in used),
                         f"{sum(sources.values()):.2f}", f"{sum(vp) / len(vp):.2f}" if not side.missing else "–"])
    table = _table(["seat", "ruleset", *(s.label for s in used), "sum", "mean VP"], rows)
    return (_partial(report) + picture + table +
            '<p class="note">Links: the VP of the seat\'s links at each era\'s end. An industry: its flipped tiles '
            "scored at each era's end (and any end-of-game tile scoring). Awards: the ruleset's award steps, such as "
            "VP for money at the end. Other: VP no scoring event reports, gained during actions (a bonus for "
            "selling, say). Lost to shortfall: VP lost to unpaid income. The sources add up to the seat's final VP "
            "in every game.</p>")


def _industry_colour(report: Report, iid: str, index: int) -> str:
    for side in (report.variant, report.base):
        industry = side.ruleset.industries.get(iid)
        if industry is not None and industry.colour:
            return industry.colour
    return SPARE_COLOURS[index % len(SPARE_COLOURS)]


def _money_income(report: Report) -> str:
    missing = _missing(report)
    if missing:
        return missing
    rounds = {side.role: side.totals.round_means() for side in (report.variant, report.base)}
    longest = max(rounds.values(), key=len)
    eras = {era.id: era.name for side in (report.base, report.variant) for era in side.ruleset.eras}
    labels = [str(number) for (_, number), _, _ in longest]
    marks = [(i, eras.get(era, era)) for i, ((era, _), _, _) in enumerate(longest)
             if i == 0 or longest[i - 1][0][0] != era]
    money = lines(labels, _series(report, lambda side: [m for _, m, _ in rounds[side.role]]),
                  "money per player (£)", "mean money per player at the end of each round", marks)
    income = lines(labels, _series(report, lambda side: [lv for _, _, lv in rounds[side.role]]),
                   "income level per player", "mean income level per player at the end of each round", marks)
    def cell(role: str, index: int, column: int) -> str:
        return f"{rounds[role][index][column]:.2f}" if index < len(rounds[role]) else "–"

    rows = [[f"{era} {label}", *(cell(role, i, column) for column in (1, 2) for role in ("ruleset", "against"))]
            for i, (label, era) in enumerate(zip(labels, _era_of_each(longest, eras), strict=True))]
    names = _names(report)
    table = _table(["round", f"money, {names[0]}", f"money, {names[1]}", f"income level, {names[0]}",
                    f"income level, {names[1]}"], rows)
    return (_partial(report) + money + income + table +
            '<p class="note">At the end of each round, once its income is paid: the mean over every player of '
            "every game that reached that round.</p>")


def _era_of_each(rounds: Sequence[tuple[tuple[str, int], float, float]], eras: dict[str, str]) -> list[str]:
    return [eras.get(era, era) for (era, _), _, _ in rounds]


def _tiles(report: Report) -> str:
    missing = _missing(report)
    if missing:
        return missing
    names = {iid: side.ruleset.industries[iid].name for side in (report.base, report.variant)
             for iid in side.ruleset.industries}
    keys = [(iid, level) for iid in report.industries()
            for level in sorted({lv for side in (report.variant, report.base)
                                 for lv in side.totals.built.get(iid, {})}, key=_level_order)]
    labels = [f"{names.get(iid, iid)} {level}" for iid, level in keys]

    def per_game(side: Side, counts: dict[str, dict[str, float]]) -> list[float]:
        return [side.totals.per_game(counts.get(iid, {}).get(level, 0)) for iid, level in keys]

    built = grouped_bars(labels, _series(report, lambda side: per_game(side, side.totals.built)),
                         "tiles per game", "tiles built per game (all seats), by industry and level")
    flipped = grouped_bars(labels, _series(report, lambda side: per_game(side, side.totals.flipped)),
                           "tiles per game", "tiles flipped per game (all seats), by industry and level")
    columns = {side.role: (per_game(side, side.totals.built), per_game(side, side.totals.flipped))
               for side in (report.variant, report.base)}
    rows = [[label, *(f"{columns[role][kind][i]:.2f}" for kind in (0, 1) for role in ("ruleset", "against"))]
            for i, label in enumerate(labels)]
    names_ = _names(report)
    table = _table(["industry and level", f"built, {names_[0]}", f"built, {names_[1]}", f"flipped, {names_[0]}",
                    f"flipped, {names_[1]}"], rows)
    return _partial(report) + built + flipped + table


def _level_order(level: str) -> tuple[int, str]:
    return (int(level), level) if level.isdigit() else (10**6, level)


# -- the sections read from every game's record ----------------------------------------------------

def _win_rate(report: Report) -> str:
    rates = report.comparison["win_rate_by_seat"]
    seats = list(rates["variant"])
    sides = (("variant", report.variant), ("base", report.base))
    series = [Series(side.ruleset.name, COLOURS[side.role], [rates[key][seat]["rate"] for seat in seats])
              for key, side in sides]
    bounds = [[(rates[key][seat]["low"], rates[key][seat]["high"]) for seat in seats] for key, _ in sides]
    players = report.variant.summary.players
    picture = intervals([f"seat {seat}" for seat in seats], series, bounds, 1 / players, "share of the wins",
                        "win rate by seat with its 95% Wilson interval")
    rows = [[f"seat {seat}", *(_rate(rates[key][seat]) for key, _ in sides)] for seat in seats]
    return (picture + _table(["seat", *_names(report)], rows) +
            f'<p class="note">A win shared by k seats counts 1/k for each; the dashed line is an even share, '
            f"1/{players}. The bots rotate through the seats, so a seat's rate is that seat's advantage, not a "
            "bot's.</p>")


def _rate(rate: dict[str, float]) -> str:
    return f"{rate['rate']:.2f} ({rate['low']:.2f}–{rate['high']:.2f})"


def _action_mix(report: Report) -> str:
    figures = report.comparison["figures"]
    kinds = [key.removeprefix("actions_") for key in figures if key.startswith("actions_")]
    picture = grouped_bars(kinds, [Series(side.ruleset.name, COLOURS[side.role],
                                          [figures[f"actions_{kind}"][column] for kind in kinds])
                                   for column, side in (("variant", report.variant), ("base", report.base))],
                           "actions per game", "mean number of each action per game")
    rows = [[kind, f"{figures[f'actions_{kind}']['variant']:.2f}", f"{figures[f'actions_{kind}']['base']:.2f}",
             _difference(figures[f"actions_{kind}"]), figures[f"actions_{kind}"]["verdict"]] for kind in kinds]
    return picture + _table(["action", *_names(report), "difference (95%)", "verdict (Holm)"], rows)


def _game_length(report: Report) -> str:
    parts = []
    for key, label in (("actions", "actions per game"), ("decisions", "decisions per game")):
        series = [Series(side.ruleset.name, COLOURS[side.role], [getattr(game, key) for game in side.summary.games])
                  for side in (report.variant, report.base)]
        parts.append(histograms(series, label, f"{label}: how many games had each length"))
    rows = []
    for key in ("actions", "decisions"):
        for side in (report.variant, report.base):
            values = [getattr(game, key) for game in side.summary.games]
            rows.append([key, side.ruleset.name, str(min(values)), f"{sum(values) / len(values):.2f}",
                         str(max(values))])
    figures = report.comparison["figures"]
    notes = "; ".join(f"{figures[key]['label']}: {figures[key]['verdict']}" for key in ("actions", "decisions"))
    return ("\n".join(parts) + _table(["per game", "ruleset", "min", "mean", "max"], rows) +
            f'<p class="note">An action is a turn\'s action; a decision is every choice made, answers to questions '
            f"included. {escape(notes)}.</p>")


BUILDERS: dict[str, Callable[[Report], str]] = {
    "compared": _compared, "verdicts": _verdicts, "vp-sources": _vp_sources, "win-rate": _win_rate,
    "action-mix": _action_mix, "game-length": _game_length, "money-income": _money_income, "tiles": _tiles,
}
