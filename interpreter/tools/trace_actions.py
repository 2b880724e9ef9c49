"""Real-game traces: translate a recorded step's action into one of our whole actions and answer our
engine's questions inside it from the step's recorded effects.

Where the record leaves a choice to the engine (equally near coal mines, which iron works or
brewery, the Gloucester develop, the slot), the choice is taken from the step's recorded effects.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from interpreter.engine.game import Game
from interpreter.tools.trace_mapping import TraceError, TraceMapping, location_id

PRODUCED = {"coal": "coal", "iron": "iron", "brewery": "beer"}  # industry -> the resource its cubes are


def _slot_changes(effects: dict[str, Any]) -> list[dict[str, Any]]:
    return list(effects.get("slots", []))


def _built_slot(step: dict[str, Any], mapping: TraceMapping) -> str:
    action = step["action"]
    if action.get("slotIndex") is not None:
        return mapping.slot(action["location"], action["slotIndex"])
    for change in _slot_changes(step["effects"]):
        before, after = change["before"], change["after"]
        if (after and after["owner"] == step["player"] and after["industry"] == action["industry"]
                and change["location"] == action["location"]
                and (before is None or before["level"] != after["level"] or before["owner"] != after["owner"])):
            return mapping.slot(change["location"], change["slotIndex"])
    raise TraceError(f"seq {step['seq']}: the built slot is not in the step's effects")


def whole_action(game: Game, step: dict[str, Any], mapping: TraceMapping) -> dict[str, Any]:
    """The trace step's action as one of our whole actions (without `answers`)."""
    action = step["action"]
    kind = action["type"]
    if kind == "build":
        return {"action": "build", "card": mapping.card(action["cardId"]), "industry": action["industry"],
                "location": location_id(action["location"]), "slot": _built_slot(step, mapping)}
    if kind == "network":
        return {"action": "network", "card": mapping.card(action["cardId"]),
                "links": [{"link": mapping.link(i)} for i in action["links"]]}
    if kind == "develop":
        return {"action": "develop", "card": mapping.card(action["cardId"]),
                "tiles": [{"industry": i} for i in action["removals"]]}
    if kind == "sell":
        barrels = [b for b in step["effects"].get("merchantBarrels", []) if b["barrel"][0] and not b["barrel"][1]]
        sales = []
        for sale in action["sales"]:
            slot = mapping.slot(sale["location"], sale["slotIndex"])
            merchant = sale["merchant"]
            use = bool(sale.get("useMerchantBeer"))
            space = None
            if use:
                used = next((b for b in barrels if b["merchant"] == merchant), None)
                if used is not None:
                    barrels.remove(used)
                    space = f"{merchant}/{used['tileIndex']}"
            if space is None:
                tile = game.state.tiles.get(slot)
                industry = tile.spec.industry if tile else None
                space = next((m.id for m in game.state.merchants if m.location == merchant
                              and (industry is None or industry in m.buys) and (not use or m.has_beer)),
                             f"{merchant}/0")
            sales.append({"tile": slot, "merchant": space, "merchant_beer": use})
        return {"action": "sell", "card": mapping.card(action["cardId"]), "sales": sales}
    if kind == "loan":
        return {"action": "loan", "card": mapping.card(action["cardId"])}
    if kind == "scout":
        a, b, c = (mapping.card(x) for x in action["cardIds"])
        return {"action": "scout", "card": a, "second_card": b, "third_card": c}
    if kind == "pass":
        return {"action": "pass", "card": mapping.card(action["cardId"])}
    raise TraceError(f"seq {step['seq']}: unknown action type {kind!r}")


class ChoiceResolver:
    """Answers our engine's questions inside one action from the trace step's recorded effects."""

    def __init__(self, game: Game, step: dict[str, Any], mapping: TraceMapping) -> None:
        self.game = game
        self.expected: dict[str, Counter] = {"coal": Counter(), "iron": Counter(), "beer": Counter()}
        for change in _slot_changes(step["effects"]):
            before, after = change["before"], change["after"]
            if (before and after and before["owner"] == after["owner"] and before["industry"] == after["industry"]
                    and before["level"] == after["level"] and after["resources"] < before["resources"]):
                resource = PRODUCED.get(before["industry"])
                if resource:
                    self.expected[resource][mapping.slot(change["location"], change["slotIndex"])] += (
                        before["resources"] - after["resources"])
        self.bonus: list[str] = []
        if step["action"]["type"] == "sell":
            for change in step["effects"].get("players", []):
                if change["player"] == step["player"]:
                    self.bonus += [t.rsplit("-", 1)[0] for t in change.get("matTilesRemoved", [])]
            if not self.bonus and step["action"].get("bonusDevelop"):
                bonus = step["action"]["bonusDevelop"]
                self.bonus = [bonus] if isinstance(bonus, str) else list(bonus)
        self.seen = len(game.state.log)
        self.given: Counter = Counter()
        self.problems: list[str] = []

    def _sync(self) -> None:
        """Subtract what our engine consumed since the last question."""
        log = self.game.state.log
        if len(log) == self.seen:
            return
        for entry in log[self.seen:]:
            if entry.get("event") == "consumed":
                for source in entry["sources"]:
                    if "owner" in source:
                        self.expected[entry["resource"]][source["from"]] -= source["amount"]
        self.seen = len(log)
        self.given.clear()

    def __call__(self, question: dict[str, Any]) -> Any:
        self._sync()
        key, options = question["key"], question["options"]
        if key.startswith("develop_without_iron/"):
            if self.bonus:
                wanted = self.bonus.pop(0)
                if wanted in options:
                    return wanted
                self.problems.append(f"the trace's Gloucester develop removed {wanted}; our options: {options}")
            return options[0]
        resource = key.split("/", 1)[0]
        if resource in self.expected:
            left = self.expected[resource]
            for option in options:
                if left[option] - self.given[option] > 0:
                    self.given[option] += 1
                    return option
            self.problems.append(f"{question['prompt']}: the trace took {resource} from "
                                 f"{sorted(k for k, v in left.items() if v > 0) or 'no producer'}; "
                                 f"our options: {options}")
            return options[0]
        self.problems.append(f"unexpected question {key}: {question['prompt']} {options}")
        return options[0]


def _decisions(game: Game, action: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The decisions of a whole action, one by one (as Game._feed makes them)."""
    return game.decisions_of(action)


def answers_for(game: Game, action: dict[str, Any], resolve: Callable[[dict[str, Any]], Any]) -> list[Any]:
    """Run the action decision by decision on a copy, answering questions with `resolve`; return the answers."""
    trial = game.copy()
    resolve.game = trial  # type: ignore[attr-defined]
    answers: list[Any] = []

    def answer_open() -> None:
        while trial.question is not None:
            answer = resolve(trial.question)
            answers.append(answer)
            trial.apply({"answer": answer})

    for decision in _decisions(trial, action):
        answer_open()
        if decision == {"done": True} and (trial.pending is None or not trial.pending.in_repeat):
            continue
        trial.apply(decision)
    answer_open()
    return answers
