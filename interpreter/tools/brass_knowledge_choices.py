"""Brass knowledge, part 5: the engine's decisions of Birmingham's actions, valued with `Appraiser`
(overview in `brass_knowledge.py`). This is where the names of the ruleset's actions and of their
choices (`build`, `industry`, `merchant_beer`…) are known, so that the bot itself need not know them.

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
from interpreter.tools.brass_knowledge_actions import Appraiser
from interpreter.tools.brass_knowledge_facts import PASS_WASTE

if TYPE_CHECKING:
    from interpreter.engine.view import SeatView

LOAN = "loan"  # the action that trades income for money (R-LOAN-01)
IDLE = frozenset({"loan", "pass", "scout"})  # what a seat that can pay for nothing can still do
CARD_CHOICES = ("card", "second_card", "third_card")


def admitted(appraiser: Appraiser, kinds: set[str]) -> set[str]:
    """The kinds of action worth a look: only a loan when the seat can pay for nothing else and a
    loan still pays (`Appraiser.rescue_loan`), else every kind but a loan that does not pay
    (`Appraiser.loan_sensible`)."""
    if LOAN in kinds and not kinds - IDLE and appraiser.rescue_loan():
        return {LOAN}
    return kinds if appraiser.loan_sensible() else kinds - {LOAN}


def searched(appraiser: Appraiser, kinds: set[str]) -> set[str]:
    """The kinds of action a search looks at: all of them when the seat can pay for nothing but a
    loan, a pass or a scout (there the look-ahead decides what the rule of thumb would), else
    every kind but a loan that does not pay (`Appraiser.loan_sensible`): a loan's money is spent
    at once in a short rollout while its cost in income comes over the rest of the game, so a
    short look-ahead overrates it."""
    if not kinds - IDLE:
        return kinds
    return kinds if appraiser.loan_sensible() else kinds - {LOAN}


def whole_value(appraiser: Appraiser, whole: dict[str, Any]) -> float:
    """The quick value of a whole action of Birmingham (0 for an action it does not know)."""
    kind = whole["action"]
    if kind == "build":
        return appraiser.build(whole["industry"], whole["location"], whole["slot"])
    if kind == "network":
        return appraiser.links([part["link"] for part in whole.get("links", [])])
    if kind == "sell":
        # a sale naming no merchant (an optional param of a variant's other buyer) is not Birmingham's: 0
        return sum(appraiser.sale(s["tile"], s["merchant"], s["merchant_beer"]) if "merchant" in s else 0.0
                   for s in whole.get("sales", []))
    if kind == "develop":
        return appraiser.develop([part["industry"] for part in whole.get("tiles", [])])
    if kind == LOAN:
        return appraiser.loan()
    return 0.0


def discard_gain(appraiser: Appraiser, kind: str) -> float:
    """What the cards discarded for this kind of action bring back: a scout takes a wild card of
    each kind (R-SCOUT-01); a pass throws the action away (`PASS_WASTE`)."""
    if kind == "scout":
        return 2 * appraiser.wild_keep()
    return -PASS_WASTE if kind == "pass" else 0.0


def answer_value(appraiser: Appraiser, question: dict[str, Any], option: Any) -> float:
    return appraiser.answer_value(str(question.get("key", "")), option)


def decision_value(view: SeatView, appraiser: Appraiser, decision: dict[str, Any]) -> float:
    """One decision of the action being taken, judged alone: the card least worth keeping, the best
    build, link, sale or develop it still allows."""
    (name, value), = decision.items()
    action = view.pending.action.id if view.pending is not None else ""
    if name in CARD_CHOICES:
        card = view.table.cards.get(value)
        return -appraiser.card_keep(card, appraiser.me.hand) if card is not None else 0.0
    if name == "done":
        return 0.0
    if action == "build":
        return _build_value(view, appraiser, name, value)
    if name == "link":
        return appraiser.links([value])
    if name == "tile":
        return appraiser.sale(value, "", False)
    if name == "merchant":
        return appraiser.beer_bonus(str(value).rsplit("/", 1)[0])
    if name == "merchant_beer":
        return 1.0 if value else 0.0
    if name == "industry" and action == "develop":
        return appraiser.develop([value])
    return 0.0


def _build_value(view: SeatView, appraiser: Appraiser, name: str, value: Any) -> float:
    """A build's industry, location or slot: the best build it still allows."""
    rs = view.ruleset
    bound = view.pending.vars if view.pending is not None else {}
    industry = value if name == "industry" else _encoded(bound.get("industry"))
    location = value if name == "location" else _encoded(bound.get("location"))
    best = -float("inf")
    places = [location] if location is not None else list(rs.locations)
    for place in places:
        for slot in rs.locations[place].slots:
            if name == "slot" and slot.id != value:
                continue
            for option in slot.industries:
                if industry is not None and option != industry:
                    continue
                if view.table.tiles_left(appraiser.me, option) > 0:
                    best = max(best, appraiser.build(option, place, slot.id))
    return best


def _encoded(value: Any) -> str | None:
    return None if value is None else str(encode(value))
