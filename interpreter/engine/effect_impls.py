"""What each effect step of `effects.py` does to a game.

Every implementation takes the game, the environment the step's arguments are
evaluated in, and the evaluated arguments. An implementation that needs a
player's choice asks for it through `game.ask(...)` BEFORE changing anything, so
that the step can be run again, unchanged, once the answer is known.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from brass_dsl import Env
from interpreter.ruleset.primitives import ACTION_VAR

if TYPE_CHECKING:
    from interpreter.engine.game import Game

Impl = Callable[["Game", Env, dict[str, Any]], None]
IMPLS: dict[str, Impl] = {}


def effect(name: str) -> Callable[[Impl], Impl]:
    def register(fn: Impl) -> Impl:
        IMPLS[name] = fn
        return fn
    return register


# -- inside actions ---------------------------------------------------------------

@effect("discard")
def _discard(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.discard(game.me, args["card"])


@effect("pay")
def _pay(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.spend(game.me, args["amount"])


@effect("gain_money")
def _gain_money(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.me.money += args["amount"]


@effect("gain_vp")
def _gain_vp(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.me.vp += args["amount"]


@effect("advance_income")
def _advance_income(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.advance_income(game.me, args["spaces"])


@effect("drop_income_levels")
def _drop_income_levels(game: "Game", env: Env, args: dict[str, Any]) -> None:
    track = game.ruleset.income
    level = max(track.lowest_level, track.level_at(game.me.income_position) - args["levels"])
    game.me.income_position = track.top_position(level)  # R-LOAN-01: the top space of the new level


@effect("consume")
def _consume(game: "Game", env: Env, args: dict[str, Any]) -> None:
    if args["amount"] > 0:
        taken = game.sourcing.consume(game.me, args["resource"], args["amount"], list(args["at"]),
                                      env.vars.get(ACTION_VAR))
        game.note("consumed", resource=args["resource"], amount=args["amount"], sources=taken)


@effect("build_tile")
def _build_tile(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.build_tile(game.me, args["industry"], args["slot"])


@effect("sell_output")
def _sell_output(game: "Game", env: Env, args: dict[str, Any]) -> None:
    tile = game.state.tiles.get(args["slot"].id)
    sale = game.sourcing.sell_to_market(tile) if tile else None
    if sale:
        game.note("sold to market", tile=tile.slot.id, **sale)


@effect("place_link")
def _place_link(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.place_link(game.me, args["link"])


@effect("develop")
def _develop(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.take_from_mat(game.me, args["industry"])
    game.note("developed", player=game.me.seat, industry=args["industry"])


@effect("flip")
def _flip(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.flip(args["tile"])


@effect("use_merchant_beer")
def _use_merchant_beer(game: "Game", env: Env, args: dict[str, Any]) -> None:
    space = args["merchant"]
    game.use_merchant_beer(space)


@effect("gain_wild_card")
def _gain_wild_card(game: "Game", env: Env, args: dict[str, Any]) -> None:
    pile = game.state.wild_piles[args["kind"]]
    if pile:
        game.me.hand.append(pile.pop())


@effect("develop_without_iron")
def _develop_without_iron(game: "Game", env: Env, args: dict[str, Any]) -> None:
    chosen: list[str] = []  # every choice is asked before anything changes
    for n in range(args["tiles"]):
        options = [i for i in game.ruleset.industries if _bonus_developable(game, i, chosen.count(i))]
        if not options:
            break
        chosen.append(game.ask(game.me, f"develop_without_iron/{n}", options,
                               "Choose an industry whose lowest tile to remove from your mat (no iron needed)"))
    for industry in chosen:
        game.take_from_mat(game.me, industry)
        game.note("developed", player=game.me.seat, industry=industry, bonus=True)


def _bonus_developable(game: "Game", industry: str, already: int) -> bool:
    """The tile `already` places above the lowest exists and may be developed (R-MERCH-01, R-DEV-03)."""
    player = game.me
    used = player.mat_used.get(industry, 0) + already
    stack = game.mat_stack(industry)
    return used < len(stack) and stack[used].develop


# -- end of a round ---------------------------------------------------------------------

@effect("set_turn_order")
def _set_turn_order(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.set_turn_order()


@effect("collect_income")
def _collect_income(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.collect_income()


# -- end of an era ----------------------------------------------------------------------

@effect("score_links")
def _score_links(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.score_links(args.get("value"))


@effect("score_tiles")
def _score_tiles(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.score_tiles(args.get("where"))


@effect("remove_tiles")
def _remove_tiles(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.remove_tiles(args["where"])


@effect("refill_merchant_beer")
def _refill_merchant_beer(game: "Game", env: Env, args: dict[str, Any]) -> None:
    for space in game.state.merchants:
        space.has_beer = bool(space.buys)
    game.note("merchant beer refilled")


@effect("new_draw_deck")
def _new_draw_deck(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.new_draw_deck()


@effect("deal_hands")
def _deal_hands(game: "Game", env: Env, args: dict[str, Any]) -> None:
    for player in game.state.players:
        game.refill_hand(player)


@effect("award_vp")
def _award_vp(game: "Game", env: Env, args: dict[str, Any]) -> None:
    game.award_vp(args["amount"])
