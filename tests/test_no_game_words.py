"""No Python string literal of the interpreter names a game's resource, industry, location, link kind
or action: game knowledge lives in YAML (issue 16). Docstrings are prose and do not count; the trace
importer (interpreter/tools/trace/*.py) translates one game's logs and is left out on purpose.

The ruleset a command uses when none is named is written beside the rulesets (rulesets/__init__.py,
`DEFAULT`), not in the interpreter. The words are the ids of every ruleset under rulesets/ (a new
ruleset, such as Lancashire, is included as soon as its folder exists), loaded with the project's
own loader."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from interpreter.ruleset.loader import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("interpreter", "brass_dsl")
EXCLUDED = ("interpreter/tools/trace/*.py",)  # the trace importer: it reads one game's logs by name


# Words of the ruleset format that happen to equal an action id, allowed only in these files:
#   develop: a tile's `develop:` flag (removable by Develop) and the `develop` effect primitive;
#   loan:    the `economy.loan` terms and the `loan` name that reads them;
#   network: an era's `network:` options (links, money, needs per row).
# Renaming them would change every ruleset's YAML; they name parts of the format, not of a game.
FORMAT_WORDS = {
    "develop": {"interpreter/ruleset/schema.py", "interpreter/ruleset/model.py", "interpreter/ruleset/declared.py",
                "interpreter/ruleset/primitives.py",
                "interpreter/ruleset/effects.py", "interpreter/engine/effect_impls.py",
                "interpreter/engine/exclusions.py"},
    "loan": {"interpreter/ruleset/schema.py", "interpreter/ruleset/model.py", "interpreter/ruleset/primitives.py"},
    "network": {"interpreter/ruleset/schema.py", "interpreter/ruleset/primitives.py", "interpreter/ruleset/sizes.py",
                "interpreter/ruleset/examples.py",
                "interpreter/ruleset/crossref.py", "interpreter/ruleset/compile_rules.py"},
}


# Game words that are also plain English in a message, allowed only in these files:
#   port: the TCP port `brass serve` listens on.
PROSE_WORDS = {"port": {"interpreter/tools/web/serve.py"}}


def game_words() -> set[str]:
    """Ids of resources, industries, locations, link kinds and actions of every built-in ruleset."""
    words: set[str] = set()
    for folder in sorted((ROOT / "rulesets").iterdir()):
        if not (folder / "ruleset.yaml").is_file():
            continue
        rs = load_ruleset(folder)
        words.update(rs.resources, rs.industries, rs.locations, rs.link_kinds, rs.actions)
    return words


def prose_words() -> set[str]:
    """The words a message may not contain: ids and printed names of resources, industries,
    locations and link kinds (an action's id, such as build or sell, is also an English verb of the
    genre, so a message may use it; a literal that *is* an action id is still refused above)."""
    words: set[str] = set()
    for folder in sorted((ROOT / "rulesets").iterdir()):
        if not (folder / "ruleset.yaml").is_file():
            continue
        rs = load_ruleset(folder)
        words.update(rs.resources, rs.industries, rs.locations, rs.link_kinds)
        words.update(location.name for location in rs.locations.values())
    return words


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _skipped(rel: str) -> bool:
    return any(Path(rel).match(pattern) for pattern in EXCLUDED)


def literals() -> Iterator[tuple[str, ast.Constant]]:
    """Every string literal of the interpreter that is not a docstring, with its file."""
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if _skipped(rel):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            allowed = _docstrings(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in allowed:
                    yield rel, node


def findings(words: set[str]) -> Iterator[str]:
    for rel, node in literals():
        if node.value in words and rel not in FORMAT_WORDS.get(node.value, ()):
            yield f"{rel}:{node.lineno}:{node.value}"


def prose_findings(words: set[str]) -> Iterator[str]:
    """Every literal (not a docstring) containing one of `words` as a whole word: not inside a
    longer id such as `beer_bonus` or `brass-birmingham-trace`; matched with its case."""
    pattern = re.compile(r"(?<![A-Za-z0-9_-])(" + "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
                         + r")(?![A-Za-z0-9_-])")
    for rel, node in literals():
        text = str(node.value)
        for word in sorted(set(pattern.findall(text))):
            if rel not in PROSE_WORDS.get(word, ()):
                yield f"{rel}:{node.lineno}:{word}: {text[:60]!r}"


def test_the_words_come_from_every_ruleset() -> None:
    words = game_words()
    # Birmingham's ids are there (the scan would pass vacuously without them)
    assert {"coal", "beer", "canal", "rail", "brewery", "birmingham", "network", "scout"} <= words
    if (ROOT / "rulesets" / "lancashire" / "ruleset.yaml").is_file():
        assert {"cotton_mill", "shipyard", "double_build"} <= words


def test_no_string_literal_names_a_game_word() -> None:
    found = sorted(findings(game_words()), key=lambda f: (f.split(":")[0], int(f.split(":")[1])))
    assert not found, "game words in Python strings (move them to YAML):\n" + "\n".join(found)


def test_no_message_names_a_game_word() -> None:
    found = sorted(prose_findings(prose_words()), key=lambda f: (f.split(":")[0], int(f.split(":")[1])))
    assert not found, "game words in Python messages (take them from the ruleset):\n" + "\n".join(found)


def test_the_message_scan_sees_a_word_but_not_a_longer_id() -> None:
    pattern_words = {"beer", "Birmingham"}
    source = 'X = "a beer barrel"\nY = "beer_bonus"\nZ = "brass-birmingham-trace"\nW = "Brass: Birmingham."\n'
    tree = ast.parse(source)
    texts = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    pattern = re.compile(r"(?<![A-Za-z0-9_-])(beer|Birmingham)(?![A-Za-z0-9_-])")
    assert [t for t in texts if pattern.search(t)] == ["a beer barrel", "Brass: Birmingham."]
    assert pattern_words <= prose_words()


def test_the_scan_sees_a_literal() -> None:
    """The scan itself: a literal outside a docstring is found, a docstring is not."""
    tree = ast.parse('"""coal"""\nX = "coal"\n')
    constants = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) not in _docstrings(tree)]
    assert [c.value for c in constants] == ["coal"]
