"""A game in progress: the public API of the interpreter.

    game = Game.new(load_ruleset("birmingham"), players=4, seed=1)
    game.legal_actions()            # the legal next decisions
    game.apply({"action": "loan", "card": "leek#1"})   # a whole action, atomically …
    game.apply({"action": "loan"}); game.apply({"card": "leek#1"})   # … or one decision at a time
    game.explain({...})             # why an action is (il)legal
    game.to_json() / Game.from_json(ruleset, text)

All automatic steps (end of turn, round, era, game) are run by one loop,
`_run`, from the ruleset's flow; each is written to the game log.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections import deque
from typing import Any, Iterable

from brass_dsl import Env
from interpreter.engine import effect_impls
from interpreter.engine.decisions import DecisionEngine, Failure, Pending
from interpreter.ruleset.primitives import ACTION_VAR
from interpreter.ruleset.effects import EFFECTS
from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.model import Action, EffectStep, Ruleset, Slot, TileSpec
from interpreter.engine.network import LinkNetwork
from interpreter.engine.rng import Rng
from interpreter.engine.setup import all_cards, new_state
from interpreter.engine.sourcing import Sourcing
from interpreter.engine.state import Card, GameState, MerchantSpace, PlacedTile, Player, state_from_dict, state_to_dict

FORMAT = "brass-game/1"


class IllegalAction(BrassError):
    """An action or decision the rules do not allow; `failures` lists every reason."""

    def __init__(self, message: str, failures: list[Failure] | None = None) -> None:
        self.failures = failures or []
        lines = [message] + [f"  - {f}" for f in self.failures]
        super().__init__("\n".join(lines))


class GameFileError(BrassError):
    """A saved game that cannot be read."""


class NeedDecision(Exception):
    """Raised inside an effect that needs a player's choice before it can change anything."""

    def __init__(self, question: dict[str, Any]) -> None:
        super().__init__(question["prompt"])
        self.question = question


class Game:
    """One game of a ruleset: state, decisions, flow."""

    def __init__(self, ruleset: Ruleset, state: GameState, cards: dict[str, Card], seed: int) -> None:
        self.ruleset = ruleset
        self.state = state
        self.cards = cards
        self.seed = seed
        self.network = LinkNetwork(ruleset)
        self.sourcing = Sourcing(self)
        self.decisions = DecisionEngine(self)
        self.pending: Pending | None = None
        self.question: dict[str, Any] | None = None
        self.answers: dict[str, Any] = {}
        self.tasks: deque[tuple[Any, ...]] = deque()
        self.moves: list[dict[str, Any]] = []
        self.given: dict[str, Any] | None = None  # the position applied on top of setup, if any (saved with the game)
        self.cache: dict[Any, Any] = {}  # facts derived from the state, emptied whenever it changes
        self._ended: Pending | None = None  # the last action, for explaining a refused extra repetition
        self._merchant_locations = [l.id for l in ruleset.locations.values() if l.kind == "merchant"]
        self._stacks = {i: [s for s in specs for _ in range(s.count)] for i, specs in ruleset.tiles.items()}
        self._slots = {s.id: s for s in ruleset.slots}
        self._location_order = {lid: n for n, lid in enumerate(ruleset.locations)}

    # == construction ====================================================================

    @classmethod
    def new(cls, ruleset: Ruleset, players: int, seed: int = 0) -> "Game":
        cards = all_cards(ruleset, players)
        game = cls(ruleset, new_state(ruleset, players, seed, cards), cards, seed)
        game._start_turn()
        return game

    @classmethod
    def from_setup(cls, ruleset: Ruleset, players: int, given: dict[str, Any] | None = None, seed: int = 0) -> "Game":
        """A game started from a chosen position (a scenario's `given`, see docs/scenarios.md)."""
        from interpreter.engine.given import game_from_setup  # given builds on Game: imported late

        return game_from_setup(ruleset, players, given, seed)

    @classmethod
    def start(cls, ruleset: Ruleset, players: int, seed: int, given: dict[str, Any] | None) -> "Game":
        """The start of a saved game: setup, then its given position if it has one.

        A position that no longer applies (the ruleset changed) is a GameFileError."""
        if given is None:
            return cls.new(ruleset, players, seed)
        from interpreter.engine.given import GivenError  # given builds on Game: imported late

        try:
            return cls.from_setup(ruleset, players, given, seed)
        except GivenError as error:
            problems = "; ".join(d.message for d in error.diagnostics)
            raise GameFileError(f"the saved game's starting position cannot be applied: {problems}") from None

    # == queries used by the condition language (primitives.GameQueries) ====================

    @property
    def me(self) -> Player:
        return self.player(self.state.turn_order[self.state.turn_index])

    @property
    def players(self) -> list[Player]:
        return self.state.players

    @property
    def era(self) -> str:
        return self.ruleset.eras[self.state.era_index].id

    @property
    def round(self) -> int:
        return self.state.round

    def player(self, seat: int) -> Player:
        return self.state.players[seat - 1]

    def hand(self, player: Player) -> list[Card]:
        return list(player.hand)

    def income_level(self, player: Player) -> int:
        return self.ruleset.income.level_at(player.income_position)

    def tiles_at(self, location: str) -> list[PlacedTile]:
        tiles = self.state.tiles
        return [tiles[s.id] for s in self.ruleset.locations[location].slots if s.id in tiles]

    def board_tiles(self) -> list[PlacedTile]:
        return sorted(self.state.tiles.values(), key=lambda t: self._slot_key(t.slot))

    def in_network(self, player: Player, location: str) -> bool:
        return location in self.network_of(player)

    def network_of(self, player: Player) -> frozenset[str]:
        """Locations with the player's tiles or touching their links (R-CONN-01); cached until the state changes."""
        key = ("network", player.seat)
        found = self.cache.get(key)
        if found is None:
            places = {t.slot.location for t in self.state.tiles.values() if t.owner is player}
            for link_id, seat in self.state.links.items():
                if seat == player.seat:
                    places.update(self.ruleset.links[link_id].ends)
            found = self.cache[key] = frozenset(places)
        return found

    def connected(self, a: str, b: str) -> bool:
        self.network.update(self.state.links)
        return self.network.connected(a, b)

    def connected_to_merchant(self, location: str) -> bool:
        self.network.update(self.state.links)
        reach = self.network.distances_from(location)
        return any(m in reach for m in self._merchant_locations)

    def has_board_tiles(self, player: Player) -> bool:
        return any(t.owner is player for t in self.state.tiles.values()) or player.seat in self.state.links.values()

    def mat_stack(self, industry: str) -> list[TileSpec]:
        """An industry's tiles on a full mat, lowest first, one entry per physical tile."""
        return self._stacks[industry]

    def tiles_left(self, player: Player, industry: str) -> int:
        return len(self._stacks[industry]) - player.mat_used.get(industry, 0)

    def lowest_tile(self, player: Player, industry: str) -> TileSpec:
        used = player.mat_used.get(industry, 0)
        stack = self._stacks[industry]
        if used >= len(stack):
            raise ValueError(f"no {industry} tile is left on {player.name}'s mat")
        return stack[used]

    def slot_free(self, slot: Slot) -> bool:
        return slot.id not in self.state.tiles

    def tile_in(self, slot: Slot) -> PlacedTile:
        tile = self.state.tiles.get(slot.id)
        if tile is None:
            raise ValueError(f"slot {slot.id} is free")
        return tile

    def cubes_available(self, resource: str) -> int:
        on_tiles = sum(t.cubes for t in self.state.tiles.values()
                       if self.ruleset.industries[t.spec.industry].produces == resource)
        market = self.ruleset.resources[resource].market
        return on_tiles + (self.state.markets.get(market, 0) if market else 0)

    def can_source(self, player: Player, resource: str, amount: int, at: list[str], action: str | None = None) -> bool:
        self.network.update(self.state.links)
        return self.sourcing.can_source(player, resource, amount, list(at), action)

    def source_cost(self, player: Player, resource: str, amount: int, at: list[str], action: str | None = None) -> int:
        self.network.update(self.state.links)
        return self.sourcing.source_cost(player, resource, amount, list(at), action)

    def link_free(self, link: str) -> bool:
        return link not in self.state.links

    def merchant_tiles(self) -> list[MerchantSpace]:
        return list(self.state.merchants)

    def _slot_key(self, slot: Slot) -> tuple[int, int]:
        return self._location_order[slot.location], slot.index

    # == state changes used by effects ===================================================

    def note(self, event: str, **details: Any) -> None:
        """Add an entry to the game log, as plain JSON data (mapping keys become strings)."""
        self.state.log.append(json.loads(json.dumps({"event": event, **details})))

    def spend(self, player: Player, amount: int) -> None:
        player.money -= amount
        player.spent += amount  # R-TURN-07

    def advance_income(self, player: Player, spaces: int) -> None:
        top = self.ruleset.income.positions - 1
        player.income_position = min(top, player.income_position + spaces)  # R-INC-05

    def flip(self, tile: PlacedTile) -> None:
        if tile.flipped:
            return
        tile.flipped = True
        self.advance_income(tile.owner, tile.spec.income)  # R-FLIP-03
        self.note("flipped", tile=tile.slot.id, owner=tile.owner.seat, income=tile.spec.income,
                  income_position=tile.owner.income_position)

    def discard(self, player: Player, card: Card) -> None:
        player.hand.remove(card)
        if card.wild:
            self.state.wild_piles[card.face].append(card)  # R-SCOUT-03
        else:
            player.discard.append(card)

    def take_from_mat(self, player: Player, industry: str) -> TileSpec:
        spec = self.lowest_tile(player, industry)
        player.mat_used[industry] = player.mat_used.get(industry, 0) + 1
        return spec

    def build_tile(self, player: Player, industry: str, slot: Slot) -> None:
        spec = self.take_from_mat(player, industry)
        old = self.state.tiles.pop(slot.id, None)
        if old is not None:  # R-OVER-02/04: the old tile leaves the game with its cubes
            old.owner.removed += 1
            self.note("overbuilt", tile=slot.id, owner=old.owner.seat, level=old.spec.level)
        output = spec.output.get(self.era, 0) if self.ruleset.industries[industry].produces else 0
        self.state.tiles[slot.id] = PlacedTile(player, spec, slot, False, output)
        self.note("built", player=player.seat, industry=industry, level=spec.level, slot=slot.id, cubes=output)

    def place_link(self, player: Player, link: str) -> None:
        self.state.links[link] = player.seat
        player.links_left -= 1
        self.note("linked", player=player.seat, link=link)

    def use_merchant_beer(self, space: MerchantSpace) -> None:
        space.has_beer = False
        self.note("merchant beer", space=space.id, player=self.me.seat)
        bonus = self.ruleset.merchants[space.location].beer_bonus
        for n, step in enumerate(bonus, start=1):  # run right after the step now running
            self.tasks.insert(n, ("step", step, {}))

    def refill_hand(self, player: Player) -> list[Card]:
        missing = max(0, self.ruleset.setup.hand_size - len(player.hand))
        drawn = [self.state.deck.pop() for _ in range(min(missing, len(self.state.deck)))]
        player.hand.extend(drawn)
        return drawn

    def new_draw_deck(self) -> None:
        deck = [c for p in self.state.players for c in p.discard]
        for player in self.state.players:
            player.discard = []
        rng = Rng(self.state.rng_state)
        rng.shuffle(deck)
        self.state.rng_state = rng.state
        self.state.deck = deck
        self.note("new draw deck", cards=len(deck))

    # -- end of round ---------------------------------------------------------------------

    def set_turn_order(self) -> None:
        order = self.state.turn_order
        spent = {seat: self.player(seat).spent for seat in order}
        self.state.turn_order = sorted(order, key=lambda seat: (spent[seat], order.index(seat)))  # R-ORDER-01/02
        for player in self.state.players:
            player.spent = 0  # R-ORDER-03
        self.note("turn order", spent=spent, order=self.state.turn_order)

    def is_last_round(self) -> bool:
        return self._in_last_era() and self._era_exhausted()

    def _in_last_era(self) -> bool:
        return self.era == self.ruleset.game_end.last_era

    def collect_income(self) -> None:
        if self.is_last_round():
            self.note("no income after the last round")  # R-INC-03
            return
        plans = [(p, self._shortfall_choice(p)) for p in self.state.players]  # every choice before any change
        for player, removals in plans:
            self._pay_income(player, removals)

    def _shortfall_choice(self, player: Player) -> list[PlacedTile]:
        """The tiles the player removes to cover unpaid negative income (R-SHORT-01/02)."""
        owed = -self.income_level(player) - player.money
        chosen: list[PlacedTile] = []
        divisor = self.ruleset.economy.shortfall_tile_value_divisor
        while owed > 0:
            options = [t for t in self.board_tiles() if t.owner is player and t not in chosen]
            if not options:
                break
            slot_id = self.ask(player, f"shortfall/{player.seat}/{len(chosen)}", [t.slot.id for t in options],
                               f"Remove a tile to raise £{owed} of unpaid income")
            tile = self.state.tiles[slot_id]
            chosen.append(tile)
            owed -= tile.spec.cost // divisor
        return chosen

    def _pay_income(self, player: Player, removals: list[PlacedTile]) -> None:
        level = self.income_level(player)
        if level >= 0 or player.money >= -level:
            player.money += level  # R-INC-02
            self.note("income", player=player.seat, level=level, money=player.money)
            return
        owed = -level - player.money
        player.money = 0
        divisor = self.ruleset.economy.shortfall_tile_value_divisor
        for tile in removals:
            del self.state.tiles[tile.slot.id]
            tile.owner.removed += 1
            owed -= tile.spec.cost // divisor
        if owed < 0:
            player.money = -owed  # R-SHORT-02: the excess is kept
        vp_lost = min(player.vp, max(owed, 0) * self.ruleset.economy.shortfall_vp_per_money)  # R-SHORT-03
        player.vp -= vp_lost
        self.note("shortfall", player=player.seat, level=level, removed=[t.slot.id for t in removals],
                  vp_lost=vp_lost, money=player.money)

    # -- end of era -------------------------------------------------------------------------

    def location_link_icons(self, location: str) -> int:
        """Link icons shown in a location: printed (merchant) icons plus flipped tiles of any owner (R-ERA-02)."""
        printed = self.ruleset.locations[location].link_icons
        return printed + sum(t.spec.link_icons for t in self.tiles_at(location) if t.flipped)

    def score_links(self, value: Any = None) -> None:
        """Score every placed link, then remove them all (R-ERA-02).

        `value` is the compiled `score_links: {value: …}` expression, evaluated per (link k, end
        location l, owner p); without it a link scores the link icons of its ends. Every value is
        computed before any VP is awarded, so the order of the links does not matter.
        """
        breakdown = []
        for link_id in sorted(self.state.links):
            seat = self.state.links[link_id]
            owner = self.player(seat)
            icons = {loc: self.location_link_icons(loc) if value is None
                     else value(Env(self, {"k": link_id, "l": loc, "p": owner}))
                     for loc in self.ruleset.links[link_id].ends}
            breakdown.append({"link": link_id, "owner": seat, "icons": icons, "vp": sum(icons.values())})
        for scored in breakdown:
            player = self.player(scored["owner"])
            player.vp += scored["vp"]  # R-ERA-02
            player.links_left += 1
        self.state.links.clear()
        self.network.update(())
        self.note("link scoring", links=breakdown)

    def score_tiles(self, where: Any) -> None:
        scored = []
        for tile in self.board_tiles():
            if tile.flipped and (where is None or where(Env(self, {"t": tile}))):
                tile.owner.vp += tile.spec.vp  # R-ERA-03
                scored.append({"tile": tile.slot.id, "owner": tile.owner.seat, "vp": tile.spec.vp})
        self.note("tile scoring", tiles=scored)

    def remove_tiles(self, where: Any) -> None:
        gone = [t for t in self.board_tiles() if where(Env(self, {"t": t}))]
        for tile in gone:
            del self.state.tiles[tile.slot.id]
            tile.owner.removed += 1
        self.note("tiles removed", tiles=[t.slot.id for t in gone])

    def award_vp(self, amount: Any) -> None:
        awarded = {}
        for player in self.state.players:
            vp = amount(Env(self, {"p": player}))
            player.vp += vp
            awarded[player.seat] = vp
        self.note("award", vp=awarded)

    # == describing values for messages ======================================================

    def describe(self, value: Any, type_name: str = "") -> str:
        """A value as a player reads it: names instead of ids, for messages."""
        rs = self.ruleset
        if isinstance(value, str):
            tables = {"location": rs.locations, "industry": rs.industries, "resource": rs.resources}
            if type_name in tables and value in tables[type_name]:
                return tables[type_name][value].name
            if type_name == "era":
                return rs.era(value).name
            return value
        if isinstance(value, Player):
            return value.name
        if isinstance(value, (Card, Slot, MerchantSpace)):
            return value.id if not isinstance(value, Card) else value.name
        if isinstance(value, PlacedTile):
            return f"{rs.industries[value.spec.industry].name} {value.spec.level} at {value.slot.id}"
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    # == choices inside effects ===============================================================

    def ask(self, player: Player, key: str, options: list[Any], prompt: str) -> Any:
        if key in self.answers:
            return self.answers[key]
        if len(options) == 1:
            return options[0]
        raise NeedDecision({"key": key, "player": player.seat, "options": options, "prompt": prompt})

    # == flow =================================================================================

    @property
    def is_over(self) -> bool:
        return self.state.finished

    def _era_exhausted(self) -> bool:
        return not self.state.deck and all(not p.hand for p in self.state.players)

    def _start_turn(self) -> None:
        era = self.ruleset.eras[self.state.era_index]
        self.state.actions_left = era.first_round_actions if self.state.round == 1 else era.actions_per_turn

    def _run(self) -> None:
        """Run automatic steps until a player must decide something or the game ends."""
        while self.tasks:
            self.decisions.clear_memo()
            kind, *payload = self.tasks[0]
            try:
                if kind == "step":
                    self._run_step(*payload)
                else:
                    getattr(self, f"_flow_{kind}")()
            except NeedDecision as need:
                self.question = need.question
                return
            self.tasks.popleft()
            self.answers.clear()
            self.question = None
        self.decisions.clear_memo()  # the last step changed the state too

    def _queue_steps(self, steps: Iterable[EffectStep], vars: dict[str, Any]) -> None:
        self.tasks.extend(("step", step, dict(vars)) for step in steps)

    def _run_step(self, step: EffectStep, vars: dict[str, Any]) -> None:
        env = Env(self, dict(vars))
        if "when" in step.args and not step.args["when"](env):
            return
        spec = EFFECTS[step.name]
        args = {}
        for name, value in step.args.items():
            if name == "when":
                continue
            param = spec.param(name)
            args[name] = value if (param and (param.literal or param.binds)) else value(env)
        effect_impls.IMPLS[step.name](self, env, args)

    def _flow_after_action(self) -> None:
        self.state.actions_left -= 1
        if self.state.actions_left > 0 and self.me.hand:
            return
        drawn = self.refill_hand(self.me)  # R-TURN-08: after all of the turn's actions
        self.note("end of turn", player=self.me.seat, drew=len(drawn))
        self._next_player()

    def _next_player(self) -> None:
        self.state.turn_index += 1
        self._first_player_with_cards()

    def _first_player_with_cards(self) -> None:
        """From the current turn position, skip players without cards (they have no turn); end the round if none is left."""
        state = self.state
        while state.turn_index < len(state.turn_order) and not self.me.hand:
            state.turn_index += 1
        if state.turn_index >= len(state.turn_order):
            self._queue_steps(self.ruleset.round_end, {})
            self.tasks.append(("after_round",))
            return
        self._start_turn()

    def _flow_after_round(self) -> None:
        state = self.state
        self.note("end of round", era=self.era, round=state.round)
        if self._era_exhausted():
            era = self.ruleset.eras[state.era_index]
            self._queue_steps(era.end, {})
            self.tasks.append(("after_era",))
            return
        state.round += 1
        state.turn_index = 0
        self._first_player_with_cards()

    def _flow_after_era(self) -> None:
        state = self.state
        self.note("end of era", era=self.era, vp={p.seat: p.vp for p in state.players})
        if self._in_last_era():
            self._queue_steps(self.ruleset.game_end.scoring, {})
            self.tasks.append(("finish",))
            return
        state.era_index += 1
        state.round = 1
        state.turn_index = 0
        self._first_player_with_cards()

    def _flow_finish(self) -> None:
        self.state.finished = True
        self.note("game over", standings=self.standings())

    # == standings ================================================================================

    def standings(self) -> list[dict[str, Any]]:
        """Players best first by the ruleset's ranking keys; `place` is shared on a full tie (R-END-02)."""
        keys = self.ruleset.game_end.ranking
        scored = [(tuple(k.key(Env(self, {"p": p})) for k in keys), p) for p in self.state.players]
        scored.sort(key=lambda item: tuple(-v for v in item[0]))
        table, place = [], 0
        for n, (values, player) in enumerate(scored):
            if n == 0 or values != scored[n - 1][0]:
                place = n + 1
            table.append({"place": place, "seat": player.seat, "vp": player.vp, "money": player.money,
                          "income_position": player.income_position, "income_level": self.income_level(player),
                          "keys": dict(zip((k.name for k in keys), values))})
        return table

    # == decisions ================================================================================

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every legal next decision (see `decisions.py`)."""
        if self.state.finished:
            return []
        if self.question is not None:
            return [{"answer": option} for option in self.question["options"]]
        if self.pending is None:
            env = self.decisions.env({})
            return [{"action": a.id} for a in self.ruleset.actions.values()
                    if self.decisions.action_completable(a, env)]
        return self._pending_choices(self.pending)

    def _pending_choices(self, pending: Pending) -> list[dict[str, Any]]:
        part = self.decisions.current_part(pending)
        name = part.params[pending.index].name
        choices = [{name: self.encode(v)} for v in self.decisions.legal_values(pending)]
        if pending.in_repeat and pending.index == 0 and pending.repeats_done >= pending.action.repeat.min:
            choices.append({"done": True})
        return choices

    def encode(self, value: Any) -> Any:
        """A runtime value as it appears in a decision (ids for objects)."""
        if isinstance(value, Card):
            return value.id
        if isinstance(value, Slot):
            return value.id
        if isinstance(value, PlacedTile):
            return value.slot.id
        if isinstance(value, MerchantSpace):
            return value.id
        if isinstance(value, Player):
            return value.seat
        return value

    def apply(self, action: dict[str, Any]) -> None:
        """Apply one decision, or a whole action atomically; an illegal one changes nothing."""
        if not isinstance(action, dict):
            raise IllegalAction(f"an action is a mapping like {{'action': 'loan', 'card': …}}, not {action!r}")
        if self.state.finished:
            raise IllegalAction("the game is over", [self._game_over()])
        if self._is_whole_action(action):
            self._apply_whole(action)
        else:
            self._apply_decision(action)

    def _is_whole_action(self, action: dict[str, Any]) -> bool:
        return "action" in action and len(action) > 1

    def _apply_whole(self, action: dict[str, Any]) -> None:
        """Try the action on a copy first, so that a refusal leaves this game untouched."""
        if self.pending is not None or self.question is not None:
            raise IllegalAction("another action is being decided; finish it first")
        self._clone()._feed(action)  # raises IllegalAction with every reason
        self._feed(action)

    def copy(self) -> "Game":
        """An independent copy of this game between actions, e.g. for a bot to look ahead."""
        if self.pending is not None or self.question is not None:
            raise IllegalAction("a game can be copied only between actions")
        return self._clone()

    @property
    def deciding_seat(self) -> int:
        """The seat that must make the next decision (a question may be another player's)."""
        return self.question["player"] if self.question is not None else self.me.seat

    def _clone(self) -> "Game":
        """An independent copy of this game between actions (no replay needed)."""
        clone = Game(self.ruleset, state_from_dict(copy.deepcopy(state_to_dict(self.state)), self.ruleset, self.cards),
                     self.cards, self.seed)
        clone.moves = list(self.moves)
        clone.given = self.given
        return clone

    def _feed(self, action: dict[str, Any]) -> None:
        answers = list(action.get("answers", []))
        for decision in self._decisions_of(action):
            self._answer_questions(answers)
            if decision == {"done": True} and (self.pending is None or not self.pending.in_repeat):
                continue  # the repeated part already ended by itself
            self._apply_decision(decision, whole=action)
        self._answer_questions(answers)

    def _answer_questions(self, answers: list[Any]) -> None:
        """Answer open questions from a whole action's `answers`, else with the default (the first option)."""
        while self.question is not None:
            self._answer({"answer": answers.pop(0) if answers else self.question["options"][0]})

    def _decisions_of(self, action: dict[str, Any]) -> Iterable[dict[str, Any]]:
        found = self.ruleset.actions.get(action["action"])
        if found is None:
            raise IllegalAction(f"unknown action '{action['action']}'; actions: {', '.join(self.ruleset.actions)}")
        yield {"action": found.id}
        for param in found.part.params:
            if param.name not in action:
                raise IllegalAction(f"{found.name} needs '{param.name}'")
            yield {param.name: action[param.name]}
        if found.repeat is None:
            return
        repeats = action.get(found.repeat.name, [])
        if isinstance(repeats, dict):
            repeats = [repeats]
        for repetition in repeats:
            if self.pending is None or self.pending.action is not found:
                self._no_more_repeats(found, action)
            for param in found.repeat.part.params:
                if param.name not in repetition:
                    raise IllegalAction(f"each of {found.repeat.name} needs '{param.name}'")
                yield {param.name: repetition[param.name]}
        if self.pending is not None and self.pending.action is found:
            yield {"done": True}

    def _apply_decision(self, decision: dict[str, Any], whole: dict[str, Any] | None = None) -> None:
        if self.question is not None:
            return self._answer(decision)
        if self.pending is None:
            return self._start_action(decision, whole)
        if decision == {"done": True}:
            return self._finish_repeats()
        self._choose(decision, whole)

    def _answer(self, decision: dict[str, Any]) -> None:
        if set(decision) != {"answer"} or decision["answer"] not in self.question["options"]:
            raise IllegalAction(f"expected an answer to: {self.question['prompt']}; "
                                f"one of {self.question['options']}")
        self.answers[self.question["key"]] = decision["answer"]
        self.moves.append(decision)
        self._run()

    def _start_action(self, decision: dict[str, Any], whole: dict[str, Any] | None) -> None:
        action = self.ruleset.actions.get(decision.get("action")) if set(decision) == {"action"} else None
        if action is None:
            raise IllegalAction(f"choose an action first, e.g. {{'action': 'build'}}; "
                                f"actions: {', '.join(self.ruleset.actions)}")
        env = self.decisions.env({})
        if not self.decisions.action_completable(action, env):
            raise IllegalAction(f"{action.name} is not possible now", self._part_failures(action, whole))
        self.pending = Pending(action, {ACTION_VAR: action.id})
        self.moves.append(decision)
        self._after_choice()

    def _choose(self, decision: dict[str, Any], whole: dict[str, Any] | None) -> None:
        pending = self.pending
        part = self.decisions.current_part(pending)
        param = part.params[pending.index]
        if set(decision) != {param.name}:
            raise IllegalAction(f"expected a choice of '{param.name}' for {pending.action.name}, got {decision}")
        wanted = decision[param.name]
        env = self.decisions.env(pending.vars)
        candidates = [v for v in self.decisions.domain(part, pending.index, env) if self.encode(v) == wanted]
        if not candidates:
            raise IllegalAction(f"{wanted!r} is not a possible {param.name} here",
                                self._part_failures(pending.action, whole))
        plan = self.decisions.plan(part)
        value = candidates[0]
        ok = self.decisions.try_value(plan, pending.index, value, env)
        if not ok or not self.decisions.part_completable(part, env, pending.index + 1):
            self.decisions.unbind(plan, pending.index, env)
            failures = self._part_failures(pending.action, whole or {param.name: wanted})
            raise IllegalAction(f"{pending.action.name}: {param.name} {wanted!r} is not allowed", failures)
        pending.index += 1
        pending.decisions.append(decision)
        self.moves.append(decision)
        self._after_choice()

    def _after_choice(self) -> None:
        """When a part's choices are complete, queue its effects, then its bookkeeping."""
        pending = self.pending
        part = self.decisions.current_part(pending)
        if pending.index < len(part.params):
            return
        self._queue_steps(part.effects, pending.vars)
        self.tasks.append(("part_done",))
        self._run()

    def _flow_part_done(self) -> None:
        pending = self.pending
        part = self.decisions.current_part(pending)
        if pending.in_repeat:
            pending.repeats_done += 1
            for name in [p.name for p in part.params] + list(part.derived):
                pending.vars.pop(name, None)
        pending.index = 0
        action = pending.action
        if action.repeat is not None and self.decisions.repeat_possible(action, pending.vars, pending.repeats_done):
            pending.in_repeat = True
            pending.vars["nth"] = pending.repeats_done + 1
            return
        self._end_action()

    def _end_action(self) -> None:
        self.note("action", player=self.me.seat, action=self.pending.action.id)
        self._ended = self.pending
        self.pending = None
        self.tasks.append(("after_action",))

    def _finish_repeats(self) -> None:
        pending = self.pending
        if pending.repeats_done < pending.action.repeat.min or pending.index != 0 or not pending.in_repeat:
            raise IllegalAction("this action needs more choices before it is done")
        self.moves.append({"done": True})
        self._end_action()
        self._run()

    def _no_more_repeats(self, action: Action, whole: dict[str, Any]) -> None:
        """The action ended by itself, but the whole action asks for another repetition: say why not."""
        ended = self._ended
        self.pending = Pending(action, dict(ended.vars, nth=ended.repeats_done + 1), in_repeat=True,
                               repeats_done=ended.repeats_done)
        try:
            failures = self._part_failures(action, whole)
        finally:
            self.pending = None
        repeat = action.repeat
        if not failures and repeat.max is not None and ended.repeats_done >= repeat.max:
            rule = (repeat.rules or action.rules or (None,))[0]
            failures = [Failure(rule, f"{action.name} allows at most {repeat.max} {repeat.name} in one action.", "")]
        raise IllegalAction(f"{action.name}: no more than {ended.repeats_done} of {action.repeat.name} "
                            f"possible here", failures)

    def _part_failures(self, action: Action, whole: dict[str, Any] | None) -> list[Failure]:
        """Every failed precondition of the part being decided, with all its choices from `whole` bound."""
        pending = self.pending
        choices = dict(whole or {})
        if pending is not None and pending.in_repeat:
            done = pending.repeats_done
            repeats = choices.get(action.repeat.name, [])
            repeats = [repeats] if isinstance(repeats, dict) else repeats
            choices = dict(repeats[done]) if done < len(repeats) else dict(whole or {})
        part = action.repeat.part if pending is not None and pending.in_repeat else action.part
        env = self.decisions.env(dict(pending.vars) if pending is not None else {ACTION_VAR: action.id})
        failures = self._bind_choices(part, choices, env, start=pending.index if pending is not None else 0)
        failures += self.decisions.failures(part, env)
        if not failures and pending is None and action.repeat is not None and action.repeat.min > 0:
            repeats = choices.get(action.repeat.name, [{}])
            first = repeats[0] if isinstance(repeats, list) and repeats else repeats if isinstance(repeats, dict) else {}
            renv = self.decisions.env(dict(env.vars, nth=1))
            failures = self._bind_choices(action.repeat.part, first, renv, 0)
            failures += self.decisions.failures(action.repeat.part, renv)
            if not failures:
                failures = [Failure(None, f"{action.name} needs at least {action.repeat.min} of "
                                          f"{action.repeat.name}, and none is possible now", "")]
        return failures

    def _bind_choices(self, part: Any, choices: dict[str, Any], env: Env, start: int) -> list[Failure]:
        """Bind the given choices of a part (from param `start` on); report values that are not possible."""
        plan = self.decisions.plan(part)
        self.decisions.bind_derived(plan.derived_first, env)
        failures = []
        for i in range(start, len(part.params)):
            param = part.params[i]
            needs = param.domain.names_used & {p.name for p in part.params}
            if param.name not in choices or any(n not in env.vars for n in needs):
                continue
            value = self._decode(part, param, choices[param.name], env)
            if value is None:
                failures.append(Failure(None, f"{choices[param.name]!r} is not a possible {param.name}", ""))
                # Bound anyway when it names a real thing, so that the preconditions say why it is
                # not possible (a location card's own town: R-BUILD-02), not only that it is not.
                value = self._any_of_type(param.type, choices[param.name])
                if value is None:
                    continue
            env.vars[param.name] = value
            self.decisions.bind_derived(plan.derived_at[i], env)
        return failures

    def explain(self, action: dict[str, Any]) -> dict[str, Any]:
        """Whether a whole action is legal now and, if not, every precondition it fails (nothing changes)."""
        if not isinstance(action, dict) or action.get("action") not in self.ruleset.actions:
            return {"legal": False, "failures": [Failure(None, f"unknown action {action!r}", "")]}
        if self.state.finished:
            return {"legal": False, "failures": [self._game_over()]}
        try:
            self._clone()._feed(action)
        except IllegalAction as refused:
            return {"legal": False, "failures": refused.failures or [Failure(None, str(refused), "")]}
        return {"legal": True, "failures": []}

    def _any_of_type(self, type_name: str, wanted: Any) -> Any:
        """The value of a param's type named by `wanted` (an id), whether or not it may be chosen now.

        Cards and slots are objects at run time; locations, industries and links are their ids."""
        if not isinstance(wanted, str):
            return None
        if type_name in ("card", "slot"):
            return (self.cards if type_name == "card" else self._slots).get(wanted)
        ids = {"location": self.ruleset.locations, "industry": self.ruleset.industries,
               "link": self.ruleset.links}.get(type_name, ())
        return wanted if wanted in ids else None

    def _game_over(self) -> Failure:
        end = self.ruleset.game_end
        return Failure(end.rule if end else None, "The game is over: no more actions are taken.", "")

    def _decode(self, part: Any, param: Any, wanted: Any, env: Env) -> Any:
        i = part.params.index(param)
        for value in self.decisions.domain(part, i, env):
            if self.encode(value) == wanted:
                return value
        return None

    # == snapshots and JSON =========================================================================

    def _snapshot(self) -> tuple[Any, ...]:
        return (copy.deepcopy(state_to_dict(self.state)), len(self.moves), self.pending, self.question,
                dict(self.answers), list(self.tasks))

    def _restore(self, snapshot: tuple[Any, ...]) -> None:
        data, moves, pending, question, answers, tasks = snapshot
        self.state = state_from_dict(data, self.ruleset, self.cards)
        del self.moves[moves:]
        self.pending, self.question, self.answers, self.tasks = pending, question, answers, deque(tasks)
        self.network.update(self.state.links)
        self.decisions.clear_memo()

    def to_dict(self) -> dict[str, Any]:
        data = {"format": FORMAT, "ruleset": self.ruleset.name, "players": len(self.state.players),
                "seed": self.seed, "moves": list(self.moves), "state": state_to_dict(self.state)}
        if self.given is not None:  # a game started from a position: replaying needs the position too
            data["given"] = self.given
        return data

    def to_json(self) -> str:
        """Canonical JSON: the same game always gives the same text."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def state_hash(self) -> str:
        return hashlib.sha256(json.dumps(state_to_dict(self.state), sort_keys=True).encode()).hexdigest()

    @classmethod
    def from_json(cls, ruleset: Ruleset, text: str) -> "Game":
        """Replay a saved game's moves from its seed (and its given position, if it has one) and
        check the saved state matches."""
        try:
            data = json.loads(text)
        except ValueError as error:
            raise GameFileError(f"the saved game is not JSON: {error}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            found = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise GameFileError(f"not a saved game (format {found!r}, expected {FORMAT})")
        if data.get("ruleset") != ruleset.name:
            raise GameFileError(f"the game was saved with ruleset {data.get('ruleset')!r}, not {ruleset.name!r}")
        try:
            game = cls.start(ruleset, int(data["players"]), int(data["seed"]), data.get("given"))
            for n, move in enumerate(data["moves"]):
                try:
                    game.apply(move)
                except IllegalAction as error:
                    raise GameFileError(f"move {n + 1} of the saved game is illegal: {error}") from None
            saved = data["state"]
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise GameFileError(f"the saved game cannot be read: {type(error).__name__}: {error}") from None
        if state_to_dict(game.state) != saved:
            raise GameFileError("the saved state does not match its moves (the file was changed or is corrupt)")
        return game
