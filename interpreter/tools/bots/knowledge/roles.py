"""Brass knowledge, part 0: what each action of a ruleset is for, read from the effects it applies
(overview in `bots/knowledge/worth.py`). The bots know no action, choice or resource by name: an action
that places a tile is build-like, one that places a link link-like, and so on, and its choices are
found by their types. Any ruleset's actions are so understood, Birmingham's and Lancashire's alike.

    roles(ruleset)                    the roles of every action (cached per ruleset)
    Roles.role(action_id)             BUILD, LINK, SELL, DEVELOP, LOAN, PASS, HAND or OTHER
    Roles.shape(action_id)            its choices by type, its repetition, the resources it consumes
    parts(shape, whole)               a whole action's choices: its own and each repetition's

How an action's role is read (`_role_of`), first match wins:

| role | the action applies |
| --- | --- |
| BUILD | an effect that places a tile from the mat on a slot (`build_tile`) |
| LINK | an effect that places a link (`place_link`) |
| SELL | an effect that flips a tile (`flip`) |
| DEVELOP | an effect that takes a tile off the mat (the one effect whose only argument is an industry) |
| LOAN | an effect that drops income levels (`drop_income_levels`) |
| HAND | an effect that takes wild cards (`gain_wild_card`): it mends the hand |
| PASS | nothing but discarding cards and using up actions of the turn |
| OTHER | anything else: the bots still judge it on a copy of the game |
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum, auto
from typing import Any

from interpreter.ruleset.effects import ACTION, EFFECTS
from interpreter.ruleset.model import Action, EffectStep, Ruleset


class Role(Enum):
    BUILD = auto()
    LINK = auto()
    SELL = auto()
    DEVELOP = auto()
    LOAN = auto()
    PASS = auto()
    HAND = auto()
    OTHER = auto()


# The greedy bot's order of preference among the roles (bots.GreedyBot).
PREFERENCE = (Role.SELL, Role.BUILD, Role.LINK, Role.DEVELOP, Role.LOAN, Role.PASS, Role.HAND)
# What a seat that can pay for nothing can still do.
IDLE_ROLES = frozenset({Role.LOAN, Role.PASS, Role.HAND})

# The effects that give an action its role (engine vocabulary, docs/ruleset-format.md).
_PLACES_TILE, _PLACES_LINK, _FLIPS = "build_tile", "place_link", "flip"
_DROPS_INCOME, _TAKES_WILD = "drop_income_levels", "gain_wild_card"
_USES_ACTIONS, _COUNT = "use_actions", "count"  # an action that also uses up more actions of the turn
_CONSUMES = "consume"
_DOES_NOTHING = frozenset({"discard", _USES_ACTIONS})
# The effect that removes a tile from the mat: the one action effect whose only argument is an
# industry (its name is also an action's, so it is found by its signature, not named).
_OFF_THE_MAT = frozenset(name for name, spec in EFFECTS.items()
                         if ACTION in spec.contexts and [p.type for p in spec.params] == ["industry"])

CARD, INDUSTRY, LOCATION, SLOT, LINK, TILE, MERCHANT, FLAG = (
    "card", "industry", "location", "slot", "link", "tile", "merchant_tile", "bool")


@dataclass(frozen=True)
class Shape:
    """One action as the bots see it."""

    id: str
    role: Role
    types: Mapping[str, str]  # choice name -> its type (the action's own and its repetition's)
    by_type: Mapping[str, str]  # type -> the first choice of that type
    cards: tuple[str, ...]  # the choices that name a card of the hand
    repeat: str | None  # the name of its repeated part
    consumes: tuple[str, ...]  # the resources its `consume` effects take, in order
    wild_cards: int  # wild cards it takes
    more_actions: tuple[Any, ...] = ()  # the counts of further actions of the turn it uses up (expressions)
    # the tile choices after the first that its `flip` steps flip too (a Lancashire sale's Port, L-SELL-02)
    co_flipped: tuple[str, ...] = ()

    def named(self, kind: str) -> str | None:
        """The name of the action's first choice of a type (None: it has none)."""
        return self.by_type.get(kind)


@dataclass(frozen=True)
class Roles:
    shapes: Mapping[str, Shape]  # in the ruleset's order
    _consumed: dict[Role, tuple[str, ...]] = field(default_factory=dict, compare=False)

    def shape(self, action_id: str) -> Shape:
        return self.shapes[action_id]

    def role(self, action_id: str | None) -> Role:
        shape = self.shapes.get(action_id or "")
        return shape.role if shape is not None else Role.OTHER

    def ids(self, *wanted: Role) -> tuple[str, ...]:
        """The actions of these roles, in the order of the roles, then of the ruleset."""
        return tuple(s.id for role in wanted for s in self.shapes.values() if s.role is role)

    def consumed(self, role: Role) -> tuple[str, ...]:
        """The resources the actions of a role consume, each once, in order."""
        known = self._consumed.get(role)
        if known is None:
            found: list[str] = []
            for resource in (r for s in self.shapes.values() if s.role is role for r in s.consumes):
                if resource not in found:
                    found.append(resource)
            known = self._consumed[role] = tuple(found)
        return known


_ROLES: dict[int, tuple[Ruleset, Roles]] = {}


def roles(ruleset: Ruleset) -> Roles:
    found = _ROLES.get(id(ruleset))
    if found is None or found[0] is not ruleset:
        shapes = {action_id: _shape(action) for action_id, action in ruleset.actions.items()}
        found = _ROLES[id(ruleset)] = (ruleset, Roles(shapes))
    return found[1]


def _steps(action: Action) -> list[EffectStep]:
    steps = list(action.part.effects)
    return steps + list(action.repeat.part.effects) if action.repeat is not None else steps


def _shape(action: Action) -> Shape:
    params = list(action.part.params) + (list(action.repeat.part.params) if action.repeat is not None else [])
    by_type: dict[str, str] = {}
    for param in params:
        by_type.setdefault(param.type, param.name)
    steps = _steps(action)
    consumes = tuple(str(s.args[_CONSUMES_ARG]) for s in steps if s.name == _CONSUMES and _CONSUMES_ARG in s.args)
    return Shape(action.id, _role_of({s.name for s in steps}), {p.name: p.type for p in params}, by_type,
                 tuple(p.name for p in action.part.params if p.type == CARD),
                 action.repeat.name if action.repeat is not None else None, consumes,
                 sum(1 for s in steps if s.name == _TAKES_WILD),
                 tuple(s.args[_COUNT] for s in steps if s.name == _USES_ACTIONS and _COUNT in s.args),
                 _co_flipped(params, steps))


_CONSUMES_ARG = "resource"


def _co_flipped(params: list[Any], steps: list[EffectStep]) -> tuple[str, ...]:
    """The tile choices after the first that the action's `flip` steps read: tiles it flips along
    with the one chosen first (a Lancashire sale flips the Port the mill sells to, L-SELL-02)."""
    tiles = [p.name for p in params if p.type == TILE][1:]
    read = {name for s in steps if s.name == _FLIPS for arg in s.args.values()
            for name in getattr(arg, "names_used", ())}
    return tuple(name for name in tiles if name in read)


def _role_of(effects: set[str]) -> Role:
    for effect, role in ((_PLACES_TILE, Role.BUILD), (_PLACES_LINK, Role.LINK), (_FLIPS, Role.SELL)):
        if effect in effects:
            return role
    if effects & _OFF_THE_MAT:
        return Role.DEVELOP
    if _DROPS_INCOME in effects:
        return Role.LOAN
    if _TAKES_WILD in effects:
        return Role.HAND
    return Role.PASS if effects <= _DOES_NOTHING else Role.OTHER


def parts(shape: Shape, whole: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """A whole action's own choices, then each of its repetitions' (`view.whole_actions()`)."""
    yield whole
    if shape.repeat is not None:
        yield from whole.get(shape.repeat, [])


def values(shape: Shape, whole: Mapping[str, Any], kind: str) -> list[Any]:
    """Every value chosen for choices of a type in a whole action, in order."""
    return [part[name] for part in parts(shape, whole) for name, t in shape.types.items()
            if t == kind and name in part]
