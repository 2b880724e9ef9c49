"""Brass knowledge, part 5: the engine's decisions of a ruleset's actions, valued with `Appraiser`
(overview in `bots/knowledge/worth.py`). Actions are known by their role and their choices by their type
(`brass_knowledge_roles`), never by name, so any ruleset's actions are valued alike.

    admitted(appraiser, kinds)        the kinds of action worth a look at all (loans, mostly)
    searched(appraiser, kinds)        the same for a search, which looks further ahead
    whole_value(appraiser, whole)     the quick value of a whole action, in VP
    discard_gain(appraiser, kind)     what discarding for this kind of action brings back (a scout's wild cards)
    decision_value(view, appraiser, decision)   one decision of an action being taken, without a plan
    answer_value(appraiser, question, option)   an answer to a question put inside an effect
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine.values import encode
from interpreter.tools.bots.knowledge.actions import Appraiser
from interpreter.tools.bots.knowledge.roles import (
    CARD,
    FLAG,
    IDLE_ROLES,
    INDUSTRY,
    LINK,
    LOCATION,
    MERCHANT,
    SLOT,
    TILE,
    Role,
    Shape,
    parts,
    roles,
    values,
)

if TYPE_CHECKING:
    from interpreter.engine.view import SeatView

DONE = "done"  # the decision that ends an action's repetitions (engine/protocol.py)


def admitted(appraiser: Appraiser, kinds: set[str]) -> set[str]:
    """The kinds of action worth a look: only a loan when the seat can pay for nothing else and a
    loan still pays (`Appraiser.rescue_loan`), else every kind but a loan that does not pay
    (`Appraiser.loan_sensible`)."""
    known = roles(appraiser.rs)
    loans = set(known.ids(Role.LOAN))
    if kinds & loans and not kinds - set(known.ids(*IDLE_ROLES)) and appraiser.rescue_loan():
        return kinds & loans
    return kinds if appraiser.loan_sensible() else kinds - loans


def searched(appraiser: Appraiser, kinds: set[str]) -> set[str]:
    """The kinds of action a search looks at: all of them when the seat can pay for nothing but a
    loan, a pass or a scout (there the look-ahead decides what the rule of thumb would), else
    every kind but a loan that does not pay (`Appraiser.loan_sensible`): a loan's money is spent
    at once in a short rollout while its cost in income comes over the rest of the game, so a
    short look-ahead overrates it."""
    known = roles(appraiser.rs)
    if not kinds - set(known.ids(*IDLE_ROLES)):
        return kinds
    return kinds if appraiser.loan_sensible() else kinds - set(known.ids(Role.LOAN))


def whole_value(appraiser: Appraiser, whole: dict[str, Any]) -> float:
    """The quick value of a whole action by its role (0 for an action of no role the bots know)."""
    shape = roles(appraiser.rs).shape(whole["action"])
    role = shape.role
    if role is Role.BUILD:
        builds = _complete(shape, whole, INDUSTRY, LOCATION, SLOT)
        industry, location, slot = (shape.by_type[kind] for kind in (INDUSTRY, LOCATION, SLOT))
        return sum(appraiser.build(part[industry], part[location], part[slot]) for part in builds)
    if role is Role.LINK:
        return appraiser.links(values(shape, whole, LINK))
    if role is Role.SELL:
        tile, merchant, beer = shape.by_type[TILE], shape.named(MERCHANT), shape.named(FLAG)
        return sum(appraiser.sale(s[tile], _or(s, merchant, ""), _or(s, beer, False),
                                  [s[name] for name in shape.co_flipped if name in s])
                   for s in _complete(shape, whole, TILE))
    if role is Role.DEVELOP:
        return appraiser.develop(values(shape, whole, INDUSTRY))
    if role is Role.LOAN:
        return appraiser.loan(*appraiser.loan_terms(shape.id, whole))
    return 0.0


def _complete(shape: Shape, whole: dict[str, Any], *kinds: str) -> list[Any]:
    """The parts of a whole action (its own choices or a repetition's) that choose every one of these types."""
    names = [shape.named(kind) for kind in kinds]
    return [part for part in parts(shape, whole) if all(n is not None and n in part for n in names)]


def _or(part: Any, name: str | None, default: Any) -> Any:
    return part.get(name, default) if name is not None else default


def discard_gain(appraiser: Appraiser, kind: str) -> float:
    """What the cards discarded for this kind of action bring back: an action that takes wild cards
    (a scout, R-SCOUT-01) is worth a kept wild card for each; a pass throws the action away (`pass_waste`);
    an action that also uses up more actions of the turn (Lancashire's Double Action Build, L-BUILD-04)
    costs `action_worth` for each of them, which neither its quick value nor the estimate of the
    position after it counts (a Double Action Build was taken as often as a Build, a turn for one tile)."""
    shape = roles(appraiser.rs).shape(kind)
    if shape.role is Role.HAND:
        return shape.wild_cards * appraiser.wild_keep()
    if shape.role is Role.PASS:
        return -appraiser.params.pass_waste
    return -appraiser.more_actions(shape) * appraiser.params.action_worth


def answer_value(appraiser: Appraiser, question: dict[str, Any], option: Any) -> float:
    return appraiser.answer_value(str(question.get("key", "")), option)


def decision_value(view: SeatView, appraiser: Appraiser, decision: dict[str, Any]) -> float:
    """One decision of the action being taken, judged alone: the card least worth keeping, the best
    build, link, sale or develop it still allows."""
    (name, value), = decision.items()
    action = view.pending.action.id if view.pending is not None else ""
    known = roles(view.ruleset)
    shape = known.shapes.get(action)
    kind = shape.types.get(name) if shape is not None else None
    role = known.role(action)
    if kind == CARD:
        card = view.table.cards.get(value)
        return -appraiser.card_keep(card, appraiser.me.hand) if card is not None else 0.0
    if name == DONE:
        return 0.0
    if role is Role.BUILD and shape is not None:
        return _build_value(view, appraiser, shape, kind, value)
    if kind == LINK:
        return appraiser.links([value])
    if kind == TILE:
        return appraiser.sale(value, "", False)
    if kind == MERCHANT:
        return appraiser.beer_bonus(str(value).rsplit("/", 1)[0])
    if kind == FLAG:
        return 1.0 if value else 0.0
    if kind == INDUSTRY and role is Role.DEVELOP:
        return appraiser.develop([value])
    return 0.0


def _build_value(view: SeatView, appraiser: Appraiser, shape: Shape, kind: str | None, value: Any) -> float:
    """A build's industry, location or slot: the best build it still allows."""
    rs = view.ruleset
    bound = view.pending.vars if view.pending is not None else {}
    industry = value if kind == INDUSTRY else _encoded(bound.get(shape.named(INDUSTRY) or ""))
    location = value if kind == LOCATION else _encoded(bound.get(shape.named(LOCATION) or ""))
    best = -float("inf")
    places = [location] if location is not None else list(rs.locations)
    for place in places:
        for slot in rs.locations[place].slots:
            if kind == SLOT and slot.id != value:
                continue
            for option in slot.industries:
                if industry is not None and option != industry:
                    continue
                if view.table.tiles_left(appraiser.me, option) > 0:
                    best = max(best, appraiser.build(option, place, slot.id))
    return best


def _encoded(value: Any) -> str | None:
    return None if value is None else str(encode(value))
