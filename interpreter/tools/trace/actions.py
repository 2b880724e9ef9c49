"""Real-game traces: translate a recorded step's action into one of our whole actions and answer our
engine's questions from the step's recorded effects.

Where the record leaves a choice to the engine (equally near coal mines, which iron works or
brewery, the Gloucester develop, the slot), the choice is taken from the step's recorded effects.
The action is first run decision by decision on a copy of the game (`try_action`), its questions
answered by a `ChoiceResolver`; where the trace names a source, or where the cubes our engine took
differ from the recorded ones, `trace/sources.py` names the sources per part instead. Questions
asked at the round's end (which tiles a player removes for unpaid income) stay open after the whole
action and are answered by `RoundEndAnswers` from the round end's recorded effects.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.named_sources import MARKET
from interpreter.tools.trace.mapping import TraceError, TraceMapping, location_id

PRODUCED = {"coal": "coal", "iron": "iron", "brewery": "beer"}  # industry -> the resource its cubes are

Part = tuple[str, int] | None  # None: the action's own part; (repeat name, index): one repetition


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
    """The trace step's action as one of our whole actions (without `answers` or named sources)."""
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
        slots = [mapping.slot(sale["location"], sale["slotIndex"]) for sale in action["sales"]]
        spaces = _barrels_for_sales(game, action["sales"], slots, barrels)
        sales = []
        for sale, slot, space in zip(action["sales"], slots, spaces, strict=True):
            merchant = sale["merchant"]
            use = bool(sale.get("useMerchantBeer"))
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


def _barrels_for_sales(game: Game, sales: list[dict[str, Any]], slots: list[str],
                       barrels: list[dict[str, Any]]) -> list[str | None]:
    """Per sale, the merchant space (`<merchant>/<i>`) whose recorded barrel it drank, or None. The
    record lists the barrels used without saying which sale took which, so each barrel goes to a sale
    at its merchant whose space buys the sold industry (a barrel beside a Pottery tile cannot serve a
    Manufacturer sale); with several such pairings, the first in the record's order."""
    buys = {m.id: m.buys for m in game.state.merchants}
    spaces = [f"{b['merchant']}/{b['tileIndex']}" for b in barrels]
    users = [i for i, sale in enumerate(sales) if sale.get("useMerchantBeer")]

    def fits(index: int, space: str) -> bool:
        tile = game.state.tiles.get(slots[index])
        industry = tile.spec.industry if tile else None
        return space.split("/")[0] == sales[index]["merchant"] and (industry is None or industry in buys.get(space, ()))

    def match(rest: list[int], free: list[str]) -> dict[int, str]:
        """The pairing of the sales in `rest` with the barrels in `free` that serves the most sales."""
        if not rest:
            return {}
        best = match(rest[1:], free)  # this sale without a recorded barrel: our engine chooses its space
        for space in free:
            if fits(rest[0], space):
                found = {rest[0]: space, **match(rest[1:], [s for s in free if s != space])}
                if len(found) > len(best):
                    best = found
        return best

    chosen = match(users, spaces)
    return [chosen.get(i) for i in range(len(sales))]


def recorded_producers(step: dict[str, Any], mapping: TraceMapping) -> dict[str, Counter[str]]:
    """Per resource, the cubes or barrels the step took from each producer (our slot ids), from its
    effects: a tile that kept owner, industry and level but lost resources. The rest came from a market."""
    taken: dict[str, Counter[str]] = {resource: Counter() for resource in set(PRODUCED.values())}
    for change in _slot_changes(step["effects"]):
        before, after = change["before"], change["after"]
        if (before and after and before["owner"] == after["owner"] and before["industry"] == after["industry"]
                and before["level"] == after["level"] and after["resources"] < before["resources"]):
            resource = PRODUCED.get(before["industry"])
            if resource:
                taken[resource][mapping.slot(change["location"], change["slotIndex"])] += (
                    before["resources"] - after["resources"])
    return taken


def named_by_the_trace(step: dict[str, Any], mapping: TraceMapping) -> dict[str, dict[Part | str, list[str]]]:
    """The sources the recorded action names itself, by resource: per part (`Part`), or, under the
    key "pool", for the whole action without saying which part takes which (a Network's
    `beerSource`, a Develop's `ironSources`). A merchant's barrel is never named (`merchant_beer`)."""
    action = step["action"]
    named: dict[str, dict[Part | str, list[str]]] = {}

    def iron(sources: list[dict[str, Any]]) -> list[str]:
        return [mapping.slot(s["location"], s["slotIndex"]) for s in sources for _ in range(int(s.get("count", 1)))]

    if action["type"] == "build" and action.get("ironSources"):
        named["iron"] = {None: iron(action["ironSources"])}
    if action["type"] == "develop" and action.get("ironSources"):
        named["iron"] = {"pool": iron(action["ironSources"])}
    if action["type"] == "network" and action.get("beerSource"):
        source = action["beerSource"]
        named["beer"] = {"pool": [mapping.slot(source["location"], source["slotIndex"])]}
    if action["type"] == "sell":
        for index, sale in enumerate(action["sales"]):
            breweries = [mapping.slot(s["location"], s["slotIndex"]) for s in sale.get("beerSources") or []
                         if s["kind"] == "brewery" and "location" in s and "slotIndex" in s]
            if breweries:
                named.setdefault("beer", {})[("sales", index)] = breweries
    return named


class ChoiceResolver:
    """Answers our engine's questions inside one action from the trace step's recorded effects."""

    def __init__(self, game: Game, step: dict[str, Any], mapping: TraceMapping) -> None:
        self.game = game
        self.expected = recorded_producers(step, mapping)
        self.bonus: list[str] = []
        if step["action"]["type"] == "sell":
            for change in step["effects"].get("players", []):
                if change["player"] == step["player"]:
                    self.bonus += [t.rsplit("-", 1)[0] for t in change.get("matTilesRemoved", [])]
            if not self.bonus and step["action"].get("bonusDevelop"):
                bonus = step["action"]["bonusDevelop"]
                self.bonus = [bonus] if isinstance(bonus, str) else list(bonus)
        self.seen = len(game.state.log)
        self.given: Counter[str] = Counter()
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


@dataclass
class Trial:
    """A whole action run decision by decision on a copy of the game, its questions answered."""

    answers: list[Any]
    questions: list[str]  # the key of each question answered, in order
    game: Game  # the copy, after the action (a question asked at the round's end may be open)
    taken: dict[Part, dict[str, list[str]]] = field(default_factory=dict)  # per part and resource: each unit's source

    def producers(self, resource: str) -> Counter[str]:
        """The units of `resource` our engine took from producers (not from a market), by slot."""
        return Counter(unit for part in self.taken.values() for unit in part.get(resource, []) if unit != MARKET)

    def units(self, resource: str) -> int:
        return sum(len(part.get(resource, [])) for part in self.taken.values())


def units_taken(log: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Per resource, the source of every unit the `consumed` entries of `log` took (MARKET for a market)."""
    units: dict[str, list[str]] = {}
    for entry in log:
        if entry.get("event") == "consumed":
            taken = units.setdefault(entry["resource"], [])
            for source in entry["sources"]:
                taken += [source["from"] if "owner" in source else MARKET] * int(source["amount"])
    return units


def try_action(game: Game, action: dict[str, Any], resolve: Callable[[dict[str, Any]], Any]) -> Trial:
    """Run the whole action decision by decision on a copy, answering with `resolve` the questions the
    action asks its own player while it is taken (exactly those `Game.apply` answers from a whole
    action's `answers`); a question asked after it ended stays open on the copy. IllegalAction if refused."""
    trial = game.copy()
    resolve.game = trial  # type: ignore[attr-defined]
    actor = trial.table.me.seat
    result = Trial([], [], trial)

    def part_now() -> Part:
        pending = trial.pending
        if pending is None or not pending.in_repeat or pending.action.repeat is None:
            return None
        return pending.action.repeat.name, pending.repeats_done

    def take(move: dict[str, Any]) -> None:
        part, since = part_now(), len(trial.state.log)
        trial.apply(move)
        for resource, units in units_taken(trial.state.log[since:]).items():
            result.taken.setdefault(part, {}).setdefault(resource, []).extend(units)

    def answer_own() -> None:
        while (question := trial.question) is not None and trial.pending is not None \
                and question["player"] == actor:
            answer = resolve(question)
            result.answers.append(answer)
            result.questions.append(question["key"])
            take({"answer": answer})

    for decision in trial.decisions_of(action):
        answer_own()
        if decision == {"done": True} and (trial.pending is None or not trial.pending.in_repeat):
            continue
        take(decision)
    answer_own()
    return result


def answers_for(game: Game, action: dict[str, Any], resolve: Callable[[dict[str, Any]], Any]) -> list[Any]:
    """The answers to the questions the action asks its own player, found with `resolve` on a copy."""
    return try_action(game, action, resolve).answers


# == questions asked at the round's end ============================================================

@dataclass
class RoundEndAnswers:
    """Answers the questions a round's end asks (which tiles a player removes for unpaid income)
    from the round end's recorded effects, player by player. `problem` says what could not be matched."""

    game: Game
    step: dict[str, Any]
    mapping: TraceMapping
    before: Game | None = None  # the game before the action, to try removals that are otherwise alike
    action: dict[str, Any] | None = None  # … and the whole action
    forced: dict[int, list[str]] = field(default_factory=dict)  # seat -> removals to answer, decided already
    plans: dict[int, list[str]] = field(default_factory=dict)  # seat -> the tiles still to answer
    given: list[dict[str, Any]] = field(default_factory=list)  # every answer, with its question's key
    problem: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)

    def answer_all(self) -> bool:
        """Answer every open question; False (with `problem`) at one the trace cannot answer."""
        while (question := self.game.question) is not None:
            answer = self._answer(question)
            if answer is None:
                return False
            self.game.apply({"answer": answer}, seat=question["player"])
            self.given.append({"key": question["key"], "player": question["player"], "answer": answer})
        return True

    def _answer(self, question: dict[str, Any]) -> Any:
        key, seat = question["key"], int(question["player"])
        if not key.startswith("shortfall/"):
            self.problem = {"question": question["key"], "prompt": question["prompt"], "options": question["options"],
                            "rule": question.get("rule")}
            return None
        if seat not in self.plans:
            plan = list(self.forced[seat]) if seat in self.forced else self._removals(seat, question)
            if plan is None:
                return None
            self.plans[seat] = plan
        plan = self.plans[seat]
        if not plan or plan[0] not in question["options"]:
            self.problem = {"question": key, "recorded": self._recorded(seat), "options": question["options"],
                            "rule": question.get("rule")}
            return None
        return plan.pop(0)

    def _recorded(self, seat: int) -> list[str]:
        """The slots of `seat`'s tiles the round end removed (for unpaid income, or at an era's end)."""
        round_end = self.step.get("roundEnd") or {}
        return [self.mapping.slot(c["location"], c["slotIndex"]) for c in _slot_changes(round_end.get("effects", {}))
                if c["before"] is not None and c["after"] is None and self.mapping.player(c["before"]["owner"]) == seat]

    def _removals(self, seat: int, question: dict[str, Any]) -> list[str] | None:
        """The recorded tiles `seat` removes, in the order our engine takes them all: the set whose
        value leaves the player the recorded money, cheapest first (so that each is still needed)."""
        game, options = self.game, list(question["options"])
        player = game.table.player(seat)
        owed = -game.table.income_level(player) - player.money
        divisor = game.ruleset.economy.shortfall_tile_value_divisor
        recorded = self._recorded(seat)
        candidates = [slot for slot in options if slot in recorded]
        money = player.money
        round_end = self.step.get("roundEnd") or {}
        for change in round_end.get("effects", {}).get("players", []):
            if self.mapping.player(change["player"]) == seat and isinstance(change.get("money"), list):
                money = change["money"][-1]

        def value(slot: str) -> int:
            return game.state.tiles[slot].spec.cost // divisor

        fits = []
        for size in range(1, len(candidates) + 1):
            for chosen in combinations(candidates, size):
                ordered = sorted(chosen, key=lambda s: (value(s), options.index(s)))
                total = sum(value(s) for s in ordered)
                if total >= owed:
                    ok = total - value(ordered[-1]) < owed and total - owed == money
                else:  # every tile the player can remove, and still short (VP pay the rest)
                    ok = set(chosen) == set(options) and money == 0
                if ok:
                    fits.append(ordered)
        if not fits:
            self.problem = {"question": question["key"], "owed": owed, "recorded": recorded,
                            "recorded money after": money, "options": options, "rule": question.get("rule")}
            return None
        if len(fits) > 1:  # an era's end removed some of the recorded tiles too: find which the player did
            fits = [fit for fit in fits if self._leaves_the_recorded_position(seat, fit)] or fits
        return list(fits[0])

    def _recorded_after(self, seat: int) -> tuple[int, int] | None:
        """`seat`'s money and VP after the step (and its round end), as recorded."""
        for index, after in enumerate(self.step.get("after", [])):
            if self.mapping.player(index) == seat:
                return after["money"], after["vp"]
        return None

    def _leaves_the_recorded_position(self, seat: int, removals: list[str]) -> bool:
        """Whether, with `removals` for `seat`, the whole round end leaves `seat` exactly the tiles, the
        money and the VP the trace records: tried on a copy of the game before the action, the action
        applied again. The tiles alone do not settle it at an era's end, where a removed level-1 tile
        would have gone anyway, but a flipped one kept through the era's scoring scores its VP."""
        if self.before is None or self.action is None:
            return True
        game = self.before.copy()
        game.apply(self.action)
        others = RoundEndAnswers(game, self.step, self.mapping, forced={**self.forced, seat: removals})
        if not others.answer_all():
            return False
        kept = {slot for slot, tile in self.game.state.tiles.items() if tile.owner.seat == seat}
        kept -= set(self._recorded(seat))
        player = game.table.player(seat)
        recorded = self._recorded_after(seat)
        return ({slot for slot, tile in game.state.tiles.items() if tile.owner.seat == seat} == kept
                and (recorded is None or recorded == (player.money, player.vp)))
