"""The descriptions of the ruleset's keys, read from the key tables of docs/ruleset-format.md.

Every section of the format is documented under a heading naming it (`### \\`locations\\``) with a
table `| key | type | required | meaning |`; nested keys appear as `loan.amount`, and the parts of
an action under their own headings (`#### Parameters (\\`params\\`)`). `brass schema` gives each
key of its JSON Schema the meaning written there, so an editor shows the documentation's words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["DOCS_FILE", "KeyDocs", "key_docs"]

DOCS_FILE = Path(__file__).resolve().parents[3] / "docs" / "ruleset-format.md"
CITATIONS = "Rule citations"  # the heading whose table documents `rule` and `rules` everywhere
_HEADING = re.compile(r"(#{2,6}) (.*)")
_NAMES = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")


@dataclass
class _Block:
    """A heading, the key names it mentions, its first paragraph and the rows of its key tables."""

    level: int
    title: str
    names: list[str]
    intro: str = ""
    rows: dict[str, str] = field(default_factory=dict)  # key as written (`loan.amount`, `(key)`) -> meaning


@dataclass
class KeyDocs:
    """The meaning of every documented key, looked up by its path of keys (`economy.loan.amount` is
    ("economy", "loan", "amount"); list entries and table ids are left out)."""

    blocks: list[_Block]

    def __call__(self, path: tuple[str, ...]) -> str | None:
        if path[-1] == "*":  # the entries of a table or list: their keys are described, not them
            return None
        path = tuple(key for key in path if key != "*")
        if path[-1] in ("rule", "rules"):
            return self.row(CITATIONS, path[-1])
        owner = self.section(path[0])
        if owner is None:
            return None
        start, end = owner
        if len(path) == 1:
            return self.top_level(start, path[0])
        return self.nested(start, end, path)

    def section(self, name: str) -> tuple[int, int] | None:
        """The blocks documenting a section: its heading's block and those under it."""
        for i, block in enumerate(self.blocks):
            if block.level == 3 and name in block.names:
                end = next((j for j in range(i + 1, len(self.blocks)) if self.blocks[j].level <= 3), len(self.blocks))
                return i, end
        return None

    def top_level(self, start: int, name: str) -> str | None:
        block = self.blocks[start]
        return block.rows.get(name) or block.intro or None

    def nested(self, start: int, end: int, path: tuple[str, ...]) -> str | None:
        """The row for the last key, from the block most specific to the path: a heading naming a
        key of the path (`requires`) wins over the section's own table."""
        best: tuple[int, str] | None = None
        for block in self.blocks[start:end]:
            if len(self.blocks[start].names) > 1 and len(path) > 1:
                break  # the header block documents several sections, not their inner keys
            score = max((i for i, key in enumerate(path[:-1]) if key in block.names), default=-1)
            meaning = _row_for(block, path)
            if meaning is not None and score >= 0 and (best is None or score > best[0]):
                best = (score, meaning)
        return best[1] if best else None

    def row(self, title_start: str, key: str) -> str | None:
        block = next((b for b in self.blocks if b.title.startswith(title_start)), None)
        return block.rows.get(key) if block else None


def _row_for(block: _Block, path: tuple[str, ...]) -> str | None:
    """`parent.key` for the last two keys, else `key` (the `(key)` row for a table's keys)."""
    if len(path) >= 2 and f"{path[-2]}.{path[-1]}" in block.rows:
        return block.rows[f"{path[-2]}.{path[-1]}"]
    return block.rows.get(path[-1])


def key_docs(path: Path = DOCS_FILE) -> KeyDocs:
    """The key descriptions of the format documentation; none when the docs are not installed
    (a package installed without its source tree)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return KeyDocs([])
    return KeyDocs(list(_blocks(text)))


def _blocks(markdown: str) -> Iterator[_Block]:
    block: _Block | None = None
    fenced = False
    paragraph: list[str] = []
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        heading = None if fenced else _HEADING.fullmatch(line)
        if heading:
            if block is not None:
                yield block
            block = _Block(len(heading.group(1)), heading.group(2), _NAMES.findall(heading.group(2)))
            paragraph = []
        elif block is not None and not fenced:
            _read_line(block, line, paragraph)
    if block is not None:
        yield block


def _read_line(block: _Block, line: str, paragraph: list[str]) -> None:
    """A table row adds the meaning of its keys; the first paragraph is the block's intro."""
    if line.startswith("|"):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and cells[0] not in ("key", "---"):
            keys = _NAMES.findall(cells[0]) or ([cells[0]] if cells[0] == "(key)" else [])
            for key in keys:
                block.rows.setdefault(key, plain(cells[-1]))
        return
    if block.intro:
        return
    if line.strip():
        paragraph.append(line.strip())
    elif paragraph:
        block.intro = plain(" ".join(paragraph))


def plain(markdown: str) -> str:
    """Markdown of one cell as plain text: no backticks, links as their words."""
    return _LINK.sub(r"\1", markdown).replace("`", "").replace("\\|", "|").strip()
