"""Compile every expression of a ruleset: actions, effect arguments, flow, ranking.

Each expression is checked against the ruleset's vocabulary (`primitives.py`) with
the names in scope at that point (an action's earlier choices, its derived values,
`nth` inside a repeated part, `t` or `p` where an effect binds them) and compiled
once. Every error is collected with its file, line and column; nothing is
evaluated here, except the {…} parts of texts that read only the ruleset (templates.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from operator import itemgetter
from typing import Any

from brass_dsl import (
    BOOL,
    INT,
    STR,
    CompiledExpression,
    DslError,
    Env,
    ListType,
    RecordType,
    Registry,
    ast,
    compile_expression,
)
from brass_dsl.presence import proven
from brass_dsl.runtime import ABSENT
from brass_dsl.source import ExpressionOrigin
from interpreter.ruleset.declared import NETWORK_FIELDS, needs_of
from interpreter.ruleset.effects import ACTION, BONUS, EFFECTS, ERA, GAME, ROUND, EffectSpec
from interpreter.ruleset.errors import DiagnosticSink
from interpreter.ruleset.model import (
    Action,
    ActionParam,
    ActionPart,
    ActionRepeat,
    EffectStep,
    Era,
    GameEnd,
    Merchant,
    NetworkOption,
    RankingKey,
    Requirement,
    Resource,
)
from interpreter.ruleset.primitives import GAME_FUNCTIONS, GAME_NAMES, ruleset_only
from interpreter.ruleset.templates import TextContext, template_parts
from interpreter.ruleset.yaml_source import Document

# Keys every effect step may have besides its effect's own arguments: `when` (run the step only if
# it holds) and `rule` (the rule the step applies, cited when an answer to its question is refused).
STEP_KEYS = ("when", "rule")

Path = tuple[Any, ...]
SCALARS = {"int": INT, "bool": BOOL, "str": STR}


class RulesetCompiler:
    """Compiles the expression-bearing sections of one validated ruleset."""

    def __init__(self, doc: Document, registry: Registry, sink: DiagnosticSink,
                 trees: dict[str, ast.Node] | None = None, *, partial: bool = False) -> None:
        self.doc = doc
        self.registry = registry
        self.sink = sink
        # After errors in other sections, some of the data a {…} text reads may be missing: a part
        # that cannot be worked out then says nothing (those errors say why).
        self.partial = partial
        # The syntax tree of every text compiled, by text: given (from the ruleset cache), each
        # text found there is not parsed again; every text parsed here is added.
        self.trees: dict[str, ast.Node] = {} if trees is None else trees
        # Round, era and game ends are nobody's turn: `me` would silently mean whoever happened
        # to be the current player, so it is refused there when the ruleset loads.
        self.outside_actions = registry.without(
            {"me": "it names the player taking an action, and this is not part of an action (use p in "
                   "award_vp/ranking keys, or the owner of a tile)"})

    # -- expressions -----------------------------------------------------------

    def expression(self, path: Path, registry: Registry, expect: Any = None,
                   assume: frozenset[str] = frozenset()) -> Any:
        """Compile the expression at `path`; on error report it and return None. `assume`: the
        optional params known present where it runs (brass_dsl/presence.py)."""
        value = self._value(path)
        if isinstance(value, list):
            return self._list_expression(path, value, registry, expect, assume)
        return self._compile(_as_text(value), self.doc.origin(path), registry, expect, assume)

    def _compile(self, text: str, origin: ExpressionOrigin, registry: Registry, expect: Any,
                 assume: frozenset[str] = frozenset()) -> Any:
        try:
            tree = self.trees.get(text)
            if tree is None:
                from brass_dsl.parser import parse  # Lark: imported only when a text is parsed

                tree = self.trees[text] = parse(text, origin)
            return compile_expression(text, registry, expect=expect, origin=origin, tree=tree, assume=assume)
        except DslError as error:  # `errors` lists every error found in the expression
            for each in error.errors:
                self._report(each)
        return None

    def _list_expression(self, path: Path, items: list[Any], registry: Registry, expect: Any,
                         assume: frozenset[str]) -> Any:
        """A YAML list of expressions, compiled as one list-literal expression."""
        origin = self.doc.origin(path)
        if any(isinstance(item, (dict, list)) for item in items):
            self.sink.error(origin.start, "a list of expressions may hold only single values")
            return None
        texts = [_as_text(item) if not isinstance(item, str) else item for item in items]
        # Compile each element at its own position first, so errors point inside the list.
        element = expect.element if isinstance(expect, ListType) else None
        if any(self._compile(t, self.doc.origin(path + (i,)), registry, element, assume) is None
               for i, t in enumerate(texts)):
            return None
        return self._compile("[" + ", ".join(texts) + "]", origin, registry, expect, assume)

    def _report(self, error: DslError) -> None:
        self.sink.error(error.pos, error.message, error.context())

    def _value(self, path: Path) -> Any:
        node: Any = self.doc.data
        for step in path:
            node = node[step]
        return node

    def type_named(self, name: str, path: Path) -> Any:
        """Resolve a type name such as `int`, `tile` or `list[location]`."""
        if name.startswith("list[") and name.endswith("]"):
            inner = self.type_named(name[5:-1], path)
            return ListType(inner) if inner is not None else None
        if name in SCALARS:
            return SCALARS[name]
        found = self.registry.lookup_type(name)
        if found is None:
            known = ", ".join(sorted([*SCALARS, *(t.name for t in self.registry.types())]))
            self.sink.error(self.doc.pos(path), f"unknown type '{name}'; known types: {known}")
        return found

    # -- messages ----------------------------------------------------------------

    def message(self, path: Path, registry: Registry,
                assume: frozenset[str] = frozenset()) -> tuple[tuple[str, Any], ...]:
        """Split a message into text and compiled {expression} parts; a part that reads only the
        ruleset is worked out now, as text (templates.py)."""
        return template_parts(self._value(path), self.doc.origin(path),
                              lambda text, origin: self._compile(text, origin, registry, None, assume),
                              self.text_context())

    def rule_texts(self) -> dict[str, str]:
        """Each rule's text with its {…} parts worked out from the ruleset (templates.py)."""
        scope = ruleset_only(self.registry)
        texts = {}
        for rule_id, rule in self.doc.data["rules"].items():
            path = ("rules", rule_id, "text")
            parts = template_parts(rule["text"], self.doc.origin(path),
                                   lambda text, origin: self._compile(text, origin, scope, None),
                                   self.text_context(), dynamic=False)
            texts[rule_id] = "".join(text for text, _ in parts)
        return texts

    def text_context(self) -> TextContext:
        ruleset_names = {entry.name for entry in self.registry.names()} - set(GAME_NAMES)
        return TextContext(self.doc.data, ruleset_names, GAME_FUNCTIONS, self.sink, quiet=self.partial)

    # -- effects -----------------------------------------------------------------

    def effects(self, path: Path, context: str, registry: Registry) -> tuple[EffectStep, ...]:
        steps = self._value(path) or []
        return tuple(s for s in (self.effect(path + (i,), context, registry) for i in range(len(steps))) if s)

    def effect(self, path: Path, context: str, registry: Registry) -> EffectStep | None:
        step = self._value(path)
        name, raw = (step, None) if isinstance(step, str) else next(iter(step.items()))
        spec = EFFECTS.get(name)
        where = self.doc.pos(path if isinstance(step, str) else path + (name,), key=not isinstance(step, str))
        if spec is None:
            self.sink.error(where, f"unknown effect '{name}'{_suggest(name, EFFECTS)}")
            return None
        if context not in spec.contexts:
            allowed = ", ".join(sorted(spec.contexts))
            self.sink.error(where, f"effect '{name}' cannot be used here ({context}); it belongs in: {allowed}")
            return None
        args = self._effect_args(spec, raw, path if isinstance(step, str) else path + (name,), registry)
        rule = raw.get("rule") if isinstance(raw, dict) else None
        return EffectStep(name, args, where, rule) if args is not None else None

    def _effect_args(self, spec: EffectSpec, raw: Any, path: Path, registry: Registry) -> dict[str, Any] | None:
        if not isinstance(raw, dict):
            required = [p for p in spec.params if p.required]
            if raw is None:
                if required:
                    names = ", ".join(p.name for p in required)
                    self.sink.error(self.doc.pos(path), f"effect '{spec.name}' needs the argument(s): {names}")
                    return None
                return {}
            if len(required) != 1:
                names = ", ".join(p.name for p in spec.params) or "none"
                self.sink.error(self.doc.pos(path), f"effect '{spec.name}' needs named arguments ({names})")
                return None
            return self._args(spec, {required[0].name: raw}, path, registry, shorthand=True)
        return self._args(spec, raw, path, registry, shorthand=False)

    def _args(self, spec: EffectSpec, raw: Mapping[str, Any], path: Path, registry: Registry,
              *, shorthand: bool) -> dict[str, Any] | None:
        args: dict[str, Any] = {}
        ok = True
        known: frozenset[str] = frozenset()
        if "when" in raw:  # first: its arguments may read the optional params it proves present
            args["when"] = self.expression(path + ("when",), registry, BOOL)
            ok = args["when"] is not None
            known = proven(args["when"].tree.node, True) if ok else known
        for key in raw:
            if key not in STEP_KEYS and spec.param(key) is None:
                names = [p.name for p in spec.params] + list(STEP_KEYS)
                self.sink.error(self.doc.pos(path + (key,), key=True),
                                f"effect '{spec.name}' has no argument '{key}'{_suggest(key, names)}")
                ok = False
        for param in spec.params:
            if param.name not in raw:
                if param.required:
                    self.sink.error(self.doc.pos(path), f"effect '{spec.name}' needs the argument '{param.name}'")
                    ok = False
                continue
            arg_path = path if shorthand else path + (param.name,)
            args[param.name] = self._arg(param, raw[param.name], arg_path, registry, known)
            ok = ok and args[param.name] is not None
        return args if ok else None

    def _arg(self, param: Any, value: Any, path: Path, registry: Registry, known: frozenset[str]) -> Any:
        expected = self.type_named(param.type, path)
        if expected is None:
            return None
        if param.literal:
            return self._literal_id(param, value, expected, path)
        scope = registry
        if param.binds:
            bound = {name: self.type_named(t, path) for name, t in param.binds}
            scope = registry.with_bindings(bound)
        return self.expression(path, scope, expected, known)

    def _literal_id(self, param: Any, value: Any, expected: Any, path: Path) -> str | None:
        ids = getattr(expected, "ids", None)
        known = list(ids()) if callable(ids) else None
        if param.table:
            known = list(self.doc.data.get(param.table, {}))
        if not isinstance(value, str) or (known is not None and value not in known):
            suffix = _suggest(str(value), known) if known else ""
            self.sink.error(self.doc.pos(path), f"'{value}' is not a {param.type}{suffix}")
            return None
        return value

    # -- actions -----------------------------------------------------------------

    def actions(self) -> dict[str, Action]:
        actions: dict[str, Action] = {}
        for action_id, data in self.doc.data["actions"].items():
            action = self.action(action_id, data)
            if action is not None:
                actions[action_id] = action
        return actions

    def action(self, action_id: str, data: Mapping[str, Any]) -> Action | None:
        path: Path = ("actions", action_id)
        part, scope = self.part(path, data, self.registry, {})
        repeat = None
        if "repeat" in data:
            r = data["repeat"]
            inner, _ = self.part(path + ("repeat",), r, scope, {"nth": INT})
            whole = self.whole_requirements(path, data, scope, r["name"], inner)
            repeat = ActionRepeat(r["name"], r.get("min", 1), r.get("max"), inner, _cited(r), whole)
        rules = _cited(data)
        return Action(action_id, data["name"], data.get("doc", ""), rules, part, repeat, self.doc.pos(path, key=True))

    def whole_requirements(self, path: Path, data: Mapping[str, Any], scope: Registry, name: str,
                           part: ActionPart) -> tuple[Requirement, ...]:
        """`requires_whole`: checks over all the repetitions, where `name` (the repeated part's
        name) is the list of them, each entry a record of that repetition's choices."""
        if "requires_whole" not in data:
            return ()
        entry = RecordType(f"{name}_entry", f"One repetition of {path[-1]}: its choices.")
        for param in part.params:
            if param.when is not None:  # absent from some repetitions: not a field of every entry
                continue
            field_type = self.type_named(param.type, path + ("repeat", "params"))
            if field_type is not None:
                entry.add_field(param.name, field_type, param.doc or f"Its {param.name}.",
                                of_value=itemgetter(param.name))
        inner = self._bind(scope, name, ListType(entry), path + ("requires_whole",))
        return tuple(self.requirement(path + ("requires_whole", i), r, inner)
                     for i, r in enumerate(data["requires_whole"]))

    def part(self, path: Path, data: Mapping[str, Any], registry: Registry,
             extra: Mapping[str, Any]) -> tuple[ActionPart, Registry]:
        """Compile params (each seeing the earlier ones), derived values, requirements and effects."""
        scope = registry.with_bindings(dict(extra)) if extra else registry
        params = []
        for i, p in enumerate(data.get("params", ())):
            param, p_type = self.param(path + ("params", i), p, scope, first_of_repeat=i == 0 and "nth" in extra)
            params.append(param)
            if p_type is not None:
                # optional even if its `when:` has an error (reported): reading it unguarded is one too
                implies = proven(param.when.tree.node, True) if param.when is not None else \
                    (frozenset() if "when" in p else None)
                scope = self._bind(scope, p["name"], p_type, path + ("params", i, "name"), implies)
        derived = {}
        for name in data.get("derived", {}):
            compiled = self.expression(path + ("derived", name), scope)
            derived[name] = compiled
            if compiled is not None:
                scope = self._bind(scope, name, compiled.type, path + ("derived", name))
        requires = tuple(self.requirement(path + ("requires", i), r, scope)
                         for i, r in enumerate(data.get("requires", ())))
        effects = self.effects(path + ("effects",), ACTION, scope) if "effects" in data else ()
        return ActionPart(tuple(params), derived, requires, effects), scope

    def param(self, path: Path, p: Mapping[str, Any], scope: Registry, *,
              first_of_repeat: bool) -> tuple[ActionParam, Any]:
        """One choice and its type. With `when:` it is optional: asked only when that holds, and
        its list of values is then read knowing what `when:` proves present (docs/ruleset-format.md)."""
        p_type = self.type_named(p["type"], path + ("type",))
        when = None
        known: frozenset[str] = frozenset()
        if "when" in p:
            if first_of_repeat:  # a repetition is ended by `done` in place of its first choice
                self.sink.error(self.doc.pos(path + ("when",), key=True),
                                "the first param of a repeated part cannot have `when:` (a repetition "
                                "begins with it; end the repetitions with `done` instead)")
            when = self.expression(path + ("when",), scope, BOOL)
            known = proven(when.tree.node, True) if when is not None else known
        domain = self.expression(path + ("from",), scope, ListType(p_type) if p_type else None, known)
        if when is not None and domain is not None:
            domain = _asked_when(when, domain)
        return ActionParam(p["name"], p["type"], domain, p.get("doc", ""), p.get("rule"), when), p_type

    def _bind(self, scope: Registry, name: str, type_: Any, path: Path,
              implies: frozenset[str] | None = None) -> Registry:
        """Bind `name`; `implies` given: it is an optional param, whose presence proves those names."""
        try:
            return scope.with_bindings({name: type_}, conditional=implies is not None, implies=implies or frozenset())
        except ValueError as error:
            self.sink.error(self.doc.pos(path), f"'{name}' cannot be used as a name here: {error}")
            return scope

    def requirement(self, path: Path, data: Mapping[str, Any], scope: Registry) -> Requirement:
        check = self.expression(path + ("check",), scope, BOOL)
        # The message is shown when the check fails: it may read what that failure proves present.
        message = self.message(path + ("message",), scope, proven(check.tree.node, False) if check else frozenset())
        return Requirement(data.get("rule"), check, message, self.doc.pos(path + ("check",)))

    # -- flow ----------------------------------------------------------------------

    def eras(self) -> tuple[Era, ...]:
        eras = []
        for n, e in enumerate(self.doc.data["eras"]):
            resources = self.doc.data["resources"]
            network = tuple(NetworkOption(o["links"], o["money"], needs_of(o, NETWORK_FIELDS, resources))
                            for o in e["network"])
            end = self.effects(("eras", n, "end"), ERA, self.outside_actions) if "end" in e else ()
            eras.append(Era(e["id"], e["name"], e["link_kind"], e["actions_per_turn"],
                            e.get("first_round_actions", e["actions_per_turn"]), network, end,
                            e.get("end_before_round_end", False), dict(e.get("set_aside", {}))))
        return tuple(eras)

    def round_end(self) -> tuple[EffectStep, ...]:
        return self.effects(("round_end",), ROUND, self.outside_actions)

    def game_end(self) -> GameEnd:
        data = self.doc.data["game_end"]
        scoring = self.effects(("game_end", "scoring"), GAME, self.outside_actions) if "scoring" in data else ()
        player = self.registry.lookup_type("player")
        assert player is not None, "the interpreter's vocabulary always defines the player type"
        scope = self.outside_actions.with_bindings({"p": player})
        ranking = tuple(RankingKey(k["name"], self.expression(("game_end", "ranking", i, "key"), scope, INT))
                        for i, k in enumerate(data["ranking"]))
        last_era = data.get("last_era", self.doc.data["eras"][-1]["id"])
        return GameEnd(scoring, ranking, last_era, data.get("rule"))

    def resources(self, resources: Mapping[str, Resource]) -> dict[str, Resource]:
        """The resources with their `access_through` compiled (a bool over `l`, a location)."""
        location = self.registry.lookup_type("location")
        assert location is not None, "the interpreter's vocabulary always defines the location type"
        scope = self.outside_actions.with_bindings({"l": location})
        found = dict(resources)
        for rid, data in self.doc.data["resources"].items():
            if "access_through" in data:
                compiled = self.expression(("resources", rid, "access_through"), scope, BOOL)
                found[rid] = dataclasses.replace(found[rid], access_through=compiled)
        return found

    def merchants(self) -> dict[str, Merchant]:
        return {mid: Merchant(mid, dict(m["spaces"]),
                              self.effects(("merchants", mid, "beer_bonus"), BONUS, self.registry)
                              if "beer_bonus" in m else ())
                for mid, m in self.doc.data["merchants"].items()}


def _asked_when(when: CompiledExpression, domain: CompiledExpression) -> CompiledExpression:
    """An optional param's list of values: its `from:` when its `when:` holds, else only ABSENT
    (the engine binds that value without asking: protocol.py). Reads the names of both."""
    values, holds = domain.fn, when.fn

    def fn(env: Env) -> Any:
        return values(env) if holds(env) else (ABSENT,)

    return CompiledExpression(domain.text, domain.type, domain.origin, domain.names_used | when.names_used,
                              domain.functions_used | when.functions_used, fn, domain.tree)


def _cited(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The rule IDs a record cites with `rule:` and `rules:`."""
    return tuple([data["rule"]] if "rule" in data else []) + tuple(data.get("rules", ()))


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _suggest(name: str, known: Any) -> str:
    import difflib

    hint = difflib.get_close_matches(name, list(known or ()), n=1)
    return f"; did you mean '{hint[0]}'?" if hint else ""
