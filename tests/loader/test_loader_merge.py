"""`extends`: merge rules, marks after merging, and the chain of bases."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from brass_dsl.source import SourcePos
from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.merge import resolve_extends
from interpreter.ruleset.yaml_source import Document

MakeRuleset = Callable[..., Path]  # the make_ruleset fixture (conftest.py)
Resolver = Callable[[str, Path], Path | None]

BASE = """
name: base
title: Base game
version: 1
"""

BASE_RULES = """
settings:
  money: 17
  loans: {amount: 30, limit: 3}
  eras: [canal, rail]
  flags: {fast: true}
tiles:
  - {name: cotton, cost: 12, levels: 3}
  - {name: coal, cost: 5, levels: 4}
  - {name: iron, cost: 5, levels: 4}
end:
  - score_links
  - {remove_tiles: {where: level == 1}}
  - refill
"""


def child_over_base(make_ruleset: MakeRuleset, resolver: Resolver, rules: str) -> Document:
    """Merge a child whose rules.yaml is `rules` over the standard base."""
    make_ruleset("base", {"ruleset.yaml": BASE, "rules.yaml": BASE_RULES})
    child = make_ruleset("child", {"ruleset.yaml": "name: child\nextends: base\n", "rules.yaml": rules})
    document, _ = resolve_extends(child, resolver)
    return document


def merge_errors(make_ruleset: MakeRuleset, resolver: Resolver, rules: str) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        child_over_base(make_ruleset, resolver, rules)
    return [str(d) for d in caught.value.diagnostics]


# --------------------------------------------------------------------------
# Merge rules


def test_rule1_mappings_merge_recursively(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    doc = child_over_base(make_ruleset, resolver, "settings:\n  loans: {limit: 5}\n  bonus: 2\n")
    assert doc.data["settings"] == {
        "money": 17,
        "loans": {"amount": 30, "limit": 5},
        "eras": ["canal", "rail"],
        "flags": {"fast": True},
        "bonus": 2,
    }


def test_root_keys_override_and_extends_is_removed(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    doc = child_over_base(make_ruleset, resolver, "settings: {money: 20}\n")
    assert doc.data["name"] == "child"
    assert doc.data["title"] == "Base game"
    assert "extends" not in doc.data
    assert list(doc.data)[:3] == ["name", "title", "version"]


def test_rule2_scalars_and_lists_replace(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    doc = child_over_base(make_ruleset, resolver, "settings:\n  money: 25\n  eras: [rail]\n  flags: off\n")
    settings = doc.data["settings"]
    assert settings["money"] == 25
    assert settings["eras"] == ["rail"]
    assert settings["flags"] == "off"


def test_rule2_mapping_over_non_mapping_replaces(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    doc = child_over_base(make_ruleset, resolver, "settings:\n  money: {canal: 17, rail: 20}\n")
    assert doc.data["settings"]["money"] == {"canal": 17, "rail": 20}


def test_rule3_remove(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    doc = child_over_base(make_ruleset, resolver, "settings:\n  $remove: [loans, flags]\n  loans: {amount: 10}\n")
    assert doc.data["settings"] == {"money": 17, "eras": ["canal", "rail"], "loans": {"amount": 10}}


def test_rule3_remove_unknown_key(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    assert merge_errors(make_ruleset, resolver, "settings:\n  $remove: [laons, nothing]\n") == [
        "child/rules.yaml:2:13: cannot remove 'laons': the base has no such entry; did you mean 'loans'?",
        "child/rules.yaml:2:20: cannot remove 'nothing': the base has no such entry",
    ]


def test_rule4_replace(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    doc = child_over_base(make_ruleset, resolver, "settings:\n  loans:\n    $replace: {limit: 1}\n")
    assert doc.data["settings"]["loans"] == {"limit": 1}
    assert doc.pos(("settings", "loans")) == SourcePos("child/rules.yaml", 3, 15)
    assert doc.pos(("settings", "loans"), key=True) == SourcePos("child/rules.yaml", 2, 3)


def test_rule4_replace_must_be_alone(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    assert merge_errors(make_ruleset, resolver, "settings:\n  loans: {$replace: {limit: 1}, amount: 2}\n") == [
        "child/rules.yaml:2:11: '$replace' must be the only key of its mapping"
    ]


PATCH = """
tiles:
  $patch:
    key: name
    set:
      - {name: coal, cost: 7}
    remove: [cotton]
    append:
      - {name: beer, cost: 5, levels: 2}
"""


def test_rule5_patch_set_remove_append(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    doc = child_over_base(make_ruleset, resolver, PATCH)
    assert doc.data["tiles"] == [
        {"name": "coal", "cost": 7, "levels": 4},
        {"name": "iron", "cost": 5, "levels": 4},
        {"name": "beer", "cost": 5, "levels": 2},
    ]


def test_rule5_patch_marks_are_renumbered(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    doc = child_over_base(make_ruleset, resolver, PATCH)
    assert doc.pos(("tiles", 0, "cost")) == SourcePos("child/rules.yaml", 5, 28)  # set in the child
    assert doc.pos(("tiles", 0, "levels")) == SourcePos("base/rules.yaml", 8, 35)  # inherited
    assert doc.pos(("tiles", 1, "name")) == SourcePos("base/rules.yaml", 9, 12)  # was index 2
    assert doc.pos(("tiles", 2, "name")) == SourcePos("child/rules.yaml", 8, 16)  # appended
    assert doc.pos(("tiles", 3)) == SourcePos("child/rules.yaml", 2, 3)  # no such entry: the list


def test_rule5_patch_errors(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    rules = """
    tiles:
      $patch:
        key: name
        set: [{name: cole, cost: 1}]
        remove: [brewery]
        append: [{name: iron}]
    """
    assert merge_errors(make_ruleset, resolver, rules) == [
        "child/rules.yaml:4:18: the base has no entry with name 'cole'; did you mean 'coal'?",
        "child/rules.yaml:5:14: the base has no entry with name 'brewery'",
        "child/rules.yaml:6:21: an entry with name 'iron' already exists; use 'set' to change it",
    ]


def test_rule5_patch_conflicts(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    rules = """
    tiles:
      $patch:
        key: name
        set: [{name: coal, cost: 1}, {name: coal, cost: 2}, {name: iron}]
        remove: [iron, cotton, cotton]
        append: [{name: beer}, {name: beer}, {cost: 3}]
    """
    assert merge_errors(make_ruleset, resolver, rules) == [
        "child/rules.yaml:4:41: 'coal' is set twice",
        "child/rules.yaml:4:64: 'iron' is both set and removed",
        "child/rules.yaml:5:28: 'cotton' is removed twice",
        "child/rules.yaml:6:35: an entry with name 'beer' already exists; use 'set' to change it",
        "child/rules.yaml:6:42: each 'append' entry must be a mapping with a 'name' field",
    ]


def test_rule5_patch_needs_a_list_of_mappings(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    rules = "settings:\n  eras:\n    $patch: {key: name, remove: [canal]}\n  nothing:\n    $patch: {key: name}\n"
    assert merge_errors(make_ruleset, resolver, rules) == [
        "child/rules.yaml:3:5: cannot $patch: the base value here is a list, not a list of mappings",
        "child/rules.yaml:5:5: cannot $patch: the base has no value here (it needs a list of mappings)",
    ]


def test_rule5_patch_a_list_of_steps_by_name(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    """`key: $name`: a step is a plain name or a one-key mapping {name: arguments}; a set entry
    merges into a mapping step (rule 1) and replaces a plain one."""
    rules = """
end:
  $patch:
    key: $name
    set:
      - score_links: {value: 2}
      - remove_tiles: {where: level <= 2}
    remove: [refill]
    append: [deal_hands]
"""
    doc = child_over_base(make_ruleset, resolver, rules)
    assert doc.data["end"] == [{"score_links": {"value": 2}}, {"remove_tiles": {"where": "level <= 2"}}, "deal_hands"]
    assert doc.pos(("end", 1, "remove_tiles", "where")) == SourcePos("child/rules.yaml", 6, 31)
    assert doc.pos(("end", 2)) == SourcePos("child/rules.yaml", 8, 14)


def test_rule5_patch_steps_errors(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    rules = """
end:
  $patch:
    key: $name
    set: [{score_link: {value: 2}}, {a: 1, b: 2}]
    append: [refill]
tiles:
  $patch: {key: $name, remove: [coal]}
"""
    assert merge_errors(make_ruleset, resolver, rules) == [
        "child/rules.yaml:4:11: the base has no step 'score_link'; did you mean 'score_links'?",
        "child/rules.yaml:4:37: each 'set' entry must be a step: a name or a mapping with one key, {name: arguments}",
        "child/rules.yaml:5:14: a step 'refill' already exists; use 'set' to change it",
        "child/rules.yaml:7:3: cannot $patch: the base value here is a list, "
        "not a list of steps (names or {name: arguments})",
    ]


def test_rule5_patch_bad_spec(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    rules = "tiles:\n  $patch: {set: [], apend: []}\n"
    assert merge_errors(make_ruleset, resolver, rules) == [
        "child/rules.yaml:2:11: $patch needs 'key: FIELD', the field that identifies an entry (like 'key: name')",
        "child/rules.yaml:2:21: unknown $patch field 'apend'; did you mean 'append'? "
        "(expected key, set, remove, append)",
    ]


def test_rule6_unknown_directive(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    assert merge_errors(make_ruleset, resolver, "settings:\n  $remvoe: [loans]\n  new:\n    $delete: 1\n") == [
        (
            "child/rules.yaml:2:3: unknown directive '$remvoe'; did you mean '$remove'? "
            "(the directives are $remove, $replace and $patch)"
        ),
        "child/rules.yaml:4:5: unknown directive '$delete' (the directives are $remove, $replace and $patch)",
    ]


def test_directives_over_nothing(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    doc = child_over_base(make_ruleset, resolver, "extra:\n  a: {$replace: [1]}\n")
    assert doc.data["extra"] == {"a": [1]}
    assert merge_errors(make_ruleset, resolver, "extra:\n  $remove: [a]\n") == [
        "child/rules.yaml:2:13: cannot remove 'a': the base has no value here (it needs a mapping)"
    ]


def test_directives_without_extends_are_errors(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    folder = make_ruleset("solo", {"ruleset.yaml": "name: solo\nthings:\n  $remove: [x]\n"})
    with pytest.raises(RulesetError) as caught:
        resolve_extends(folder, resolver)
    assert [str(d) for d in caught.value.diagnostics] == [
        "solo/ruleset.yaml:3:3: '$remove' can only be used in a ruleset that extends another (see docs/extends.md)"
    ]


# --------------------------------------------------------------------------
# Marks after merging


def test_marks_point_at_the_file_that_supplied_each_value(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    doc = child_over_base(make_ruleset, resolver, "# tweak\nsettings:\n  money: 25\n")
    assert doc.pos(("settings", "money")) == SourcePos("child/rules.yaml", 3, 10)  # overridden
    assert doc.pos(("settings", "money"), key=True) == SourcePos("child/rules.yaml", 3, 3)
    assert doc.pos(("settings", "loans", "limit")) == SourcePos("base/rules.yaml", 3, 30)  # inherited
    assert doc.pos(("settings", "eras"), key=True) == SourcePos("base/rules.yaml", 4, 3)
    assert doc.origin(("settings", "eras", 1)).start == SourcePos("base/rules.yaml", 4, 17)
    assert doc.pos(("title",)) == SourcePos("base/ruleset.yaml", 2, 8)
    assert doc.pos(("name",)) == SourcePos("child/ruleset.yaml", 1, 7)
    assert doc.pos(("settings",)) == SourcePos("child/rules.yaml", 3, 3)  # merged mapping: the child's


# --------------------------------------------------------------------------
# The chain of bases


def test_chain_of_three(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    make_ruleset("a", {"ruleset.yaml": "name: a\nx: {one: 1, two: 2, three: 3}\n"})
    make_ruleset("b", {"ruleset.yaml": "name: b\nextends: a\nx: {two: 22}\n"})
    c = make_ruleset("c", {"ruleset.yaml": "name: c\nextends: b\nx: {three: 33}\n"})
    doc, chain = resolve_extends(c, resolver)
    assert doc.data == {"name": "c", "x": {"one": 1, "two": 22, "three": 33}}
    assert [p.name for p in chain] == ["a", "b", "c"]
    assert doc.pos(("x", "one")) == SourcePos("a/ruleset.yaml", 2, 10)
    assert doc.pos(("x", "two")) == SourcePos("b/ruleset.yaml", 3, 10)
    assert doc.pos(("x", "three")) == SourcePos("c/ruleset.yaml", 3, 12)


def test_no_extends(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    folder = make_ruleset("solo", {"ruleset.yaml": "name: solo\n"})
    doc, chain = resolve_extends(folder, resolver)
    assert doc.data == {"name": "solo"}
    assert chain == [folder]


def chain_errors(folder: Path, resolver: Resolver, known: tuple[str, ...] = ()) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        resolve_extends(folder, resolver, known)
    return [str(d) for d in caught.value.diagnostics]


def test_missing_base_suggests_a_name(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    folder = make_ruleset("v", {"ruleset.yaml": "name: v\nextends: birmingam\n"})
    assert chain_errors(folder, resolver, ("birmingham", "brass_lancashire")) == [
        "v/ruleset.yaml:2:10: extends 'birmingam': no such ruleset; did you mean 'birmingham'?"
    ]
    assert chain_errors(folder, resolver) == ["v/ruleset.yaml:2:10: extends 'birmingam': no such ruleset"]


def test_cycle(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    a = make_ruleset("a", {"ruleset.yaml": "name: a\nextends: b\n"})
    make_ruleset("b", {"ruleset.yaml": "name: b\nextends: a\n"})
    assert chain_errors(a, resolver) == ["b/ruleset.yaml:2:10: extends cycle: a -> b -> a"]


def test_self_extend(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    a = make_ruleset("a", {"ruleset.yaml": "name: a\nextends: a\n"})
    assert chain_errors(a, resolver) == ["a/ruleset.yaml:2:10: extends cycle: a -> a"]


@pytest.mark.parametrize("value", ["[a]", "3", "''", "null"])
def test_extends_must_be_a_string(make_ruleset: MakeRuleset, resolver: Resolver, value: str) -> None:
    a = make_ruleset("a", {"ruleset.yaml": f"name: a\nextends: {value}\n"})
    [message] = chain_errors(a, resolver)
    assert message.startswith("a/ruleset.yaml:2:10: extends must be the name or folder of a ruleset (a string), not ")


def test_base_without_ruleset_yaml(make_ruleset: MakeRuleset, resolver: Resolver, in_tmp: Path) -> None:
    (in_tmp / "empty").mkdir()
    a = make_ruleset("a", {"ruleset.yaml": "name: a\nextends: empty\n"})
    assert chain_errors(a, resolver) == ["a/ruleset.yaml:2:10: extends 'empty': no ruleset.yaml in empty"]


def test_errors_in_the_base_are_reported_in_the_base(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    make_ruleset("a", {"ruleset.yaml": "name: a\nname: again\n"})
    b = make_ruleset("b", {"ruleset.yaml": "name: b\nextends: a\n"})
    assert chain_errors(b, resolver) == ["a/ruleset.yaml:2:1: duplicate key 'name' (first defined at line 1)"]


def test_integer_keys_merge(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    doc = child_over_base(make_ruleset, resolver, "settings:\n  loans: {2: 10}\n  $remove: [money]\n")
    settings: dict[str, Any] = doc.data["settings"]
    assert settings["loans"] == {"amount": 30, "limit": 3, 2: 10}
    assert "money" not in settings


# --------------------------------------------------------------------------
# `$at`: one of several entries with the same key (issue 27, item 4)

REPEATED = """
name: base
steps:
  - {discard: card}
  - {discard: second_card}
  - {discard: third_card}
  - {gain: wild}
tiles:
  - {name: coal, cost: 5}
  - {name: coal, cost: 7}
"""


def repeated_child(make_ruleset: MakeRuleset, resolver: Resolver, rules: str) -> Document:
    make_ruleset("base", {"ruleset.yaml": REPEATED})
    child = make_ruleset("child", {"ruleset.yaml": "name: child\nextends: base\n", "rules.yaml": rules})
    return resolve_extends(child, resolver)[0]


def repeated_errors(make_ruleset: MakeRuleset, resolver: Resolver, rules: str) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        repeated_child(make_ruleset, resolver, rules)
    return [str(d) for d in caught.value.diagnostics]


def test_patch_at_names_one_of_several_steps(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    """Scout's three `discard` steps: the third is changed and the second dropped, the rest kept."""
    rules = """
steps:
  $patch:
    key: $name
    set: [{discard: second_card, $at: 3}]
    remove: [{$name: discard, $at: 2}]
tiles:
  $patch:
    key: name
    set: [{name: coal, $at: 2, cost: 9}]
"""
    doc = repeated_child(make_ruleset, resolver, rules)
    assert doc.data["steps"] == [{"discard": "card"}, {"discard": "second_card"}, {"gain": "wild"}]
    assert doc.data["tiles"] == [{"name": "coal", "cost": 5}, {"name": "coal", "cost": 9}]
    assert doc.pos(("steps", 1, "discard")) == SourcePos("child/rules.yaml", 4, 21)  # the patched one
    assert doc.pos(("steps", 0, "discard")) == SourcePos("base/ruleset.yaml", 3, 15)  # inherited


def test_patch_at_errors_are_located(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    rules = """
steps:
  $patch:
    key: $name
    set: [{discard: x}, {discard: y, $at: 4}, {discrad: z, $at: 1}, {discard: w, $at: 0}]
    remove: [discard, {$name: discard, $at: two}, {$name: discard}, {discard: 2}]
    append: [{gain: more, $at: 1}]
tiles:
  $patch: {key: name, remove: [{name: coal, $at: 3}]}
"""
    assert repeated_errors(make_ruleset, resolver, rules) == [
        "child/rules.yaml:4:11: the base has 3 steps 'discard'; cannot tell which one (name one with $at: 1 to 3)",
        "child/rules.yaml:4:43: the base has 3 steps 'discard'; $at: 4 names none of them",
        "child/rules.yaml:4:47: the base has no step 'discrad'; did you mean 'discard'?",
        "child/rules.yaml:4:87: $at must be a whole number from 1 (the first entry with that name), not 0",
        "child/rules.yaml:5:14: the base has 3 steps 'discard'; cannot tell which one (name one with $at: 1 to 3)",
        "child/rules.yaml:5:45: $at must be a whole number from 1 (the first entry with that name), not 'two'",
        "child/rules.yaml:5:59: the base has 3 steps 'discard'; cannot tell which one (name one with $at: 1 to 3)",
        "child/rules.yaml:5:69: a 'remove' entry is a $name value or {$name: VALUE, $at: N}",
        "child/rules.yaml:6:27: $at names an entry of the base; an appended entry is a new one",
        "child/rules.yaml:8:50: the base has 2 entries with name 'coal'; $at: 3 names none of them",
    ]


def test_patch_at_conflicts(make_ruleset: MakeRuleset, resolver: Resolver) -> None:
    rules = """
steps:
  $patch:
    key: $name
    set: [{discard: a, $at: 1}, {discard: b, $at: 2}, {discard: c, $at: 2}]
    remove: [{$name: discard, $at: 1}, {$name: discard, $at: 3}, {$name: discard, $at: 3}]
"""
    assert repeated_errors(make_ruleset, resolver, rules) == [
        "child/rules.yaml:4:11: 'discard' is both set and removed",
        "child/rules.yaml:4:55: 'discard' is set twice",
        "child/rules.yaml:5:66: 'discard' is removed twice",
    ]
