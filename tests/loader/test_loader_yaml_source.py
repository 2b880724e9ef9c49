"""One YAML file -> data + marks: YAML 1.2 meaning and located errors."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import pytest
import yaml

from brass_dsl.source import ExpressionOrigin, SourcePos
from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.yaml_source import Document, load_yaml_file, load_yaml_text


def load(text: str) -> Document:
    return load_yaml_text(textwrap.dedent(text).lstrip("\n"), "f.yaml")


def errors(text: str) -> list[str]:
    """The diagnostics of loading `text`, as 'file:line:col: message' strings."""
    with pytest.raises(RulesetError) as caught:
        load(text)
    return [str(d) for d in caught.value.diagnostics]


# --------------------------------------------------------------------------
# YAML 1.2 core schema


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("yes", "yes"), ("no", "no"), ("on", "on"), ("off", "off"), ("y", "y"), ("n", "n"),
        ("Yes", "Yes"), ("NO", "NO"),
        ("true", True), ("True", True), ("TRUE", True),
        ("false", False), ("False", False), ("FALSE", False),
        ("tRUE", "tRUE"),
        ("null", None), ("Null", None), ("NULL", None), ("~", None), ("", None),
        ("nULL", "nULL"),
        ("-12", -12), ("+3", 3), ("0", 0), ("-0", 0),
        ("010", 10), ("0x1F", 31), ("0o17", 15), ("0b11", "0b11"), ("017", 17),
        ("1:20", "1:20"), ("12:30:00", "12:30:00"),
        ("1_000", "1_000"),
        ("1.5", 1.5), ("-1.5", -1.5), ("1e3", 1000.0), ("1.5e-3", 0.0015), (".5", 0.5), ("1.", 1.0),
        (".inf", math.inf), ("-.inf", -math.inf), ("+.Inf", math.inf),
        ("2001-12-14", "2001-12-14"), ("2001-12-14T21:59:43.10-05:00", "2001-12-14T21:59:43.10-05:00"),
        ("'yes'", "yes"), ('"010"', "010"), ("'true'", "true"), ("'null'", "null"), ("''", ""),
        ("0x", "0x"), ("+", "+"), ("-1-", "-1-"), (".", "."), ("1e", "1e"),
    ],
)  # fmt: skip
def test_scalars_follow_yaml_1_2_core_schema(text: str, expected: object) -> None:
    value = load_yaml_text(f"v: {text}\n", "f.yaml").data["v"]
    assert value == expected
    assert type(value) is type(expected)


@pytest.mark.parametrize("text", [".nan", ".NaN", ".NAN"])
def test_nan(text: str) -> None:
    assert math.isnan(load_yaml_text(f"v: {text}", "f.yaml").data["v"])


def test_block_scalars_are_strings() -> None:
    doc = load(
        """
        lit: |
          10
        fold: >
          true
        """
    )
    assert doc.data == {"lit": "10\n", "fold": "true\n"}


def test_integer_keys_for_player_count_tables() -> None:
    doc = load("cost: {2: 10, 3: 9, 4: 8}\n'2': text\n")
    assert doc.data == {"cost": {2: 10, 3: 9, 4: 8}, "2": "text"}
    assert doc.pos(("cost", 3), key=True) == SourcePos("f.yaml", 1, 15)


def test_empty_file_gives_none() -> None:
    assert load_yaml_text("", "f.yaml").data is None
    assert load_yaml_text("# only a comment\n", "f.yaml").data is None


def test_byte_order_mark_is_not_counted_as_a_column() -> None:
    doc = load_yaml_text("\ufeffa: 1\n", "f.yaml")
    assert doc.data == {"a": 1}
    assert doc.pos(("a",)) == SourcePos("f.yaml", 1, 4)


# --------------------------------------------------------------------------
# Marks and origins


def test_marks_of_values_and_keys() -> None:
    doc = load(
        """
        tiles:
          manufacturer:
            - level: 1
              cost: 8
        """
    )
    assert doc.pos(()) == SourcePos("f.yaml", 1, 1)
    assert doc.pos(("tiles", "manufacturer", 0, "cost")) == SourcePos("f.yaml", 4, 13)
    assert doc.pos(("tiles", "manufacturer", 0, "cost"), key=True) == SourcePos("f.yaml", 4, 7)
    assert doc.pos(("tiles", "manufacturer", 0)) == SourcePos("f.yaml", 3, 7)
    assert doc.pos(("tiles",), key=True) == SourcePos("f.yaml", 1, 1)


def test_pos_falls_back_to_nearest_ancestor() -> None:
    doc = load("a:\n  b: 1\n")
    assert doc.pos(("a", "missing", "deeper")) == SourcePos("f.yaml", 2, 3)
    assert doc.pos(("a", "missing"), key=True) == SourcePos("f.yaml", 2, 3)
    assert Document(None).pos(("x",)) is None


def test_origins_of_each_scalar_style() -> None:
    doc = load(
        """
        rules:
          plain: money >= 3
          single: 'money >= 3'
          double: "money >= 3"
          literal: |
            money >= 3
            and coal > 0
          folded: >-
              money >= 3
              and coal > 0
          number: 3
        """
    )
    origin = doc.origins
    assert origin[("rules", "plain")] == ExpressionOrigin(SourcePos("f.yaml", 2, 10), "")
    assert origin[("rules", "single")] == ExpressionOrigin(SourcePos("f.yaml", 3, 12), "'")
    assert origin[("rules", "double")] == ExpressionOrigin(SourcePos("f.yaml", 4, 12), '"')
    assert origin[("rules", "literal")] == ExpressionOrigin(SourcePos("f.yaml", 6, 5), "|")
    assert origin[("rules", "folded")] == ExpressionOrigin(SourcePos("f.yaml", 9, 7), ">")
    assert ("rules", "number") not in origin
    assert doc.origin(("rules", "number")) == ExpressionOrigin(SourcePos("f.yaml", 11, 11), "")
    # A column on the second line of the literal block maps back into the file.
    assert origin[("rules", "literal")].locate(2, 5) == SourcePos("f.yaml", 7, 9)


def test_literal_block_with_leading_blank_line_keeps_line_mapping() -> None:
    doc = load("x: |\n\n  second\n")
    assert doc.data["x"] == "\nsecond\n"
    assert doc.origins[("x",)].locate(2, 1) == SourcePos("f.yaml", 3, 3)


def test_literal_block_with_indentation_indicator() -> None:
    doc = load("x: |2\n    indented\n")
    assert doc.data["x"] == "  indented\n"
    assert doc.origins[("x",)].start == SourcePos("f.yaml", 2, 3)


# --------------------------------------------------------------------------
# Located errors


def test_duplicate_key_is_located_at_the_second_key() -> None:
    text = "crops:\n" + "".join(f"  c{i}: {i}\n" for i in range(10)) + "  leek: 1\n  onion: 2\n  leek: 3\n"
    with pytest.raises(RulesetError) as caught:
        load_yaml_text(text, "farm.yaml")
    assert [str(d) for d in caught.value.diagnostics] == [
        "farm.yaml:14:3: duplicate key 'leek' (first defined at line 12)"
    ]


def test_duplicate_integer_key() -> None:
    assert errors("cost: {2: 10, 02: 9}\n") == ["f.yaml:1:15: duplicate key 2 (first defined at line 1)"]


def test_bad_indentation_is_located() -> None:
    assert errors(
        """
        board:
          birmingham: 1
         coventry: 2
        """
    ) == [
        (
            "f.yaml:3:2: bad indentation: expected the end of the indented block, "
            "but found a new indented mapping (the mapping starts at line 1, column 1)"
        )
    ]


def test_over_indented_entry_is_located() -> None:
    assert errors("a:\n  b: 1\n    c: 2\n") == [
        "f.yaml:3:6: mapping values are not allowed here (check the indentation, or quote a value that contains ': ')"
    ]


def test_unclosed_bracket_is_located() -> None:
    assert errors("slots: [coal, iron\n") == [
        "f.yaml:2:1: expected ',' or ']', but got the end of the file (the [...] list starts at line 1, column 8)"
    ]


def test_unclosed_quote_is_located() -> None:
    assert errors("name: 'Birmingham\n") == [
        "f.yaml:2:1: found unexpected end of stream (the quoted string starts at line 1, column 7)"
    ]


def test_tab_indentation_is_located() -> None:
    assert errors("a:\n\tb: 1\n") == [
        "f.yaml:2:1: found a tab character that cannot start any token; indent with spaces"]


def test_second_document_is_an_error() -> None:
    assert errors("a: 1\n---\nb: 2\n") == [
        "f.yaml:2:1: a file must hold a single YAML document, but a second one ('---') starts here"
    ]


def test_tags_are_rejected() -> None:
    assert errors("a: !foo 3\nb: !!str 010\nc: !bar {x: 1}\n") == [
        "f.yaml:1:4: tags are not supported: !foo",
        "f.yaml:2:4: tags are not supported: !!str",
        "f.yaml:3:4: tags are not supported: !bar",
    ]


def test_merge_key_is_rejected() -> None:
    assert errors("base: &b {x: 1}\nother:\n  <<: *b\n  y: 2\n") == [
        "f.yaml:3:3: merge keys ('<<') are not supported (they are YAML 1.1 only); write the entries out"
    ]


def test_quoted_merge_key_is_an_ordinary_key() -> None:
    assert load("'<<': 1\n").data == {"<<": 1}


def test_alias_of_scalar_is_allowed() -> None:
    doc = load("price: &p 'money >= 3'\nother: *p\n")
    assert doc.data == {"price": "money >= 3", "other": "money >= 3"}
    assert doc.pos(("other",)) == SourcePos("f.yaml", 2, 8)  # where it is used
    assert doc.origins[("other",)] == ExpressionOrigin(SourcePos("f.yaml", 1, 12), "'")  # where the text is


def test_alias_of_collection_is_rejected() -> None:
    assert errors("a: &x [1, 2]\nb: *x\nc: &y {k: 1}\nd: *y\n") == [
        "f.yaml:2:4: aliases are only supported for single values, not for lists or mappings",
        "f.yaml:4:4: aliases are only supported for single values, not for lists or mappings",
    ]


def test_undefined_alias_is_located() -> None:
    assert errors("a: *nowhere\n") == [
        "f.yaml:1:4: unknown alias '*nowhere': no anchor '&nowhere' is defined before it"]


def test_bad_keys_are_located() -> None:
    assert errors("? [1]\n: a\n~: b\ntrue: c\n1.5: d\nyes: e\n") == [
        "f.yaml:1:3: a mapping key must be a string or an integer, not a list",
        "f.yaml:3:1: a mapping key is missing (null keys are not allowed)",
        "f.yaml:4:1: 'true' is a boolean and cannot be a mapping key; quote it to use the text",
        "f.yaml:5:1: '1.5' is a decimal number and cannot be a mapping key; use an integer or quote it",
    ]


def test_all_errors_of_a_file_are_reported() -> None:
    assert len(errors("a: 1\na: 2\nb: !t 3\n<<: 4\n")) == 3


def test_control_character_is_located() -> None:
    assert errors("a: 1\nb: x\x07y\n") == [
        "f.yaml:2:5: character 0x07 is not allowed in a YAML file (special characters are not allowed)"
    ]


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    # Located at the first bracket too deep (the 51st), before Python's recursion limit is near.
    assert errors("[" * 5000) == ["f.yaml:1:51: lists and mappings are nested more than 50 levels deep here; "
                                  "a ruleset needs far fewer (check the brackets and the indentation)"]


# --------------------------------------------------------------------------
# Files


def test_file_not_utf8_is_located(tmp_path: Path) -> None:
    path = tmp_path / "board.yaml"
    path.write_bytes(b"a: 1\nname: caf\xe9\n")
    with pytest.raises(RulesetError) as caught:
        load_yaml_file(path, "board.yaml")
    assert [str(d) for d in caught.value.diagnostics] == [
        "board.yaml:2:10: the file is not valid UTF-8 (byte 0xe9 cannot be decoded); save it as UTF-8"
    ]


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as caught:
        load_yaml_file(tmp_path / "nope.yaml", "nope.yaml")
    assert [str(d) for d in caught.value.diagnostics] == ["nope.yaml:1:1: file not found: nope.yaml"]


def test_load_file(tmp_path: Path) -> None:
    path = tmp_path / "board.yaml"
    path.write_text("a: [1, 2]\n", encoding="utf-8")
    doc = load_yaml_file(path, "rulesets/x/board.yaml")
    assert doc.data == {"a": [1, 2]}
    assert doc.pos(("a", 1)) == SourcePos("rulesets/x/board.yaml", 1, 8)


# --------------------------------------------------------------------------
# The tuned scanner produces exactly the events of stock PyYAML


CORPUS = [
    "a: 1\nb: [x, y]\nc: {d: e}\n",
    "- a\n- - b\n  - c\n-\n  k: v\n",
    "a: |\n  lit\n  more\nb: >-\n  fold\n\n  para\n",
    "a: 'q''uote'\nb: \"dq\\n\"\n? complex\n: value\n",
    "a:\r\n  b: 1\r\n  c: 'x\r\n    y'\r\n",
    "a: \u2028b\nc: x\x85y\n",
    "key with spaces: value # comment\n# c\n\n\nz: ~\n",
    "a: &x 1\nb: *x\n",
    "a: [1, 2\n",
    "a:\n  b: 1\n c: 2\n",
    "x" * 1100 + ": 1\n",
]


def _events(text: str, loader: type) -> list | str:
    try:
        return [
            (type(e).__name__, getattr(e, "value", None), getattr(e, "style", None),
             e.start_mark.index, e.start_mark.line, e.start_mark.column,
             e.end_mark.index, e.end_mark.line, e.end_mark.column)
            for e in yaml.parse(text, Loader=loader)
        ]  # fmt: skip
    except yaml.YAMLError as error:
        return f"{type(error).__name__}: {error}"


@pytest.mark.parametrize("text", CORPUS)
def test_scanner_events_match_stock_pyyaml(text: str) -> None:
    from interpreter.ruleset.yaml_compose import Loader as _Loader

    assert _events(text, _Loader) == _events(text, yaml.SafeLoader)


def test_anchored_scalar_marks_its_text_not_its_anchor() -> None:
    doc = load("a: &x  plain text\nb: &y\n  'quoted'\n")
    assert doc.pos(("a",)) == SourcePos("f.yaml", 1, 8)
    assert doc.origins[("b",)] == ExpressionOrigin(SourcePos("f.yaml", 3, 4), "'")


def test_anchored_empty_and_flow_scalars() -> None:
    doc = load("a: &x\nb: [&y c, &z]\n")
    assert doc.data == {"a": None, "b": ["c", None]}
    assert doc.pos(("b", 0)) == SourcePos("f.yaml", 2, 8)
