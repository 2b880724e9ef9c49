"""Computer players: they pick one of `game.legal_actions()` at every decision.

    bot = GreedyBot(seed=3)
    while not game.is_over:
        game.apply(decide(bot, game))   # the bot sees only its seat's view

Bots only ever choose from the engine's own list of legal next decisions, so they
exercise exactly what a human can do and never need to know the rules. Each bot has
its own `Rng` (never Python's `random`, whose sequences may change between Python
versions), so a game between bots is reproducible from the seeds alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from interpreter.engine.rng import Rng
from interpreter.engine.state import Player
from interpreter.engine.values import encode
from interpreter.ruleset.bot_params import BotParams
from interpreter.tools.bots.heuristic import HeuristicBot
from interpreter.tools.bots.knowledge.roles import (
    CARD,
    FLAG,
    INDUSTRY,
    LINK,
    LOCATION,
    PREFERENCE,
    SLOT,
    TILE,
    Role,
    roles,
)
from interpreter.tools.bots.search import make_search_bot

if TYPE_CHECKING:
    from interpreter.engine.game import Game
    from interpreter.engine.view import SeatView

Decision = dict[str, Any]


class Bot(Protocol):
    """A player of the engine: given what its seat sees (`Game.view`), one of the legal decisions."""

    name: str

    def choose(self, game: SeatView) -> Decision: ...


def decide(bot: Bot, game: Game) -> Decision:
    """The bot's decision for the seat that must decide now, from that seat's view only."""
    return bot.choose(game.view(game.deciding_seat))


def deciding_seat(game: Game | SeatView) -> int:
    """The seat that must make the next decision.

    A question raised inside an effect (e.g. which tile to remove for unpaid income at
    the end of a round) is put to the player it names, who need not be the current one.
    """
    if game.question is not None:
        return int(game.question["player"])
    return game.table.me.seat


class RandomBot:
    """Uniform choice among the legal next decisions: the baseline, and the fuzzer of the engine."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, game: SeatView) -> Decision:
        legal = game.legal_actions()
        if not legal:
            raise ValueError("there is no legal decision (is the game over?)")
        return legal[self.rng.below(len(legal))]


# Action choice: the first one available in the order of `brass_knowledge_roles.PREFERENCE` wins
# (sell, build, link, develop, loan, pass, mend the hand: see GreedyBot).
LOAN_BELOW = 10  # take a loan only when money is below this …
LOAN_MIN_INCOME = -3  # … and income is at least this level: a loan costs 3 levels, and a debt
#                        spiral of shortfalls costs tiles and VP
BUILD_MIN_VALUE = 2.0  # build only when the best build the hand allows is worth at least this
OVERBUILD_PENALTY = 5.0  # build value lost by overbuilding instead of using a free slot
SECOND_RAIL_LINK_MONEY = 25  # place a second rail link only with at least this much money


class GreedyBot:
    """A one-look greedy player: cheap scores, no search, so a game stays as fast as a random one.

    At the choice of an action it takes the first available of: sell, build (only when
    some build its hand allows looks worth it: `best_build_value` ≥ 2), network, develop,
    loan (only when money < 10 and income level ≥ −3), pass, scout. These thresholds were
    tuned on a few dozen games: about 9 wins in 10 three-player games against two random
    bots. Every other decision is scored by what it gains at once, and ties are broken by
    the bot's own Rng:

    - cards: keep wild cards (discard or use a normal card first);
    - where and what to build: the best `build_value` (VP and income weighted by the chance
      that the tile flips, minus a share of its cost); a location scores its best industry;
    - which industry to develop: the one whose lowest tile is worth the fewest VP (level 1 first);
    - slots: a free slot before overbuilding;
    - links: the most link icons at the ends (the link's VP), plus one per end in the network;
    - selling: the tile worth most VP + income; always use merchant beer when offered;
      keep selling while possible;
    - `done`: develop one tile per action; a second rail link only with money ≥ 25;
    - questions: take resources from one's own tiles first (their flip pays the bot),
      remove the tile worth fewest VP to cover unpaid income.
    """

    name = "greedy"

    def __init__(self, seed: int, loan_below: int = LOAN_BELOW, loan_min_income: int = LOAN_MIN_INCOME) -> None:
        self.rng = Rng(seed)
        self.loan_below = loan_below
        self.loan_min_income = loan_min_income

    def choose(self, game: SeatView) -> Decision:
        legal = game.legal_actions()
        if not legal:
            raise ValueError("there is no legal decision (is the game over?)")
        if len(legal) == 1:
            return legal[0]
        if "action" in legal[0]:
            return self._choose_action(game, legal)
        player = game.table.player(deciding_seat(game))
        scores = [self._score(game, player, decision) for decision in legal]
        best = max(scores)
        top = [d for d, s in zip(legal, scores, strict=True) if s == best]
        return top[self.rng.below(len(top))]

    def _choose_action(self, game: SeatView, legal: list[Decision]) -> Decision:
        available = {d["action"]: d for d in legal}
        for action in roles(game.ruleset).ids(*PREFERENCE):
            if action in available and self._wanted(game, action):
                return available[action]
        return legal[self.rng.below(len(legal))]  # a ruleset with other actions: any

    def _wanted(self, game: SeatView, action: str) -> bool:
        me = game.table.me
        role = roles(game.ruleset).role(action)
        if role is Role.LOAN:
            return me.money < self.loan_below and game.table.income_level(me) >= self.loan_min_income
        if role is Role.BUILD:
            return best_build_value(game, me) >= BUILD_MIN_VALUE
        return True

    def _score(self, game: SeatView, player: Player, decision: Decision) -> float:
        (name, value), = decision.items()
        scorer = PROTOCOL_SCORERS.get(name) or SCORERS.get(_choice_type(game, name) or "")
        return scorer(game, player, value) if scorer else 0.0


# -- scores of single decisions (higher is better) ------------------------------------------------

def _action_id(game: SeatView) -> str | None:
    return game.pending.action.id if game.pending is not None else None


def _role(game: SeatView) -> Role:
    return roles(game.ruleset).role(_action_id(game))


def _choice_type(game: SeatView, name: str) -> str | None:
    """The type of a choice of the pending action (the bot knows choices by type, not by name)."""
    action = _action_id(game)
    return roles(game.ruleset).shape(action).types.get(name) if action is not None else None


def _card(game: SeatView, player: Player, card_id: Any) -> float:
    card = game.table.cards.get(card_id)
    return -10.0 if card is not None and card.wild else 0.0


def _location(game: SeatView, player: Player, location: Any) -> float:
    """The build value here of the chosen industry, or of the best industry a free slot shows."""
    industry = _bound(game, INDUSTRY)
    if industry is not None:
        return build_value(game, player, location, industry)
    slots = game.ruleset.locations[location].slots
    industries = {i for slot in slots if slot.id not in game.state.tiles for i in slot.industries}
    return max((build_value(game, player, location, i) for i in industries), default=-100.0)


def _industry(game: SeatView, player: Player, industry: Any) -> float:
    """Building: the build value at the chosen location, or at the best place the card allows.

    Developing: get rid of the least valuable tile. The scores do not depend on whether the
    ruleset asks for the location or the industry first.
    """
    if game.table.tiles_left(player, industry) <= 0:
        return -100.0
    if _role(game) is not Role.BUILD:
        return -float(game.table.lowest_tile(player, industry).vp)
    location = _bound(game, LOCATION)
    if location is not None:
        return build_value(game, player, location, industry)
    return max((build_value(game, player, loc, industry) for loc in _candidate_locations(game, industry)),
               default=-100.0)


def best_build_value(game: SeatView, player: Player) -> float:
    """The best `build_value` the player's hand could allow, ignoring money and resources.

    Legality is left to the engine: this only tells whether building is worth a card at
    all, so that the bot does not build a tile that will never flip just because it can.
    """
    era = game.table.era
    best = -100.0
    for card in player.hand:
        if card.kind in ("location", "wild_location"):
            pairs = [(loc, i) for loc in card.locations for i in _industries_at(game, loc)]
        else:
            anywhere = not game.table.has_board_tiles(player)
            pairs = [(loc, i) for loc in game.ruleset.locations if anywhere or game.table.in_network(player, loc)
                     for i in _industries_at(game, loc) if i in card.industries]
        for location, industry in pairs:
            if game.table.tiles_left(player, industry) > 0 and era in game.table.lowest_tile(player, industry).eras:
                best = max(best, build_value(game, player, location, industry))
    return best


def _industries_at(game: SeatView, location: str) -> set[str]:
    return {i for slot in game.ruleset.locations[location].slots for i in slot.industries}


def _bound(game: SeatView, kind: str) -> str | None:
    """The encoded value of the choice of a type already made in the pending action, if any."""
    pending = game.pending
    name = roles(game.ruleset).shape(pending.action.id).named(kind) if pending is not None else None
    if pending is None or name is None or name not in pending.vars:
        return None
    return encode(pending.vars[name])


def _candidate_locations(game: SeatView, industry: str) -> list[str]:
    """Where the pending build's card could put the industry (the engine filters the rest)."""
    card = game.table.cards.get(_bound(game, CARD) or "")
    places: Iterable[str] = game.ruleset.locations
    if card is not None and card.kind in ("location", "wild_location"):
        places = card.locations
    return [loc for loc in places if any(industry in s.industries for s in game.ruleset.locations[loc].slots)]


def build_value(game: SeatView, player: Player, location: str, industry: str) -> float:
    """What building the lowest tile of an industry at a location is worth, roughly.

    A tile is worth its VP and its income only once it flips, so both are weighted by a
    guess of how likely it is to flip: producers whose output goes to a market at once
    (iron always, coal when connected to a merchant) almost surely; a brewery's beer is
    wanted by every seller; a mill, manufacturer or pottery only if a connected merchant
    buys it. Income counts more in the first era (it pays more rounds); cost is a drag;
    overbuilding instead of using a free slot loses the old tile.
    """
    if game.table.tiles_left(player, industry) <= 0:
        return -100.0
    tile = game.table.lowest_tile(player, industry)
    chance = _flip_chance(game, location, industry)
    rounds_left = 1.0 if game.state.era_index == len(game.ruleset.eras) - 1 else 2.0
    value = chance * (tile.vp + tile.income * rounds_left) - tile.cost / 4
    slots = game.ruleset.locations[location].slots
    free = any(s.id not in game.state.tiles and industry in s.industries for s in slots)
    return value if free else value - OVERBUILD_PENALTY  # an overbuild throws the old tile away


def _flip_chance(game: SeatView, location: str, industry: str) -> float:
    spec = game.ruleset.industries[industry]
    if spec.produces:
        resource = game.ruleset.resources.get(spec.produces)
        if resource is not None and resource.sell_on_build == "always":
            return 1.0
        if resource is not None and resource.market and game.table.connected_to_merchant(location, resource):
            return 0.9
        return 0.4 if resource is not None and not resource.market else 0.3  # beer: wanted by sellers
    buyers = [m for m in game.state.merchants if industry in m.buys]
    return 0.8 if any(game.table.connected(location, m.location) for m in buyers) else 0.2


def _slot(game: SeatView, player: Player, slot_id: Any) -> float:
    return 0.0 if slot_id not in game.state.tiles else -OVERBUILD_PENALTY


def _link(game: SeatView, player: Player, link_id: Any) -> float:
    link = game.ruleset.links[link_id]
    icons = sum(game.table.location_link_icons(end) for end in link.ends)
    return icons + sum(1 for end in link.ends if game.table.in_network(player, end))


def _done(game: SeatView, player: Player, value: Any) -> float:
    role = _role(game)
    if role is Role.DEVELOP:
        return 1000.0
    if role is Role.LINK:
        return 1000.0 if player.money < SECOND_RAIL_LINK_MONEY else -1000.0
    return -1000.0  # selling: sell everything that can be sold


def _tile(game: SeatView, player: Player, slot_id: Any) -> float:
    tile = game.state.tiles.get(slot_id)
    return float(tile.spec.vp + tile.spec.income) if tile else 0.0


def _flag(game: SeatView, player: Player, value: Any) -> float:
    return 1.0 if value else 0.0


def _answer(game: SeatView, player: Player, option: Any) -> float:
    key = str(game.question["key"]) if game.question else ""
    tile = game.state.tiles.get(option) if isinstance(option, str) else None
    if key.startswith("shortfall/") and tile is not None:
        return -float(tile.spec.vp)
    if tile is not None:
        return 1.0 if tile.owner is player else 0.0
    if isinstance(option, str) and option in game.ruleset.tiles and game.table.tiles_left(player, option) > 0:
        return -float(game.table.lowest_tile(player, option).vp)
    return 0.0


Scorer = Callable[["SeatView", Player, Any], float]
# Choices by their type (a yes/no choice is a merchant's beer: take it) …
SCORERS: dict[str, Scorer] = {CARD: _card, LOCATION: _location, INDUSTRY: _industry, SLOT: _slot, LINK: _link,
                              TILE: _tile, FLAG: _flag}
# … and the engine's own decisions by name (engine/protocol.py).
PROTOCOL_SCORERS: dict[str, Scorer] = {"done": _done, "answer": _answer}

class BotRegistry(dict[str, Callable[[int], Bot]]):
    """The bots by name. `name in BOTS` also holds for a name with valid options (`search:400`), so
    that every command that checks a bot name against the registry takes options too."""

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        base, _, options = name.partition(":")
        if not options:
            return super().__contains__(base)
        try:
            BOT_OPTIONS[base](0, options)
        except (KeyError, ValueError):
            return False
        return True


def _search_bot(seed: int, options: str = "", params: BotParams | None = None) -> Bot:
    return make_search_bot(seed, options or None, greedy=GreedyBot, params=params)


def _heuristic_bot(seed: int, options: str, params: BotParams) -> Bot:
    return HeuristicBot(seed, params.heuristic)


HUMAN = "human"  # the seat kind that is not a bot: a person at the terminal or in the browser
BOTS = BotRegistry({"random": RandomBot, "greedy": GreedyBot, "heuristic": HeuristicBot, "search": _search_bot})
# Bots that take options after their name, `name:options` (docs/bots.md): search:100 searches 100
# iterations per action, search:2s two seconds of CPU time, search:tree,400 with the tree search.
BOT_OPTIONS: dict[str, Callable[[int, str], Bot]] = {"search": _search_bot}
# Bots that judge with parameters (interpreter/ruleset/bot_params.py), made with given ones by `make_bot`.
TUNABLE: dict[str, Callable[[int, str, BotParams], Bot]] = {"heuristic": _heuristic_bot, "search": _search_bot}


def make_bot(name: str, seed: int, params: BotParams | None = None) -> Bot:
    """A bot by name (`random`, `greedy`, `heuristic`, `search`, or `name:options` for a bot that takes options,
    e.g. `search:100`); ValueError names the known ones. The heuristic and search bots judge with
    `params` if given (a tuner's candidates), else with the parameters of the ruleset they play."""
    base, _, options = name.partition(":")
    factory = BOTS.get(base)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}")
    if params is not None and base in TUNABLE and (not options or base in BOT_OPTIONS):
        return TUNABLE[base](seed, options, params)
    if not options:
        return factory(seed)
    with_options = BOT_OPTIONS.get(base)
    if with_options is None:
        raise ValueError(f"bot {base!r} takes no options (only {', '.join(BOT_OPTIONS)} do): {name!r}")
    return with_options(seed, options)


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in a seat, derived from the game's seed so that seats play differently."""
    return Rng(game_seed * 1_000_003 + seat).next_u64()
