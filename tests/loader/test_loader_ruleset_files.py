"""A ruleset folder -> one Document whose marks name the file of each value."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from brass_dsl.source import SourcePos
from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.ruleset_files import display_name, load_folder

ROOT = """
name: test
title: Test
version: 1
players: [2, 3, 4]
"""

MakeRuleset = Callable[..., Path]  # the make_ruleset fixture (conftest.py)


def diagnostics(folder: Path) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        load_folder(folder)
    return [str(d) for d in caught.value.diagnostics]


def test_sections_of_all_files_with_marks_in_their_files(make_ruleset: MakeRuleset) -> None:
    folder = make_ruleset(
        "r",
        {
            "ruleset.yaml": ROOT,
            "board.yaml": "locations:\n  birmingham: {beer: 1}\nlinks:\n  - [birmingham, coventry]\n",
            "actions.yaml": "actions:\n  build: {cost: 3}\n",
        },
    )
    doc = load_folder(folder)
    assert list(doc.data) == ["name", "title", "version", "players", "actions", "locations", "links"]
    assert doc.data["links"] == [["birmingham", "coventry"]]
    assert doc.pos(()) == SourcePos("r/ruleset.yaml", 1, 1)
    assert doc.pos(("version",)) == SourcePos("r/ruleset.yaml", 3, 10)
    assert doc.pos(("links", 0, 1)) == SourcePos("r/board.yaml", 4, 18)
    assert doc.pos(("actions", "build"), key=True) == SourcePos("r/actions.yaml", 2, 3)
    assert doc.origin(("locations", "birmingham")).start == SourcePos("r/board.yaml", 2, 15)


def test_section_defined_in_two_files(make_ruleset: MakeRuleset) -> None:
    folder = make_ruleset(
        "r",
        {
            "ruleset.yaml": ROOT,
            "board.yaml": "locations: {}\n\n\nlinks: []\n",
            "extra.yaml": "# more links\nlinks: [[a, b]]\n",
        },
    )
    assert diagnostics(folder) == ["r/extra.yaml:2:1: section 'links' is already defined in r/board.yaml:4:1"]


def test_root_key_repeated_in_another_file(make_ruleset: MakeRuleset) -> None:
    folder = make_ruleset("r", {"ruleset.yaml": ROOT, "z.yaml": "name: other\n"})
    assert diagnostics(folder) == ["r/z.yaml:1:1: section 'name' is already defined in r/ruleset.yaml:1:1"]


def test_top_level_must_be_a_mapping(make_ruleset: MakeRuleset) -> None:
    folder = make_ruleset("r", {"ruleset.yaml": ROOT, "board.yaml": "- a\n- b\n", "empty.yaml": "# nothing yet\n"})
    assert diagnostics(folder) == [
        "r/board.yaml:1:1: expected a mapping of sections (like 'tiles:') at the top level; found a list",
        "r/empty.yaml:1:1: expected a mapping of sections (like 'tiles:') at the top level; the file is empty",
    ]


def test_errors_of_all_files_are_collected(make_ruleset: MakeRuleset) -> None:
    folder = make_ruleset(
        "r",
        {
            "ruleset.yaml": ROOT + "title: again\n",
            "a.yaml": "x: [1,\n",
            "b.yaml": "y: !tag 1\n",
        },
    )
    assert diagnostics(folder) == [
        "r/a.yaml:2:1: expected a value, but found the end of the file",
        "r/b.yaml:1:4: tags are not supported: !tag",
        "r/ruleset.yaml:5:1: duplicate key 'title' (first defined at line 2)",
    ]


def test_missing_folder_and_missing_ruleset_yaml(make_ruleset: MakeRuleset, in_tmp: Path) -> None:
    assert diagnostics(in_tmp / "nowhere") == ["nowhere:1:1: ruleset folder not found: nowhere"]
    folder = make_ruleset("r", {"board.yaml": "links: []\n"})
    assert diagnostics(folder) == ["r:1:1: no ruleset.yaml in r"]


def test_yml_files_are_reported_and_hidden_files_skipped(make_ruleset: MakeRuleset) -> None:
    folder = make_ruleset("r", {"ruleset.yaml": ROOT, "tiles.yml": "tiles: {}\n", ".#board.yaml": "oops: ["})
    (folder / "sub").mkdir()
    (folder / "sub" / "deep.yaml").write_text("deep: 1\n", encoding="utf-8")
    assert diagnostics(folder) == [
        "r/tiles.yml:1:1: ruleset files must end in '.yaml'; rename it to 'tiles.yaml' (it is not loaded)"
    ]


def test_display_names(in_tmp: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    assert display_name(in_tmp / "r" / "board.yaml") == "r/board.yaml"
    assert display_name(in_tmp / "r" / "board.yaml", in_tmp / "r") == "board.yaml"
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "board.yaml"
    assert display_name(elsewhere) == str(elsewhere)


def test_display_root_shortens_names(make_ruleset: MakeRuleset) -> None:
    folder = make_ruleset("r", {"ruleset.yaml": ROOT, "board.yaml": "links: []\n"})
    doc = load_folder(folder, display_root=folder)
    assert doc.pos(("links",)) == SourcePos("board.yaml", 1, 8)
