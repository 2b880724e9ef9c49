"""Scenario files: one situation of the rules, written as data, and whether the engine agrees.

    scenario = load_scenario(Path("scenarios/birmingham/coal_ties.yaml"))   # ScenarioError if malformed
    result = run_scenario(scenario)          # result.passed, result.failures (each located)

A scenario names a ruleset and a player count, the rule IDs it verifies, a position (`given`,
applied on top of setup by `interpreter.engine.given`), actions to take (`when`, each legal or expected
to be refused for given reasons) and assertions in the condition language (`then`). Everything is
checked when the file loads (keys, rule IDs, the position, every assertion compiled), so that a
mistake in a scenario is reported at its line, never as a failure of the engine. The format is
described in docs/scenarios.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from brass_dsl import BOOL, DslError, ast, compile_expression, parse
from brass_dsl.compiler import CompiledExpression
from brass_dsl.registry import did_you_mean
from brass_dsl.source import SourcePos
from interpreter.engine.game import Game, IllegalAction
from interpreter.engine.given import GivenError
from interpreter.engine.state import Card, MerchantSpace, PlacedTile, Player
from interpreter.ruleset.errors import BrassError, Diagnostic, RulesetError, sorted_diagnostics
from interpreter.ruleset.examples import example_move
from interpreter.ruleset.loader import DEFAULT_RULESET, load_ruleset, resolve_ruleset_path, ruleset_confined
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.yaml_source import Document, kind_name, load_yaml_file
from interpreter.tools.files.guards import ENGINE_SLIPS, slip_text
from interpreter.tools.scenarios.cards import with_card_ids
from interpreter.tools.scenarios.vocabulary import assertion_env, scenario_registry

__all__ = [
    "Result",
    "RulesetOutside",
    "Scenario",
    "ScenarioError",
    "display_path",
    "load_scenario",
    "load_setup",
    "run_scenario",
    "with_card_ids",
    "with_ruleset",
]

TOP_KEYS = ("description", "ruleset", "players", "seed", "rules", "given", "when", "then")
STEP_KEYS = ("player", "action", "decision", "expect", "reasons", "message", "after_effects", "then")
COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "in", "not in"}


class ScenarioError(RulesetError):
    """A scenario file that cannot be run; `diagnostics` lists every problem found."""


class RulesetOutside(BrassError):
    """A file's `ruleset:` that is neither built in nor below the folders its reader allows (`brass
    serve`'s `ruleset_roots`): refused before any file of it is read, so nothing of it is told."""

    def __init__(self, value: str) -> None:
        super().__init__(f"ruleset {value!r} is neither a built-in ruleset nor a folder this reader allows")
        self.value = value


@dataclass
class Step:
    n: int
    pos: SourcePos
    player: int | None
    move: dict[str, Any]
    whole: bool
    illegal: bool
    reasons: list[str]
    message: str | None
    then: list[Assertion] = field(default_factory=list)  # checked right after the step
    # checked when the step's action has run its effects, before its end-of-action steps (refill, next player)
    after_effects: list[Assertion] = field(default_factory=list)


@dataclass
class Assertion:
    text: str
    pos: SourcePos
    expression: CompiledExpression
    sides: list[tuple[str, CompiledExpression]]  # sub-expressions whose values explain a failure


@dataclass
class Scenario:
    path: Path
    display: str
    ruleset: Ruleset
    players: int
    seed: int
    rules: list[str]
    rule_marks: dict[str, SourcePos]
    given: dict[str, Any]
    doc: Document
    steps: list[Step]
    then: list[Assertion]
    description: str = ""

    def start(self) -> Game:
        """A new game with the scenario's position (GivenError if the position is impossible)."""
        return Game.from_setup(self.ruleset, self.players, self.given, self.seed, doc=self.doc, path=("given",))


@dataclass(frozen=True)
class Problem:
    """One way a scenario failed: where, what, and the values that show it."""

    pos: SourcePos
    message: str
    detail: str = ""

    def __str__(self) -> str:
        text = f"{self.pos}: {self.message}"
        return f"{text}\n{self.detail}" if self.detail else text


@dataclass
class Result:
    scenario: Scenario
    failures: list[Problem] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def _index_place(ruleset: Ruleset) -> str:
    """", the 'rules:' section of FILE": where the ruleset's rule IDs are declared."""
    declared = ruleset.source.pos(("rules",), key=True) if ruleset.source is not None else None
    return f", the 'rules:' section of {declared.file}" if declared is not None else ""


def display_path(path: Path) -> str:
    """The path as the user should read it: relative to the current directory when inside it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


# == loading ===========================================================================================

def load_scenario(path: Path | str, display: str | None = None) -> Scenario:
    """Read, check and compile a scenario file; raise ScenarioError listing every problem."""
    path = Path(path)
    display = display or display_path(path)
    try:
        doc = load_yaml_file(path, display)
    except RulesetError as error:
        raise ScenarioError(error.diagnostics) from None
    return _Loader(path, display, doc).load()


def game_from_setup_file(path: str, ruleset: str | None, players: int | None = None,
                         seed: int | None = None) -> Game:
    """The game started from a setup (or scenario) file, as `brass play --from` and `brass board
    --from` take it: the file's ruleset (or `ruleset`, the command line's), its players and
    position; a `players` or `ruleset` that contradicts the file is an error, a `seed` replaces
    the file's."""
    named = load_ruleset(ruleset) if ruleset is not None else None  # its errors are reported as any command's
    default = str(resolve_ruleset_path(ruleset)) if ruleset is not None else DEFAULT_RULESET
    setup = load_setup(path, default_ruleset=default)  # a ScenarioError is printed located, like a ruleset's
    if named is not None and setup.ruleset is not named:
        raise BrassError(f"{path} is a position of ruleset {setup.ruleset.name!r}, not {named.name!r}")
    if players is not None and players != setup.players:
        raise BrassError(f"{path} is a {setup.players}-player position, not {players}")
    if seed is not None:
        setup.seed = seed
    return setup.start()  # an impossible position is reported at its line


def load_setup(path: Path | str, default_ruleset: str = DEFAULT_RULESET,
               ruleset_roots: Sequence[Path] | None = None) -> Scenario:
    """Read a setup file (`brass play --from`): a position to start a game from.

    The same format as a scenario; only `ruleset` (default `default_ruleset`), `players`, `seed`
    and `given` are used, so a scenario file works too (its `rules`, `when` and `then` are not
    used and are not required). Raise ScenarioError listing every problem; with `ruleset_roots`,
    RulesetOutside when `ruleset:` names a folder that is not built in nor below one of them."""
    path = Path(path)
    try:
        doc = load_yaml_file(path, display_path(path))
    except RulesetError as error:
        raise ScenarioError(error.diagnostics) from None
    return _Loader(path, display_path(path), doc, setup_only=True, default_ruleset=default_ruleset,
                   roots=ruleset_roots).load()


def with_ruleset(path: Path, display: str, doc: Document, ruleset: Ruleset) -> Scenario:
    """A scenario file already read, loaded with `ruleset` (a mutant, `brass verify --mutate`)."""
    return _Loader(path, display, doc, fixed=ruleset).load()


class _Loader:
    def __init__(self, path: Path, display: str, doc: Document, setup_only: bool = False,
                 default_ruleset: str = DEFAULT_RULESET, fixed: Ruleset | None = None,
                 roots: Sequence[Path] | None = None) -> None:
        self.path, self.display, self.doc, self.fixed, self.roots = path, display, doc, fixed, roots
        self.setup_only, self.default_ruleset = setup_only, default_ruleset
        self.errors: list[Diagnostic] = []

    def pos(self, path: tuple[Any, ...], key: bool = False) -> SourcePos:
        return self.doc.pos(path, key=key) or SourcePos(self.display, 1, 1)

    def error(self, path: tuple[Any, ...], message: str, key: bool = False, detail: str = "") -> None:
        self.errors.append(Diagnostic(self.pos(path, key), message, detail))

    def fail(self) -> None:
        if self.errors:
            raise ScenarioError(sorted_diagnostics(self.errors))

    def load(self) -> Scenario:
        data = self.doc.data
        if not isinstance(data, dict):
            what = ("a setup file is a mapping (ruleset, players, seed, given)" if self.setup_only
                    else "a scenario is a mapping (ruleset, players, rules, given, when, then)")
            self.error((), f"{what}, not {kind_name(data)}")
            self.fail()
        for key in data:
            if key not in TOP_KEYS:
                self.error((key,), f"unknown key {key!r}{did_you_mean(str(key), TOP_KEYS)}; "
                                   f"a scenario has: {', '.join(TOP_KEYS)}", key=True)
        ruleset = self.ruleset(data.get("ruleset"))
        players = data.get("players", None)
        if players is None:
            self.error((), "missing key 'players' (the number of players)")
        elif isinstance(players, bool) or not isinstance(players, int) or \
                (ruleset is not None and players not in ruleset.players):
            allowed = ", ".join(map(str, ruleset.players)) if ruleset else "a number"
            self.error(("players",), f"players must be one of {allowed}, not {players!r}")
        seed = data.get("seed", 1)
        if isinstance(seed, bool) or not isinstance(seed, int):
            self.error(("seed",), f"seed must be an integer, not {kind_name(seed)}")
        description = data.get("description", "")
        if not isinstance(description, str):
            self.error(("description",), f"description must be text, not {kind_name(description)}")
            description = ""
        if ruleset is None or isinstance(players, bool) or not isinstance(players, int) \
                or players not in ruleset.players or isinstance(seed, bool) or not isinstance(seed, int):
            self.fail()  # nothing else can be checked without them
        assert ruleset is not None  # self.ruleset() records an error whenever it gives None, so fail() raised
        given = data.get("given") or {}
        rules: list[str]
        marks: dict[str, SourcePos]
        steps: list[Step]
        then: list[Assertion]
        if self.setup_only:  # only the position is used
            rules, marks, steps, then = [], {}, [], []
        else:
            rules, marks = self.rules(data.get("rules"), ruleset)
            steps = self.steps(data.get("when"), ruleset, players)
            then = self.assertions(data.get("then"), ruleset)
        self.fail()
        scenario = Scenario(self.path, self.display, ruleset, players, seed, rules, marks, given, self.doc, steps,
                            then, description.strip())
        try:
            scenario.start()  # an impossible position is an error of the file, found when it loads
        except GivenError as error:
            raise ScenarioError(error.diagnostics) from None
        return scenario

    def ruleset(self, value: Any) -> Ruleset | None:
        if self.fixed is not None:
            return self.fixed
        if value is None:
            value = self.default_ruleset
        if not isinstance(value, str):
            self.error(("ruleset",), f"ruleset must be a built-in name or a folder, not {kind_name(value)}")
            return None
        if self.roots is not None and not ruleset_confined(value, self.path.parent, self.roots):
            raise RulesetOutside(value)  # before its folder is looked at: not even "no ruleset" is told
        folder = resolve_ruleset_path(value, relative_to=self.path.parent)
        if folder is None:
            self.error(("ruleset",), f"no ruleset {value!r}: neither a built-in name nor a folder "
                                     f"(relative to {display_path(self.path.parent)}) holding a ruleset.yaml")
            return None
        try:
            return load_ruleset(folder)
        except RulesetError as error:
            self.error(("ruleset",), f"ruleset {value!r} does not load ({len(error.diagnostics)} errors; "
                                     f"run `brass check {folder}`)")
            return None

    def rules(self, value: Any, ruleset: Ruleset) -> tuple[list[str], dict[str, SourcePos]]:
        if value is None:
            self.error((), "missing key 'rules': the rule IDs this scenario verifies")
            return [], {}
        if not isinstance(value, list) or not value:
            self.error(("rules",), "rules must be a non-empty list of rule IDs")
            return [], {}
        found, marks = [], {}
        for n, rule in enumerate(value):
            if not isinstance(rule, str) or rule not in ruleset.rules:
                self.error(("rules", n), f"unknown rule ID {rule!r}{did_you_mean(str(rule), ruleset.rules)} "
                                         f"(not in the rule index of {ruleset.name}{_index_place(ruleset)})")
                continue
            found.append(rule)
            marks[rule] = self.pos(("rules", n))
        return found, marks

    def steps(self, value: Any, ruleset: Ruleset, players: int) -> list[Step]:
        if value is None:
            return []
        items = [value] if isinstance(value, dict) else value
        root: tuple[Any, ...] = ("when",)
        if not isinstance(items, list):
            self.error(root, f"when must be a list of steps, not {kind_name(value)}")
            return []
        steps = []
        for n, item in enumerate(items):
            at = root if isinstance(value, dict) else root + (n,)
            step = self.step(item, at, n, ruleset, players)
            if step is not None:
                steps.append(step)
        return steps

    def step(self, item: Any, at: tuple[Any, ...], n: int, ruleset: Ruleset, players: int) -> Step | None:
        if not isinstance(item, dict):
            self.error(at, f"a step is a mapping like {{player: 1, action: {example_move(ruleset)}}}, "
                           f"not {kind_name(item)}")
            return None
        bad = [k for k in item if k not in STEP_KEYS]
        for key in bad:
            self.error(at + (key,), f"unknown key {key!r}{did_you_mean(str(key), STEP_KEYS)}; a step has: "
                                    f"{', '.join(STEP_KEYS)}", key=True)
        if ("action" in item) == ("decision" in item):
            self.error(at, "a step has either 'action' (a whole action) or 'decision' (one decision)")
            return None
        kind = "action" if "action" in item else "decision"
        move = item[kind]
        if not isinstance(move, dict) or not move:
            self.error(at + (kind,),
                       f"{kind} must be a mapping like {example_move(ruleset)}, not {kind_name(move)}")
            return None
        if kind == "action" and not (isinstance(move.get("action"), str) and move["action"] in ruleset.actions):
            self.error(at + (kind, "action") if "action" in move else at + (kind,),
                       f"unknown action {move.get('action')!r}{did_you_mean(str(move.get('action')), ruleset.actions)}"
                       f"; actions: {', '.join(ruleset.actions)}")
            return None
        player = item.get("player")
        if player is not None and (isinstance(player, bool) or not isinstance(player, int) or player < 1):
            self.error(at + ("player",), f"player is a seat number (1, 2, …), not {player!r}")
        elif player is not None and player > players:  # no seat to move for: a slip of the file, not a refusal
            self.error(at + ("player",), f"unknown player {player}: this game has seats 1 to {players}")
        expect = item.get("expect", "legal")
        if expect not in ("legal", "illegal"):
            self.error(at + ("expect",), f"expect must be 'legal' or 'illegal', not {expect!r}")
        reasons = item.get("reasons", [])
        if not isinstance(reasons, list):
            self.error(at + ("reasons",), "reasons must be a list of rule IDs")
            reasons = []
        for r, rule in enumerate(reasons):
            if rule not in ruleset.rules:
                self.error(at + ("reasons", r), f"unknown rule ID {rule!r}{did_you_mean(str(rule), ruleset.rules)} "
                                                f"(not in the rule index of {ruleset.name}{_index_place(ruleset)})")
        message = item.get("message")
        if message is not None and not isinstance(message, str):
            self.error(at + ("message",), "message must be text")
        if (reasons or message is not None) and expect != "illegal":
            self.error(at + ("reasons",) if reasons else at + ("message",),
                       "reasons and message describe a refusal: add 'expect: illegal'")
        then = self.assertions(item.get("then"), ruleset, at + ("then",))
        after_effects = self.assertions(item.get("after_effects"), ruleset, at + ("after_effects",))
        if "after_effects" in item and expect == "illegal":
            self.error(at + ("after_effects",), "a step expected to be refused runs no effects: "
                                                "after_effects needs an accepted step", key=True)
        return Step(n + 1, self.pos(at), player, move, kind == "action", expect == "illegal", list(reasons), message,
                    then, after_effects)

    def assertions(self, value: Any, ruleset: Ruleset, root: tuple[Any, ...] = ("then",)) -> list[Assertion]:
        if value is None:
            return []
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list):
            self.error(root, f"{root[-1]} must be a list of assertions, not {kind_name(value)}")
            return []
        registry = scenario_registry(ruleset)
        found = []
        for n, text in enumerate(items):
            at = root if isinstance(value, str) else root + (n,)
            if isinstance(text, (bool, int)):
                text = str(text).lower()
            if not isinstance(text, str):
                self.error(at, f"an assertion is an expression (text), not {kind_name(text)}")
                continue
            origin = self.doc.origin(at)
            try:
                compiled = compile_expression(text, registry, expect=BOOL, origin=origin)
            except DslError as error:
                for each in error.errors:
                    self.errors.append(Diagnostic(each.pos, each.message, each.context()))
                continue
            found.append(Assertion(text, origin.start, compiled, _sides(text, registry)))
        return found


def _sides(text: str, registry: Any) -> list[tuple[str, CompiledExpression]]:
    """The sub-expressions shown when an assertion fails: both sides of a top-level comparison,
    each conjunct of a top-level `and` (and their sides), the operand of a top-level `not`."""
    try:
        tree = parse(text)
    except DslError:
        return []
    nodes: list[ast.Node] = []

    def visit(node: ast.Node) -> None:
        if isinstance(node, ast.Binary) and node.op in COMPARISONS:
            nodes.extend([node.left, node.right])
        elif isinstance(node, ast.Binary) and node.op == "and":
            visit(node.left)
            visit(node.right)
        elif isinstance(node, ast.Unary) and node.op == "not":
            nodes.append(node.operand)
        elif node is not tree:
            nodes.append(node)

    visit(tree)
    sides = []
    for node in nodes:
        if isinstance(node, (ast.IntLit, ast.StrLit, ast.BoolLit)):
            continue
        piece = _slice(text, node)
        try:
            sides.append((piece, compile_expression(piece, registry)))
        except DslError:
            continue
    return sides


def _slice(text: str, node: ast.Node) -> str:
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    start = starts[node.line - 1] + node.column - 1
    end = starts[node.end_line - 1] + node.end_column - 1
    return text[start:end]


# == running ===========================================================================================

def run_scenario(scenario: Scenario, check: bool = False) -> Result:
    """Play the scenario's steps on its position and check its assertions; never raises for a
    scenario that loaded. With `check`, the engine's invariants (invariants.py) are checked on the
    position and after every step: a broken one is a failure of the engine, located at the step."""
    result = Result(scenario)
    try:
        game = scenario.start()
    except GivenError as error:
        for d in error.diagnostics:
            assert d.pos is not None  # given.py locates every problem it reports (at <given> without a document)
            result.failures.append(Problem(d.pos, d.message))
        return result
    if check and (problem := _invariants(game, scenario.doc.pos(("given",)) or SourcePos(scenario.display, 1, 1),
                                         "the given position")):
        result.failures.append(problem)
        return result
    for step in scenario.steps:
        problems = _run_step(game, step)
        if not problems and check and (broken := _invariants(game, step.pos, f"step {step.n}")):
            problems = [broken]
        if problems:
            result.failures.extend(problems)
            return result  # later steps and assertions would only report the consequences
        result.failures.extend(p for p in (_check(game, a) for a in step.then) if p is not None)
        if result.failures:
            return result
    for assertion in scenario.then:
        problem = _check(game, assertion)
        if problem is not None:
            result.failures.append(problem)
    return result


def _invariants(game: Game, pos: SourcePos, after: str) -> Problem | None:
    from interpreter.engine.invariants import check_invariants  # imported late: only --check needs it

    broken = check_invariants(game.table)
    if not broken:
        return None
    return Problem(pos, f"invariant broken after {after} (engine bug)", _indent("\n".join(broken)))


def _run_step(game: Game, step: Step) -> list[Problem]:
    """The step's failures: refused or accepted against expectation, or its `after_effects` failing."""
    what = f"step {step.n} ({'action' if step.whole else 'decision'} {_show_move(step.move)})"
    seen: list[list[Problem]] = []  # the after_effects failures at each end of an action within the step

    def after_effects() -> None:
        seen.append([p for p in (_check(game, a) for a in step.after_effects) if p is not None])

    try:
        if not step.after_effects:
            problem = _take_step(game, step, what)
        else:
            with game.watching_action_ends(after_effects):
                problem = _take_step(game, step, what)
    except ENGINE_SLIPS as error:  # the engine failed where it should refuse: this step fails, not the run
        return [Problem(step.pos, f"{what} could not be judged: the engine failed with {slip_text(error)} "
                                  f"(a bug of the engine, which should refuse it with reasons)")]
    if problem is not None:
        return [problem]
    if step.after_effects and not seen:
        return [Problem(step.after_effects[0].pos, f"{what} ended no action: its after_effects were never "
                                                   "checked (they are checked when an action's effects are done)")]
    return seen[-1] if seen else []


def _take_step(game: Game, step: Step, what: str) -> Problem | None:
    if game.is_over and not step.illegal:
        return Problem(step.pos, f"{what}: the game is already over")
    # once the game is over nobody decides (deciding_seat would refuse): cards are read from seat 1's hand
    deciding = None if game.is_over else game.deciding_seat
    move = with_card_ids(game, game.table.player(step.player or deciding or 1), step.move)
    if not step.illegal:
        try:
            game.apply(move, seat=step.player)
        except IllegalAction as error:  # out of turn too: the engine refuses it with the turn rule (R-TURN-01)
            why = "" if step.player in (None, deciding) else \
                f": player {deciding} decides now, not player {step.player}"
            return Problem(step.pos, f"{what} was refused{why}", _indent(str(error)))
        return None
    before = game.to_json()
    # explain judges the move of the player to move: a move out of turn is left to apply to refuse
    in_turn = step.player is None or game.is_over or step.player == deciding
    failures = list(game.explain(move)["failures"]) if step.whole and in_turn else []
    try:
        game.apply(move, seat=step.player)  # a move out of turn is the engine's to refuse (R-TURN-01)
    except IllegalAction as error:
        failures += [f for f in error.failures if f not in failures]
        text = str(error)
    else:
        return Problem(step.pos, f"{what} was accepted; expected it to be refused")
    if game.to_json() != before:
        return Problem(step.pos, f"{what} was refused but changed the state (engine bug)")
    rules = [f.rule for f in failures if f.rule]
    missing = [r for r in step.reasons if r not in rules]
    shown = _indent(text + ("" if not failures else "\n(explain: " + "; ".join(str(f) for f in failures) + ")"))
    if missing:
        return Problem(step.pos, f"{what} was refused, but not for {', '.join(missing)} "
                                 f"(reasons given: {', '.join(dict.fromkeys(rules)) or 'none'})", shown)
    if step.message is not None:
        messages = [f.message for f in failures] + [text]
        if not any(step.message in m for m in messages):
            return Problem(step.pos, f"{what} was refused, but no reason says {step.message!r}", shown)
    return None


def _check(game: Game, assertion: Assertion) -> Problem | None:
    env = assertion_env(game)
    try:
        value = assertion.expression(env)
    except DslError as error:
        return Problem(assertion.pos, f"assertion could not be evaluated: {assertion.text}",
                       _indent(error.message))
    if value:
        return None
    lines = []
    for text, compiled in assertion.sides:
        try:
            lines.append(f"{text} = {_show(game, compiled(assertion_env(game)))}")
        except DslError as error:
            lines.append(f"{text}: {error.message}")
    return Problem(assertion.pos, f"assertion failed: {assertion.text}", _indent("\n".join(lines)))


def _show(game: Game, value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(game, v) for v in value) + "]"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (Player, PlacedTile, Card, MerchantSpace)):
        return game.table.describe(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return game.table.describe(value)


def _show_move(move: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{k}: {v}" for k, v in move.items()) + "}"


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())
