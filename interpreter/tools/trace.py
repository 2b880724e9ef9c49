"""Real recorded games: import the `brass-birmingham-trace/v1` format and replay it.

A trace (see `/work/shared/real-games/README.md`) holds a game played on another engine
(Quasrain-Coder/BrassBirmingham) with every chance outcome made explicit: the opening deal,
the draw pile, the merchant tiles, the Rail-era deal, and the effects of every action.

    game = game_from_trace_setup(ruleset, trace)     # our Game, dealt as the trace was
    result = replay_trace(ruleset, trace)            # apply every action, compare every step
    result.differences                               # empty when everything matched

Mapping (checked, not assumed, when a trace is read):
- cards: `loc-<location>-<n>` -> `<location>#<n+1>`; `ind-coal-<n>` -> `coal_mine#<n+1>`,
  `ind-iron-` -> `iron_works#`, `ind-brewery-` -> `brewery#`, `ind-pottery-` -> `pottery#`,
  `ind-cotton-manufacturer-` -> `cotton_manufacturer#`; wild cards are matched to the wild card
  our engine actually hands out when the Scout is replayed (our piles are ordered differently).
- locations: kebab-case -> snake_case (`farm-north` -> `farm_north`).
- links: by the endpoints in `catalogue.links` (index 15 is L17 Cannock–Stafford and index 16 is
  L16 Cannock–Farm North; every other index i is L(i+1)).
- slots: by comparing `catalogue.locationSlots` with our slot icons; they agree slot for slot,
  so slot index i is our `<location>/<i>` (a difference would be reported by `TraceMapping`).
- merchant tiles: `any` -> `wild`; the others keep their names; space i of a merchant is our
  `<merchant>/<i>`.
- players: trace player p is our seat p+1.

Where the record leaves a choice to the engine (equally near coal mines, which iron works or
brewery, the Gloucester develop, the slot), the choice is taken from the step's recorded effects.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from interpreter.ruleset.errors import BrassError
from interpreter.engine.game import Game, IllegalAction
from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.engine.state import MerchantSpace

FORMAT = "brass-birmingham-trace/v1"

INDUSTRY_CARD_FACES = {"coal": "coal_mine", "iron": "iron_works", "brewery": "brewery", "pottery": "pottery",
                       "cotton-manufacturer": "cotton_manufacturer"}
MERCHANT_TILES = {"any": "wild", "cotton": "cotton", "manufacturer": "manufacturer", "pottery": "pottery",
                  "blank": "blank"}
PRODUCED = {"coal": "coal", "iron": "iron", "brewery": "beer"}  # industry -> the resource its cubes are
CARD_ID = re.compile(r"^(loc|ind|wild)-(.+)-(\d+)$")


class TraceError(BrassError):
    """A trace file that cannot be read or does not fit the ruleset."""


def load_trace(path: str | Path) -> dict[str, Any]:
    try:
        trace = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise TraceError(f"cannot read the trace {path}: {error}") from None
    if not isinstance(trace, dict) or not str(trace.get("format", "")).startswith(FORMAT):
        found = trace.get("format") if isinstance(trace, dict) else type(trace).__name__
        raise TraceError(f"{path} is not a trace (format {found!r}, expected {FORMAT})")
    return trace


def location_id(name: str) -> str:
    return name.replace("-", "_")


class TraceMapping:
    """Translates the trace's identifiers into ours, from the trace's own catalogue."""

    def __init__(self, ruleset: Ruleset, trace: dict[str, Any]) -> None:
        self.ruleset = ruleset
        self.notes: list[str] = []  # where the trace's catalogue differs from our board
        self.links = self._links(trace["catalogue"]["links"])
        self.slots = self._slots(trace["catalogue"]["locationSlots"])
        self.wild: dict[str, str] = {}  # trace wild card id -> our wild card id, while held

    def _links(self, links: list[dict[str, Any]]) -> dict[int, str]:
        by_ends = {frozenset(l.ends): l.id for l in self.ruleset.links.values()}
        found = {}
        for link in links:
            ends = frozenset(location_id(x) for x in [link["a"], link["b"], *link.get("extraEndpoints", [])])
            ours = by_ends.get(ends)
            if ours is None:
                raise TraceError(f"trace link {link['index']} ({'–'.join(sorted(ends))}) is not on our board")
            ours_link = self.ruleset.links[ours]
            if (ours_link.canal, ours_link.rail) != (link["canal"], link["rail"]):
                self.notes.append(f"link {link['index']} = {ours}: canal/rail {link['canal']}/{link['rail']} "
                                  f"in the trace, {ours_link.canal}/{ours_link.rail} here")
            if ours != f"L{link['index'] + 1:02d}":
                self.notes.append(f"trace link index {link['index']} is {ours} ({'–'.join(ours_link.ends)})")
            found[link["index"]] = ours
        return found

    def _slots(self, location_slots: dict[str, list[list[str]]]) -> dict[tuple[str, int], str]:
        """Trace (location, slot index) -> our slot id, matching slot icons in order."""
        found = {}
        for trace_location, slots in location_slots.items():
            location = self.ruleset.locations.get(location_id(trace_location))
            if location is None:
                raise TraceError(f"trace location {trace_location} is not on our board")
            free = list(location.slots)
            for index, icons in enumerate(slots):
                match = next((s for s in free if set(s.industries) == set(icons)), None)
                if match is None:
                    raise TraceError(f"{trace_location} slot {index} {icons}: no such slot here "
                                     f"({[list(s.industries) for s in location.slots]})")
                free.remove(match)
                if match.index != index or list(match.industries) != icons:
                    self.notes.append(f"{trace_location} slot {index} {icons} is our {match.id} "
                                      f"{list(match.industries)}")
                found[(trace_location, index)] = match.id
        return found

    def slot(self, location: str, index: int) -> str:
        return self.slots[(location, index)]

    def link(self, index: int) -> str:
        return self.links[index]

    def card(self, card_id: str) -> str:
        match = CARD_ID.match(card_id)
        if match is None:
            raise TraceError(f"unknown card id {card_id!r}")
        kind, name, n = match.group(1), match.group(2), int(match.group(3)) + 1
        if kind == "loc":
            return f"{location_id(name)}#{n}"
        if kind == "ind":
            if name not in INDUSTRY_CARD_FACES:
                raise TraceError(f"unknown industry card {card_id!r}")
            return f"{INDUSTRY_CARD_FACES[name]}#{n}"
        if card_id in self.wild:
            return self.wild[card_id]
        return f"wild_{name}#{n}"  # only before it is matched (not held by anybody)

    def player(self, index: int) -> int:
        return index + 1


# == setup =========================================================================================

def game_from_trace_setup(ruleset: Ruleset, trace: dict[str, Any], mapping: TraceMapping | None = None) -> Game:
    """A new Game dealt exactly as the trace: hands, face-down discards, draw pile, merchants, turn order."""
    mapping = mapping or TraceMapping(ruleset, trace)
    setup = trace["setup"]
    players = int(trace["playerCount"])
    game = Game.new(ruleset, players, int(trace.get("seed", 0)) & 0xFFFFFFFF)
    state = game.state
    cards = game.cards

    def our(card_id: str):
        cid = mapping.card(card_id)
        if cid not in cards:
            raise TraceError(f"trace card {card_id} -> {cid} is not in our {players}-player deck")
        return cards[cid]

    for n, player in enumerate(state.players):
        player.hand = [our(c) for c in setup["hands"][n]]
        player.discard = [our(setup["initialDiscard"][n])] if setup.get("initialDiscard") else []
    state.deck = [our(c) for c in reversed(setup["drawPile"])]  # our deck is drawn from its end
    state.merchants = _merchants(ruleset, setup["merchants"], players)
    state.turn_order = [mapping.player(p) for p in setup["turnOrder"]]
    state.turn_index = 0
    markets = {"coal": setup.get("coalMarket"), "iron": setup.get("ironMarket")}
    for market, cubes in markets.items():
        if cubes is not None and market in state.markets:
            state.markets[market] = int(cubes)
    for n, player in enumerate(state.players):  # the starting position is the ruleset's: check it
        start = setup["players"][n]
        if [player.money, player.income_position, player.vp] != [start["money"], start["incomeSpace"], start["vp"]]:
            raise TraceError(f"player {n} starts with {start} in the trace, here with money {player.money}, "
                             f"income space {player.income_position}, VP {player.vp}")
    _check_cards(game, "after the trace setup")
    game._start_turn()
    game.cache.clear()
    game.decisions.clear_memo()
    game.note("trace setup", turn_order=state.turn_order, merchants={m.id: m.tile for m in state.merchants},
              source=trace.get("source", {}).get("path"))
    return game


def _merchants(ruleset: Ruleset, merchants: dict[str, Any], players: int) -> list[MerchantSpace]:
    spaces = []
    for merchant in ruleset.merchants.values():
        recorded = merchants.get(merchant.id, {"tiles": [], "barrels": []})
        wanted = merchant.spaces.get(players, 0)
        if len(recorded["tiles"]) != wanted:
            raise TraceError(f"{merchant.id}: the trace has {len(recorded['tiles'])} merchant tile(s), "
                             f"our ruleset {wanted} at {players} players")
        for index, tile in enumerate(recorded["tiles"]):
            spec = ruleset.merchant_tiles[MERCHANT_TILES[tile]]
            barrel = bool(recorded["barrels"][index]) if index < len(recorded.get("barrels", [])) else bool(spec.buys)
            spaces.append(MerchantSpace(merchant.id, index, spec.id, spec.buys, barrel))
    return spaces


def _check_cards(game: Game, when: str) -> None:
    """Every card of the game exactly once: in a hand, a discard pile, the deck or a wild pile."""
    state = game.state
    held = [c.id for p in state.players for c in p.hand + p.discard] + [c.id for c in state.deck]
    held += [c.id for pile in state.wild_piles.values() for c in pile]
    counts = Counter(held)
    twice = sorted(c for c, n in counts.items() if n > 1)
    missing = sorted(set(game.cards) - set(counts))
    extra = sorted(set(counts) - set(game.cards))
    if twice or missing or extra:
        raise TraceError(f"cards inconsistent {when}: twice {twice}, missing {missing}, unknown {extra}")


def deal_rail_from_trace(game: Game, round_end: dict[str, Any], mapping: TraceMapping) -> None:
    """At the Canal end our engine deals the Rail era with its own RNG: replace it with the trace's deal."""
    state = game.state
    hands = [[game.cards[mapping.card(c)] for c in hand] for hand in round_end["railHands"]]
    deck = [game.cards[mapping.card(c)] for c in reversed(round_end["railDrawPile"])]
    ours = sorted(c.id for p in state.players for c in p.hand + p.discard) + [c.id for c in state.deck]
    theirs = [c.id for h in hands for c in h] + [c.id for c in deck]
    if sorted(ours) != sorted(theirs):
        raise TraceError(f"the Rail deal holds other cards than ours: only ours {sorted(set(ours) - set(theirs))}, "
                         f"only the trace's {sorted(set(theirs) - set(ours))}")
    for player, hand in zip(state.players, hands):
        player.hand = hand
        player.discard = []
    state.deck = deck
    _check_cards(game, "after the Rail deal")
    game.cache.clear()
    game.decisions.clear_memo()
    game.note("trace rail deal", hands={p.seat: len(p.hand) for p in state.players}, deck=len(deck))


# == actions =======================================================================================

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


def _decisions(game: Game, action: dict[str, Any]):
    """The decisions of a whole action, one by one (as Game._feed makes them)."""
    return game._decisions_of(action)  # noqa: SLF001 - same package; the path `apply(whole)` takes


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


# == replay and comparison =========================================================================

@dataclass
class Difference:
    seq: int
    what: str
    trace: Any
    ours: Any
    action: dict[str, Any] | None = None
    log: list[dict[str, Any]] = field(default_factory=list)

    def describe(self) -> str:
        lines = [f"step seq {self.seq}: {self.what} differs",
                 f"  trace: {json.dumps(self.trace)}",
                 f"  ours:  {json.dumps(self.ours)}"]
        if "R-SETUP-08" in str(self.ours):
            lines.append("  note: the upstream engine does not limit link tiles; the rulebook gives 14 per "
                         "player (R-SETUP-08). Replay with --links-per-player 99 to go on.")
        if self.action is not None:
            lines.append(f"  action: {json.dumps(self.action)}")
        if self.log:
            lines.append("  our log for this step:")
            lines += [f"    {json.dumps(entry)}" for entry in self.log]
        return "\n".join(lines)


@dataclass
class ReplayResult:
    name: str
    steps: int  # steps applied and matched
    total: int
    differences: list[Difference]
    final: list[dict[str, Any]] = field(default_factory=list)  # our standings at the end
    notes: list[str] = field(default_factory=list)
    game: Game | None = None

    @property
    def ok(self) -> bool:
        return not self.differences and self.steps == self.total


class _TraceBoard:
    """The trace's view of the board, kept from the effects, to compare with ours."""

    def __init__(self, trace: dict[str, Any], mapping: TraceMapping) -> None:
        self.mapping = mapping
        self.tiles: dict[str, dict[str, Any]] = {}
        self.links: dict[str, int] = {}
        self.markets = {"coal": trace["setup"]["coalMarket"], "iron": trace["setup"]["ironMarket"]}
        self.barrels = {f"{m}/{i}": bool(b) for m, d in trace["setup"]["merchants"].items()
                        for i, b in enumerate(d.get("barrels", []))}

    def apply(self, effects: dict[str, Any]) -> None:
        for change in effects.get("slots", []):
            slot = self.mapping.slot(change["location"], change["slotIndex"])
            if change["after"] is None:
                self.tiles.pop(slot, None)
            else:
                self.tiles[slot] = change["after"]
        if effects.get("linksRemoved"):
            self.links.clear()
        for added in effects.get("linksAdded", []):
            self.links[self.mapping.link(added["linkIndex"])] = self.mapping.player(added["owner"])
        for market in ("coal", "iron"):
            if f"{market}Market" in effects:
                self.markets[market] = effects[f"{market}Market"][1]
        for barrel in effects.get("merchantBarrels", []):
            self.barrels[f"{barrel['merchant']}/{barrel['tileIndex']}"] = bool(barrel["barrel"][1])

    def tiles_view(self) -> dict[str, list[Any]]:
        return {slot: [t["owner"] + 1, t["industry"], t["level"], t["resources"], t["flipped"]]
                for slot, t in sorted(self.tiles.items())}


def _our_tiles(game: Game) -> dict[str, list[Any]]:
    return {slot: [t.owner.seat, t.spec.industry, t.spec.level, t.cubes, t.flipped]
            for slot, t in sorted(game.state.tiles.items())}


def _dict_diff(theirs: dict[str, Any], ours: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    keys = sorted(set(theirs) | set(ours))
    return ({k: theirs.get(k) for k in keys if theirs.get(k) != ours.get(k)},
            {k: ours.get(k) for k in keys if theirs.get(k) != ours.get(k)})


def replay_trace(ruleset: Ruleset, trace: dict[str, Any], name: str = "trace",
                 progress: Callable[[str], None] | None = None) -> ReplayResult:
    """Apply every recorded action through `Game.apply` and compare after every step; stop at the first difference."""
    mapping = TraceMapping(ruleset, trace)
    game = game_from_trace_setup(ruleset, trace, mapping)
    board = _TraceBoard(trace, mapping)
    steps = trace["steps"]
    result = ReplayResult(name, 0, len(steps), [], notes=list(mapping.notes), game=game)
    hands = {mapping.player(n): Counter(h) for n, h in enumerate(trace["setup"]["hands"])}  # trace ids
    say = progress or (lambda text: None)

    def differ(seq: int, what: str, theirs: Any, ours: Any, action: Any = None, log: Any = ()) -> ReplayResult:
        result.differences.append(Difference(seq, what, theirs, ours, action, list(log)))
        return result

    for step in steps:
        seq = step["seq"]
        seat = mapping.player(step["player"])
        if game.is_over:
            return differ(seq, "game over", "more steps", "our game has ended")
        if game.me.seat != seat:
            return differ(seq, "acting player", seat, game.me.seat)
        start = len(game.state.log)
        action = None
        try:
            action = whole_action(game, step, mapping)
            resolver = ChoiceResolver(game, step, mapping)
            action["answers"] = answers_for(game, action, resolver)
            if resolver.problems:
                return differ(seq, "engine choice", resolver.problems, "no matching option", action)
            held_wild = {c.id for c in game.me.hand if c.wild}
            game.apply(action)
        except IllegalAction as refused:
            return differ(seq, "legality", "legal", f"illegal: {refused}", action, game.state.log[start:])
        except TraceError as error:
            return differ(seq, "import of the recorded action", step["action"], str(error), action)
        log = game.state.log[start:]
        # card flow, with the wild cards our engine handed out matched to the trace's
        effects = step["effects"]
        for card in effects.get("cardsSpent", []):
            hands[seat][card] -= 1
            mapping.wild.pop(card, None)  # a spent wild card goes back to its pile
        gained = list(effects.get("cardsGained", []))
        if gained:
            new = [c.id for c in game.player(seat).hand if c.wild and c.id not in held_wild]
            for card in gained:
                kind = "wild_" + CARD_ID.match(card).group(2)
                ours = next((c for c in new if c.startswith(kind + "#")), None)
                if ours is None:
                    return differ(seq, "wild cards gained", gained, new, action, log)
                new.remove(ours)
                mapping.wild[card] = ours
                hands[seat][card] += 1
        for card in step.get("drew", []):
            hands[seat][card] += 1
        board.apply(effects)
        round_end = step.get("roundEnd")
        if round_end:
            board.apply(round_end.get("effects", {}))
            if round_end.get("railHands"):
                try:
                    deal_rail_from_trace(game, round_end, mapping)
                except TraceError as error:
                    return differ(seq, "rail deal", "trace deal", str(error), action, log)
                hands = {mapping.player(n): Counter(h) for n, h in enumerate(round_end["railHands"])}
        # players after the step
        theirs = [[a["money"], a["incomeSpace"], a["incomeLevel"], a["vp"]] for a in step["after"]]
        ours = [[p.money, p.income_position, game.income_level(p), p.vp] for p in game.state.players]
        if theirs != ours:
            return differ(seq, "players [money, income space, income level, VP]", theirs, ours, action, log)
        if round_end:
            if round_end.get("eraEnd"):
                link_vp, tile_vp = [0] * len(game.state.players), [0] * len(game.state.players)
                for entry in log:
                    if entry.get("event") == "link scoring":
                        for link in entry["links"]:
                            link_vp[link["owner"] - 1] += link["vp"]
                    if entry.get("event") == "tile scoring":
                        for tile in entry["tiles"]:
                            tile_vp[tile["owner"] - 1] += tile["vp"]
                if link_vp != round_end["linkVP"]:
                    return differ(seq, f"{round_end['eraEnd']} link VP", round_end["linkVP"], link_vp, action, log)
                if tile_vp != round_end["industryVP"]:
                    return differ(seq, f"{round_end['eraEnd']} industry VP", round_end["industryVP"], tile_vp,
                                  action, log)
                say(f"  {round_end['eraEnd']} era end: link VP {link_vp}, industry VP {tile_vp}, "
                    f"VP {[p.vp for p in game.state.players]}")
            order = [mapping.player(p) for p in round_end["newTurnOrder"]]
            if order != game.state.turn_order:
                return differ(seq, "turn order after the round", order, game.state.turn_order, action, log)
            say(f"  {step['era']} round {step['round']}: turn order {order}, "
                f"money {[p.money for p in game.state.players]}, VP {[p.vp for p in game.state.players]}")
        # board, markets, merchant beer, hands
        tiles_t, tiles_o = _dict_diff(board.tiles_view(), _our_tiles(game))
        if tiles_t or tiles_o:
            return differ(seq, "board tiles [owner, industry, level, cubes, flipped]", tiles_t, tiles_o, action, log)
        if board.links != game.state.links:
            return differ(seq, "links", *_dict_diff(board.links, game.state.links), action, log)
        if board.markets != {k: game.state.markets[k] for k in board.markets}:
            return differ(seq, "markets", board.markets, dict(game.state.markets), action, log)
        beer = {m.id: m.has_beer for m in game.state.merchants}
        if board.barrels != beer:
            return differ(seq, "merchant barrels", *_dict_diff(board.barrels, beer), action, log)
        for player in game.state.players:
            want = sorted(mapping.card(c) for c, n in hands[player.seat].items() for _ in range(n))
            have = sorted(c.id for c in player.hand)
            if want != have:
                return differ(seq, f"hand of player {player.seat}", want, have, action, log)
        result.steps += 1
    if not game.is_over:
        return differ(steps[-1]["seq"] if steps else -1, "game end", "game over", "our game goes on")
    scores = trace.get("scores", {})
    result.final = game.standings()
    by_seat = sorted(result.final, key=lambda s: s["seat"])
    if scores.get("finalVP") is not None and [s["vp"] for s in by_seat] != scores["finalVP"]:
        return differ(steps[-1]["seq"], "final VP", scores["finalVP"], [s["vp"] for s in by_seat])
    winners = sorted(s["seat"] for s in result.final if s["place"] == 1)
    if scores.get("winner") is not None and winners != sorted(mapping.player(w) for w in scores["winner"]):
        return differ(steps[-1]["seq"], "winner", [mapping.player(w) for w in scores["winner"]], winners)
    return result


def ruleset_with_links(base: str, links_per_player: int) -> Ruleset:
    """`base` with another number of link tiles per player: a variant made on the fly (`extends`).

    The upstream engine that recorded the real games has no limit on link tiles; the rulebook gives
    14 per player (R-SETUP-08), and two of the five games place a 15th rail link.
    """
    base_ref = str(Path(base).resolve()) if Path(base).is_dir() else base
    with tempfile.TemporaryDirectory(prefix="brass-links-") as folder:
        Path(folder, "ruleset.yaml").write_text(
            f"name: {Path(base_ref).name}-links-{links_per_player}\n"
            f"title: {Path(base_ref).name} with {links_per_player} link tiles per player\n"
            f"version: \"1\"\n"
            f"extends: {json.dumps(base_ref)}\n"
            f"setup:\n  links_per_player: {links_per_player}\n", encoding="utf-8")
        return load_ruleset(folder)


def replay_trace_file(ruleset: Ruleset, path: str | Path,
                      progress: Callable[[str], None] | None = None) -> ReplayResult:
    name = Path(path).name.removesuffix(".trace.json")
    return replay_trace(ruleset, load_trace(path), name, progress)
