"""`brass diff A B` (interpreter/tools/authoring/diff.py): what ruleset B changes against ruleset A."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
import yaml

from interpreter.ruleset import loader
from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.yaml_source import load_yaml_text
from interpreter.tools.authoring.diff import ADDED, CONDITION, EXPRESSION, REMOVED, VALUE, diff_documents, diff_rulesets
from interpreter.tools.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
HEADER = ["name", "title", "description"]


@pytest.fixture
def at_root(monkeypatch: pytest.MonkeyPatch):
    """Run from the repository root with a fresh loader cache, so file names are `rulesets/…`."""
    monkeypatch.chdir(ROOT)
    loader.clear_cache()
    yield
    loader.clear_cache()


def changes(variant: str, base: str = "rulesets/birmingham"):
    return diff_rulesets(load_ruleset(base), load_ruleset(variant))


def table(found) -> list[tuple[str, str, str]]:
    """(kind, path, FILE:LINE) of every change."""
    return [(c.kind, c.path, f"{c.where.file}:{c.where.line}") for c in found]


# -- the shipped variants: exactly the changes they make ------------------------------------------

def test_what_if(at_root) -> None:
    found = changes("rulesets/what-if")
    f = "rulesets/what-if/what-if.yaml"
    assert table(found)[4:] == [
        (CONDITION, "actions.build.requires[10].check", f"{f}:31"),
        (VALUE, "actions.build.requires[10].message", f"{f}:32"),
        (VALUE, "eras[canal].network[0].money", f"{f}:20"),
        (VALUE, "rules.R-LOAN-01.text", f"{f}:9"),
        (VALUE, "rules.R-BUILD-12.text", f"{f}:7"),
        (VALUE, "rules.R-LINK-02.text", f"{f}:11"),
        (VALUE, "economy.loan.amount", f"{f}:14"),
        (ADDED, "bots", "rulesets/what-if/bots.yaml:5"),  # the record of its tuning run (docs/bots.md)
    ]
    assert [c.path for c in found[:4]] == ["name", "title", "version", "description"]
    check = found[4]
    assert check.old == 'era != "canal" or not any(t in tiles_at(location) where t.owner == me and t.slot != slot)'
    assert check.new == "not any(t in tiles_at(location) where t.owner == me and t.slot != slot)"
    assert check.rule == "R-BUILD-12"
    assert (check.where_old.file, check.where_old.line) == ("rulesets/birmingham/actions.yaml", 65)
    money, loan = found[6], found[10]
    assert (money.old, money.new, loan.old, loan.new, loan.rule) == (3, 4, 30, 25, "R-LOAN-01")


def test_tiebreak_by_level(at_root) -> None:
    found = changes("rulesets/tiebreak-by-level")
    f = "rulesets/tiebreak-by-level/ruleset.yaml"
    assert table(found)[3:] == [
        (VALUE, "game_end.ranking[1].name", f"{f}:21"),
        (EXPRESSION, "game_end.ranking[1].key", f"{f}:21"),
        (VALUE, "rules.R-END-02.text", f"{f}:14"),
        (ADDED, "bots", "rulesets/tiebreak-by-level/bots.yaml:5"),
    ]
    assert [c.path for c in found[:3]] == HEADER
    assert (found[4].old, found[4].new) == ("p.income_position", "income_level(p)")


def test_summary_es(at_root) -> None:
    found = changes("rulesets/summary-es")
    f = "rulesets/summary-es/es.yaml"
    value = "if any(j in links_at(l) where j != k and link_owner(j) == p) then 1 else 0"
    assert table(found)[3:] == [
        (VALUE, "actions.network.repeat.requires[9].message", f"{f}:55"),
        (ADDED, "eras[canal].end[0].score_links.value", f"{f}:27"),
        (ADDED, "eras[rail].end[0].score_links.value", f"{f}:33"),
        (VALUE, "resources.beer.sources", f"{f}:40"),
        (ADDED, "resources.beer.source_rules.any_opponent_producer", f"{f}:44"),
        (ADDED, "resources.beer.sources_in", f"{f}:42"),
        (VALUE, "rules.R-BEER-02.text", f"{f}:8"),
        (VALUE, "rules.R-BEER-02.source", f"{f}:9"),
        (VALUE, "rules.R-LINK-05.text", f"{f}:11"),
        (VALUE, "rules.R-LINK-05.source", f"{f}:12"),
        (VALUE, "rules.R-ERA-02.text", f"{f}:5"),
        (VALUE, "rules.R-ERA-02.source", f"{f}:6"),
        (ADDED, "bots", "rulesets/summary-es/bots.yaml:5"),  # its tuned parameters
    ]
    assert [c.path for c in found[:3]] == HEADER
    assert found[4].new == found[5].new == value
    assert found[6].old == ["own_producer", "connected_opponent_producer", "merchant_barrel"]
    assert found[7].new == {"rule": "R-BEER-02"}
    assert found[6].new == ["own_producer", "any_opponent_producer", "merchant_barrel"]


def test_intro_removals_point_at_the_base(at_root) -> None:
    """Entries only A has are listed with A's position: the Canal end steps the Introductory Game drops."""
    found = changes("rulesets/birmingham-intro")
    removed = [(c.path, c.old, f"{c.where.file}:{c.where.line}") for c in found if c.kind == REMOVED]
    assert removed == [
        ("eras[canal].end[3]", "refill_merchant_beer", "rulesets/birmingham/flow.yaml:17"),
        ("eras[canal].end[4]", "new_draw_deck", "rulesets/birmingham/flow.yaml:18"),
        ("eras[canal].end[5]", "deal_hands", "rulesets/birmingham/flow.yaml:19"),
    ]
    added = [(c.path, c.new) for c in found if c.kind == ADDED]
    assert added == [
        ("game_end.scoring[0]", {"award_vp": {"amount": "min(15, p.money / 4)"}}),
        ("game_end.scoring[1]", {"award_vp": {"amount": "max(income_level(p), -p.vp)"}}),
        ("game_end.scoring[2]", {"score_tiles": {"where": "t.level >= 2"}}),
        ("game_end.last_era", "canal"),
        # the parameters `brass tune` found for its bots (docs/bots.md, "Tuning")
        ("bots", yaml.safe_load(Path("rulesets/birmingham-intro/bots.yaml").read_text())["bots"]),
    ]


def test_a_ruleset_against_itself_has_no_changes(at_root) -> None:
    assert changes("rulesets/birmingham") == []
    assert changes("rulesets/what-if", base="rulesets/what-if") == []


def test_the_other_way_round_points_at_the_base_files(at_root) -> None:
    found = changes("rulesets/birmingham", base="rulesets/what-if")
    loan = next(c for c in found if c.path == "economy.loan.amount")
    assert (loan.old, loan.new, loan.where.file, loan.where.line) == (25, 30, "rulesets/birmingham/setup.yaml", 17)


# -- the command ------------------------------------------------------------------------------------

def test_cli_text(at_root, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "rulesets/birmingham", "rulesets/what-if"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "rulesets/what-if against rulesets/birmingham: 12 changes"
    assert "rulesets/what-if/what-if.yaml:20:49: value changed: eras[canal].network[0].money: 3 → 4" in out
    assert "rulesets/what-if/what-if.yaml:14:18: value changed: economy.loan.amount [R-LOAN-01]: 30 → 25" in out
    assert ('rulesets/what-if/what-if.yaml:31:20: condition changed: actions.build.requires[10].check '
            '[R-BUILD-12]: era != "canal" or not any(t in tiles_at(location) where t.owner == me and '
            't.slot != slot) → not any(t in tiles_at(location) where t.owner == me and t.slot != slot)') in out


def test_cli_text_added_and_removed(at_root, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "birmingham", "birmingham-intro"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "rulesets/birmingham/flow.yaml:19:9: removed: eras[canal].end[5]: deal_hands" in out
    assert ('rulesets/birmingham-intro/intro.yaml:23:7: added: game_end.scoring[2] [R-INTRO-01]: '
            '{score_tiles: {where: "t.level >= 2"}}') in out


def test_cli_json_is_stable(at_root, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "rulesets/birmingham", "rulesets/summary-es", "--json"]) == 0
    first = capsys.readouterr().out
    assert main(["diff", "rulesets/birmingham", "rulesets/summary-es", "--json"]) == 0
    assert capsys.readouterr().out == first
    data = json.loads(first)
    added = data["changes"][4]
    assert added == {"kind": "added", "path": "eras[canal].end[0].score_links.value",
                     "new": "if any(j in links_at(l) where j != k and link_owner(j) == p) then 1 else 0",
                     "at": "rulesets/summary-es/es.yaml:27:38"}
    message = data["changes"][3]
    assert message["was_at"].startswith("rulesets/birmingham/actions.yaml:")


def test_cli_bad_ruleset(at_root, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "birmingham", "nowhere"]) == 1
    assert "no ruleset here: 'nowhere'" in capsys.readouterr().err


# -- the comparison itself, on small documents ------------------------------------------------------

def doc(name: str, text: str):
    return load_yaml_text(textwrap.dedent(text).lstrip("\n"), name)


def test_mappings_values_added_and_removed() -> None:
    a = doc("a.yaml", """
        setup: {money: 17, vp: 0, hand_size: 8}
        locations:
          leek: {name: Leek}
          belper: {name: Belper}
        """)
    b = doc("b.yaml", """
        setup: {money: 20, vp: 0, hand_size: 8}
        locations:
          leek: {name: Leek}
          derby: {name: Derby}
        """)
    found = diff_documents(a, b)
    assert [(c.kind, c.path, str(c.where)) for c in found] == [
        (VALUE, "setup.money", "b.yaml:1:16"),
        (ADDED, "locations.derby", "b.yaml:4:10"),
        (REMOVED, "locations.belper", "a.yaml:4:11"),
    ]


def test_lists_with_ids_match_by_id_others_by_position() -> None:
    a = doc("a.yaml", """
        eras:
          - {id: canal, actions_per_turn: 2}
          - {id: rail, actions_per_turn: 2}
        bands:
          - {levels: [1, 10], spaces: 2}
          - {levels: [11, 20], spaces: 3}
        players: [2, 3, 4]
        """)
    b = doc("b.yaml", """
        eras:
          - {id: rail, actions_per_turn: 3}
          - {id: canal, actions_per_turn: 2}
          - {id: steam, actions_per_turn: 1}
        bands:
          - {levels: [1, 10], spaces: 2}
        players: [2, 3]
        """)
    found = diff_documents(a, b)
    assert [(c.kind, c.path, c.old if c.kind != ADDED else c.new) for c in found] == [
        (VALUE, "eras[rail].actions_per_turn", 2),
        (ADDED, "eras[steam]", {"id": "steam", "actions_per_turn": 1}),
        (REMOVED, "bands[1]", {"levels": [11, 20], "spaces": 3}),
        (VALUE, "players", [2, 3, 4]),
    ]


def test_booleans_are_not_numbers_and_expressions_are_told_apart() -> None:
    a = doc("a.yaml", """
        links: {L01: {canal: true}}
        actions:
          loan:
            params:
              - {name: card, type: card, from: hand(me)}
            requires:
              - {rule: R-LOAN-02, check: income_level(me) >= -7, message: No.}
            effects:
              - gain_money: loan.amount
              - consume: {resource: coal, amount: 1, at: []}
        """)
    b = doc("b.yaml", """
        links: {L01: {canal: 1}}
        actions:
          loan:
            params:
              - {name: card, type: card, from: players}
            requires:
              - {rule: R-LOAN-02, check: income_level(me) >= -5, message: Nope.}
            effects:
              - gain_money: loan.amount + 1
              - consume: {resource: iron, amount: 1, at: [], when: era == "rail"}
        """)
    found = diff_documents(a, b)
    assert [(c.kind, c.path, c.rule) for c in found] == [
        (VALUE, "links.L01.canal", None),
        (EXPRESSION, "actions.loan.params[0].from", None),
        (CONDITION, "actions.loan.requires[0].check", "R-LOAN-02"),
        (VALUE, "actions.loan.requires[0].message", "R-LOAN-02"),
        (EXPRESSION, "actions.loan.effects[0].gain_money", None),
        (VALUE, "actions.loan.effects[1].consume.resource", None),   # a plain id, not an expression
        (ADDED, "actions.loan.effects[1].consume.when", None),
    ]
    assert found[-1].expression and not found[-2].expression


def test_list_entries_without_ids_match_by_content_and_name() -> None:
    """Removing one step of four is one change, not the three after it changed; a changed entry is
    matched with its namesake even when it moved."""
    a = doc("a.yaml", """
        end:
          - score_links
          - score_tiles
          - {remove_tiles: {where: t.level == 1}}
          - refill_merchant_beer
        requires:
          - {rule: R-A, check: x > 1, message: One.}
          - {rule: R-B, check: y > 1, message: Two.}
          - {rule: R-C, check: z > 1, message: Three.}
        """)
    b = doc("b.yaml", """
        end:
          - score_links
          - {remove_tiles: {where: t.level == 1}}
          - refill_merchant_beer
        requires:
          - {rule: R-C, check: z > 2, message: Three.}
          - {rule: R-A, check: x > 1, message: One.}
          - {rule: R-B, check: y > 1, message: Two.}
        """)
    found = diff_documents(a, b)
    assert [(c.kind, c.path, str(c.where)) for c in found] == [
        (REMOVED, "end[1]", "a.yaml:3:5"),
        (VALUE, "requires[0].check", "b.yaml:6:24"),   # R-C, moved to the front
    ]
