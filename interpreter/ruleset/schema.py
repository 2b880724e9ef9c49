"""Structural validation of a ruleset with cerberus.

This stage checks only shape and types (which keys exist, which are required,
what type each value has, which words are allowed). Cross-references between
sections (a link naming a location that exists, …) are checked afterwards by
`crossref.py`, and expressions by the condition-language checker.

Each cerberus error carries a `document_path`; the YAML loader keeps a mark for
every path, so each error is reported at the file, line and column that wrote the
offending value.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from interpreter.ruleset.bot_params import not_nan, section_schema
from interpreter.ruleset.errors import DiagnosticSink
from interpreter.ruleset.words import FLIPS, LOCATION_KINDS, SOURCE_EXCLUSION_KEYS, WILD_KINDS
from interpreter.ruleset.yaml_source import Document

if TYPE_CHECKING:  # cerberus itself is imported when a ruleset is validated, not with this module
    from cerberus import Validator
    from cerberus.errors import ValidationError
    from cerberus.schema import DefinitionSchema

# --- building blocks -------------------------------------------------------------

ID = {"type": "string", "regex": r"[a-z][a-z0-9_]*"}
RULE_ID = {"type": "string", "regex": r"[A-Z]+-[A-Z]+-[0-9]+"}  # a game's letter: R-BUILD-03, L-DM-02
EXPR = {"type": ["string", "int", "boolean"]}  # a condition-language expression (a bare number is one too)
EXPR_OR_LIST = {"type": ["string", "int", "boolean", "list"]}  # a YAML list is a list of expressions

# Every number has a maximum (docs/ruleset-format.md, "Limits"): generous, 10 to 100 times what
# Birmingham uses, but finite, because the engine builds one object per tile, card or track
# space and goes through cubes and links one by one. A count of 10**30 tiles would otherwise
# pass `brass check` and make every game grow without end.
MAX_PLAYERS = 10
MAX_AMOUNT = 1_000_000  # money, costs, prices, VP: only ever added and compared
MAX_COUNT = 100  # copies of a tile, a card, merchant tiles and spaces; cubes, levels, rounds, hand size
MAX_INCOME_LEVEL = 1000  # income levels lie in -1000..1000, so the track has at most 200,100 spaces
MAX_YEAR = 9999
MAX_ERAS = 10
# Counts add up over tables of any length, so their totals are bounded too (crossref.check_totals):
# the tiles of one player mat, the deck and the wild cards at one player count, the merchant spaces.
MAX_TOTAL = 1000
MAX_COORDINATE = 10_000  # a location's `at`: board units, for the picture only (brass board)




def ints(low: int, high: int) -> dict[str, Any]:
    """An integer from `low` to `high`."""
    return {"type": "int", "min": low, "max": high}


NON_NEG = ints(0, MAX_COUNT)  # a count, a number of cubes, links or spaces
POS = ints(1, MAX_COUNT)
AMOUNT = ints(0, MAX_AMOUNT)  # money, a cost, VP
POS_AMOUNT = ints(1, MAX_AMOUNT)
# Drawing only (brass board, interpreter/tools/board/picture.py); no rule reads them.
COLOUR = {"type": "string", "regex": r"#[0-9a-fA-F]{6}"}
POINT = {"type": "list", "minlength": 2, "maxlength": 2, "schema": ints(0, MAX_COORDINATE)}

CITATIONS = {
    "rule": {**RULE_ID, "required": False},
    "rules": {"type": "list", "schema": RULE_ID},
}


def record(fields: dict[str, Any], *, cite: bool = True) -> dict[str, Any]:
    """A mapping with exactly these keys; every record may cite rule IDs."""
    schema = dict(fields)
    if cite:
        schema.update(CITATIONS)
    return {"type": "dict", "schema": schema}


def table_of(value_schema: dict[str, Any]) -> dict[str, Any]:
    """A mapping id -> record."""
    return {"type": "dict", "keysrules": ID, "valuesrules": value_schema}


def per_player_count(value_schema: dict[str, Any]) -> dict[str, Any]:
    """A player-count table {2: …, 3: …, 4: …}; coverage is checked in crossref."""
    return {"type": "dict", "keysrules": ints(1, MAX_PLAYERS), "valuesrules": value_schema}


def req(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "required": True}


def with_sugar(record_schema: dict[str, Any], value_schema: dict[str, Any]) -> dict[str, Any]:
    """A record that also takes keys named after ids the ruleset declares (a resource, a link kind:
    interpreter/ruleset/declared.py), each holding a `value_schema`; crossref checks the names."""
    return {**record_schema, "allow_unknown": value_schema}


# resource id -> amount: what a tile needs to be built (or sold), what a Network action consumes
NEEDS = {"type": "dict", "keysrules": ID, "valuesrules": NON_NEG}


# Effect steps: `- name` or `- name: expression` or `- name: {param: expression}`.
EFFECT_STEP = {
    "type": ["string", "dict"],
    "keysrules": ID,
    "valuesrules": {"type": ["string", "int", "boolean", "list", "dict"]},
    "check_with": "effect_step",
}
EFFECTS = {"type": "list", "schema": EFFECT_STEP}

REQUIREMENT = record({
    "check": req(EXPR),
    "message": req({"type": "string", "empty": False}),
})

PARAM = record({
    "name": req(ID),
    "type": req(ID),
    "from": req(EXPR_OR_LIST),
    "when": EXPR,  # optional param: asked only when this holds (docs/ruleset-format.md)
    "doc": {"type": "string"},
})

SOURCE_KIND = {"type": "string", "allowed": [
    "nearest_connected_producer", "any_producer", "own_producer",
    "connected_opponent_producer", "any_opponent_producer", "merchant_barrel", "market",
]}
SOURCE_LIST = {"type": "list", "minlength": 1, "schema": SOURCE_KIND}

ACTION_PART = {
    "params": {"type": "list", "schema": PARAM},
    "derived": {"type": "dict", "keysrules": ID, "valuesrules": EXPR},
    "requires": {"type": "list", "schema": REQUIREMENT},
    "effects": EFFECTS,
}

ACTION = record({
    "name": req({"type": "string"}),
    "doc": {"type": "string"},
    **ACTION_PART,
    "repeat": record({
        "name": req(ID),
        "min": NON_NEG,
        "max": POS,  # none: as many times as the preconditions allow (Birmingham's Sell, R-SELL-05)
        **ACTION_PART,
    }),
    # preconditions over all the repetitions together, judged when the action ends (docs/ruleset-format.md)
    "requires_whole": {"type": "list", "schema": REQUIREMENT},
})

TILE = with_sugar(record({
    "level": req(NON_NEG),  # 0: a tile below level I (Lancashire's locked Shipyard)
    "count": req(POS),
    "cost": req(AMOUNT),
    "needs": NEEDS,  # also written as keys named after resources: `coal: 1` (declared.py)
    "output": {"type": ["int", "dict"], "min": 0, "max": MAX_COUNT, "keysrules": ID, "valuesrules": NON_NEG},
    "vp": req(AMOUNT),
    "link_icons": req(NON_NEG),
    "income": req(NON_NEG),
    "develop": req({"type": "boolean"}),
    "eras": req({"type": "list", "schema": ID}),  # none: never built, only developed away
}), NON_NEG)

# --- the sections ----------------------------------------------------------------

SECTIONS: dict[str, dict[str, Any]] = {
    # ruleset.yaml
    "name": req({"type": "string", "regex": r"[a-z][a-z0-9_-]*"}),
    "title": req({"type": "string"}),
    "version": req({"type": "string"}),
    "players": req({"type": "list", "schema": ints(1, MAX_PLAYERS), "minlength": 1, "maxlength": MAX_PLAYERS}),
    "description": {"type": "string"},
    "rulebook": record({
        "title": req({"type": "string"}),
        "publisher": {"type": "string"},
        "year": ints(0, MAX_YEAR),
        "reference": {"type": "string"},
    }, cite=False),
    # rules.yaml
    "rules": req({"type": "dict", "keysrules": RULE_ID, "valuesrules": record({
        "text": req({"type": "string", "empty": False}),
        "source": {"type": "string"},
        "not_implemented": {"type": "string", "empty": False},  # why the ruleset does not play it
    }, cite=False)}),
    # board.yaml
    "colour_groups": req(table_of(record({"name": req({"type": "string"}), "colour": COLOUR}))),
    "locations": req(table_of(record({
        "name": req({"type": "string"}),
        "kind": req({"type": "string", "allowed": list(LOCATION_KINDS)}),
        "group": ID,
        "slots": {"type": "list", "maxlength": MAX_COUNT, "schema": {"type": "list", "schema": ID, "minlength": 1}},
        "link_icons": NON_NEG,
        "at": POINT,  # [x, y], x to the east, y to the south; without it, brass board places it itself
    }))),
    # the kinds of link tile: optional, the eras' `link_kind`s when absent (declared.py)
    "link_kinds": table_of(record({
        "name": {"type": "string"},
        "colour": COLOUR,
        "dashed": {"type": "boolean"},  # drawn dashed, and a built one with sleepers (pictures only)
    })),
    "links": req({"type": "dict", "keysrules": {"type": "string", "regex": r"[A-Za-z0-9_]+"},
                  "valuesrules": with_sugar(record({
                      "ends": req({"type": "list", "schema": ID, "minlength": 2}),
                      "kinds": {"type": "list", "schema": ID},  # also `KIND: true` (declared.py)
                  }), {"type": "boolean"})}),
    # industries.yaml
    "industries": req(table_of(record({
        "name": req({"type": "string"}),
        "flips": req({"type": "string", "allowed": list(FLIPS)}),
        "produces": ID,
        "short": {"type": "string", "empty": False, "maxlength": 8},  # its label on a picture of the board
        "colour": COLOUR,
    }))),
    "tiles": req(table_of({"type": "list", "schema": TILE, "minlength": 1, "maxlength": MAX_COUNT})),
    # cards.yaml
    "cards": req(table_of(record({
        "location": ID,
        "industries": {"type": "list", "schema": ID, "minlength": 1},
        "count": req(per_player_count(NON_NEG)),
    }))),
    "wild_cards": req(table_of(record({
        "kind": req({"type": "string", "allowed": list(WILD_KINDS)}),
        "count": req(NON_NEG),
        "excludes": {"type": "list", "schema": {"type": "string", "allowed": list(LOCATION_KINDS)}},
    }))),
    # merchants.yaml; both optional, for a game without merchants (absent: empty, loader.py)
    "merchants": table_of(record({
        "spaces": req(per_player_count(NON_NEG)),
        "beer_bonus": EFFECTS,
    })),
    "merchant_tiles": table_of(record({
        "buys": req({"type": "list", "schema": ID}),
        "count": req(per_player_count(NON_NEG)),
    })),
    # resources.yaml
    "resources": req(table_of(record({  # SOURCE_LIST: where a resource may come from (sourcing.py)
        "name": req({"type": "string"}),
        "sources": req(SOURCE_LIST),
        "sources_in": {"type": "dict", "keysrules": ID, "valuesrules": SOURCE_LIST},
        "choice": {"type": "string", "allowed": ["in_order", "any_mix"]},
        "market": ID,
        "market_access": {"type": "string", "allowed": ["merchant_connection", "anywhere"]},
        # the locations a `merchant_connection` reaches the market through (bool, `l`: a location)
        "access_through": EXPR,
        "sell_on_build": req({"type": "string", "allowed": ["merchant_connection", "always", "never"]}),
        # only tiles of industries that flip when sold may need it (a Sell consumes it: Birmingham's beer)
        "sold_tiles_only": {"type": "boolean"},
        # per source kind, the rule a move that names a source of that kind wrongly is refused with
        # ... and under `empty`, `unconnected`, `farther`, the rule a move breaks that names a producer
        # excluded for that reason (engine/exclusions.py)
        "source_rules": {"type": "dict", "valuesrules": record({}),
                         "keysrules": {"type": "string", "allowed": [*SOURCE_KIND["allowed"],
                                                                     *SOURCE_EXCLUSION_KEYS]}},
    }))),
    "markets": req(table_of(record({
        "prices": req({"type": "list", "schema": POS_AMOUNT, "minlength": 1, "maxlength": MAX_COUNT}),
        "start_cubes": req(NON_NEG),
        "empty_price": req(POS_AMOUNT),
    }))),
    # ruleset-defined tracks: a number of the game, read by `track(id)`, changed by effects
    "tracks": table_of(record({
        "name": req({"type": "string"}),
        "start": req(ints(-MAX_AMOUNT, MAX_AMOUNT)),
        "min": req(ints(-MAX_AMOUNT, MAX_AMOUNT)),
        "max": req(ints(-MAX_AMOUNT, MAX_AMOUNT)),
    })),
    # ruleset-defined random stacks: face-down tiles showing a number, drawn by the `draw` effect
    "stacks": table_of(record({
        "name": req({"type": "string"}),
        "tiles": req({"type": "dict", "minlength": 1, "keysrules": ints(-MAX_AMOUNT, MAX_AMOUNT),
                      "valuesrules": per_player_count(NON_NEG)}),  # value shown -> copies per player count
    })),
    # income.yaml
    "income_track": req(record({
        "start_position": req(ints(0, (2 * MAX_INCOME_LEVEL + 1) * MAX_COUNT)),
        "bands": req({"type": "list", "minlength": 1, "schema": record({
            "levels": req({"type": "list", "schema": ints(-MAX_INCOME_LEVEL, MAX_INCOME_LEVEL),
                           "minlength": 2, "maxlength": 2}),
            "spaces": req(POS),
        }, cite=False)}),
    })),
    # setup.yaml
    "setup": req(record({
        "money": req(AMOUNT),
        "vp": req(AMOUNT),
        "hand_size": req(POS),
        "face_down_discards": req(NON_NEG),
        "links_per_player": req(NON_NEG),
        "rounds_per_era": req(per_player_count(POS)),
        "turn_order": req({"type": "string", "allowed": ["random", "seated"]}),
    })),
    "economy": req(record({
        "loan": req(record({"amount": req(AMOUNT), "income_levels": req(NON_NEG)})),
        "shortfall": req(record({"tile_value_divisor": req(POS), "vp_per_money": req(NON_NEG),
                                 # VP a shortfall never takes a player below; null: no floor
                                 "vp_floor": {"type": "int", "nullable": True, "min": -1_000_000, "max": 1_000_000},
                                 # money a shortfall may leave a player with; null: no floor (debt)
                                 "money_floor": {"type": "int", "nullable": True, "min": -1_000_000, "max": 0}})),
    })),
    # eras.yaml
    "eras": req({"type": "list", "minlength": 1, "maxlength": MAX_ERAS, "schema": record({
        "id": req(ID),
        "name": req({"type": "string"}),
        "link_kind": req(ID),  # one of `link_kinds:` when the ruleset declares them
        "actions_per_turn": req(POS),
        "first_round_actions": POS,
        "network": req({"type": "list", "minlength": 1, "maxlength": MAX_COUNT, "schema": with_sugar(record({
            "links": req(POS),
            "money": req(AMOUNT),
            "needs": NEEDS,  # also written as keys named after resources: `coal: 1` (declared.py)
        }, cite=False), NON_NEG)}),
        "end": EFFECTS,
        # the last round's `round_end` steps run after `end` instead of before it
        "end_before_round_end": {"type": "boolean"},
        # cards of the draw deck set aside face down, unseen, when the era begins; `new_draw_deck` takes them back
        "set_aside": per_player_count(NON_NEG),
    })}),
    "round_end": req(EFFECTS),
    # the rules a move is refused with when it breaks the turn itself (docs/engine.md, "Refusals")
    "turns": record({
        "order": record({}),    # a move by a player whose turn it is not
        "actions": record({}),  # something that is not one of the actions, or an action begun inside another
    }, cite=False),
    "game_end": req(record({
        "last_era": ID,
        "scoring": EFFECTS,
        "ranking": req({"type": "list", "minlength": 1, "schema": record({
            "key": req(EXPR),
            "name": req({"type": "string"}),
        }, cite=False)}),
    })),
    # actions.yaml
    "actions": req(table_of(ACTION)),
    # bots.yaml, optional: the bots' parameters for this ruleset (bot_params.py, docs/bots.md); not
    # rules of the game, but a variant's judgements travel with it and are inherited like the rest
    "bots": section_schema(),
}


@functools.cache
def _validator_class() -> type[Validator]:
    """cerberus with an `int` type that, unlike cerberus' `integer`, refuses booleans (made on
    first use: importing cerberus takes tens of milliseconds a cached ruleset need not spend)."""
    from cerberus import TypeDefinition, Validator

    class _RulesetValidator(Validator):
        types_mapping = Validator.types_mapping.copy()
        types_mapping["int"] = TypeDefinition("int", (int,), (bool,))

        def _check_with_effect_step(self, field: str, value: Any) -> None:
            if isinstance(value, dict) and len(value) != 1:
                self._error(field, "an effect step names exactly one effect: `- name` or `- name: arguments`")

        def _check_with_not_nan(self, field: str, value: Any) -> None:
            if not not_nan(value):
                self._error(field, "must be a number, not nan (not a number)")

    return _RulesetValidator


@functools.cache
def _definitions() -> DefinitionSchema:
    """SECTIONS as cerberus checks and expands it, once per process (a validator
    given a DefinitionSchema takes it as it is)."""
    from cerberus.schema import DefinitionSchema

    schema = _validator_class()(SECTIONS, allow_unknown=False).schema
    assert isinstance(schema, DefinitionSchema)
    return schema


def validate_structure(doc: Document, sink: DiagnosticSink, *, partial: bool = False,
                       broken: set[tuple[Any, ...]] | None = None) -> bool:
    """Check the merged ruleset document's shape; report every problem to `sink`, and add the
    path of each to `broken` (so that the later stages can leave those parts out)."""
    if not isinstance(doc.data, dict):
        sink.error(doc.pos(()), "a ruleset must be a mapping of sections")
        if broken is not None:
            broken.add(())
        return False
    validator = _validator_class()(_definitions(), allow_unknown=False)
    # No normalization: the schema has no rule that normalizes (coerce, default,
    # rename, purge), so it would only walk the whole document once more (and
    # cerberus' normalizer crashed on a mapping such as `{type: x}` written where
    # a list of ids belongs).
    if validator.validate(doc.data, update=partial, normalize=False):
        return True
    for error in _leaf_errors(validator._errors):
        path = tuple(error.document_path)
        if broken is not None:
            broken.add(path)
        key_error = error.code == 0x03 or error.rule == "required"
        sink.error(doc.pos(path, key=key_error and error.code == 0x03), _message(error, path))
    return False


def _leaf_errors(errors: list[ValidationError]) -> Iterator[ValidationError]:
    for error in errors:
        if error.is_group_error and error.child_errors:
            yield from _leaf_errors(error.child_errors)
        else:
            yield error


def _schema_keys(path: tuple) -> list[str]:
    """The keys a record at `path` may have, for "did you mean" suggestions."""
    schema: Any = {"type": "dict", "schema": SECTIONS}
    for step in path:
        if not isinstance(schema, dict):
            return []
        if "schema" in schema and isinstance(schema["schema"], dict) and schema.get("type") == "dict":
            schema = schema["schema"].get(step)
        elif "valuesrules" in schema:
            schema = schema["valuesrules"]
        elif schema.get("type") == "list" and isinstance(schema.get("schema"), dict):
            schema = schema["schema"]
        else:
            return []
    if isinstance(schema, dict) and isinstance(schema.get("schema"), dict) and schema.get("type") == "dict":
        return sorted(schema["schema"])
    return []


def _message(error: ValidationError, path: tuple) -> str:
    """A designer-friendly message for one cerberus error."""
    name = ".".join(str(p) for p in path) or "ruleset"
    key = path[-1] if path else ""
    rule, constraint, value = error.rule, error.constraint, error.value
    if error.code == 0x03:  # unknown field
        allowed = _schema_keys(path[:-1])
        import difflib  # only for a message: not imported with the module

        hint = difflib.get_close_matches(str(key), allowed, n=1)
        suggestion = (f"; did you mean '{hint[0]}'?" if hint
                      else f"; allowed keys: {', '.join(allowed)}" if allowed else "")
        return f"unknown key '{key}' in {'.'.join(str(p) for p in path[:-1]) or 'the ruleset'}{suggestion}"
    if rule == "required":
        return f"missing required key '{key}' in {'.'.join(str(p) for p in path[:-1]) or 'the ruleset'}"
    if rule == "type":
        wanted = constraint if isinstance(constraint, str) else " or ".join(constraint)
        return f"{name} must be {_type_words(wanted)}, not {_describe(value)}"
    if rule == "allowed":
        return f"{name}: {value!r} is not allowed; expected one of {', '.join(map(str, constraint))}"
    if rule == "regex":
        what = "rule ID (like R-BUILD-03)" if constraint == RULE_ID["regex"] else "id (lower_snake_case)"
        return f"{name}: {value!r} is not a valid {what}"
    if rule == "min":
        return f"{name} must be at least {constraint}, not {value}"
    if rule == "max":
        return f"{name} must be at most {constraint}, not {value}"
    if rule in ("minlength", "maxlength"):
        bound = "at least" if rule == "minlength" else "at most"
        unit = "characters" if isinstance(value, str) else "entries"
        return f"{name} must have {bound} {constraint} {unit}, not {len(value)}"
    if rule is None and error.info and isinstance(error.info[0], str):  # a `check_with` method's own words
        return f"{name}: {error.info[0]}"
    if rule == "check_with":
        return f"{name}: {value if isinstance(value, str) else error.info[0] if error.info else 'invalid'}"
    if rule == "empty":
        return f"{name} must not be empty"
    return f"{name}: invalid value {value!r} ({rule})"


def _type_words(wanted: str) -> str:
    words = {"int": "an integer", "number": "a number", "string": "a string", "boolean": "true or false",
             "dict": "a mapping",
             "list": "a list"}
    return " or ".join(words.get(w.strip(), w) for w in wanted.split(" or "))


def _describe(value: Any) -> str:
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return f"{type(value).__name__} {value!r}".replace("str ", "string ")
