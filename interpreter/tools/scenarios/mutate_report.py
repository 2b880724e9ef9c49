"""The report of `brass verify --mutate`: the score, each surviving mutant (located, what changed,
the rule IDs cited there), the listed equivalents apart with their reasons, and per rule ID the
mutants, killed and surviving (a rich table); or all of it as JSON (`--json`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from interpreter.tools.scenarios.mutants import Mutant

__all__ = ["NO_RULE", "Report", "print_json", "print_text"]

NO_RULE = "(no rule cited)"


@dataclass
class Report:
    ruleset: str
    generated: int  # every mutant of the ruleset
    sample: int  # every sample-th was run
    chosen: Sequence[Mutant]
    verdicts: Sequence[Any]  # mutate.Verdict, in the order of `chosen`
    listed: dict[int, str]  # equivalents: mutant number -> reason
    inherited: int = 0  # a variant's mutants of its base's values, not run (--inherited runs them)
    unjudged: int = 0  # chosen, but left when the --budget was spent
    rows: list[tuple[Mutant, Any]] = field(init=False)

    def __post_init__(self) -> None:
        self.rows = list(zip(self.chosen, self.verdicts, strict=True))

    def count(self, status: str) -> int:
        return sum(1 for _, v in self.rows if v.status == status)

    @property
    def equivalents(self) -> list[tuple[Mutant, Any]]:
        return [(m, v) for m, v in self.rows if v.status == "survived" and m.number in self.listed]

    @property
    def unlisted_survivors(self) -> list[tuple[Mutant, Any]]:
        return [(m, v) for m, v in self.rows if v.status == "survived" and m.number not in self.listed]

    @property
    def stale(self) -> list[Mutant]:
        """Listed as equivalent, yet killed: the entry is out of date."""
        return [m for m, v in self.rows if v.status != "survived" and m.number in self.listed]

    @property
    def score(self) -> float:
        """Caught (by the loader or a scenario) over the mutants that are not listed equivalents."""
        judged = len(self.rows) - len(self.equivalents)
        return 100.0 * (self.count("loader") + self.count("killed")) / judged if judged else 100.0

    def per_rule(self) -> dict[str, dict[str, int]]:
        table: dict[str, dict[str, int]] = {}
        for mutant, verdict in self.rows:
            for rid in mutant.rules or (NO_RULE,):
                row = table.setdefault(rid, {"mutants": 0, "killed": 0, "surviving": 0, "equivalent": 0})
                row["mutants"] += 1
                if verdict.status != "survived":
                    row["killed"] += 1
                elif mutant.number in self.listed:
                    row["equivalent"] += 1
                else:
                    row["surviving"] += 1
        return dict(sorted(table.items()))


def print_text(report: Report, out: TextIO) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(file=out, highlight=False, soft_wrap=True, width=120)
    survivors = report.unlisted_survivors
    if survivors:
        console.print(f"surviving mutants ({len(survivors)}): no scenario noticed these changes")
    for mutant, _ in survivors:
        console.print(Text(f"  {mutant.pos}: {mutant.kind}: {mutant.change}"))
        console.print(Text(f"      rules cited there: {', '.join(mutant.rules) or 'none'}; id {mutant.id}"))
    if report.equivalents:
        console.print(f"\nlisted equivalents that survive ({len(report.equivalents)}):")
    for mutant, _ in report.equivalents:
        console.print(Text(f"  {mutant.pos}: {mutant.kind}: {mutant.change}\n"
                           f"      reason: {report.listed[mutant.number]}"))
    for mutant in report.stale:
        console.print(Text(f"note: {mutant.pos} ({mutant.change}) is listed as equivalent but was killed: "
                           "remove the entry"))
    table = Table(box=None, title=f"mutants per rule ID ({report.ruleset})", title_justify="left")
    for column in ("rule", "mutants", "killed", "surviving", "equivalent"):
        table.add_column(column, justify="left" if column == "rule" else "right", no_wrap=True)
    for rid, row in report.per_rule().items():
        table.add_row(rid, *(str(row[k]) for k in ("mutants", "killed", "surviving", "equivalent")))
    console.print(table)
    console.print(_summary(report))


def _summary(report: Report) -> str:
    run = len(report.rows)
    chosen = run + report.unjudged
    which = f" (every {report.sample}th of {report.generated})" if report.sample > 1 else \
        f" (of {report.generated})" if chosen < report.generated else ""
    own = f" (its own files; {report.inherited} inherited values not mutated: --inherited)" if report.inherited else ""
    spent = (f"; the budget was spent with {report.unjudged} of the {chosen} chosen left unjudged (those judged are "
             f"spread over the whole ruleset; the score is theirs)") if report.unjudged else ""
    return (f"{run} mutants{which} of {report.ruleset}{own}: {report.count('loader')} caught by the loader, "
            f"{report.count('killed')} killed by a scenario, {len(report.unlisted_survivors)} surviving, "
            f"{len(report.equivalents)} listed equivalent; mutation score {report.score:.1f}%{spent}")


def print_json(report: Report, out: TextIO) -> None:
    mutants = []
    for mutant, verdict in report.rows:
        item: dict[str, Any] = {"number": mutant.number, "id": mutant.id, "at": str(mutant.pos), "kind": mutant.kind,
                                "old": mutant.old, "new": mutant.new, "change": mutant.change,
                                "rules": list(mutant.rules), "status": verdict.status, "by": verdict.by}
        if mutant.number in report.listed:
            item["equivalent"] = report.listed[mutant.number]
        mutants.append(item)
    data = {"ruleset": report.ruleset, "generated": report.generated, "inherited": report.inherited,
            "sample": report.sample, "unjudged": report.unjudged, "complete": report.unjudged == 0,
            "run": len(report.rows), "loader": report.count("loader"), "killed": report.count("killed"),
            "surviving": len(report.unlisted_survivors), "equivalent": len(report.equivalents),
            "score": round(report.score, 2), "mutants": mutants, "rules": report.per_rule()}
    print(json.dumps(data, indent=2, ensure_ascii=False), file=out)
