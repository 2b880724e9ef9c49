"""Computer players: they pick one of `game.legal_actions()` at every decision.

    bot = GreedyBot(seed=3)
    while not game.is_over:
        game.apply(bot.choose(game))

Bots only ever choose from the engine's own list of legal next decisions, so they
exercise exactly what a human can do and never need to know the rules. Each bot has
its own `Rng` (never Python's `random`, whose sequences may change between Python
versions), so a game between bots is reproducible from the seeds alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

from interpreter.rng import Rng
from interpreter.state import Player

if TYPE_CHECKING:
    from interpreter.game import Game

Decision = dict[str, Any]


class Bot(Protocol):
    name: str

    def choose(self, game: "Game") -> Decision: ...


def deciding_seat(game: "Game") -> int:
    """The seat that must make the next decision.

    A question raised inside an effect (e.g. which tile to remove for unpaid income at
    the end of a round) is put to the player it names, who need not be the current one.
    """
    if game.question is not None:
        return int(game.question["player"])
    return game.me.seat


class RandomBot:
    """Uniform choice among the legal next decisions: the baseline, and the fuzzer of the engine."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, game: "Game") -> Decision:
        legal = game.legal_actions()
        if not legal:
            raise ValueError("there is no legal decision (is the game over?)")
        return legal[self.rng.below(len(legal))]


# Action choice: the first one available in this order wins (see GreedyBot).
ACTION_PREFERENCE = ("sell", "build", "network", "develop", "loan", "pass", "scout")
LOAN_BELOW = 10  # take a loan only when money is below this
SECOND_RAIL_LINK_MONEY = 25  # place a second rail link only with at least this much money


class GreedyBot:
    """A one-look greedy player: cheap scores, no search, so a game stays as fast as a random one.

    At the choice of an action it takes the first available of: sell, build, network,
    develop, loan (only when money < 10), pass, scout. Every other decision is scored by
    what it gains at once, and ties are broken by the bot's own Rng:

    - cards: keep wild cards (discard or use a normal card first);
    - where to build: a location connected to a merchant (so cotton, goods, pottery can be sold);
    - which industry to build: the player's lowest tile with the best VP + income − cost/5;
      which industry to develop: the one whose lowest tile is worth the fewest VP (level 1 first);
    - slots: a free slot before overbuilding;
    - links: the most link icons at the ends (the link's VP), plus one per end in the network;
    - selling: the tile worth most VP + income; always use merchant beer when offered;
      keep selling while possible;
    - `done`: develop one tile per action; a second rail link only with money ≥ 25;
    - questions: take resources from one's own tiles first (their flip pays the bot),
      remove the tile worth fewest VP to cover unpaid income.
    """

    name = "greedy"

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, game: "Game") -> Decision:
        legal = game.legal_actions()
        if not legal:
            raise ValueError("there is no legal decision (is the game over?)")
        if len(legal) == 1:
            return legal[0]
        if "action" in legal[0]:
            return self._choose_action(game, legal)
        player = game.player(deciding_seat(game))
        scores = [self._score(game, player, decision) for decision in legal]
        best = max(scores)
        top = [d for d, s in zip(legal, scores) if s == best]
        return top[self.rng.below(len(top))]

    def _choose_action(self, game: "Game", legal: list[Decision]) -> Decision:
        available = {d["action"]: d for d in legal}
        for action in ACTION_PREFERENCE:
            if action == "loan" and game.me.money >= LOAN_BELOW:
                continue
            if action in available and _does_something(game, action):
                return available[action]
        return legal[self.rng.below(len(legal))]  # a ruleset with other actions: any

    def _score(self, game: "Game", player: Player, decision: Decision) -> float:
        (name, value), = decision.items()
        scorer = SCORERS.get(name)
        return scorer(game, player, value) if scorer else 0.0


def _does_something(game: "Game", action_id: str) -> bool:
    """Whether a listed action can make its repeated part at least `min` times.

    Work-around: the engine lists an action as legal when its first part can be completed,
    without checking that its repeated part (sales, links, developed tiles) can be done
    even once, and then ends the action with no repetition. A Sell with nothing to sell
    would then be a wasted card, so the bot asks whether the first repetition is possible.
    """
    action = game.ruleset.actions[action_id]
    if action.repeat is None or action.repeat.min == 0 or not game.me.hand:
        return True
    if [p.name for p in action.part.params] != ["card"]:
        return True  # not the shape this check knows; trust the engine
    try:
        return bool(game.decisions.repeat_possible(action, {"card": game.me.hand[0]}, 0))
    except (AttributeError, TypeError):  # the engine's internals changed: trust its list
        return True


# -- scores of single decisions (higher is better) ------------------------------------------------

def _action_id(game: "Game") -> str | None:
    return game.pending.action.id if game.pending is not None else None


def _card(game: "Game", player: Player, card_id: Any) -> float:
    card = game.cards.get(card_id)
    return -10.0 if card is not None and card.wild else 0.0


def _location(game: "Game", player: Player, location: Any) -> float:
    return 1.0 if game.connected_to_merchant(location) else 0.0


def _industry(game: "Game", player: Player, industry: Any) -> float:
    if game.tiles_left(player, industry) <= 0:
        return -100.0
    tile = game.lowest_tile(player, industry)
    if _action_id(game) == "build":
        return tile.vp + tile.income - tile.cost / 5
    return -float(tile.vp)  # developing: get rid of the least valuable tile


def _slot(game: "Game", player: Player, slot_id: Any) -> float:
    return 0.0 if slot_id not in game.state.tiles else -1.0


def _link(game: "Game", player: Player, link_id: Any) -> float:
    link = game.ruleset.links[link_id]
    icons = sum(game.location_link_icons(end) for end in link.ends)
    return icons + sum(1 for end in link.ends if game.in_network(player, end))


def _done(game: "Game", player: Player, value: Any) -> float:
    action = _action_id(game)
    if action == "develop":
        return 1000.0
    if action == "network":
        return 1000.0 if player.money < SECOND_RAIL_LINK_MONEY else -1000.0
    return -1000.0  # selling: sell everything that can be sold


def _tile(game: "Game", player: Player, slot_id: Any) -> float:
    tile = game.state.tiles.get(slot_id)
    return float(tile.spec.vp + tile.spec.income) if tile else 0.0


def _merchant_beer(game: "Game", player: Player, value: Any) -> float:
    return 1.0 if value else 0.0


def _answer(game: "Game", player: Player, option: Any) -> float:
    key = str(game.question["key"]) if game.question else ""
    tile = game.state.tiles.get(option) if isinstance(option, str) else None
    if key.startswith("shortfall/") and tile is not None:
        return -float(tile.spec.vp)
    if tile is not None:
        return 1.0 if tile.owner is player else 0.0
    if isinstance(option, str) and option in game.ruleset.tiles and game.tiles_left(player, option) > 0:
        return -float(game.lowest_tile(player, option).vp)
    return 0.0


SCORERS: dict[str, Callable[["Game", Player, Any], float]] = {
    "card": _card, "second_card": _card, "third_card": _card,
    "location": _location, "industry": _industry, "slot": _slot, "link": _link, "done": _done,
    "tile": _tile, "merchant_beer": _merchant_beer, "answer": _answer,
}

BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name (`random`, `greedy`); ValueError names the known ones."""
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}")
    return factory(seed)


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in a seat, derived from the game's seed so that seats play differently."""
    return Rng(game_seed * 1_000_003 + seat).next_u64()
