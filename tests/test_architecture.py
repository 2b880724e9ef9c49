"""The shape of the code: three layers that import only downward, no import cycles, small modules.

    brass_dsl             the condition language (knows nothing of Brass)
    interpreter.ruleset   layer 1: load, check and compile a ruleset
    interpreter.engine    layer 2: a game in progress
    interpreter.tools     layer 3: the command and everything around the engine
    interpreter           the package's front door (re-exports load_ruleset, Game, IllegalAction)

Inside layer 3 every module lives in a sub-package by job (interpreter/tools/cli, authoring, ...), and a
sub-package imports only the sub-packages its row of TOOLS_MAY_IMPORT names, besides the two layers
below: nothing imports `cli`, and `web`, `play` and `simulate` share `bots` and `board`, never one another.

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
TOOLS = "interpreter.tools"
# The sub-packages of interpreter/tools and the sibling sub-packages each may import (the engine,
# the ruleset layer and brass_dsl are open to all). Each package's __init__ docstring says the same.
TOOLS_MAY_IMPORT: dict[str, set[str]] = {
    "files": set(),
    "cluster": set(),
    "wording": set(),
    "board": set(),
    "bots.knowledge": set(),
    "bots": {"bots.knowledge"},
    "scenarios": {"files", "cluster"},
    "trace": {"files"},
    "authoring": {"scenarios", "files"},
    "simulate": {"bots", "bots.knowledge", "files", "cluster"},
    "play": {"bots", "bots.knowledge", "board", "files", "wording"},
    "web": {"bots", "bots.knowledge", "board", "files", "wording", "scenarios", "trace", "simulate"},
    "tune": {"simulate", "files", "cluster"},
    "cli": {"files", "cluster", "wording", "board", "bots", "bots.knowledge", "scenarios", "trace", "authoring",
            "simulate", "play", "web", "tune"},
}
MAX_MODULES_PER_PACKAGE = 15


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


def tools_package(module: str) -> str | None:
    """The sub-package of interpreter.tools a module belongs to ("bots.knowledge" counts as its own),
    the empty string for interpreter.tools itself, None outside it."""
    if module == TOOLS:
        return ""
    if not module.startswith(TOOLS + "."):
        return None
    parts = module.removeprefix(TOOLS + ".").split(".")
    return "bots.knowledge" if parts[:2] == ["bots", "knowledge"] else parts[0]


def forbidden_tools_imports(graph: dict[str, set[str]]) -> list[str]:
    """Imports between sub-packages of interpreter.tools that TOOLS_MAY_IMPORT does not allow."""
    found = []
    for a, targets in graph.items():
        home = tools_package(a)
        if home is None:
            continue
        for b in targets:
            there = tools_package(b)
            if there is not None and there != home and there not in TOOLS_MAY_IMPORT.get(home, set()):
                found.append(f"{a} imports {b}")
    return sorted(found)


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


def test_tools_sub_packages_import_only_what_their_row_allows() -> None:
    assert forbidden_tools_imports(import_graph()) == []


def test_every_tools_module_lives_in_a_named_sub_package() -> None:
    homes = {tools_package(name) for name in module_files()} - {None}
    assert homes - {""} == set(TOOLS_MAY_IMPORT), "a sub-package of interpreter/tools is missing from TOOLS_MAY_IMPORT"
    loose = sorted(p.name for p in (ROOT / "interpreter" / "tools").glob("*.py") if p.name != "__init__.py")
    assert loose == [], f"modules loose in interpreter/tools/: {loose}; put each in the sub-package of its job"


def test_each_tools_sub_package_is_small_and_says_what_it_may_import() -> None:
    files = module_files()
    for package in TOOLS_MAY_IMPORT:
        dotted = f"{TOOLS}.{package}"
        members = [name for name in files if name.startswith(dotted + ".") and tools_package(name) == package]
        assert len(members) <= MAX_MODULES_PER_PACKAGE, f"{dotted} has {len(members)} modules: split it by job"
        docstring = ast.get_docstring(ast.parse(files[dotted].read_text(encoding="utf-8")))
        assert docstring and "import" in docstring, f"{dotted}/__init__.py must say what it is for and may import"


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


def test_a_forbidden_tools_import_is_found() -> None:
    graph = {"interpreter.tools.bots.ladder": {"interpreter.tools.board.svg", "interpreter.engine.game"},
             "interpreter.tools.web.api": {"interpreter.tools.play.session", "interpreter.tools.bots.search"},
             "interpreter.tools.cli.main": {"interpreter.tools.web.serve"},
             "interpreter.tools.bots.search": {"interpreter.tools.bots.knowledge.worth"}}
    assert forbidden_tools_imports(graph) == ["interpreter.tools.bots.ladder imports interpreter.tools.board.svg",
                                              "interpreter.tools.web.api imports interpreter.tools.play.session"]
    graph = {"interpreter.tools.play.keys": {"interpreter.tools.cli.main"}}
    assert forbidden_tools_imports(graph) == ["interpreter.tools.play.keys imports interpreter.tools.cli.main"]


def test_imports_inside_functions_and_type_checking_blocks_count(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from interpreter.engine import game\n"
                      "def f():\n    import interpreter.tools.cli.main\n    from . import sibling\n", encoding="utf-8")
    known = {"interpreter.engine.game", "interpreter.tools.cli.main", "interpreter.ruleset.sibling"}
    assert imports_of("interpreter.ruleset.m", source, known) == known
