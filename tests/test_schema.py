"""`brass schema` (interpreter/tools/authoring/json_schema.py): the JSON Schema of ruleset files, for editors.

The schema is generated from the loader's own structure check (`schema.SECTIONS`), so a shipped
file the loader accepts validates against it, and a file the loader refuses for its structure is
refused by the schema too; its descriptions are the words of docs/ruleset-format.md.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulesets
from interpreter.ruleset import schema as structure
from interpreter.ruleset.errors import DiagnosticSink, RulesetError
from interpreter.ruleset.loader import clear_cache, load_ruleset
from interpreter.ruleset.yaml_source import load_yaml_file
from interpreter.tools.authoring.json_schema import ruleset_json_schema
from interpreter.tools.authoring.schema_docs import key_docs
from interpreter.tools.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(p for p in (ROOT / "rulesets").iterdir() if (p / "ruleset.yaml").is_file())


@pytest.fixture(scope="module")
def validators(tmp_path_factory: pytest.TempPathFactory) -> dict[bool, jsonschema.protocols.Validator]:
    """The two schemas as `brass schema` prints them (False: a complete ruleset, True: a variant)."""
    out = {}
    for variant in (False, True):
        path = tmp_path_factory.mktemp("schema") / "s.json"
        assert main(["schema", "--out", str(path), *(["--variant"] if variant else [])]) == 0
        document = json.loads(path.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(document)
        out[variant] = jsonschema.Draft202012Validator(document)
    return out


@pytest.mark.skipif(not Path("/dev/full").is_char_device(), reason="needs /dev/full")
def test_a_full_disk_names_the_out_file(capsys: pytest.CaptureFixture[str]) -> None:
    """Was "error: cannot write the output: No space left on device", as if stdout had failed."""
    assert main(["schema", "--out", "/dev/full"]) == 1
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "error: cannot write /dev/full: No space left on device\n")
    assert Path("/dev/full").is_char_device()  # written to, never replaced


def test_the_out_file_is_written_whole(tmp_path: Path) -> None:
    path = tmp_path / "schema.json"
    path.write_text("old\n", encoding="utf-8")
    assert main(["schema", "--out", str(path)]) == 0
    assert json.loads(path.read_text(encoding="utf-8"))["$schema"] and [p.name for p in tmp_path.iterdir()] == [
        "schema.json"]


def as_json(path: Path) -> Any:
    """A YAML file as an editor's language server sees it: JSON, so a number key is text."""
    return json.loads(json.dumps(load_yaml_file(path, path.name).data, default=str))


def is_variant(folder: Path) -> bool:
    return "extends" in load_yaml_file(folder / "ruleset.yaml", "ruleset.yaml").data


def shipped_files() -> Iterator[Path]:
    for folder in SHIPPED:
        yield from sorted(folder.glob("*.yaml"))


@pytest.mark.parametrize("path", list(shipped_files()), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_ruleset_file_validates(validators: dict[bool, Any], path: Path) -> None:
    errors = [e.message for e in validators[is_variant(path.parent)].iter_errors(as_json(path))]
    assert errors == []


def test_the_shipped_rulesets_are_all_there() -> None:
    assert [p.name for p in SHIPPED] == sorted(rulesets.builtin_names())
    assert len(list(shipped_files())) > len(SHIPPED)  # birmingham alone has 11 files


# -- a file the loader refuses for its structure is refused by the schema too -----------------------

MUTATIONS = {  # file of birmingham -> (text replaced, replacement, the loader's message)
    "unknown key": ("setup.yaml", "  vp: 0 ", "  vq: 0 ", "unknown key 'vq' in setup"),
    "number too high": ("setup.yaml", "hand_size: 8 ", "hand_size: 101 ",
                        "setup.hand_size must be at most 100, not 101"),
    "wrong type": ("setup.yaml", "money: 17 ", "money: lots ", "setup.money must be an integer, not string 'lots'"),
    "word not allowed": ("industries.yaml", "flips: emptied", "flips: drained",
                         "industries.coal.flips: 'drained' is not allowed"),
    "missing key": ("income.yaml", "  start_position: 10 ", "  # start_position: 10 ",
                    "missing required key 'start_position' in income_track"),
    "bad rule ID": ("setup.yaml", "rules: [R-SETUP-08,", "rules: [setup-8,", "setup.rules.0"),
    "unknown effect": ("flow.yaml", "- score_links", "- score_lynx", "score_lynx"),
    "string too long": ("industries.yaml", "short: Cot ", "short: CottonMills ",
                        "industries.cotton.short must have at most 8 characters, not 11"),
}


@pytest.fixture
def mutable(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "birmingham"
    shutil.copytree(ROOT / "rulesets" / "birmingham", folder)
    clear_cache()
    yield folder
    clear_cache()


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_a_structure_error_fails_the_loader_and_the_schema(validators: dict[bool, Any], mutable: Path,
                                                            name: str) -> None:
    file, old, new, message = MUTATIONS[name]
    text = (mutable / file).read_text(encoding="utf-8")
    assert old in text
    (mutable / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulesetError) as refused:
        load_ruleset(mutable)
    assert message in str(refused.value)
    assert list(validators[False].iter_errors(as_json(mutable / file))) != []


def test_a_variant_may_write_partial_records_and_directives(validators: dict[bool, Any]) -> None:
    partial = {"extends": "birmingham", "economy": {"loan": {"amount": 40}},
               "tiles": {"cotton": {"$patch": {"key": "level", "remove": [3]}}},
               "locations": {"$remove": ["redditch"]}}
    assert list(validators[True].iter_errors(partial)) == []
    assert list(validators[False].iter_errors({"economy": {"loan": {"amount": 40}}})) != []  # incomplete
    assert list(validators[True].iter_errors({"economy": {"loan": {"amount": -1}}})) != []   # still bounded


# -- one source: the loader's structure check, and the format docs ------------------------------------


def test_every_section_and_key_of_the_loader_is_in_the_schema() -> None:
    document = ruleset_json_schema()
    assert set(document["properties"]) == set(structure.SECTIONS)
    setup = document["properties"]["setup"]
    assert set(setup["properties"]) == set(structure.SECTIONS["setup"]["schema"])
    assert setup["required"] == [k for k, v in structure.SECTIONS["setup"]["schema"].items() if v.get("required")]
    assert setup["properties"]["hand_size"]["maximum"] == structure.SECTIONS["setup"]["schema"]["hand_size"]["max"]


def test_a_change_to_the_loader_check_changes_the_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(structure.SECTIONS["setup"]["schema"], "hand_size", structure.ints(1, 12))
    assert ruleset_json_schema()["properties"]["setup"]["properties"]["hand_size"]["maximum"] == 12


def test_descriptions_are_the_words_of_the_format_docs() -> None:
    docs = key_docs()
    described = ruleset_json_schema(describe=docs)
    loan = described["properties"]["economy"]["properties"]["loan"]["properties"]["amount"]
    assert loan["description"] == docs(("economy", "loan", "amount"))
    text = (ROOT / "docs" / "ruleset-format.md").read_text(encoding="utf-8")
    assert loan["description"] == "money a Loan gives"
    assert "| `loan.amount` | integer 0–1,000,000 | yes | money a Loan gives |" in text


def test_the_editor_copies_and_snippet_are_current() -> None:
    from interpreter.tools.authoring.command import schema_text

    editor = ROOT / "docs" / "editor"
    assert (editor / "brass-ruleset.schema.json").read_text(encoding="utf-8") == schema_text(False)
    assert (editor / "brass-variant.schema.json").read_text(encoding="utf-8") == schema_text(True)
    settings = json.loads((editor / "vscode-settings.json").read_text(encoding="utf-8"))
    targets = {Path(path).name for path in settings["yaml.schemas"]}
    assert targets == {"brass-ruleset.schema.json", "brass-variant.schema.json"}


# -- the property: a typo the structure check refuses, the schema refuses too -------------------------

WHOLE_SECTION_MISSING = re.compile(r"missing required key '\w+' in the ruleset")  # only a folder can tell
TOKENS = ["", "-", ":", "{", "}", "yes", "no", "~", "null", "0", "-1", "999", "1000001", "'x'", "true", "coal",
          "me", "[]", "{}", "foo:", "  "]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(file=st.sampled_from(sorted(p.name for p in (ROOT / "rulesets" / "birmingham").glob("*.yaml"))),
       line=st.integers(min_value=0, max_value=5000), word=st.integers(min_value=0, max_value=50),
       token=st.sampled_from(TOKENS))
def test_what_the_structure_check_refuses_the_schema_refuses(validators: dict[bool, Any], file: str, line: int,
                                                             word: int, token: str) -> None:
    """One word of one line of a birmingham file replaced: whenever the file still reads as YAML
    and the loader's structure check finds an error in it (other than a whole section missing,
    which only the merged folder can tell), the schema finds one too."""
    text = (ROOT / "rulesets" / "birmingham" / file).read_text(encoding="utf-8").split("\n")
    n = line % len(text)
    words = text[n].split(" ")
    words[word % len(words)] = token
    text[n] = " ".join(words)
    with tempfile.TemporaryDirectory() as folder:
        mutant = Path(folder) / file
        mutant.write_text("\n".join(text), encoding="utf-8")
        try:
            data = load_yaml_file(mutant, file)
        except RulesetError:
            return  # not YAML any more: the reading stage says so, before any schema
        sink = DiagnosticSink()
        structure.validate_structure(data, sink)
        refused = [d.message for d in sink.items if not WHOLE_SECTION_MISSING.fullmatch(d.message)]
        if refused:
            assert list(validators[False].iter_errors(as_json(mutant))) != [], refused


def test_the_schemas_stay_small_enough_for_an_editor() -> None:
    """A wide integer key range (a stack's tile values) once became an enum of two million strings
    and a 36 MB schema; editors load the schema on every keystroke's validation."""
    from interpreter.tools.authoring.command import schema_text

    assert len(schema_text(False)) < 500_000 and len(schema_text(True)) < 1_000_000


def test_a_variant_may_name_one_of_several_steps_with_at(validators: dict[bool, Any]) -> None:
    """`$at` (docs/extends.md): the third of Scout's three `discard` steps, and the second removed."""
    partial = {"extends": "birmingham", "actions": {"scout": {"effects": {"$patch": {
        "key": "$name", "set": [{"discard": "second_card", "$at": 3}],
        "remove": [{"$name": "discard", "$at": 2}]}}}}}
    assert list(validators[True].iter_errors(partial)) == []
    partial["actions"]["scout"]["effects"]["$patch"]["set"][0]["$at"] = 0  # type: ignore[index]
    assert list(validators[True].iter_errors(partial)) != []
