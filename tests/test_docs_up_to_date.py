"""The committed docs match what `python -m interpreter.tools.authoring.docs` generates.

When this fails after a change to the effects, the vocabulary, the grammar or the
built-in ruleset, run `python -m interpreter.tools.authoring.docs` and commit the updated docs.
"""

from __future__ import annotations

import pytest

from interpreter.ruleset.effects import EFFECTS
from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.authoring import docs

HINT = "run `python -m interpreter.tools.authoring.docs` and commit the result"


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset(docs.REFERENCE_RULESET)


@pytest.mark.parametrize("doc", [d.file for d in docs.generated_docs()])
def test_generated_blocks_are_up_to_date(doc: str, ruleset) -> None:
    [generated] = [d for d in docs.generated_docs(ruleset) if d.file == doc]
    current, wanted = docs.expected_text(generated)
    assert current == wanted, f"docs/{doc} is out of date; {HINT}"


def test_every_schema_key_is_documented() -> None:
    text = (docs.DOCS_DIR / docs.RULESET_FORMAT).read_text(encoding="utf-8")
    assert docs.undocumented_keys(text) == [], "document these keys in docs/ruleset-format.md"


def test_effect_table_lists_every_effect() -> None:
    table = docs.effect_table()
    for name in EFFECTS:
        assert f"| `{name}` |" in table


def test_reference_covers_the_vocabulary(ruleset) -> None:
    reference = docs.condition_reference(ruleset.registry)
    registry = ruleset.registry
    for entry in [*registry.names(), *registry.functions()]:
        assert f"`{entry.name}" in reference
    for record in registry.types():
        assert f"#### `{record.name}`" in reference


# -- the generator itself ---------------------------------------------------------


def test_render_rewrites_only_the_marked_block() -> None:
    text = "intro\n<!-- BEGIN GENERATED: a -->\nold\n<!-- END GENERATED: a -->\noutro\n"
    expected = "intro\n<!-- BEGIN GENERATED: a -->\nnew\n<!-- END GENERATED: a -->\noutro\n"
    assert docs.render(text, {"a": "new"}) == expected


@pytest.mark.parametrize(("text", "problem"), [
    ("no markers\n", "block 'a' is missing"),
    ("<!-- BEGIN GENERATED: a -->\nx\n", "has no END marker"),
    ("<!-- BEGIN GENERATED: a -->\n<!-- END GENERATED: a -->\n<!-- BEGIN GENERATED: b -->\n<!-- END GENERATED: b -->\n",
     "unknown generated block 'b'"),
    ("<!-- BEGIN GENERATED: a -->\n<!-- END GENERATED: a -->\n" * 2, "appears more than once"),
])
def test_render_refuses_broken_markers(text: str, problem: str) -> None:
    with pytest.raises(docs.DocsError, match=problem):
        docs.render(text, {"a": "new"})


def test_undocumented_keys_are_found() -> None:
    text = "### `setup`\n\n`money`, `vp`\n\n### `economy`\n\n`loan.amount`\n"
    missing = docs.undocumented_keys(text, {"setup": docs.schema.SECTIONS["setup"],
                                            "economy": docs.schema.SECTIONS["economy"],
                                            "tiles": docs.schema.SECTIONS["tiles"]})
    assert "setup: hand_size" in missing and "setup: money" not in missing
    assert "economy: amount" not in missing and "economy: shortfall" in missing
    assert "tiles" in missing


def test_demote_headings_leaves_code_alone() -> None:
    assert docs.demote_headings("# A\n```\n# not a heading\n```\n## B\n") == "## A\n```\n# not a heading\n```\n### B\n"
