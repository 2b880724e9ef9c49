"""`brass schema`: the ruleset format as a JSON Schema (draft 2020-12), for editors.

The schema is generated from what the loader itself checks, so the two cannot drift:
`schema.SECTIONS` and its building blocks (types, allowed words, bounds, required keys, nested
records, player-count tables) and the effect vocabulary (`effects.EFFECTS`: which steps each list
may hold and the arguments of each), with the descriptions of the key tables of
docs/ruleset-format.md (`schema_docs`).

A ruleset is a folder of YAML files merged into one document, so each file holds only some of
the sections: no section is required by the schema (the loader says which are missing when the
folder loads). Two flavours:

* a complete ruleset (no `extends`): every record must have its required keys;
* a variant (`--variant`, a ruleset that `extends` another): records may be partial (they are
  merged over the base's), no key is required, and the merge directives `$remove`, `$replace`
  and `$patch` are accepted where docs/extends.md allows them.

What needs the whole ruleset (a name that exists, an expression that type-checks) is checked
when the folder loads, not here.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from interpreter.ruleset import schema
from interpreter.ruleset.effects import ACTION, BONUS, EFFECTS, ERA, GAME, ROUND, EffectSpec
from interpreter.ruleset.merge import PATCH, REMOVE, REPLACE

__all__ = ["DRAFT", "ruleset_json_schema"]

DRAFT = "https://json-schema.org/draft/2020-12/schema"
Describe = Callable[[tuple[str, ...]], "str | None"]
_TYPES = {"string": "string", "int": "integer", "number": "number", "boolean": "boolean", "list": "array",
          "dict": "object"}
# The lists of effect steps and the context whose effects they may hold (docs/ruleset-format.md).
_STEP_CONTEXTS = {"effects": ACTION, "beer_bonus": BONUS, "round_end": ROUND, "end": ERA, "scoring": GAME}
_STEP_KEYS = ("when", "rule")  # every step may take them (compile_rules.STEP_KEYS)
_PLAIN = {"type": ["string", "integer", "boolean"]}  # an expression, or a bare number or boolean


def ruleset_json_schema(*, variant: bool = False, describe: Describe | None = None) -> dict[str, Any]:
    """The JSON Schema of one file of a ruleset folder (of a variant's, with `variant`)."""
    converter = _Converter(variant, describe or (lambda path: None))
    sections = {name: converter.convert(rules, (name,)) for name, rules in schema.SECTIONS.items()}
    if variant:
        sections = {"extends": {"type": "string", "description": "the ruleset this one extends (docs/extends.md)"},
                    **sections}
    kind = "a variant (a ruleset that extends another)" if variant else "a complete ruleset"
    return _factored({
        "$schema": DRAFT,
        "title": f"Brass ruleset file, {kind}",
        "description": "One YAML file of a Brass ruleset folder: any of the sections. The sections every ruleset "
                       "needs are checked when the folder loads (brass check), as files are merged first.",
        "type": "object",
        "properties": sections,
        "additionalProperties": False,
    })


class _Converter:
    """Turns cerberus rules into JSON Schema, with the descriptions of the docs."""

    def __init__(self, variant: bool, describe: Describe) -> None:
        self.variant = variant
        self.describe = describe

    def convert(self, rules: Mapping[str, Any], path: tuple[str, ...], *, partial: bool | None = None) -> dict:
        """The schema of a value that `rules` checks, at `path` (keys only: for the descriptions)."""
        partial = self.variant if partial is None else partial
        if path[-1] in _STEP_CONTEXTS and rules.get("schema") is schema.EFFECT_STEP:
            out = self.steps(_STEP_CONTEXTS[path[-1]], partial)
        else:
            out = self.plain(rules, path, partial)
        if partial:
            out = self.directives(out, rules, path)
        text = self.describe(path)
        return {"description": text, **out} if text else out

    def plain(self, rules: Mapping[str, Any], path: tuple[str, ...], partial: bool) -> dict:
        out: dict[str, Any] = {}
        kinds = rules.get("type")
        types = [kinds] if isinstance(kinds, str) else list(kinds or [])
        if types:
            json_types = [_TYPES[t] for t in types] + (["null"] if rules.get("nullable") else [])
            out["type"] = json_types[0] if len(json_types) == 1 else json_types
        out.update(_bounds(rules, types))
        if "schema" in rules and "dict" in types:
            out.update(self.record(rules["schema"], path, partial))
            if isinstance(rules.get("allow_unknown"), Mapping):  # keys named after declared ids (declared.py)
                out["additionalProperties"] = self.convert(rules["allow_unknown"], path + ("*",), partial=partial)
        elif "schema" in rules and "list" in types:
            out["items"] = self.convert(rules["schema"], path + ("*",), partial=partial)
        if "keysrules" in rules:
            out["propertyNames"] = _key_schema(rules["keysrules"])
            keys = self.describe(path + ("(key)",))
            if keys:
                out["propertyNames"] = {"description": keys, **out["propertyNames"]}
        if "valuesrules" in rules:
            out["additionalProperties"] = self.convert(rules["valuesrules"], path + ("*",), partial=partial)
        return out

    def record(self, fields: Mapping[str, Any], path: tuple[str, ...], partial: bool) -> dict:
        properties = {key: self.convert(value, path + (key,), partial=partial) for key, value in fields.items()}
        out: dict[str, Any] = {"properties": properties, "additionalProperties": False}
        required = [key for key, value in fields.items() if value.get("required")]
        if required and not partial:
            out["required"] = required
        return out

    # -- effect steps ------------------------------------------------------------

    def steps(self, context: str, partial: bool) -> dict:
        """A list of effect steps of one context: `- name`, `- name: ARG`, `- name: {param: …}`."""
        specs = [spec for spec in EFFECTS.values() if context in spec.contexts]
        bare = [spec.name for spec in specs if not any(p.required for p in spec.params)]
        named = [{"type": "object", "properties": {spec.name: self.arguments(spec, partial)},
                  "required": [spec.name], "additionalProperties": False} for spec in specs]
        step = {"anyOf": [{"type": "string", "enum": bare}, *named]} if bare else {"anyOf": named}
        return {"type": "array", "items": step}

    def arguments(self, spec: EffectSpec, partial: bool) -> dict:
        """What may follow `name:`: nothing, the one required argument, or the named arguments."""
        params = {p.name: _argument(p.type, p.literal) for p in spec.params}
        params.update({"when": {"type": ["string", "boolean"]}, "rule": _rule_id()})
        named: dict[str, Any] = {"type": "object", "properties": params, "additionalProperties": False}
        required = [p for p in spec.params if p.required]
        if required and not partial:
            named["required"] = [p.name for p in required]
        options: list[dict[str, Any]] = [named]
        if len(required) == 1:
            options.append(_argument(required[0].type, required[0].literal))
        if not required:
            options.append({"type": "null"})
        return {"description": spec.doc, "anyOf": options}

    # -- the merge directives of a variant -----------------------------------------

    def directives(self, out: dict, rules: Mapping[str, Any], path: tuple[str, ...]) -> dict:
        """In a variant: `$remove` in any mapping, `$replace` for any value, `$patch` for a list."""
        if out.get("type") == "object" or "object" in (out.get("type") or []):
            out = self.with_remove(out)
        complete = self.convert(rules, path, partial=False)
        options = [out, _wrapper(REPLACE, complete)]
        if "items" in out:
            options.append(_wrapper(PATCH, self.patch(out["items"], complete["items"])))
        return {"anyOf": options}

    def with_remove(self, out: dict) -> dict:
        removal = {"type": "array", "items": {"type": ["string", "integer"]},
                   "description": "entries of the base to delete first (docs/extends.md)"}
        out = dict(out)
        out["properties"] = {REMOVE: removal, **out.get("properties", {})}
        if "propertyNames" in out:
            out["propertyNames"] = {"anyOf": [out["propertyNames"], {"const": REMOVE}]}
        return out

    def patch(self, items: dict, fresh: dict) -> dict:
        # A `set` entry naming one of several base entries carries `$at: N` beside its fields; the
        # loader checks such an entry against the base (the schema cannot see the base).
        addressed = {"type": "object", "required": ["$at"], "properties": {"$at": {"type": "integer", "minimum": 1}}}
        return {"type": "object", "description": "edit the base list by the field `key` names ($name: a step's "
                                                 "name; $at: N, the Nth of several): set (merged over the entry), "
                                                 "remove, append",
                "properties": {"key": {"type": "string"}, "set": {"type": "array",
                                                                  "items": {"anyOf": [items, addressed]}},
                               "remove": {"type": "array"}, "append": {"type": "array", "items": fresh}},
                "required": ["key"], "additionalProperties": False}


def _factored(document: dict[str, Any]) -> dict[str, Any]:
    """The schema with every large part that appears more than once written once, in $defs (a
    variant's schema holds the partial and the complete form of most records: 5 times smaller)."""
    counts: Counter[str] = Counter()
    for sub in _subschemas(document):
        _count(sub, counts)
    repeated = {text for text, n in counts.items() if n > 1 and len(text) >= _FACTOR_SIZE}
    defs: dict[str, Any] = {}
    names: dict[str, str] = {}
    out = _rewrite(document, repeated, defs, names, "", top=True)
    if defs:
        out["$defs"] = dict(sorted({**out.get("$defs", {}), **defs}.items()))
    return out


_FACTOR_SIZE = 400  # characters of JSON: smaller parts are written where they are used
_ONE = ("items", "additionalProperties", "propertyNames")  # keywords holding one subschema
_MANY = ("properties", "$defs")  # keywords holding a mapping of subschemas
_ROLES = {"items": "[]", "additionalProperties": ".*", "propertyNames": ".(key)"}  # in the names of $defs


def _subschemas(node: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The subschemas of a schema, each with the key of the ruleset it describes ("" if none)."""
    found: list[tuple[str, dict[str, Any]]] = []
    for keyword, value in node.items():
        if keyword in _ONE and isinstance(value, dict):
            found.append(("", value))
        elif keyword in _MANY and isinstance(value, dict):
            found.extend((key, sub) for key, sub in value.items() if isinstance(sub, dict))
        elif keyword == "anyOf" and isinstance(value, list):
            found.extend(("", sub) for sub in value if isinstance(sub, dict))
    return found


def _count(entry: tuple[str, dict[str, Any]], counts: Counter[str]) -> None:
    node = entry[1]
    counts[json.dumps(node, sort_keys=True)] += 1
    for sub in _subschemas(node):
        _count(sub, counts)


def _rewrite(node: dict[str, Any], repeated: set[str], defs: dict[str, Any], names: dict[str, str], where: str,
             *, top: bool = False) -> dict[str, Any]:
    """`node` with each repeated part replaced by a reference, named after where it first appears."""
    text = json.dumps(node, sort_keys=True)
    if not top and text in repeated:
        if text not in names:
            names[text] = name = _free_name(where, defs)
            defs[name] = {}
            defs[name] = _rewrite_inside(node, repeated, defs, names, where)
        return {"$ref": f"#/$defs/{names[text]}"}
    return _rewrite_inside(node, repeated, defs, names, where)


def _rewrite_inside(node: dict[str, Any], repeated: set[str], defs: dict[str, Any], names: dict[str, str],
                    where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for keyword, value in node.items():
        if keyword in _ONE and isinstance(value, dict):
            out[keyword] = _rewrite(value, repeated, defs, names, where + _ROLES[keyword])
        elif keyword in _MANY and isinstance(value, dict):
            out[keyword] = {key: _rewrite(sub, repeated, defs, names, _named(where, key, keyword))
                            for key, sub in value.items()}
        elif keyword == "anyOf" and isinstance(value, list):
            out[keyword] = [_rewrite(sub, repeated, defs, names, _option_name(where, sub)) for sub in value]
        else:
            out[keyword] = value
    return out


def _option_name(where: str, option: dict[str, Any]) -> str:
    """An option of `anyOf` by its one required key (`$replace`, an effect step's name), if it has one."""
    required = option.get("required")
    return f"{where}.{required[0]}" if isinstance(required, list) and len(required) == 1 else where


def _named(where: str, key: str, keyword: str) -> str:
    """A readable name for a part: the keys of the ruleset it describes."""
    if keyword == "$defs":
        return key
    return f"{where}.{key}" if where else key


def _free_name(where: str, defs: dict[str, Any]) -> str:
    name = where or "part"
    while name in defs:
        name += "'"
    return name


def _wrapper(directive: str, value: dict) -> dict:
    return {"type": "object", "properties": {directive: value}, "required": [directive],
            "additionalProperties": False}


def _bounds(rules: Mapping[str, Any], types: list[str]) -> dict[str, Any]:
    """Numbers, lengths, patterns and allowed words."""
    out: dict[str, Any] = {}
    if "min" in rules:
        out["minimum"] = rules["min"]
    if "max" in rules:
        out["maximum"] = rules["max"]
    if "list" in types and "minlength" in rules:
        out["minItems"] = rules["minlength"]
    if "list" in types and "maxlength" in rules:
        out["maxItems"] = rules["maxlength"]
    if "string" in types and "minlength" in rules:
        out["minLength"] = rules["minlength"]
    if "string" in types and "maxlength" in rules:
        out["maxLength"] = rules["maxlength"]  # e.g. an industry's `short` label
    if "regex" in rules:
        out["pattern"] = f"^(?:{rules['regex']})$"
    if "allowed" in rules:
        out["enum"] = list(rules["allowed"])
    if rules.get("empty") is False:
        out["minLength"] = max(1, out.get("minLength", 1))
    return out


MAX_KEY_ENUM = 200  # integer keys listed one by one up to this many (a player count, a level)


def _key_schema(rules: Mapping[str, Any]) -> dict[str, Any]:
    """What a mapping's keys may be; JSON keys are text, so a number key is written as its digits."""
    if rules.get("type") == "int":
        low, high = rules.get("min", 0), rules.get("max", 0)
        if high - low <= MAX_KEY_ENUM:
            return {"enum": [str(n) for n in range(low, high + 1)]}
        # a wide range (a stack's tile values, ±1,000,000) as an enum would make the schema tens of
        # megabytes: the digits' shape here, the bounds in words; `brass check` checks them
        return {"pattern": "^-?[0-9]+$", "description": f"a whole number from {low} to {high}"}
    return {"pattern": f"^(?:{rules['regex']})$"} if "regex" in rules else {}


def _argument(type_name: str, literal: bool) -> dict[str, Any]:
    """An effect argument: a plain id, a YAML list of expressions, or an expression."""
    if literal:
        return {"type": "string"}
    if type_name.startswith("list["):
        return {"type": ["string", "array"], "items": _PLAIN}
    if type_name in ("int", "bool"):
        return {"type": ["string", "integer" if type_name == "int" else "boolean"]}
    return {"type": "string"}


def _rule_id() -> dict[str, Any]:
    return {"type": "string", "pattern": f"^(?:{schema.RULE_ID['regex']})$"}
