"""The type system of the condition language.

The language is checked before it runs, so that a typo in a ruleset is reported
when the ruleset loads, not halfway through a game. There are three scalar types
(`INT`, `BOOL`, `STR`), lists (`ListType`) and record types (`RecordType`) that the
host program defines: a record type names a kind of game object and lists the
fields an expression may read from it. Record types are compared by identity.

A record type may also declare `ids`: the names that a string literal may use to
denote one of its values (`industry == "coal"`). The checker validates such
literals and the compiler turns them into values with `from_literal`.

This module also owns the rules for identifiers, because registering a field or a
name that the grammar could never refer to is a mistake of the host program.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from brass_dsl.runtime import Env

RESERVED_WORDS: frozenset[str] = frozenset(
    "and or not in if then else true false count sum min max any all first for where default".split()
)
"""Words of the grammar; they cannot name a value, a function, a field or a loop variable."""

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def check_identifier(name: str, what: str) -> None:
    """Raise ValueError unless `name` can be written in an expression."""
    if not _IDENTIFIER.fullmatch(name):
        raise ValueError(f"{what} {name!r} is not a valid identifier")
    if name in RESERVED_WORDS:
        raise ValueError(f"{what} {name!r} is a reserved word of the condition language")


class DslType:
    """A type of the language; `str()` gives the name used in messages."""

    @property
    def name(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class ScalarType(DslType):
    """int, bool or str: there is one instance of each."""

    label: str

    @property
    def name(self) -> str:
        return self.label


INT = ScalarType("int")
BOOL = ScalarType("bool")
STR = ScalarType("str")
SCALAR_TYPES: tuple[ScalarType, ...] = (INT, BOOL, STR)


@dataclass(frozen=True)
class ListType(DslType):
    """A list of values of one type; at run time any sized iterable (list, tuple...)."""

    element: DslType

    @property
    def name(self) -> str:
        return f"list[{self.element}]"


@dataclass(frozen=True)
class Field:
    """A readable field of a record type; `get(env, obj)` returns its value.

    `of_value(obj)`, when set, is the same getter for a field that needs nothing but the object
    (most do): compiled code calls it directly, one call less on the hottest path.
    `max_length`, for a list field, is the most items it can hold (None: as many as any list of
    its item type, `Registry.max_length`); it bounds the work of aggregates over it.
    `words`, for a str field whose values are a known set of words (a location's `kind`), gives
    them: a tool can then tell a misspelt word compared with the field (`brass lint`)."""

    name: str
    type: DslType
    doc: str
    get: Callable[[Env, Any], Any]
    of_value: Callable[[Any], Any] | None = None
    max_length: int | None = None
    words: Callable[[], Collection[str]] | None = None


class RecordType(DslType):
    """A kind of object of the host program (a player, a location, a tile...).

    Fields are added after construction because types often refer to each other
    (a tile has an owner player, a player has a list of tiles).
    """

    def __init__(
        self,
        name: str,
        doc: str = "",
        ids: Callable[[], Collection[str]] | None = None,
        from_literal: Callable[[str], Any] | None = None,
    ) -> None:
        check_identifier(name, "type name")
        self._name = name
        self.doc = doc
        self.ids = ids
        self.from_literal: Callable[[str], Any] = from_literal or _same_text
        self.fields: dict[str, Field] = {}

    @property
    def name(self) -> str:
        return self._name

    def add_field(self, name: str, type: DslType, doc: str, get: Callable[[Env, Any], Any] | None = None, *,
                  of_value: Callable[[Any], Any] | None = None, max_length: int | None = None,
                  words: Callable[[], Collection[str]] | None = None) -> None:
        """Declare a field read by `get(env, obj)` or, when it needs only the object, by
        `of_value(obj)` (give one of them); a duplicate or unwritable name is a ValueError.
        `max_length` and `words`: see `Field`."""
        check_identifier(name, "field name")
        if name in self.fields:
            raise ValueError(f"type {self.name} already has a field {name!r}")
        if (get is None) == (of_value is None):
            raise ValueError(f"field {name!r} needs exactly one of get and of_value")
        if get is None:
            assert of_value is not None  # exactly one of the two was given (checked just above)
            get = _getter_of_value(of_value)
        self.fields[name] = Field(name, type, doc, get, of_value, max_length, words)

    def __repr__(self) -> str:
        return f"RecordType({self.name!r})"


def _getter_of_value(of_value: Callable[[Any], Any]) -> Callable[[Env, Any], Any]:
    """The `get(env, obj)` of a field declared by its `of_value(obj)`."""

    def get(env: Env, obj: Any) -> Any:
        return of_value(obj)

    return get


def _same_text(text: str) -> str:
    return text
