"""`brass lint [RULESET]`: likely mistakes in a ruleset that loads.

A ruleset that `brass check` accepts can still hold a mistake that changes nothing the loader can
see: a level missing from an industry's tiles, a town no line reaches, a misspelt word compared
as text. Each such finding is a warning with a stable code, located where the designer would fix
it:

    rulesets/mine/industries.yaml:12:7: warning W101: the tiles of 'cotton' skip level 3 (levels 1, 2, 4)

The codes (docs/lint.md):

    W101  an industry's tile levels have a gap
    W102  a location no link reaches
    W103  an industry no slot or card can build
    W104  a word compared with a field that has known values, and is none of them
    W105  a rule ID declared, cited nowhere in the ruleset and by no scenario
    W106  a text names an amount (£N) that is not the data's
    W107  a text names a place or an industry that this ruleset does not have
    W108  a precondition that names no `rule:`, so its refusal cites no rule
    W109  a condition naming eras, in a ruleset with an era no condition names
    W110  a text names a number (cards discarded, a repeat's range, an amount) the data contradicts

`brass check --strict` runs the same checks and counts every warning as an error.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from interpreter.ruleset.model import Requirement, Ruleset
from interpreter.tools.authoring.lint_eras import era_findings
from interpreter.tools.authoring.lint_findings import Finding, at
from interpreter.tools.authoring.lint_numbers import number_findings
from interpreter.tools.authoring.lint_texts import text_findings
from interpreter.tools.authoring.lint_words import found_in, word_findings

__all__ = ["CODES", "Finding", "lint"]

CODES = {
    "W101": "tile levels with a gap",
    "W102": "a location no link reaches",
    "W103": "an industry nothing can build",
    "W104": "an unknown word compared with a field",
    "W105": "a rule cited nowhere",
    "W106": "a text's amount differs from the data",
    "W107": "a text names what the ruleset lacks",
    "W108": "a precondition citing no rule",
    "W109": "an era no era condition names",
    "W110": "a text's number differs from the data",
}


def lint(ruleset: Ruleset, scenarios: Sequence[Path] | None = None) -> list[Finding]:
    """Every warning about a loaded ruleset, in file, line and column order. `scenarios` are the
    folders searched for scenarios citing a rule (default: the one next to the rulesets)."""
    found = [*_tile_gaps(ruleset), *_unlinked(ruleset), *_unbuildable(ruleset), *word_findings(ruleset),
             *text_findings(ruleset, scenarios), *_uncited_requirements(ruleset), *era_findings(ruleset),
             *number_findings(ruleset)]
    return sorted(dict.fromkeys(found), key=_order)


def _order(finding: Finding) -> tuple[Any, ...]:
    pos = finding.pos
    return (pos.file, pos.line, pos.col, finding.code) if pos else ("", 0, 0, finding.code)


# -- W101: a gap in an industry's tile levels ------------------------------------------------------

def _tile_gaps(ruleset: Ruleset) -> Iterator[Finding]:
    for industry, specs in ruleset.tiles.items():
        levels = [spec.level for spec in specs]
        missing = [level for level in range(1, max(levels, default=0) + 1) if level not in levels]
        if not missing:
            continue
        shown = ", ".join(map(str, missing))
        yield Finding(at(ruleset, ("tiles", industry), key=True), "W101",
                      f"the tiles of '{industry}' skip level{'s' if len(missing) > 1 else ''} {shown} "
                      f"(levels {', '.join(map(str, levels))}); a Build takes the lowest level left, so the "
                      "numbering is what players read")


# -- W102: a location no link reaches --------------------------------------------------------------

def _unlinked(ruleset: Ruleset) -> Iterator[Finding]:
    reached = {end for link in ruleset.links.values() for end in link.ends}
    for lid, location in ruleset.locations.items():
        if lid not in reached:
            kind = location.kind.replace("_", " ")
            yield Finding(at(ruleset, ("locations", lid), key=True), "W102",
                          f"{kind} '{lid}' is at the end of no link: no network reaches it, and nothing "
                          "there is connected to anything")


# -- W103: an industry no slot or card can build ---------------------------------------------------

def _unbuildable(ruleset: Ruleset) -> Iterator[Finding]:
    for iid in ruleset.industries:
        places = [loc for loc in ruleset.locations.values() if any(iid in slot.industries for slot in loc.slots)]
        where = at(ruleset, ("industries", iid), key=True)
        if not places:
            yield Finding(where, "W103", f"no slot shows the industry '{iid}': it can never be built")
        elif not _some_card_builds(ruleset, iid, places):
            yield Finding(where, "W103", f"no card can build the industry '{iid}': no industry card shows it, "
                                         "and no location card or wild card names a place with its slot")


def _some_card_builds(ruleset: Ruleset, iid: str, places: list[Any]) -> bool:
    """An industry card showing it, a location card of a place with its slot, or a wild card for one."""
    in_deck = [card for card in ruleset.cards.values() if any(card.count.values())]
    if any(iid in card.industries for card in in_deck):
        return True
    if any(card.location in {loc.id for loc in places} for card in in_deck):
        return True
    for wild in ruleset.wild_cards.values():
        if wild.count and (wild.kind == "industry" or any(loc.kind not in wild.excludes for loc in places)):
            return True
    return False


# -- W108: a precondition that names no rule -------------------------------------------------------

def _uncited_requirements(ruleset: Ruleset) -> Iterator[Finding]:
    """A refusal names the `rule:` of the precondition that failed (`rules:` only adds citations
    for coverage), so a precondition without one refuses a move without saying which rule forbids it."""
    for requirement in found_in(ruleset.actions, Requirement, set()):
        if requirement.rule is None and requirement.pos is not None:
            yield Finding(requirement.pos, "W108",
                          "this precondition names no rule: a move it refuses is refused without a rule ID "
                          "(and `brass explain` shows none); give it `rule:` (the main rule; `rules:` adds others)")

