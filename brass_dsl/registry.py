"""What an expression may refer to: the host program's types, names and functions.

The language itself knows nothing about the game. The interpreter registers record
types, named values (`me`, `players`) and functions (`income_level(p)`) here, each
with a doc string and an example, so that the checker can resolve and type every
name and the reference documentation is generated from the same source.

Registries chain: `with_bindings` makes a child that adds names read from
`env.vars` at run time (an action's parameters), leaving the parent untouched.
Within a chain a name denotes one thing only, so a child may not shadow its parent
and a value may not share its name with a function.

The registry also states what the checker needs to bound the work of one evaluation
(`brass_dsl.cost`): how long lists can be (a name, function or field may give the most
items its list holds, `max_length=`, and `set_max_length` gives it per item type for
every other list: all slots, all cards, …), and what a name or function whose own work
grows with the board costs (`cost=`, a `Cost`; `set_cost` gives it after registration).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from brass_dsl.types import SCALAR_TYPES, DslType, RecordType, check_identifier

if TYPE_CHECKING:
    from brass_dsl.runtime import Env


@dataclass(frozen=True)
class Param:
    """A function parameter, named for messages and documentation."""

    name: str
    type: DslType

    def __str__(self) -> str:
        return f"{self.name}: {self.type}"


@dataclass(frozen=True)
class Cost:
    """The work of reading a name or calling a function once, in the units of the cost bound
    (`brass_dsl.cost`; a unit is about the work of one simple operator): `units`, plus `per_item`
    for each item of the call's list arguments, at most (a pass over the locations given). `why`
    says how the figure is counted, for the reference. Most names and functions cost 1."""

    units: int = 1
    per_item: int = 0
    why: str = ""

    def __post_init__(self) -> None:
        if self.units < 1 or self.per_item < 0:
            raise ValueError(f"a cost is at least 1 unit and 0 per item, not {self.units} and {self.per_item}")

    def __str__(self) -> str:
        """As documented: `148 units, plus 115 for each item of its list argument`."""
        text = f"{self.units:,} unit{'s' if self.units != 1 else ''}"
        if self.per_item:
            text += f", plus {self.per_item:,} for each item of its list argument"
        return text


ONE = Cost()


@dataclass(frozen=True)
class NameEntry:
    """A named value; `get(env)` returns it. `max_length`: the most items a list value holds;
    `cost`: the work of one read."""

    name: str
    type: DslType
    doc: str
    example: str
    get: Callable[[Env], Any]
    max_length: int | None = None
    cost: Cost = ONE
    binding: bool = False  # read from `env.vars[name]` (an action's choice, `with_bindings`)
    # Its value cannot change while an action is being taken (no effect of an action changes it): a
    # search may judge a check that reads only such names before it runs an action's effects.
    steady: bool = False


@dataclass(frozen=True)
class FunctionEntry:
    """A function; `impl(env, *args)` computes it and may raise ValueError for bad arguments.
    `max_length`: the most items a list it returns holds; `cost`: the work of one call."""

    name: str
    params: tuple[Param, ...]
    returns: DslType
    doc: str
    example: str
    impl: Callable[..., Any]
    max_length: int | None = None
    cost: Cost = ONE

    @property
    def signature(self) -> str:
        """As documented: `income_level(p: player) -> int`."""
        return f"{self.name}({', '.join(map(str, self.params))}) -> {self.returns}"


T = TypeVar("T")

BINDING_DOC = "bound by the caller (an action parameter)"

_BUILTIN_TYPE_NAMES = frozenset(t.name for t in SCALAR_TYPES) | {"list"}

# The length assumed for a list of a type whose length no registry of the chain states.
DEFAULT_MAX_LENGTH = 100


class Registry:
    """Types, names and functions visible to expressions, searched up the parent chain."""

    def __init__(self, parent: Registry | None = None) -> None:
        self.parent = parent
        self._types: dict[str, RecordType] = {}
        self._names: dict[str, NameEntry] = {}
        self._functions: dict[str, FunctionEntry] = {}
        self._hidden: dict[str, str] = {}  # names of the parents not visible here -> why
        # bindings that may be absent (optional action params) -> what their presence proves present
        self._conditional: dict[str, frozenset[str]] = {}
        self._max_lengths: dict[DslType, int] = {}  # item type -> the most items of any list of it

    # ------------------------------------------------------------ registering

    def add_type(self, t: RecordType) -> RecordType:
        """Register a record type (returned, for `PLAYER = reg.add_type(RecordType(...))`)."""
        if t.name in _BUILTIN_TYPE_NAMES or self.lookup_type(t.name) is not None:
            raise ValueError(f"type {t.name!r} is already defined")
        self._types[t.name] = t
        return t

    def add_name(self, name: str, type: DslType, doc: str, example: str, get: Callable[[Env], Any], *,
                 max_length: int | None = None, cost: Cost = ONE, binding: bool = False,
                 steady: bool = False) -> None:
        """Register a named value; duplicates and shadowing are ValueErrors."""
        self._claim(name)
        self._names[name] = NameEntry(name, type, doc, example, get, max_length, cost, binding, steady)

    def add_function(
        self,
        name: str,
        params: Sequence[Param],
        returns: DslType,
        doc: str,
        example: str,
        impl: Callable[..., Any],
        *,
        max_length: int | None = None,
        cost: Cost = ONE,
    ) -> None:
        """Register a function called as `impl(env, *args)`."""
        self._claim(name)
        self._functions[name] = FunctionEntry(name, tuple(params), returns, doc, example, impl, max_length, cost)

    def set_cost(self, name: str, cost: Cost) -> None:
        """State the work of one read of a name or one call of a function registered here."""
        if name in self._functions:
            self._functions[name] = replace(self._functions[name], cost=cost)
        elif name in self._names:
            self._names[name] = replace(self._names[name], cost=cost)
        else:
            raise ValueError(f"{name!r} is not a name or function of this registry")

    def set_max_length(self, item_type: DslType, length: int) -> None:
        """State that no list of `item_type` holds more than `length` items (in this registry
        and its children), unless its name, function or field states less."""
        if length < 0:
            raise ValueError(f"a list cannot hold {length} items")
        self._max_lengths[item_type] = length

    def max_length(self, item_type: DslType) -> int:
        """The most items a list of `item_type` holds: as stated for that type by the nearest
        registry of the chain; else as long as the longest list stated for any type (a list
        of text or numbers can be as long as the largest collection); else DEFAULT_MAX_LENGTH."""
        stated = self._find(lambda r: r._max_lengths.get(item_type))
        if stated is not None:
            return stated
        every = [length for registry in self._chain() for length in registry._max_lengths.values()]
        return max(every, default=DEFAULT_MAX_LENGTH)

    def function(
        self, name: str, params: Sequence[Param], returns: DslType, *, doc: str = "", example: str = "",
        max_length: int | None = None, cost: Cost = ONE,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator form of `add_function`; returns the implementation unchanged."""

        def register(impl: Callable[..., Any]) -> Callable[..., Any]:
            self.add_function(name, params, returns, doc, example, impl, max_length=max_length, cost=cost)
            return impl

        return register

    def without(self, hidden: Mapping[str, str]) -> Registry:
        """A child registry in which these names and functions of its parents are not visible; each
        maps to the reason, which the checker gives instead of "unknown name" (`me` outside an
        action, a function about the game in a rule text read when the ruleset loads)."""
        child = Registry(self)
        child._hidden = dict(hidden)
        return child

    def hidden_reason(self, name: str) -> str | None:
        """Why `name` is not visible here, if a registry of the chain hides it."""
        for registry in self._chain():
            if name in registry._names or name in registry._functions:
                return None
            if name in registry._hidden:
                return registry._hidden[name]
        return None

    def with_bindings(self, bindings: Mapping[str, DslType], *, conditional: bool = False,
                      implies: frozenset[str] = frozenset()) -> Registry:
        """A child registry where each binding is a name read from `env.vars[name]`. `conditional`:
        the bindings may be absent (an optional action param): the checker lets an expression read
        one only where `present(name)` is known to hold; `implies`: the other optional names present
        whenever these are (those its `when:` proves present)."""
        child = Registry(self)
        for name, type in bindings.items():
            child.add_name(name, type, BINDING_DOC, "", _binding_getter(name), binding=True)
            if conditional:
                child._conditional[name] = implies
        return child

    def is_conditional(self, name: str) -> bool:
        """Whether `name` is a binding that may be absent (see `with_bindings`)."""
        return self.implied_by(name) is not None

    def implied_by(self, name: str) -> frozenset[str] | None:
        """For an optional binding, the optional names present whenever it is; None for any other name."""
        for registry in self._chain():
            if name in registry._names:
                return registry._conditional.get(name)
            if name in registry._hidden:
                return None
        return None

    def _claim(self, name: str) -> None:
        check_identifier(name, "name")
        if self.lookup_name(name) is not None or self.lookup_function(name) is not None:
            raise ValueError(f"{name!r} is already defined")

    # ------------------------------------------------------------ looking up

    def lookup_name(self, name: str) -> NameEntry | None:
        for registry in self._chain():
            found = registry._names.get(name)
            if found is not None:
                return found
            if name in registry._hidden:
                return None
        return None

    def lookup_function(self, name: str) -> FunctionEntry | None:
        for registry in self._chain():
            found = registry._functions.get(name)
            if found is not None:
                return found
            if name in registry._hidden:
                return None
        return None

    def lookup_type(self, name: str) -> RecordType | None:
        return self._find(lambda r: r._types.get(name))

    def names(self) -> list[NameEntry]:
        """Every visible name, sorted."""
        entries: dict[str, NameEntry] = {}
        for registry in reversed(list(self._chain())):  # the nearest registry decides
            for name in registry._hidden:
                entries.pop(name, None)
            entries.update(registry._names)
        return sorted(entries.values(), key=lambda e: e.name)

    def functions(self) -> list[FunctionEntry]:
        """Every visible function, sorted."""
        entries: dict[str, FunctionEntry] = {}
        for registry in reversed(list(self._chain())):  # the nearest registry decides
            for name in registry._hidden:
                entries.pop(name, None)
            entries.update(registry._functions)
        return sorted(entries.values(), key=lambda e: e.name)

    def types(self) -> list[RecordType]:
        """Every visible record type, sorted."""
        return sorted(self._collect(lambda r: r._types.values()), key=lambda t: t.name)

    def _chain(self) -> Iterable[Registry]:
        registry: Registry | None = self
        while registry is not None:
            yield registry
            registry = registry.parent

    def _find(self, get: Callable[[Registry], T | None]) -> T | None:
        for registry in self._chain():
            found = get(registry)
            if found is not None:
                return found
        return None

    def _collect(self, get: Callable[[Registry], Iterable[T]]) -> list[T]:
        return [item for registry in self._chain() for item in get(registry)]


def _binding_getter(name: str) -> Callable[[Env], Any]:
    def get(env: Env) -> Any:
        return env.vars[name]

    return get


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """'; did you mean 'x'?' for the closest candidate, or '' when none is close."""
    import difflib  # only for a message: not imported with the module

    matches = difflib.get_close_matches(word, list(candidates), n=1)
    return f"; did you mean '{matches[0]}'?" if matches else ""
