"""`brass verify --mutate` (issue 28): the mutants of a ruleset, their verdicts against scenarios,
the equivalents file and a deterministic sample of Birmingham's mutants, all killed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.yaml_source import load_yaml_text
from interpreter.tools.cli.main import main
from interpreter.tools.scenarios.equivalents import load_equivalents
from interpreter.tools.scenarios.mutants import apply, generate, is_presentation
from interpreter.tools.scenarios.mutate import prepare, run_mutants, select, spread
from interpreter.tools.scenarios.mutate_report import NO_RULE, Report, print_json, print_text
from interpreter.tools.scenarios.scenario import ScenarioError

ROOT = Path(__file__).resolve().parents[1]
BIRMINGHAM = ROOT / "scenarios" / "birmingham"
COTTON_III = BIRMINGHAM / "build_cotton_mill_iii_one_coal_one_iron.yaml"  # R-BUILD-10, R-COAL-03

TINY = """\
tiles:
  coal:
    - {level: 1, cost: 5, eras: [canal, rail], rule: R-X}
locations:
  leek: {name: Leek, at: [1, 2], colour: "#fff"}
actions:
  build:
    requires:
      - {rule: R-B, check: "not a >= 1 and b", message: "a >= 1"}
    effects:
      - pay: 3
"""


def test_every_mutant_of_a_tiny_document_in_order() -> None:
    doc = load_yaml_text(TINY, "t.yaml")
    got = [(str(m.pos), m.kind, m.old, m.new, m.rules) for m in generate(doc)]
    assert got == [
        ("t.yaml:3:15", "number", "1", "2", ("R-X",)),
        ("t.yaml:3:15", "number", "1", "0", ("R-X",)),
        ("t.yaml:3:24", "number", "5", "6", ("R-X",)),
        ("t.yaml:3:24", "number", "5", "4", ("R-X",)),
        ("t.yaml:3:34", "choice", "[canal, rail]", "[rail]", ("R-X",)),
        ("t.yaml:3:41", "choice", "[canal, rail]", "[canal]", ("R-X",)),
        ("t.yaml:9:9", "precondition", "requires not a >= 1 and b", "(removed)", ("R-B",)),
        ("t.yaml:9:40", "operator", "and", "or", ("R-B",)),
        ("t.yaml:9:29", "operator", "not", "(dropped)", ("R-B",)),
        ("t.yaml:9:35", "operator", ">=", ">", ("R-B",)),
        ("t.yaml:9:38", "number", "1", "2", ("R-B",)),
        ("t.yaml:9:38", "number", "1", "0", ("R-B",)),
        ("t.yaml:11:9", "effect", "{pay: 3}", "(removed)", ()),
        ("t.yaml:11:14", "number", "3", "4", ()),
        ("t.yaml:11:14", "number", "3", "2", ()),
    ]  # nothing of leek: its name, board coordinates and colour only present it


def test_a_mutant_changes_a_copy() -> None:
    doc = load_yaml_text(TINY, "t.yaml")
    mutants = generate(doc)
    dropped = apply(doc.data, mutants[8])  # `not` dropped
    assert dropped["actions"]["build"]["requires"][0]["check"] == "a >= 1 and b"
    removed = apply(doc.data, mutants[4])
    assert removed["tiles"]["coal"][0]["eras"] == ["rail"]
    assert doc.data["tiles"]["coal"][0]["eras"] == ["canal", "rail"]
    assert doc.data["actions"]["build"]["requires"][0]["check"] == "not a >= 1 and b"
    assert removed["locations"] is doc.data["locations"]  # what the change does not touch is shared


def test_presentation_fields_are_never_mutated_in_birmingham() -> None:
    mutants = generate(load_ruleset("birmingham").source)
    assert len(mutants) == 1500
    assert not [m.id for m in mutants if is_presentation(m.path)]
    assert not [m.id for m in mutants if m.path[0] == "locations" and "at" in m.path]
    # the `at:` of a consume step says where a resource is taken: it is mutated
    assert "actions.build.effects.1.consume.at.0:choice:removed" in {m.id for m in mutants}
    assert len({m.id for m in mutants}) == len(mutants)


def _chosen(run, *ids):  # type: ignore[no-untyped-def]
    by_id = {m.id: m for m in run.mutants}
    return [by_id[i] for i in ids]


def test_a_scenario_kills_one_mutant_and_leaves_another() -> None:
    run = prepare([COTTON_III])
    chosen = _chosen(run, "tiles.cotton.2.coal:number:1->2",       # 2 coal: £1 + £2, money 10 not 11
                     "tiles.pottery.3.develop:number:true->false",  # this scenario develops nothing
                     "tiles.cotton.2.level:number:3->4")            # two Cotton Mills IV: refused on load
    verdicts = run_mutants(run, chosen, jobs=0)
    assert [v.status for v in verdicts] == ["killed", "survived", "loader"]
    assert verdicts[0].by.startswith(f"{COTTON_III.relative_to(ROOT)}:23:5: assertion failed: money(1) == 11")
    report = Report("birmingham", len(run.mutants), 1, chosen, verdicts, {})
    assert round(report.score, 1) == 66.7
    assert [m.id for m, _ in report.unlisted_survivors] == ["tiles.pottery.3.develop:number:true->false"]
    assert report.per_rule() == {NO_RULE: {"mutants": 3, "killed": 2, "surviving": 1, "equivalent": 0}}
    out = io.StringIO()
    print_text(report, out)
    assert "rulesets/birmingham/industries.yaml:90:108: number: true → false" in out.getvalue()
    assert f"3 mutants (of {len(run.mutants)}) of birmingham: 1 caught by the loader, 1 killed by a scenario, " \
           "1 surviving, 0 listed equivalent; mutation score 66.7%" in out.getvalue()


def test_a_listed_equivalent_is_reported_apart(tmp_path: Path) -> None:
    run = prepare([COTTON_III])
    chosen = _chosen(run, "tiles.cotton.2.coal:number:1->2", "tiles.pottery.3.develop:number:true->false")
    listing = tmp_path / "eq.yaml"
    listing.write_text("- at: rulesets/birmingham/industries.yaml:90:108\n  change: true -> false\n"
                       "  reason: judged for this test\n")
    listed = load_equivalents(listing, run.mutants)
    assert listed == {chosen[1].number: "judged for this test"}
    report = Report("birmingham", len(run.mutants), 1, chosen, run_mutants(run, chosen, jobs=0), listed)
    assert report.unlisted_survivors == [] and len(report.equivalents) == 1 and report.score == 100.0
    out = io.StringIO()
    print_json(report, out)
    assert '"equivalent": "judged for this test"' in out.getvalue()


def test_an_equivalents_entry_may_name_the_variant_it_lists(tmp_path: Path) -> None:
    """A folder holds a game's scenarios and its variants': an entry without `ruleset:` lists a
    mutant of the folder's own ruleset, one with it a mutant of that variant; the others are skipped."""
    listing = tmp_path / "eq.yaml"
    listing.write_text("- {at: tiles.cotton.2.coal:number:1->2, reason: base}\n"
                       "- {at: no.such.mutant, ruleset: a-variant, reason: the variant's}\n")
    mutants = generate(load_ruleset("birmingham").source)
    number = next(m.number for m in mutants if m.id == "tiles.cotton.2.coal:number:1->2")
    assert load_equivalents(listing, mutants, "birmingham", "birmingham") == {number: "base"}
    assert load_equivalents(listing, [], "a-birmingham-variant", "birmingham") == {}
    with pytest.raises(ScenarioError, match=r"no mutant at 'no\.such\.mutant'"):
        load_equivalents(listing, mutants)  # --equivalents FILE: every entry counts


@pytest.mark.parametrize(("text", "expected"), [
    ("at: x\n", "eq.yaml:1:1: an equivalents file is a list of {at, change, reason}, not a mapping"),
    ("- {at: tiles.cotton.2.coal:number:1->2}\n", "eq.yaml:1:3: 'reason' is needed"),
    ("- {at: 'nowhere.yaml:1:1', reason: r}\n", "eq.yaml:1:8: no mutant at 'nowhere.yaml:1:1'"),
    ("- {at: tiles.cotton.2.coal:number:1->2, change: 1 -> 5, reason: r}\n",
     "eq.yaml:1:49: no mutant changes '1 -> 5' there; its mutants: 1 → 2"),
    ("- {at: x, why: r}\n", "eq.yaml:1:11: unknown key 'why'"),
])
def test_a_bad_equivalents_file_is_located(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str,
                                           expected: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "eq.yaml").write_text(text)
    mutants = generate(load_ruleset("birmingham").source)
    with pytest.raises(ScenarioError) as caught:
        load_equivalents(Path("eq.yaml"), mutants)
    assert any(str(d).startswith(expected) for d in caught.value.diagnostics), caught.value.diagnostics


def test_bad_mutation_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(COTTON_III), "--jobs", "2"]) == 1
    assert "--jobs only goes with --mutate" in capsys.readouterr().err
    assert main(["verify", str(COTTON_III), "--mutate", "--coverage"]) == 1
    assert "--coverage does not go with --mutate" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["verify", str(COTTON_III), "--mutate", "--sample", "0"])
    assert "argument --sample: must be a whole number of 1 or more, not 0" in capsys.readouterr().err


def test_only_chooses_mutants_by_id_or_line(capsys: pytest.CaptureFixture[str]) -> None:
    mutants = generate(load_ruleset("birmingham").source)
    by_id = [m.id for m in select(mutants, only=["tiles.pottery.3.*"])]
    assert by_id[:2] == ["tiles.pottery.3.level:number:4->5", "tiles.pottery.3.level:number:4->3"]
    assert all(i.startswith("tiles.pottery.3.") for i in by_id)
    on_line = select(mutants, only=["industries.yaml:90"])  # the fourth Pottery row, whatever the column
    assert {m.id for m in on_line} == set(by_id)
    assert [m.number for m in select(mutants, sample=50, only=["tiles.*"])] == \
        [m.number for m in mutants[::50] if m.id.startswith("tiles.")]
    assert main(["verify", str(COTTON_III), "--mutate", "--only", "nothing.here"]) == 1
    assert "--only nothing.here: no mutant matches" in capsys.readouterr().err
    assert main(["verify", str(COTTON_III), "--only", "tiles.*"]) == 1
    assert "--only only goes with --mutate" in capsys.readouterr().err


def test_a_variant_mutates_its_own_files_and_reads_its_folders_equivalents(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The Introductory Game states ten mutable values (its three extra scores); the 1,497 it inherits
    are Birmingham's, judged by Birmingham's scenarios. Its folder's mutation-equivalents.yaml
    lists the one no game can notice (level I tiles are gone before the extra scores)."""
    intro = ROOT / "scenarios" / "birmingham-intro"
    run = prepare([intro])
    assert (len(run.mutants), run.inherited) == (10, 1497)
    assert {str(m.pos).split(":")[0] for m in run.mutants} == {"rulesets/birmingham-intro/intro.yaml"}
    assert len(prepare([intro], inherited=True).mutants) == 1507
    assert main(["verify", str(intro), "--mutate"]) == 0
    out = capsys.readouterr().out
    assert "10 mutants of birmingham-intro (its own files; 1497 inherited values not mutated: --inherited): " \
           "0 caught by the loader, 9 killed by a scenario, 0 surviving, 1 listed equivalent; " \
           "mutation score 100.0%" in out
    assert "reason: The extra score of R-INTRO-04 runs after the Canal Era's end" in out
    assert main(["verify", str(intro)]) == 0  # the equivalents file is not a scenario
    assert "4 passed, 0 failed" in capsys.readouterr().out


def test_a_budget_judges_a_spread_prefix_and_says_how_many_are_left(capsys: pytest.CaptureFixture[str]) -> None:
    run = prepare([COTTON_III])
    order = [m.number for m in spread(run.mutants[:8])]
    assert order == [0, 4, 2, 6, 1, 5, 3, 7]  # every prefix spread over the list
    assert sorted(m.number for m in spread(run.mutants)) == [m.number for m in run.mutants]
    verdicts = run_mutants(run, spread(run.mutants)[:5], jobs=0, deadline=0.0)  # already spent: one judged
    assert len(verdicts) == 1
    report = Report("birmingham", len(run.mutants), 1, spread(run.mutants)[:1], verdicts, {},
                    unjudged=len(run.mutants) - 1)
    out = io.StringIO()
    print_text(report, out)
    assert out.getvalue().rstrip().endswith(
        f"the budget was spent with {len(run.mutants) - 1} of the {len(run.mutants)} chosen left unjudged "
        "(those judged are spread over the whole ruleset; the score is theirs)")
    print_json(report, out := io.StringIO())
    assert '"complete": false' in out.getvalue()
    with pytest.raises(SystemExit):
        main(["verify", str(COTTON_III), "--mutate", "--budget", "5 minutes"])
    assert "argument --budget: a time is a number with s, m or h (90s, 5m, 1h), not '5 minutes'" \
        in capsys.readouterr().err


@pytest.mark.slow
def test_every_50th_birmingham_mutant_is_caught() -> None:
    """CI's sample: mutants 0, 50, 100, … of Birmingham against scenarios/birmingham; a survivor
    fails, printed with its place and change (write the scenario that kills it, docs/scenarios.md)."""
    run = prepare([BIRMINGHAM])
    chosen = run.mutants[::50]
    verdicts = run_mutants(run, chosen, jobs=2)
    survivors = [f"{m.pos}: {m.kind}: {m.change} ({m.id})" for m, v in zip(chosen, verdicts, strict=True)
                 if v.status == "survived"]
    assert len(chosen) == 30
    assert survivors == []


@pytest.mark.slow
def test_every_50th_lancashire_mutant_is_caught_or_a_listed_equivalent() -> None:
    """CI's sample of the second game: scenarios/lancashire plays Lancashire and two of its
    variants; the base the others extend is the one mutated, and its folder's equivalents count."""
    folder = ROOT / "scenarios" / "lancashire"
    run = prepare([folder])
    assert run.ruleset.name == "lancashire" and run.inherited == 0
    listed = load_equivalents(folder / "mutation-equivalents.yaml", run.mutants, "lancashire", "lancashire")
    chosen = run.mutants[::50]
    verdicts = run_mutants(run, chosen, jobs=2)
    survivors = [f"{m.pos}: {m.kind}: {m.change} ({m.id})" for m, v in zip(chosen, verdicts, strict=True)
                 if v.status == "survived" and m.number not in listed]
    assert len(chosen) == 25
    assert survivors == []


@pytest.mark.slow
def test_worker_processes_give_the_same_verdicts() -> None:
    run = prepare([COTTON_III])
    chosen = run.mutants[700:760:6]
    assert run_mutants(run, chosen, jobs=2) == run_mutants(run, chosen, jobs=0)


@pytest.mark.slow
def test_ray_tasks_give_the_same_verdicts_in_order(local_ray: None) -> None:
    import ray

    run = prepare([COTTON_III])
    chosen = run.mutants[700:800:4]  # 25 mutants: four tasks, finishing in any order
    assert run_mutants(run, chosen, ray=ray) == run_mutants(run, chosen, jobs=0)
