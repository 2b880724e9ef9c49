"""The shape of the code: three layers that import only downward, no import cycles, small modules.

    brass_dsl             the condition language (knows nothing of Brass)
    interpreter.ruleset   layer 1: load, check and compile a ruleset
    interpreter.engine    layer 2: a game in progress
    interpreter.tools     layer 3: the command and everything around the engine
    interpreter           the package's front door (re-exports load_ruleset, Game, IllegalAction)

Every import counts, including those inside functions and `if TYPE_CHECKING:` blocks: a cycle that
only type checking sees is still a circle a reader has to untangle. (A package's `__init__` running
before its sub-modules is Python's doing, not an import written in the code, and is not counted.)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("brass_dsl", "interpreter")
MAX_LINES = 600
# Layer of a module by the longest matching prefix of its name: a module may import its own layer
# and the ones below it.
LAYERS = {"brass_dsl": 0, "interpreter.ruleset": 1, "interpreter.engine": 2, "interpreter.tools": 3,
          "interpreter": 4}


def module_files() -> dict[str, Path]:
    """Every module of the project's packages by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules a module imports (a `from package import name` of a sub-module counts
    as an import of that sub-module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        found.update(t for t in targets if t in known and t != name)
    return found


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    known = set(files)
    return {name: imports_of(name, path, known) for name, path in files.items()}


def layer(module: str) -> int:
    best = max((prefix for prefix in LAYERS if module == prefix or module.startswith(prefix + ".")), key=len)
    return LAYERS[best]


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return sorted(f"{a} imports {b}" for a, targets in graph.items() for b in targets if layer(b) > layer(a))


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


# -- the checks on this code ---------------------------------------------------------------------

def test_no_module_imports_from_a_higher_layer() -> None:
    assert upward_imports(import_graph()) == []


def test_no_import_cycles() -> None:
    assert cycles(import_graph()) == []


def test_the_condition_language_knows_nothing_of_the_interpreter() -> None:
    graph = import_graph()
    assert not [f"{a} imports {b}" for a in graph if a.startswith("brass_dsl")
                for b in graph[a] if b.startswith("interpreter")]


@pytest.mark.parametrize("name", sorted(module_files()))
def test_no_module_is_over_600_lines(name: str) -> None:
    lines = module_files()[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines: split it by job"


def test_the_front_door_still_works() -> None:
    from interpreter import Game, IllegalAction, load_ruleset

    game = Game.new(load_ruleset("birmingham"), 2, seed=1)
    with pytest.raises(IllegalAction):
        game.apply({"action": "no-such-action"})


# -- the checks can fail ---------------------------------------------------------------------------

def test_a_cycle_is_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_an_upward_import_is_found() -> None:
    graph = {"interpreter.engine.table": {"interpreter.tools.bots.ladder", "interpreter.ruleset.model"},
             "interpreter.ruleset.model": {"brass_dsl.source"}, "brass_dsl.source": set()}
    assert upward_imports(graph) == ["interpreter.engine.table imports interpreter.tools.bots.ladder"]


def test_imports_inside_functions_and_type_checking_blocks_count(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from interpreter.engine import game\n"
                      "def f():\n    import interpreter.tools.cli.main\n    from . import sibling\n", encoding="utf-8")
    known = {"interpreter.engine.game", "interpreter.tools.cli.main", "interpreter.ruleset.sibling"}
    assert imports_of("interpreter.ruleset.m", source, known) == known
